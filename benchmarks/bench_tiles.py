"""Tile-table partition speed: the worst cases found for the goal "under 50 ms for any table
of up to 106 tiles".

Table families searched (seeded): real tables (random valid layouts built from groups and runs,
with jokers), the same tables with one tile removed or one extra tile (mostly invalid, the
hard case: the search must be exhausted), and uniformly random multisets. For each family the
median and the slowest tables are printed with their tiles, so the worst cases can be rerun.

Then the adversarial tables: the slowest ones found so far by hill-climbing (kept in
``tests/data/adversarial_tiles.txt``; the hard ones need one joker more than the table has, so every arrangement
of the lower numbers is tried), and a fresh seeded hill-climb (``--climb`` seconds): from a
random multiset, add, remove or swap one tile or change the jokers, keeping the change when
the table gets slower. Times are CPU times of cold runs (caches cleared), the best of
``--repeat`` runs each.

Run: ``python benchmarks/bench_tiles.py`` (``--help`` for the counts and the seed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import JOKER, Tile, format_cards, parse_tiles  # noqa: E402
from engine.tiles import TileRules, partition  # noqa: E402
from engine.wildmelds import clear_caches  # noqa: E402

COLOURS = "YGBR"
BOX = [Tile(c, n) for c in COLOURS for n in range(1, 14)] * 2
ADVERSARIAL_FILE = Path(__file__).resolve().parents[1] / "tests" / "data" / "adversarial_tiles.txt"
ADVERSARIAL = [line for line in ADVERSARIAL_FILE.read_text().splitlines() if line and not line.startswith("#")]
"""The slowest tables found by hill-climbs like ``--climb`` (300 s each, against the solver of the
time: the first two against an earlier version of the bounded search, the rest against the
search without bounds); all invalid, each lacking one or two jokers."""


def valid_table(rng: random.Random, size: int, jokers: int) -> list:
    """A table built from random runs and groups drawn from one box (about ``size`` tiles)."""
    box = BOX.copy()
    rng.shuffle(box)
    left = {t: box.count(t) for t in set(box)}
    table: list = []
    attempts = 0
    while len(table) < size - jokers and attempts < 2000:
        attempts += 1
        if rng.random() < 0.5:
            colour, length = rng.choice(COLOURS), rng.randint(3, 6)
            start = rng.randint(1, 14 - length)
            meld = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            meld = [Tile(c, number) for c in rng.sample(COLOURS, rng.choice([3, 4]))]
        if all(left[t] > 0 for t in meld):
            for t in meld:
                left[t] -= 1
            table += meld
    return table + [JOKER] * jokers


def timed(tiles: list, rules: TileRules, repeat: int = 1) -> tuple[float, bool]:
    """CPU seconds of one cold partition check (caches cleared first), the best of ``repeat``.

    CPU time, not wall time: other processes on the machine must not count as solver time.
    """
    best = float("inf")
    for _ in range(repeat):
        clear_caches()
        start = time.process_time()
        valid = partition(tiles, rules).valid
        best = min(best, time.process_time() - start)
    return best, valid


def mutated(rng: random.Random, tiles: list) -> list:
    """``tiles`` with one tile added, removed or swapped, or another number of jokers."""
    naturals = [t for t in tiles if t is not JOKER]
    jokers = len(tiles) - len(naturals)
    step = rng.random()
    if step < 0.15:
        jokers = rng.randint(0, 4)
    elif step < 0.45 and naturals:
        naturals.remove(rng.choice(naturals))
    else:
        if step >= 0.75 and naturals:
            naturals.remove(rng.choice(naturals))
        naturals.append(rng.choice([t for t in BOX[:52] if naturals.count(t) < 2]))
    return naturals + [JOKER] * jokers


def climb(rng: random.Random, seconds: float, rules: TileRules, repeat: int) -> tuple[float, bool, list]:
    """Hill-climb from a random multiset towards a slower table for ``seconds``."""
    tiles = rng.sample(BOX, rng.randint(30, 102)) + [JOKER] * rng.randint(0, 4)
    best, valid = timed(tiles, rules, repeat)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        candidate = mutated(rng, tiles)
        seconds_taken, candidate_valid = timed(candidate, rules, repeat)
        if seconds_taken >= best:
            tiles, best, valid = candidate, seconds_taken, candidate_valid
    return best, valid, tiles


def show(seconds: float, valid: bool, tiles: list) -> None:
    print(f"    {seconds * 1000:7.1f} ms  {len(tiles):3d} tiles  valid={valid}  {format_cards(sorted(tiles))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150, help="tables per family (default 150)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=3, help="slowest tables printed per family (default 3)")
    parser.add_argument("--climb", type=float, default=30, help="seconds of hill-climbing for slow tables (default 30)")
    parser.add_argument("--restart", type=float, default=10, help="seconds per climb before a fresh start (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per table, the best counts (default 3)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = TileRules()
    partition(BOX[:3], rules)  # warm the caches
    def jokers() -> int:
        return rng.randint(0, 4)

    def minus_a_tile() -> list:
        tiles = valid_table(rng, rng.randint(20, 102), jokers())
        tiles.remove(rng.choice([t for t in tiles if t is not JOKER]))
        return tiles

    def plus_a_tile() -> list:
        tiles = valid_table(rng, rng.randint(20, 101), jokers())
        return tiles + [rng.choice([t for t in BOX[:52] if tiles.count(t) < 2])]

    families = {
        "valid tables": lambda: valid_table(rng, rng.randint(20, 102), jokers()),
        "valid table minus a tile": minus_a_tile,
        "valid table plus a tile": plus_a_tile,
        "random multisets": lambda: rng.sample(BOX, rng.randint(10, 102)) + [JOKER] * jokers(),
    }
    overall = []
    for name, make in families.items():
        runs = []
        for _ in range(args.tables):
            tiles = make()
            seconds, valid = timed(tiles, rules, args.repeat)
            runs.append((seconds, valid, tiles))
        runs.sort(key=lambda r: -r[0])
        times = [r[0] for r in runs]
        print(f"{name:26s} {len(runs)} tables, {sum(r[1] for r in runs)} valid: median {statistics.median(times) * 1000:.1f} ms, "
              f"slowest {times[0] * 1000:.1f} ms, under 50 ms: {sum(t < 0.05 for t in times)}/{len(times)}")
        for run in runs[: args.show]:
            show(*run)
        overall += times
    kept = sorted((timed(parse_tiles(text), rules, args.repeat) + (parse_tiles(text),) for text in ADVERSARIAL),
                  key=lambda r: -r[0])
    print(f"{'adversarial (kept)':26s} {len(kept)} tables, {sum(r[1] for r in kept)} valid: "
          f"slowest {kept[0][0] * 1000:.1f} ms, under 50 ms: {sum(r[0] < 0.05 for r in kept)}/{len(kept)}")
    for run in kept:
        show(*run)
    overall += [r[0] for r in kept]
    climbed = []
    end = time.perf_counter() + args.climb
    while time.perf_counter() < end:
        climbed.append(climb(rng, min(args.restart, end - time.perf_counter()), rules, args.repeat))
        print(f"    climb {len(climbed)}: {climbed[-1][0] * 1000:.1f} ms", file=sys.stderr, flush=True)
    if climbed:
        climbed.sort(key=lambda r: -r[0])
        print(f"{'adversarial (climbed)':26s} {len(climbed)} climbs of {args.restart:g} s: slowest {climbed[0][0] * 1000:.1f} ms")
        for run in climbed[: args.show]:
            show(*run)
        overall += [r[0] for r in climbed]
    print(f"all families: slowest {max(overall) * 1000:.1f} ms; "
          f"{sum(t < 0.05 for t in overall)}/{len(overall)} tables under 50 ms")


if __name__ == "__main__":
    main()
