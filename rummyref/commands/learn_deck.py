"""`rummyref learn-deck PHOTOS... --name NAME`: adapt the recognizer to a player's own deck."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

LAYOUT_HELP = (
    "Layout: lay the 52 cards face up and upright (corner index at each card's top left), apart, in four rows "
    "of 13: spades on top, then hearts, diamonds, clubs; each row A 2 3 4 5 6 7 8 9 10 J Q K from left to "
    "right. Photograph from above: one photo of all four rows, or several photos of whole rows in that order."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "learn-deck", help="teach the recognizer your own deck from photos of a guided layout",
        description="Teach the recognizer a deck. " + LAYOUT_HELP + " The learned deck is stored under "
                    "$RUMMYREF_DATA/decks (default ~/.local/share/rummyref/decks); use it with "
                    "`rummyref run ... --deck NAME` and `rummyref recognize --deck NAME`.")
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help="photos of the layout, rows in order")
    parser.add_argument("--name", required=True, help="name to store the deck under (letters, digits, _ . -)")
    parser.add_argument("--jokers", nargs="+", default=[], metavar="PHOTO",
                        help="photos of the deck's jokers, laid upright and apart in one row and photographed from the "
                             "height of the layout photos: their corners are learned as the joker (for games played "
                             "with jokers, such as Wiener Rummy, when the deck's jokers are not read)")
    parser.add_argument("--model-dir", type=Path, help="directory with the ONNX models")
    parser.add_argument("--threads", type=int, default=1, help="inference threads (default 1)")
    parser.add_argument("--table-scenes", type=int, default=None, metavar="N",
                        help="rendered table scenes of the deck to learn from (default 16, about 3 s each; "
                             "fewer learn faster, more read a little more precisely)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision.decks import check_deck_name
    from vision.imageio import ImageLoadError, load_image
    from vision.learn_deck import TABLE_SCENES, LayoutError, learn_deck
    from vision.recognizer import Recognizer

    started = time.monotonic()
    try:
        check_deck_name(args.name)
        scenes = TABLE_SCENES if args.table_scenes is None else args.table_scenes
        if scenes < 0:
            raise ValueError(f"--table-scenes must be 0 or more, got {scenes}")
        photos = [(name, load_image(name)) for name in args.photos]
        jokers = [(name, load_image(name)) for name in args.jokers]
        recognizer = Recognizer(model_dir=args.model_dir, threads=args.threads)
        profile = learn_deck(recognizer, photos, args.name, scenes=scenes, progress=lambda line: print(line, flush=True),
                             jokers=jokers)
    except (ImageLoadError, LayoutError, FileNotFoundError, ValueError) as error:
        print(f"rummyref: {error}", file=sys.stderr)
        if isinstance(error, LayoutError):
            print(LAYOUT_HELP, file=sys.stderr)
        return 2
    path = profile.save()
    print(f"learned deck {args.name!r} in {time.monotonic() - started:.1f} s: {path}")
    print(f"use it with: rummyref recognize --deck {args.name} IMAGE...")
    return 0
