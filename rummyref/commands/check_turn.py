"""`rummyref check-turn --tiles SET BEFORE AFTER`: was a tile Rummy turn legal? Judged from two
photos of the table, one before the turn and one after it (:mod:`rummyref.turn_photos`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from rummyref.commands.recognize import annotation_writable, build_tile_reader


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-turn", help="judge a tile Rummy turn from a photo of the table before it and one after it",
        description="Read the table in both photos and judge the turn by the rules of 002: the tiles new on the "
                    "table are the ones played from the rack. Prints what was read, the tiles played and the "
                    "verdict: legal, illegal (with the rules broken) or 'needs confirmation' with why: where a tile "
                    "that may be missed or misread could change the verdict, the players must look, never a guess. "
                    "With --json one JSON object: {\"before\": reading, \"after\": reading, \"played\": [...], "
                    "\"rows_unchanged\": rows taken as they were (null where the photos were not compared), "
                    "\"verdict\": ..., \"violations\" or \"why\": ...}, each reading as `rummyref recognize --tiles "
                    "--json` prints it.")
    parser.add_argument("before", metavar="BEFORE", help="photo of the table before the turn")
    parser.add_argument("after", metavar="AFTER", help="photo of the table after the turn, taken from the same place")
    parser.add_argument("--tiles", metavar="SET", choices=("ravensburger", "rummikub"), default="ravensburger",
                        help="the set's colours: ravensburger (Y G B R, default) or rummikub (K B O R); a set taught "
                             "with `rummyref learn-tiles` is used automatically")
    parser.add_argument("--first-laying-out", action="store_true",
                        help="the player had not laid out before this turn: it must be a first laying out worth at "
                             "least --opening-points from the player's own tiles")
    parser.add_argument("--opening-points", type=int, default=40,
                        help="points a first laying out needs (default 40, the Ravensburger rules; 30 in other sets' rules)")
    parser.add_argument("--jokers", type=int, choices=(2, 4), default=4, help="jokers in the set (default 4; 2 by agreement)")
    parser.add_argument("--confirm-below", type=float, default=None,
                        help="a tile read less sure than this may be another (default 0.7)")
    parser.add_argument("--strict", action="store_true",
                        help="ask wherever a tile is read unsurely or may be missed, even where it cannot change the verdict")
    parser.add_argument("--camera-moved", action="store_true",
                        help="the photos are not by one still camera: judge both readings in full (by default the "
                             "photos are compared, and the rows where nothing changed are taken as they were; photos "
                             "of another size, or that differ all over, are never compared)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--annotate", metavar="OUT.png", type=Path,
                        help="the evidence as a picture: both photos side by side with what was read (tiles outlined "
                             "with their codes, orange where unsure, doubts ringed in red; what changed between the "
                             "photos tinted blue) under the verdict")
    parser.add_argument("--model-dir", type=Path, help="directory with tiles-classifier.onnx")
    parser.add_argument("--threads", type=int, default=1, help="inference threads (default 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from engine.cards import PALETTES
    from engine.tiles import TileRules
    from rummyref.turn_photos import CONFIRM_BELOW, judge_turn, read_turn
    from vision.imageio import ImageLoadError, load_image

    if not annotation_writable(args.annotate):
        return 2
    confirm_below = CONFIRM_BELOW if args.confirm_below is None else args.confirm_below
    if not 0.0 <= confirm_below <= 1.0:
        print(f"rummyref: --confirm-below must be between 0 and 1, got {confirm_below}", file=sys.stderr)
        return 2
    if args.opening_points < 0:
        print(f"rummyref: --opening-points must be 0 or more, got {args.opening_points}", file=sys.stderr)
        return 2
    try:
        photos = [load_image(name) for name in (args.before, args.after)]
    except ImageLoadError as error:
        print(f"rummyref: {error}", file=sys.stderr)
        return 1
    try:
        reader = build_tile_reader(args)
    except (FileNotFoundError, ValueError) as error:
        print(f"rummyref: {error}", file=sys.stderr)
        return 2
    rules = TileRules(palette=PALETTES[args.tiles], jokers=args.jokers, opening_points=args.opening_points)
    before, after, change = read_turn(reader, *photos, compare=not args.camera_moved)
    ruling = judge_turn(before, after, rules, opened=not args.first_laying_out, confirm_below=confirm_below,
                        strict=args.strict, change=change)
    played = list((Counter(t for g in after.groups for t in g) - Counter(t for g in before.groups for t in g)).elements())
    if args.annotate and not cv2.imwrite(str(args.annotate), evidence(photos, (before, after), ruling, confirm_below,
                                                                      change)):
        print(f"rummyref: cannot write {args.annotate}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"before": before.to_json(), "after": after.to_json(), "played": played, **ruling.to_json()}))
        return 0
    for name, reading in (("before", before), ("after", after)):
        print(f"{name}: {'  '.join(' '.join(group) for group in reading.groups) or 'no tiles'}")
        for number, doubt in enumerate(reading.doubts, 1):     # numbered as --annotate rings them
            print(f"  doubt {number}: {doubt}")
    print(f"played: {' '.join(played) or 'nothing'}")
    if ruling.rows_unchanged is None:
        why = "" if args.camera_moved else ": --strict" if change is not None else ": another size, or they differ all over"
        print(f"the photos were not compared{why}")
    else:
        print(f"the photos were compared: {ruling.rows_unchanged} of the {len(before.rows)} rows before the turn lie "
              f"where nothing changed, read alike in both; they are taken as they were")
    if ruling.despite:
        print(f"the verdict stands whatever the doubted tiles are ({ruling.despite})")
    if ruling.check is None:
        print(f"verdict: needs confirmation ({ruling.asked}): look at the table")
    elif ruling.check.legal:
        opening = ruling.check.opening_points
        print("verdict: legal" + (f", a first laying out worth {opening}" if opening is not None else ""))
    else:
        print("verdict: illegal")
        for violation in ruling.check.violations:
            print(f"  {violation}")
    return 0


def evidence(photos, readings, ruling, sure: float, change=None):
    """Both photos, each drawn with what was read (:func:`vision.annotate.draw_tiles`), side by side
    at one height, under a band with the verdict and its reasons (or why the players must look);
    what changed between them (``change``, :class:`vision.tiles.change.TableChange`) tinted blue.

    >>> import numpy as np
    >>> from rummyref.turn_photos import TurnRuling
    >>> from vision.tiles.reader import TableReading
    >>> picture = evidence([np.zeros((90, 160, 3), np.uint8)] * 2, [TableReading(())] * 2, TurnRuling(None, "doubts"), 0.7)
    >>> picture.shape[1], picture.shape[0] > 90
    (320, True)
    """
    import cv2
    import numpy as np

    from vision.annotate import draw_tiles

    def marked(photo, reading):
        picture = draw_tiles(photo, reading, sure)
        if change is not None:
            tint = cv2.resize(change.changed.astype(np.uint8), (photo.shape[1], photo.shape[0]),
                              interpolation=cv2.INTER_NEAREST) > 0
            picture[tint] = picture[tint] // 2 + np.uint8((127, 0, 0))
        return picture

    height = min(photo.shape[0] for photo in photos)
    drawn = [cv2.resize(marked(photo, reading), (round(photo.shape[1] * height / photo.shape[0]), height))
             for photo, reading in zip(photos, readings)]
    side = np.hstack(drawn)
    lines = [f"{ruling.verdict}: {ruling.asked}"] if ruling.check is None else [ruling.verdict, *ruling.check.violations]
    scale = max(0.4, side.shape[1] / 2400)
    step = int(36 * scale) + 4
    band = np.full((step * len(lines) + step // 2, side.shape[1], 3), 255, np.uint8)
    for number, line in enumerate(lines):
        cv2.putText(band, line, (8, step * (number + 1)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), max(1, int(2 * scale)))
    return np.vstack([band, side])
