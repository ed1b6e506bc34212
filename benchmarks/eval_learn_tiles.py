"""What `rummyref learn-tiles` buys: the tile reader on rendered tables of one set in the held-out
font, with the shipped classifier and with the last layer learned from one rendered photo of
the guided layout (same font, another face style and table).

Run: ``python benchmarks/eval_learn_tiles.py [--set rummikub] [--tables 12]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import PALETTES  # noqa: E402
from vision.synth.tiles import render_learning_layout  # noqa: E402
from vision.tiles.evaluation import evaluate_tables  # noqa: E402
from vision.tiles.learn import learn_tiles  # noqa: E402
from vision.tiles.reader import TileReader  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=list(PALETTES), default="rummikub", help="tile set (default rummikub)")
    parser.add_argument("--tables", type=int, default=12, help="rendered tables to read (default 12)")
    parser.add_argument("--seed", type=int, default=9, help="seed (default 9)")
    parser.add_argument("--model-dir", type=Path, help="directory with tiles-classifier.onnx (default models/)")
    args = parser.parse_args(argv)
    reader = TileReader(args.model_dir, palette=PALETTES[args.set])
    photo = render_learning_layout(np.random.default_rng(args.seed), args.set).image
    profile = learn_tiles(reader, [("layout", photo)], args.set, progress=print)
    for name, used in (("shipped", reader), ("learned", reader.with_palette(reader.palette, profile))):
        score = evaluate_tables(used, args.set, args.seed + 1, args.tables, hands=0.0)
        print(f"{args.set}, held-out font, {args.tables} tables, {name} last layer: {score.summary()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
