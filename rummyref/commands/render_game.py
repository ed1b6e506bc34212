"""`rummyref render-game OUT_DIR`: simulated Gin hands rendered as a camera's frame folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "render-game", help="render simulated Gin hands as camera frames (play them with --camera dir:OUT_DIR)",
        description="Simulate Gin hands and film them: a felt table with the corner markers, a held-out deck "
        "design, hands reaching over the table, room light and sensor noise. Writes f000001.jpg... plus "
        "game.json (players, first dealer) and truth.json (the true events of every hand).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("out", metavar="OUT_DIR", type=Path, help="empty (or new) folder for the frames")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first hand (hand k uses seed + k - 1)")
    parser.add_argument("--hands", type=int, default=1, help="number of hands")
    parser.add_argument("--size", default="1280x720", help="frame size in pixels")
    parser.add_argument("--players", default="Ann,Ben", help="the two players, comma-separated")
    parser.add_argument("--max-frames", type=int, help="stop after this many frames (a short clip)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rummyref.commands.run import parse_players, parse_size

    try:
        width, height = parse_size(args.size, "--size")
        players = parse_players(args.players)
    except argparse.ArgumentTypeError as error:
        print(f"rummyref render-game: {error}", file=sys.stderr)
        return 2
    if args.hands < 1 or (args.max_frames is not None and args.max_frames < 1):
        print("rummyref render-game: --hands and --max-frames must be at least 1", file=sys.stderr)
        return 2
    from rummyref.render_game import write_game

    try:
        truth = write_game(args.out, args.seed, args.hands, int(width), int(height), players, args.max_frames,
                           progress=lambda text: print(text, flush=True))
    except (FileExistsError, OSError) as error:
        print(f"rummyref render-game: {error}", file=sys.stderr)
        return 1
    frames = sum(hand["frames"] for hand in truth["hands"])
    print(f"wrote {args.out}: {len(truth['hands'])} hand(s), deck {truth['design']}; play it with --camera dir:{args.out}"
          + (f" (cut at {args.max_frames} of {frames} frames)" if args.max_frames and args.max_frames < frames else ""))
    return 0
