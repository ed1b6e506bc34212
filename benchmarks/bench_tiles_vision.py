"""Speed of the tile reader, single thread (onnxruntime's and OpenCV's), end to end: a 1280x720
frame with 60 tiles.

Renders a table of 60 tiles in rows (held-out font, both palettes in turn), runs
``TileReader.read`` repeatedly and prints the median and 90th-percentile time per frame,
split into finding the outlines (the baseline in the same process), cutting the patches and
the classifier as the reader runs it (its first network on every patch, the other two where the
first is unsure) and with every network on every patch, plus the model's size, and the CPU time per frame (what the frame costs one
core, whatever else the machine runs). The outline finder's contrast look is timed against the
finder without it (``find_layout(..., contrast=False)``, the face colour only), back to back
in the same process. With ``--baseline REV``, the reader is also timed against the reader of
git revision ``REV`` (its reader, outline finder, patch cutting, grouping and tile classifier, the
rest shared), interleaved in the same process: CPU time per frame and the ratio. Goal: 100 ms per frame on
one thread. Last, a tile Rummy turn judged from two photos of one still camera (a run laid on the
60-tile table: ``rummyref.turn_photos.read_turn`` and ``judge_turn``, as ``rummyref check-turn`` does).

    python benchmarks/bench_tiles_vision.py [--repeat 30] [--threads 1] [--baseline REV]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_vision import describe, opencv_threads, timed  # noqa: E402  (the card benchmark's helpers)


def table_params(palette: str):
    """The benchmark's tables: the held-out font, rows only, tiles 44-48 px tall, no tilt."""
    from vision.synth.tiles import TileSceneParams

    return TileSceneParams(palette=palette, fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False,
                           tile_height=(44.0, 48.0), tilt=0.0)


def sixty_tile_table(palette: str, seed: int):
    """A 1280x720 rendered table holding exactly 60 tiles in rows."""
    from engine.cards import PALETTES
    from vision.synth.tiles import deal_rows, render_tile_scene

    rng = np.random.default_rng(seed)
    params = table_params(palette)
    while True:
        rows, total = [], 0
        for row in deal_rows(rng, PALETTES[palette], 30, jokers=0.2, mixed=0.0):
            if total + len(row) <= 60:
                rows.append(row)
                total += len(row)
        scene = render_tile_scene(rng, params, rows)
        if total == 60 and len(scene.tiles) == 60:
            return scene


BASELINE_MODULES = ("vision.tiles.outlines", "vision.tiles.reader", "vision.tiles.patches", "vision.tiles.grouping",
                    "vision.motion")
"""The modules that ``--baseline`` takes from the other revision (the rest is shared): the reader, its
outline finder, patch cutting, grouping and hand test."""


def reader_at(revision: str):
    """A maker of the ``TileReader`` of a git revision: its :data:`BASELINE_MODULES`, loaded beside this
    checkout's under other module names (``baseline_reader``, ``baseline_motion``, ...), reading with
    that revision's tile classifier."""
    root = Path(__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="tile-baseline-"))
    renamed = {module: "baseline_" + module.rsplit(".", 1)[1] for module in BASELINE_MODULES}
    for module, name in renamed.items():
        path = module.replace(".", "/") + ".py"
        try:
            source = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout
        except subprocess.CalledProcessError as error:
            raise SystemExit(f"--baseline {revision}: git cannot show {path} there: {error.stderr.strip()}")
        for other, other_name in renamed.items():
            source = source.replace(f"from {other} import", f"from {other_name} import")
        (folder / f"{name}.py").write_text(source)
    models = folder / "models"
    models.mkdir()
    try:
        model = subprocess.run(["git", "show", f"{revision}:models/tiles-classifier.onnx"], cwd=root, check=True,
                               capture_output=True).stdout
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"--baseline {revision}: git cannot show its tile model: {error.stderr.decode().strip()}")
    (models / "tiles-classifier.onnx").write_bytes(model)
    sys.path.insert(0, str(folder))
    return functools.partial(importlib.import_module("baseline_reader").TileReader, models)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--baseline", metavar="REV", help="also time the tile reader of this git revision")
    args = parser.parse_args()

    from engine.cards import PALETTES
    from vision.recognizer import DEFAULT_MODEL_DIR
    from vision.tiles.outlines import find_layout, find_tiles
    from vision.tiles.patches import balance, cut_patch
    from vision.tiles.reader import CLASSIFIER_FILE, TileReader
    from engine.tiles import TileRules
    from rummyref.turn_photos import judge_turn, read_turn

    opencv_threads(args.threads)
    print(f"{CLASSIFIER_FILE}: {(DEFAULT_MODEL_DIR / CLASSIFIER_FILE).stat().st_size / 1e6:.2f} MB")
    for number, palette in enumerate(PALETTES):
        reader = TileReader(threads=args.threads, palette=PALETTES[palette])
        frame = sixty_tile_table(palette, 11 + number).image
        reader.read(frame)                   # warm up
        reading = reader.read(frame)
        candidates = find_tiles(frame)

        def cut() -> np.ndarray:
            return balance(np.stack([cut_patch(frame, (c.x, c.y), c.angle + turn, c.height)
                                     for c in candidates for turn in (0.0, math.pi)]))

        patches = cut()
        total = timed(lambda: reader.read(frame), args.repeat)
        started = time.process_time()
        for _ in range(args.repeat):
            reader.read(frame)
        cpu = (time.process_time() - started) / args.repeat * 1000
        outlines = timed(lambda: find_tiles(frame), args.repeat)
        cutting = timed(cut, args.repeat)
        classify = timed(lambda: reader.logits(patches), args.repeat)
        every = timed(lambda: reader.classify(patches), args.repeat)
        print(f"1280x720, {palette}, 60 tiles, {len(candidates)} candidates, {len(reading.tiles)} tiles read, "
              f"{args.threads} thread(s):")
        print(f"  end to end         {describe(total)}   (goal 100 ms); CPU time per frame {cpu:.1f} ms")
        print(f"  outlines (base)    {describe(outlines)}   -> end to end / outlines = "
              f"{statistics.median(total) / statistics.median(outlines):.2f}x")
        with_look, without = [], []
        for _ in range(args.repeat):         # interleaved, so that the machine's load hits both alike
            for times, contrast in ((with_look, True), (without, False)):
                started = time.process_time()
                find_layout(frame, contrast=contrast)
                times.append((time.process_time() - started) * 1000)
        print(f"  outlines, CPU: with the contrast look {statistics.median(with_look):.1f} ms, face colour only "
              f"{statistics.median(without):.1f} ms -> ratio {statistics.median(with_look) / statistics.median(without):.2f}")
        if args.baseline:
            old = reader_at(args.baseline)(threads=args.threads, palette=PALETTES[palette])
            old.read(frame)
            now, then = [], []
            for _ in range(args.repeat):     # interleaved, as above
                for times, read in ((now, reader.read), (then, old.read)):
                    started = time.process_time()
                    read(frame)
                    times.append((time.process_time() - started) * 1000)
            print(f"  reader, CPU: this one {statistics.median(now):.1f} ms, {args.baseline}'s "
                  f"{statistics.median(then):.1f} ms ({len(old.read(frame).tiles)} tiles read) -> ratio "
                  f"{statistics.median(now) / statistics.median(then):.3f}")
        print(f"  cut {len(patches)} patches    {describe(cutting)}")
        print(f"  classifier         {describe(classify)}   (the first network, the others where it is unsure)")
        print(f"  ... every network  {describe(every)}")
        before, after = turn_photos(palette, 11 + number)
        rules = TileRules(palette=PALETTES[palette])

        def judged():
            first, second, change = read_turn(reader, before, after)
            return judge_turn(first, second, rules, change=change)

        ruling = judged()
        turn = timed(judged, args.repeat)
        print(f"  a turn, two photos {describe(turn)}   (a run laid, {ruling.verdict}; read_turn + judge_turn)")
    return 0


def turn_photos(palette: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two photos of one still camera: the 60-tile table, and it with a run laid (63 tiles)."""
    from engine.cards import PALETTES
    from vision.synth.tiles import render_tile_turn

    table = sixty_tile_table(palette, seed)
    rows = [[table.tiles[i].code for i in row] for row in table.rows]
    colour = PALETTES[palette].colours[0]
    scenes = render_tile_turn(np.random.default_rng(seed), table_params(palette), rows,
                              rows + [[f"{colour}3", f"{colour}4", f"{colour}5"]])
    return scenes[0].image, scenes[1].image


if __name__ == "__main__":
    sys.exit(main())
