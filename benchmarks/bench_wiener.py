"""Wiener Rummy hand analysis speed: the two-deck/joker solver against its brute force.

Figures (single core, pure Python): minimum deadwood of random 10-card hands from the
106-card deck (jokers included), and the full 11-card analysis (deadwood after every
discard); the brute force (:func:`engine.wildmelds.reference_min_deadwood`) on the same
10-card hands gives the ratio.

Run: ``python benchmarks/bench_wiener.py`` (``--help`` for the counts and the seed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.melds import solver  # noqa: E402
from engine.wiener import WIENER_MELDS, deck  # noqa: E402
from engine.wildmelds import reference_min_deadwood  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="10-card hands for the solver (default 2000)")
    parser.add_argument("--reference-hands", type=int, default=40, help="hands for the brute force (default 40)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cards = deck()
    hands = [rng.sample(cards, 10) for _ in range(args.hands)]
    elevens = [rng.sample(cards, 11) for _ in range(max(1, args.hands // 10))]
    fast = solver(WIENER_MELDS)
    fast.min_deadwood(hands[0])  # warm the option cache

    start = time.perf_counter()
    for hand in hands:
        fast.min_deadwood(hand)
    solver_rate = len(hands) / (time.perf_counter() - start)

    start = time.perf_counter()
    for hand in elevens:
        fast.discards(hand)
    discard_rate = len(elevens) / (time.perf_counter() - start)

    sample = hands[: args.reference_hands]
    start = time.perf_counter()
    for hand in sample:
        assert reference_min_deadwood(hand, WIENER_MELDS) == fast.min_deadwood(hand)
    reference_rate = len(sample) / (time.perf_counter() - start)

    print(f"Wiener min deadwood, 10 cards (2 decks + 2 jokers): {solver_rate:,.0f} hands/s over {len(hands)} hands")
    print(f"Wiener 11-card analysis (every discard):           {discard_rate:,.0f} hands/s over {len(elevens)} hands")
    print(f"brute force, same 10-card hands:                   {reference_rate:,.1f} hands/s over {len(sample)} hands "
          f"(solver {solver_rate / reference_rate:,.0f}x faster; answers agree)")


if __name__ == "__main__":
    main()
