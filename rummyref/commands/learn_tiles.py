"""`rummyref learn-tiles PHOTO... --tiles SET`: adapt the tile reader to a player's own set."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

LAYOUT_HELP = (
    "Layout: lay one tile of each number and colour face up and upright, apart (not touching), in four rows, one "
    "per colour in the set's order (ravensburger: yellow, green, blue, red; rummikub: black, blue, orange, red), "
    "each row 1 to 13 from left to right. Photograph from above: one photo of all four rows, or several photos of "
    "whole rows in that order."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "learn-tiles", help="teach the tile reader your own tile set from a photo of a guided layout",
        description="Teach the tile reader a set. " + LAYOUT_HELP + " The learned set is stored under "
                    "$RUMMYREF_DATA/decks/tiles-SET.npz (default ~/.local/share/rummyref) and used by "
                    "`rummyref recognize --tiles SET` from then on.")
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help="photos of the layout, rows in order")
    parser.add_argument("--tiles", metavar="SET", choices=("ravensburger", "rummikub"), default="ravensburger",
                        help="the set's colours: ravensburger (Y G B R, default) or rummikub (K B O R)")
    parser.add_argument("--model-dir", type=Path, help="directory with tiles-classifier.onnx")
    parser.add_argument("--threads", type=int, default=1, help="inference threads (default 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from engine.cards import PALETTES
    from vision.imageio import ImageLoadError, load_image
    from vision.tiles.learn import TileLayoutError, learn_tiles
    from vision.tiles.reader import TileReader

    started = time.monotonic()
    try:
        photos = [(name, load_image(name)) for name in args.photos]
        reader = TileReader(args.model_dir, threads=args.threads, palette=PALETTES[args.tiles])
        profile = learn_tiles(reader, photos, args.tiles, progress=lambda line: print(line, flush=True))
    except (ImageLoadError, TileLayoutError, FileNotFoundError, ValueError) as error:
        print(f"rummyref: {error}", file=sys.stderr)
        if isinstance(error, TileLayoutError):
            print(LAYOUT_HELP, file=sys.stderr)
        return 2
    path = profile.save()
    print(f"learned the {args.tiles} tiles in {time.monotonic() - started:.1f} s: {path}")
    print(f"used from now on by: rummyref recognize --tiles {args.tiles} IMAGE...")
    return 0
