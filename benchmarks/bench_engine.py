"""Gin engine speed: hands per second, single core, against the brute force in the same run.

Two figures (goal of issue 2: at least 20,000 ten-card hands per second in pure Python):

1. minimum deadwood of a 10-card hand: the table solver (``engine.melds.min_deadwood``)
   against the brute force over every meld partition (``reference_min_deadwood``);
2. full hand settlement with layoffs (``engine.gin.settle_hand``) on deals where the
   knocker may knock: with the knocker's laid-out melds given (what the table tracker
   knows), and with the knocker's best arrangement searched; against the brute force
   (the same melds, the brute-force layoff search and the same scoring).

Run: ``python benchmarks/bench_engine.py`` (``--help`` for the counts and the seed).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import ALL_CARDS, Card  # noqa: E402
from engine.gin import knock_limit, reference_layoffs, score, settle_hand  # noqa: E402
from engine.melds import GIN_MELDS, arrangement_of, reference_min_deadwood, solver  # noqa: E402
from engine.rules import GinRules  # noqa: E402


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity here)"


def rate(work: Callable[[object], object], items: Sequence) -> tuple[float, list]:
    """Items per second of ``work`` over ``items`` and its answers."""
    start = time.perf_counter()
    answers = [work(item) for item in items]
    return len(items) / (time.perf_counter() - start), answers


def knockable_deals(rng: random.Random, count: int, limit: int) -> list[tuple[list[Card], list[Card]]]:
    """Deals (10 + 10 cards) as a game reaches them: the knocker draws from the stock and throws
    away the worst card until the deadwood is within the knock limit; the opponent improves
    for a random number of draws. Uniform hands are almost never knockable."""
    fast = solver(GIN_MELDS)

    def improve(hand: list[Card], stock: list[Card], until: Callable[[list[Card]], bool]) -> list[Card]:
        while stock and not until(hand):
            hand = hand + [stock.pop()]
            choice = fast.discards(hand)
            hand = [c for c in hand if c != choice.discards[0]]
        return hand

    deals = []
    while len(deals) < count:
        deck = rng.sample(ALL_CARDS, 52)
        knocker, opponent, stock = deck[:10], deck[10:20], deck[20:]
        knocker = improve(knocker, stock, lambda hand: fast.min_deadwood(hand) <= limit)
        if fast.min_deadwood(knocker) <= limit:
            left = max(0, len(stock) - rng.randrange(15))
            opponent = improve(opponent, stock, lambda hand: len(stock) <= left)
            deals.append((knocker, opponent))
    return deals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="Figures go to standard output.")
    parser.add_argument("--hands", type=int, default=50_000, help="10-card hands for the fast solver (default 50000)")
    parser.add_argument("--baseline-hands", type=int, default=1_000, help="10-card hands for the brute force (default 1000)")
    parser.add_argument("--deals", type=int, default=2_000, help="deals to settle with the fast engine (default 2000)")
    parser.add_argument("--baseline-deals", type=int, default=200, help="deals to settle by brute force (default 200)")
    parser.add_argument("--seed", type=int, default=20240517, help="random seed (default 20240517)")
    args = parser.parse_args(argv)
    for name in ("hands", "baseline_hands", "deals", "baseline_deals"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")

    print(f"python {sys.version.split()[0]}, {pin_to_one_core()}, seed {args.seed}")
    rng = random.Random(args.seed)

    start = time.perf_counter()
    fast = solver(GIN_MELDS)
    print(f"per-suit run table built in {1000 * (time.perf_counter() - start):.0f} ms (once per rule set)")

    hands = [rng.sample(ALL_CARDS, 10) for _ in range(args.hands)]
    fast_rate, fast_answers = rate(fast.min_deadwood, hands)
    baseline = hands[: args.baseline_hands]
    slow_rate, slow_answers = rate(reference_min_deadwood, baseline)
    if fast_answers[: len(baseline)] != slow_answers:
        print("MISMATCH between the solver and the brute force", file=sys.stderr)
        return 1
    arrange_rate, _ = rate(fast.arrange, hands)
    print(f"10-card minimum deadwood:  {fast_rate:10,.0f} hands/s  ({len(hands)} hands)")
    print(f"  with the arrangement:    {arrange_rate:10,.0f} hands/s")
    print(f"  brute force baseline:    {slow_rate:10,.0f} hands/s  ({len(baseline)} hands)  -> {fast_rate / slow_rate:,.0f}x")

    rules = GinRules()
    limit = knock_limit(rules)
    deals = knockable_deals(rng, args.deals, limit)
    laid = [(k, o, fast.arrange(k).melds) for k, o in deals]
    with_melds, fast_results = rate(lambda d: settle_hand(d[0], d[1], rules, knocker_melds=d[2]), laid)
    best_arrangement, _ = rate(lambda d: settle_hand(d[0], d[1], rules), deals)

    def brute_force(deal):
        knocker, opponent, melds = deal
        arrangement = arrangement_of(knocker, melds, GIN_MELDS)
        targets = melds if arrangement.deadwood else []  # nothing is laid off on gin
        return score(arrangement, reference_layoffs(targets, opponent, GIN_MELDS), rules, limit)

    slow_settle, slow_results = rate(brute_force, laid[: args.baseline_deals])
    if [r.opponent_deadwood for r in fast_results[: args.baseline_deals]] != [r.opponent_deadwood for r in slow_results]:
        print("MISMATCH between the layoff search and the brute force", file=sys.stderr)
        return 1
    with_layoffs = sum(bool(r.layoffs) for r in fast_results)
    print(f"hand settlement, knocker's melds given: {with_melds:8,.0f} deals/s  ({len(deals)} knockable deals, "
          f"{with_layoffs} with layoffs)")
    print(f"  knocker's best arrangement searched:  {best_arrangement:8,.0f} deals/s")
    print(f"  brute force baseline:                 {slow_settle:8,.0f} deals/s  ({args.baseline_deals} deals)  "
          f"-> {with_melds / slow_settle:,.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
