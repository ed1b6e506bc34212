"""`rummyref replay SOURCE`: the whole pipeline on recorded frames, as fast as they can be read, no server."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="run recorded frames (folder, video, rendered game) through recognizer and tracker",
        description="Read every frame of SOURCE (a frame folder, a video file, or a folder written by "
        "`rummyref render-game`) through the recognizer, the table calibration and the tracker, and print "
        "the events: committed ones and the questions (needs_confirmation, with candidates).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("source", metavar="SOURCE", help="a folder of frames, a video file, or a camera URL (dir:, file:)")
    parser.add_argument("--game", default="gin", choices=["gin"], help="the game played (Gin Rummy is tracked today)")
    parser.add_argument("--players", help='the two players "Ann,Ben" (default: from a rendered game\'s game.json)')
    parser.add_argument("--dealer", help="who deals the first hand (default: game.json, else the second player)")
    parser.add_argument("--table-cm", help="playing area between the markers, WxH cm (default: game.json, else 80x60)")
    parser.add_argument("--corners", help="without markers: the table's four image corners as JSON [[x,y],...]")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    parser.add_argument("--json", action="store_true", help="one JSON object per event, then a summary line")
    parser.set_defaults(run=run)


def _source(text: str) -> tuple[str, Path | None]:
    """The camera URL and, for a folder, the folder (to find game.json)."""
    if ":" in text.split("/")[0]:
        scheme, _, target = text.partition(":")
        return text, Path(target.split("?")[0]) if scheme == "dir" else None
    path = Path(text)
    return (f"dir:{text}", path) if path.is_dir() else (f"file:{text}", None)


def run(args: argparse.Namespace) -> int:
    from rummyref.commands.run import parse_corners, parse_players, parse_size

    url, folder = _source(args.source)
    from rummyref.render_game import read_setup

    setup = (read_setup(folder) if folder else None) or {}
    try:
        players = parse_players(args.players) if args.players else tuple(setup.get("players", ("Ann", "Ben")))
        table_cm = parse_size(args.table_cm, "--table-cm") if args.table_cm else tuple(setup.get("table_cm", (80.0, 60.0)))
        corners = parse_corners(args.corners) if args.corners else None
    except argparse.ArgumentTypeError as error:
        print(f"rummyref replay: {error}", file=sys.stderr)
        return 2
    dealer = args.dealer or setup.get("first_dealer") or players[1]
    if dealer not in players:
        print(f"rummyref replay: dealer {dealer!r} is not one of the players {players[0]!r}, {players[1]!r}", file=sys.stderr)
        return 2

    from engine.zones import default_zones
    from hardware.cameras import CameraError, open_camera
    from rummyref.pipeline import HandSession, TableReader, make_calibrator, replay_frames
    from vision.recognizer import Recognizer

    try:
        camera = open_camera(url)
    except CameraError as error:
        print(f"rummyref replay: {error}", file=sys.stderr)
        return 1
    zones = default_zones("gin", 2, *table_cm)
    reader = TableReader(Recognizer(threads=args.threads), zones, make_calibrator(table_cm, corners))
    session = HandSession(players, dealer, zones=zones)
    start, committed, questions = time.perf_counter(), 0, 0
    with camera:
        for event in replay_frames(camera, reader, session):
            questions += event["needs_confirmation"]
            committed += not event["needs_confirmation"]
            print(json.dumps(event) if args.json else _describe(event), flush=True)
    seconds = time.perf_counter() - start
    frames = reader.frames
    summary = {"summary": True, "frames": frames, "seconds": round(seconds, 2),
               "fps": round(frames / seconds, 2) if seconds else None, "committed": committed, "questions": questions,
               "hands_ended": session.hand - 1, "open_hand_waiting": session.waiting}
    print(json.dumps(summary) if args.json else
          f"{frames} frames in {seconds:.1f} s ({summary['fps']} fps): {committed} events committed, {questions} questions",
          flush=True)
    return 0


def _describe(event: dict) -> str:
    text = f"hand {event['hand']} #{event['seq']} frame {event['frame']}: {event['kind']}"
    if event["player"]:
        text += f" {event['player']}"
    text += "".join(f" {' '.join(meld)}" for meld in event["melds"]) + "".join(f" {c}" for c in event["cards"])
    if event["needs_confirmation"]:
        text += f" - needs confirmation: {' or '.join(event['candidates'])}"
    if "result" in event:
        text += f" - {event['result']}"
    return text
