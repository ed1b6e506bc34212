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
        "the events: committed ones and the questions (needs_confirmation, with candidates). "
        "With --simulate N instead of SOURCE: play N fresh hands from --seed, render them, run them through "
        "the same pipeline and print per hand the truth, the result, whether they agree and whether the "
        "players were asked anything, then a summary line.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("source", metavar="SOURCE", nargs="?",
                        help="a folder of frames, a video file, or a camera URL (dir:, file:); not with --simulate")
    parser.add_argument("--simulate", type=int, metavar="N", help="replay N freshly simulated hands instead of SOURCE")
    parser.add_argument("--seed", type=int, default=0, help="with --simulate: the first hand's seed (hands use S, S+1, ...)")
    parser.add_argument("--size", help="with --simulate: the rendered frame size WxH (default 1280x720; "
                        "tiles: 1280x960, the tiles then about 57 px tall)")
    parser.add_argument("--answer", action="store_true",
                        help="with --simulate: the simulated players answer the tracker's questions from the table "
                        "(tiles with --render: also the tile reader's doubts, at their places)")
    parser.add_argument("--game", default="gin", choices=["gin", "wiener", "tiles"],
                        help="the game played; with --simulate, wiener and tiles run on simulated readings "
                        "(no images) unless --render: one line per Wiener round or per tile turn")
    parser.add_argument("--render", action="store_true",
                        help="with --simulate --game tiles or wiener: photograph the table (--size; tiles: held-out "
                        "font, read by the tile reader; wiener: held-out deck design with jokers, read by the card "
                        "recognizer through the same table reader as Gin) instead of simulated readings")
    parser.add_argument("--learn-deck", action="store_true",
                        help="with --simulate (Gin, or Wiener with --render): the players first teach the referee "
                        "their deck, as `rummyref learn-deck` does (rendered photos of the guided layout; for Wiener "
                        "also of the deck's jokers), and the hands are read with it")
    parser.add_argument("--record", type=Path, metavar="DIR",
                        help="with --simulate --game wiener --render: keep the table reader's readings of each round "
                        "(and with --learn-deck the learned deck) in a subfolder of DIR, and replay rounds recorded "
                        "there without photographing or recognizing them: a tracker change is measured in seconds")
    parser.add_argument("--still-frames", type=int, default=3,
                        help="with --render: still frames photographed and read per turn (the last ones; the tracker "
                        "settles the table on 3 complete readings in a row, 2 of them agreeing)")
    parser.add_argument("--effects", type=float, default=1.0,
                        help="with --render: strength of the camera effects (light gradient, glare, white balance, "
                        "blur, noise, JPEG; 0 = none, 1 = as the reader's test scenes)")
    parser.add_argument("--turns", type=int, default=30, help="with --simulate --game tiles: turns per game")
    parser.add_argument("--seats", type=int, default=4, help="with --simulate --game wiener (2-6) or tiles (2-4): players")
    parser.add_argument("--players", help='the two players "Ann,Ben" (default: from a rendered game\'s game.json)')
    parser.add_argument("--dealer", help="who deals the first hand (default: game.json, else the second player)")
    parser.add_argument("--table-cm", help="playing area between the markers, WxH cm (default: game.json, else 80x60)")
    parser.add_argument("--corners", help="without markers: the table's four image corners as JSON [[x,y],...]")
    parser.add_argument("--deck", metavar="NAME", help="with SOURCE: read with a deck learned by `rummyref learn-deck` "
                        "(default: the shipped recognizer, which asks about every card it reads less than 0.98 sure, "
                        "as `rummyref run` does)")
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

    if args.simulate is None and args.game != "gin":
        print(f"rummyref replay: recorded {args.game} games cannot be replayed yet; use --simulate N", file=sys.stderr)
        return 2
    if args.render and (args.simulate is None or args.game == "gin"):
        print("rummyref replay: --render is for --simulate N --game tiles or wiener (Gin is always rendered)", file=sys.stderr)
        return 2
    if args.learn_deck and (args.simulate is None or args.game == "tiles" or (args.game == "wiener" and not args.render)):
        print("rummyref replay: --learn-deck is for --simulate N with Gin, or Wiener with --render (cards photographed)",
              file=sys.stderr)
        return 2
    if args.record is not None and not (args.simulate is not None and args.game == "wiener" and args.render):
        print("rummyref replay: --record is for --simulate N --game wiener --render (Gin: benchmarks/eval_replay.py "
              "--record)", file=sys.stderr)
        return 2
    if args.simulate is not None:
        if args.source:
            print("rummyref replay: give SOURCE or --simulate N, not both", file=sys.stderr)
            return 2
        return _simulate(args)
    if not args.source:
        print("rummyref replay: SOURCE is missing (a frame folder or video), or use --simulate N", file=sys.stderr)
        return 2
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

    from engine.tracker import TrackerOptions, deck_confidence
    from engine.zones import default_zones
    from hardware.cameras import CameraError, open_camera
    from rummyref.pipeline import HandSession, TableReader, make_calibrator, replay_frames
    from vision.decks import DeckProfile
    from vision.recognizer import Recognizer

    try:
        recognizer = Recognizer(threads=args.threads, deck=DeckProfile.load(args.deck) if args.deck else None)
    except (OSError, ValueError) as error:  # no such deck, or one fitted to another classifier
        print(f"rummyref replay: --deck: {error}", file=sys.stderr)
        return 2
    try:
        camera = open_camera(url)
    except CameraError as error:
        print(f"rummyref replay: {error}", file=sys.stderr)
        return 1
    zones = default_zones("gin", 2, *table_cm)
    reader = TableReader(recognizer, zones, make_calibrator(table_cm, corners))
    options = TrackerOptions(min_confidence=deck_confidence(recognizer.deck is not None))
    session = HandSession(players, dealer, zones=zones, options=options)
    if recognizer.deck is None:
        print(f"rummyref replay: no deck learned (--deck): every card read less than {options.min_confidence:g} sure "
              "is a question", file=sys.stderr, flush=True)
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


def _simulate(args: argparse.Namespace) -> int:
    """``--simulate N``: one JSON line (or text line) per hand, then the summary; progress on stderr."""
    from rummyref.commands.run import parse_size
    from rummyref.simulated_replay import replay_gin, summary

    if args.simulate < 1:
        print(f"rummyref replay: --simulate needs at least 1 hand, got {args.simulate}", file=sys.stderr)
        return 2
    try:
        default = "1280x960" if args.game == "tiles" else "1280x720"
        size = tuple(int(v) for v in parse_size(args.size or default, "--size"))
    except argparse.ArgumentTypeError as error:
        print(f"rummyref replay: {error}", file=sys.stderr)
        return 2

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    seeds = range(args.seed, args.seed + args.simulate)
    if args.game == "tiles":
        return _simulate_tiles(args, seeds, size)
    if args.game == "wiener":
        return _simulate_wiener(args, seeds, size)
    done = []
    for hand in replay_gin(seeds, size, args.answer, args.threads, progress, deck=_learned(args, jokers=False)):
        done.append(hand)
        data = hand.to_json()
        _out(args, data, f"seed {hand.seed} {hand.outcome}: {_verdict(data)} (truth {data['truth']}, "
                         f"result {data['result']}, {hand.questions} questions)")
    figures = summary(done)
    _out(args, figures, f"{figures['agree']}/{figures['hands']} hands agree with the truth, {figures['wrong_committed']} "
                        f"wrong results committed, {figures['hands_with_questions']} hands asked the players "
                        f"({figures['questions']} questions)")
    return 0


def _learned(args: argparse.Namespace, jokers: bool, record: Path | None = None):
    """With ``--learn-deck``: the replay's deck design as the players teach it (progress on stderr; kept
    in ``record`` and loaded from there when learned before), else None."""
    if not args.learn_deck:
        return None
    from vision.train.layout import recorded_deck

    return recorded_deck(None, jokers=jokers, record=record, progress=lambda text: print(text, file=sys.stderr, flush=True))


def _out(args: argparse.Namespace, data: dict, text: str) -> None:
    """One result line: JSON with --json, else the text."""
    print(json.dumps(data) if args.json else text, flush=True)


def _verdict(data: dict) -> str:
    return "agrees" if data["agree"] else "WRONG" if data["wrong"] else "asks"


def _simulate_tiles(args: argparse.Namespace, seeds: range, size: tuple[int, ...]) -> int:
    from rummyref.simulated_replay import replay_tiles, tile_summary

    if not 2 <= args.seats <= 4 or args.turns < 1:
        print(f"rummyref replay: tiles needs --seats 2-4 and --turns >= 1, got {args.seats} and {args.turns}", file=sys.stderr)
        return 2
    film = None
    if args.render:
        from rummyref.tile_replay import TileFilm
        from vision.tiles.reader import TileReader

        if args.still_frames < 3:
            print(f"rummyref replay: --still-frames must be at least 3, got {args.still_frames}", file=sys.stderr)
            return 2
        film = TileFilm(TileReader(threads=args.threads), (size[0], size[1]), args.still_frames, args.effects)
    turns = []
    for seed in seeds:
        print(f"tile game seed {seed}: {args.turns} turns, {args.seats} players"
              + (f", photographed at {size[0]}x{size[1]} and read" if film else ""), file=sys.stderr, flush=True)
        for turn in replay_tiles([seed], args.turns, args.seats, args.answer, track=film.track if film else None):
            turns.append(turn)
            _out(args, turn, f"seed {seed} turn {turn['turn']}: {_verdict(turn)} (truth {turn['truth']}, result {turn['result']})")
    figures = tile_summary(turns) | ({"rendered": f"{size[0]}x{size[1]}", "still_frames": args.still_frames,
                                      "effects": args.effects} | film.counts.to_json() if film else {})
    _out(args, figures, f"{figures['agree']}/{figures['turns']} turns agree with the truth, {figures['wrong_committed']} "
                        f"wrong turns committed, {figures['needs_confirmation']} turns asked the players")
    return 0


def _simulate_wiener(args: argparse.Namespace, seeds: range, size: tuple[int, ...]) -> int:
    from rummyref.simulated_replay import replay_wiener

    if not 2 <= args.seats <= 6:
        print(f"rummyref replay: Wiener Rummy needs --seats 2-6, got {args.seats}", file=sys.stderr)
        return 2
    film = None
    if args.render:
        from rummyref.wiener_replay import WienerFilm
        from vision.recognizer import Recognizer
        from vision.synth.decks import HELDOUT_DESIGNS

        record = None
        if args.record is not None:  # one subfolder per design, deck learning and size, as benchmarks/eval_replay.py
            learned = "learned" if args.learn_deck else "plain"
            record = args.record / f"wiener-{HELDOUT_DESIGNS[0].replace('/', '_')}-shipped-{learned}-{size[0]}x{size[1]}"
        film = WienerFilm(Recognizer(threads=args.threads).with_deck(_learned(args, jokers=True, record=record)),
                          (size[0], size[1]), record=record)
    rounds = []
    for seed in seeds:
        if film:
            print(f"Wiener round seed {seed}: {args.seats} players, photographed at {size[0]}x{size[1]} and read",
                  file=sys.stderr, flush=True)
        for line in replay_wiener([seed], args.seats, args.answer, track=film.track if film else None):
            rounds.append(line)
            _out(args, line, f"seed {line['seed']}: {_verdict(line)} (truth {line['truth']}, result {line['result']})")
    agree = sum(r["agree"] for r in rounds)
    figures = {"summary": True, "game": "wiener", "rounds": len(rounds), "agree": agree,
               "agree_rate": round(agree / len(rounds), 4), "wrong_committed": sum(r["wrong"] for r in rounds),
               "needs_confirmation": sum(r["needs_confirmation"] for r in rounds),
               "questions": sum(r["questions"] for r in rounds), "answered": sum(r["answered"] for r in rounds),
               "questions_per_round": round(sum(r["questions"] for r in rounds) / len(rounds), 2),
               "most_questions_in_a_round": max(r["questions"] for r in rounds),
               "move_questions": sum(r["moves"] for r in rounds),
               "events_equal": sum(r["events_equal"] for r in rounds),
               "rummy_rounds": sum(r["rummy"] for r in rounds),
               "rounds_with_jokers_laid": sum(r["jokers_laid"] > 0 for r in rounds)}
    if film:
        figures |= {"rendered": f"{size[0]}x{size[1]}"} | film.counts.to_json()
    _out(args, figures, f"{agree}/{len(rounds)} rounds agree with the truth, {figures['wrong_committed']} wrong results "
                        f"committed, {figures['needs_confirmation']} rounds asked the players "
                        f"({figures['questions_per_round']} questions a round)")
    return 0
