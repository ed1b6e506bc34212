"""The tile classifier alone: true tiles of rendered turn photos read where they truly lie.

The photos are those of the turn benchmark (``turn_params``: the held-out font, tiles 40-64 px,
both palettes), on seeds apart from it (default 900). Every tile not covered is cut where the
renderer put it and read as the reader reads the tiles it finds (both ways up, the unsure ones
again from more cuts, only the set's classes competing: ``TileReader.probabilities``), so the
outline finder's errors are left out and two classifiers can be compared on the same patches.
Printed: tiles read right, misread, misread at or above the confirmation bar (wrong readings only
doubts can stop), right but below the bar (questions the players need not have had) and below
0.9, and the commonest misreadings.

Run: ``python benchmarks/eval_tile_classifier.py [--model-dir DIR] [--scenes 300] [--montage OUT.png]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import PALETTES  # noqa: E402
from vision.synth.tiles import render_tile_scene, turn_params  # noqa: E402
from vision.tiles.labels import CLASS_CODES, palette_classes  # noqa: E402
from vision.tiles.outlines import TileCandidate  # noqa: E402
from vision.tiles.patches import cut_patch  # noqa: E402
from vision.tiles.reader import TileReader  # noqa: E402

BAR = 0.7
"""The reader's confirmation bar (``benchmarks/calibrate_tiles.py`` chose it)."""
MONTAGE_COLUMNS = 12


def read_scene(reader: TileReader, scene) -> list[tuple[str, str, float, np.ndarray]]:
    """(truth, reading, confidence, the tile cut upright as read) of each uncovered tile of ``scene``."""
    tiles = [t for t in scene.tiles if t.visible > 0.95]
    if not tiles:
        return []
    places = [TileCandidate(t.center[0], t.center[1], t.angle % math.pi, t.height, t.width, 0) for t in tiles]
    pairs = reader.probabilities(scene.image, places).reshape(len(places), 2, -1)
    numbered = pairs.shape[2] - 2               # the last two: upside down, not a tile
    codes = [CLASS_CODES[k] for k in palette_classes(reader.palette)]
    read = []
    for tile, place, pair in zip(tiles, places, pairs):
        way = int(pair[:, :numbered].max(axis=1).argmax())
        best = int(pair[way, :numbered].argmax())
        seen = cut_patch(scene.image, (place.x, place.y), place.angle + way * math.pi, place.height * 1.6)
        read.append((tile.code, codes[best], float(pair[way, best]), seen))
    return read


def montage(readings: list[tuple[str, str, float, np.ndarray]], path: Path) -> None:
    """The tiles misread or read below the bar, each with truth, reading and confidence, in one image."""
    cells = []
    for truth, code, confidence, seen in readings:
        cell = cv2.copyMakeBorder(cv2.resize(seen, (96, 120), interpolation=cv2.INTER_NEAREST), 0, 16, 0, 0,
                                  cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(cell, f"{truth}>{code} {confidence:.2f}", (1, 132), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
        cells.append(cell)
    cells += [np.full_like(cells[0], 255)] * (-len(cells) % MONTAGE_COLUMNS)
    rows = [np.hstack(cells[k:k + MONTAGE_COLUMNS]) for k in range(0, len(cells), MONTAGE_COLUMNS)]
    cv2.imwrite(str(path), np.vstack(rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, help="directory with tiles-classifier.onnx (default models/)")
    parser.add_argument("--scenes", type=int, default=300, help="rendered photos per palette (default 300)")
    parser.add_argument("--seed", type=int, default=900, help="seed (default 900; the turn benchmark's are 7, 21-27, 600-607)")
    parser.add_argument("--montage", type=Path, metavar="OUT.png",
                        help="also draw the first 120 tiles misread or read below the bar into one image")
    args = parser.parse_args(argv)
    reader = TileReader(args.model_dir)
    started = time.monotonic()
    graded: list[tuple[str, str, float]] = []
    shown: list[tuple[str, str, float, np.ndarray]] = []
    for number, name in enumerate(PALETTES):
        rng = np.random.default_rng(args.seed + number)
        read = reader.with_palette(PALETTES[name])
        for scene_number in range(args.scenes):
            for truth, code, confidence, seen in read_scene(read, render_tile_scene(rng, turn_params(name))):
                graded.append((truth, code, confidence))
                if (code != truth or confidence < BAR) and len(shown) < 10 * MONTAGE_COLUMNS:
                    shown.append((truth, code, confidence, seen))
            if (scene_number + 1) % 100 == 0:
                print(f"[{time.monotonic() - started:5.0f} s] {name}: {scene_number + 1}/{args.scenes} photos", flush=True)
    right = [truth == code for truth, code, _ in graded]
    sure = [confidence >= BAR for _, _, confidence in graded]
    below_09 = sum(ok and c < 0.9 for ok, (_, _, c) in zip(right, graded))
    print(f"{len(graded)} tiles: {sum(right)} right, {len(graded) - sum(right)} misread, "
          f"{sum(not ok and s for ok, s in zip(right, sure))} misread at or above {BAR}; "
          f"right but below {BAR}: {sum(ok and not s for ok, s in zip(right, sure))}, below 0.9: {below_09}")
    confusions = Counter((truth, code) for truth, code, _ in graded if truth != code)
    print("commonest misreadings: " + ", ".join(f"{t} as {c} ({n})" for (t, c), n in confusions.most_common(10)))
    if args.montage and shown:
        montage(shown, args.montage)
        print(f"wrote {len(shown)} tiles to {args.montage}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
