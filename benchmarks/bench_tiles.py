"""Tile-table partition speed: the worst cases found for the goal "under 50 ms for any table
of up to 106 tiles".

Table families searched (seeded): real tables (random valid layouts built from groups and runs,
with jokers), the same tables with one tile removed or one extra tile (mostly invalid, the
hard case: the search must be exhausted), and uniformly random multisets. For each family the
median and the slowest tables are printed with their tiles, so the worst cases can be rerun.

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

from engine.cards import JOKER, Tile, format_cards  # noqa: E402
from engine.tiles import TileRules, partition  # noqa: E402

COLOURS = "YGBR"
BOX = [Tile(c, n) for c in COLOURS for n in range(1, 14)] * 2


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


def timed(tiles: list, rules: TileRules) -> tuple[float, bool]:
    start = time.perf_counter()
    valid = partition(tiles, rules).valid
    return time.perf_counter() - start, valid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150, help="tables per family (default 150)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=3, help="slowest tables printed per family (default 3)")
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
            seconds, valid = timed(tiles, rules)
            runs.append((seconds, valid, tiles))
        runs.sort(key=lambda r: -r[0])
        times = [r[0] for r in runs]
        print(f"{name:26s} {len(runs)} tables, {sum(r[1] for r in runs)} valid: median {statistics.median(times) * 1000:.1f} ms, "
              f"slowest {times[0] * 1000:.1f} ms, under 50 ms: {sum(t < 0.05 for t in times)}/{len(times)}")
        for seconds, valid, tiles in runs[: args.show]:
            print(f"    {seconds * 1000:7.1f} ms  {len(tiles):3d} tiles  valid={valid}  {format_cards(sorted(tiles))}")
        overall += times
    print(f"all families: slowest {max(overall) * 1000:.1f} ms; "
          f"{sum(t < 0.05 for t in overall)}/{len(overall)} tables under 50 ms")


if __name__ == "__main__":
    main()
