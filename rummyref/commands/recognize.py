"""`rummyref recognize IMAGE...`: the cards (or, with ``--tiles SET``, the Rummy tiles and the
table's combinations) the recognizer reads in photos."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Picture formats OpenCV writes everywhere; checked before any image is read.
ANNOTATION_FORMATS = {".png", ".jpg", ".jpeg"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recognize", help="read the cards in photos",
        description="Read every visible card (corner indices) in each photo. Prints one line per image; "
                    "with --json one JSON object per line: {\"image\": path, \"cards\": [{\"card\": \"10H\", "
                    "\"confidence\": 0.98, \"corners\": [[x, y], ...]}, ...]}. A file that cannot be read "
                    "gives an error line and the others go on; the exit code is then 1. With --tiles SET the photos "
                    "show tile Rummy tables: {\"image\": path, \"tiles\": [{\"tile\": \"R7\", \"confidence\": 0.99, "
                    "\"outline\": [[x, y] x4]}, ...], \"groups\": [[\"R5\", \"R6\", \"R7\"], ...]}: tiles touching in a row "
                    "form one group, read left to right as the tiles stand.")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...); EXIF orientation is applied")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--tiles", metavar="SET", choices=("ravensburger", "rummikub"),
                        help="read number tiles of this set (ravensburger: colours Y G B R; rummikub: K B O R) "
                             "instead of cards; a set taught with `rummyref learn-tiles` is used automatically")
    parser.add_argument("--annotate", metavar="OUT.png", type=Path,
                        help="draw what was seen (tiles: outlined with their codes, orange where unsure, the places "
                             "of doubts ringed in red); with several images OUT_<image name>.png per image")
    add_recognizer_arguments(parser)
    parser.set_defaults(run=run)


def add_recognizer_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by the commands that run the recognizer."""
    parser.add_argument("--deck", metavar="NAME", help="use a deck learned with `rummyref learn-deck`")
    parser.add_argument("--model-dir", type=Path, help="directory with cards-detector.onnx and cards-classifier.onnx (with --tiles: tiles-classifier.onnx)")
    parser.add_argument("--threads", type=int, default=1, help="inference threads (default 1)")
    parser.add_argument("--min-confidence", type=float, default=0.5,
                        help="report cards at least this sure (default 0.5)")


def build_recognizer(args: argparse.Namespace):
    from dataclasses import replace

    from vision.decks import DeckProfile
    from vision.recognizer import Recognizer, RecognizerOptions

    if not 0.0 <= args.min_confidence <= 1.0:
        raise SystemExit(f"rummyref: --min-confidence must be between 0 and 1, got {args.min_confidence}")
    if args.threads < 1:
        raise SystemExit(f"rummyref: --threads must be at least 1, got {args.threads}")
    deck = DeckProfile.load(args.deck) if args.deck else None
    options = replace(RecognizerOptions(), min_confidence=args.min_confidence)
    return Recognizer(model_dir=args.model_dir, threads=args.threads, deck=deck, options=options)


def annotation_writable(out: Path | None) -> bool:
    """Whether ``--annotate OUT`` (if given) names a picture format OpenCV writes; says so if not."""
    if out is not None and out.suffix.lower() not in ANNOTATION_FORMATS:
        print(f"rummyref: --annotate {out}: name a picture file ending in {', '.join(sorted(ANNOTATION_FORMATS))}",
              file=sys.stderr)
        return False
    return True


def annotation_path(out: Path, image: Path, several: bool) -> Path:
    """``OUT.png`` for one image, ``OUT_<stem>.png`` for each of several.

    >>> annotation_path(Path("seen.png"), Path("a/table.jpg"), True).as_posix()
    'seen_table.png'
    """
    return out.with_name(f"{out.stem}_{image.stem}{out.suffix}") if several else out


def build_tile_reader(args: argparse.Namespace):
    """The tile reader of ``--tiles SET``, with the set's learned last layer when there is one."""
    from dataclasses import replace

    from engine.cards import PALETTES
    from vision.tiles.learn import learned_profile
    from vision.tiles.reader import TileReader, TileReaderOptions

    if args.threads < 1:
        raise SystemExit(f"rummyref: --threads must be at least 1, got {args.threads}")
    profile = learned_profile(args.tiles)
    if profile is not None:
        print(f"rummyref: using the {args.tiles} tiles learned with learn-tiles", file=sys.stderr)
    options = TileReaderOptions()
    if getattr(args, "min_confidence", None) is not None:      # recognize's own option; check-turn reads as the reader does
        options = replace(options, min_confidence=args.min_confidence)
    return TileReader(args.model_dir, threads=args.threads, palette=PALETTES[args.tiles], profile=profile, options=options)


def _print_tiles(name: str, reading, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"image": name, **reading.to_json()}))
    else:
        listed = "  ".join(" ".join(group) for group in reading.groups) or "no tiles"
        print(f"{name}: {listed}")


def run(args: argparse.Namespace) -> int:
    import cv2

    from rummyref.turn_photos import CONFIRM_BELOW as TILE_SURE
    from vision.annotate import draw_observations, draw_tiles
    from vision.imageio import ImageLoadError, load_image

    if not annotation_writable(args.annotate):
        return 2
    try:
        recognizer = build_tile_reader(args) if args.tiles else build_recognizer(args)
    except (FileNotFoundError, ValueError) as error:
        print(f"rummyref: {error}", file=sys.stderr)
        return 2
    failed = 0
    for name in args.images:
        path = Path(name)
        try:
            frame = load_image(path)
        except ImageLoadError as error:
            failed += 1
            if args.json:
                print(json.dumps({"image": name, "error": str(error)}))
            else:
                print(f"{name}: error: {error}")
            continue
        if args.tiles:
            reading = recognizer.read(frame)
            _print_tiles(name, reading, args.json)
            picture = draw_tiles(frame, reading, TILE_SURE) if args.annotate else None
        else:
            observations = recognizer.recognize(frame)
            if args.json:
                print(json.dumps({"image": name, "cards": [o.to_json() for o in observations]}))
            else:
                listed = " ".join(f"{o.card}({o.confidence:.2f})" for o in observations) or "no cards"
                print(f"{name}: {listed}")
            picture = draw_observations(frame, observations) if args.annotate else None
        if picture is not None:
            target = annotation_path(args.annotate, path, len(args.images) > 1)
            if not cv2.imwrite(str(target), picture):
                print(f"rummyref: cannot write {target}", file=sys.stderr)
                failed += 1
        sys.stdout.flush()
    if failed:
        print(f"rummyref: {failed} of {len(args.images)} images failed", file=sys.stderr)
    return 1 if failed else 0
