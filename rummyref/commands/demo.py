"""`rummyref demo`: the whole product on a rendered Gin game, no camera needed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo", help="watch rummyref referee a rendered Gin game on the dashboard (no camera needed)",
        description="Play short simulated Gin hands in front of a rendered camera and run the same pipeline "
        "as `rummyref run` on it (markers, recognizer, tracker, record), with the dashboard served at "
        "http://localhost:PORT. The players are a script that knows the simulator's truth: it answers the "
        "camera's questions and enters the hands the camera cannot settle, and says so on the dashboard "
        "and here. The game ends after its hands; the dashboard stays up until Ctrl-C.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the dashboard on (0.0.0.0: the local network)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port of the dashboard")
    parser.add_argument("--data", type=Path, default=Path("demo-data"), help="folder of the demo's record (a new match each start)")
    parser.add_argument("--pin", help="table PIN (default: generated once and kept in the record)")
    parser.add_argument("--fps", type=float, default=8.0,
                        help="camera frames per second at most (a slower machine plays slower; no frame is dropped)")
    parser.add_argument("--seed", type=int, default=250, help="simulator seed of the first hand (hand k: seed + k - 1)")
    parser.add_argument("--hands", type=int, default=2, help="hands to play")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads for the recognizer")
    parser.add_argument("--no-learn-deck", action="store_true",
                        help="read with the shipped recognizer only (by default the players first teach the referee the "
                        "demo deck as `rummyref learn-deck` does, from two photos of its guided layout: learned once, "
                        "kept in --data)")
    parser.add_argument("--no-script", action="store_true",
                        help="no scripted players: questions wait for you on the dashboard, unsettled hands stay open")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    problems = [text for bad, text in (
        (not 0 < args.port < 65536, f"--port must be 1..65535, got {args.port}"),
        (not args.fps > 0, f"--fps must be positive, got {args.fps}"),
        (args.hands < 1, f"--hands must be at least 1, got {args.hands}"),
        (args.threads < 1, f"--threads must be at least 1, got {args.threads}"),
    ) if bad]
    if problems:
        print(f"rummyref demo: {problems[0]}", file=sys.stderr)
        return 2

    from hardware.cameras import ReconnectingCamera
    from rummyref.demo import SCRIPT_ACTOR, DemoCamera, DemoGame, DemoScript, learned_demo_deck
    from rummyref.pipeline import PipelineConfig, reading_choices, reading_id
    from rummyref.table import TableError, open_table
    from webui.events import InvalidInput, record, score_hand

    game = DemoGame(seed=args.seed, hands=args.hands)
    hands = game.simulate()
    if len(hands) < args.hands:
        print(f"the simulated match is over after {len(hands)} hands", flush=True)
    try:
        table = open_table(args.data, args.pin, game.players, game.players[1], "rummyref demo")
    except TableError as error:
        print(f"rummyref demo: {error}", file=sys.stderr)
        return 1
    script = None if args.no_script else DemoScript(hands)
    gave_up: set[int] = set()

    def say(text: str) -> None:
        print(f"demo: {text}", flush=True)

    def answer_questions(events) -> None:
        hand, _ = pipeline.session.owner(events)
        for event in events:
            if event.kind == "hand_end" and event.result is not None and not event.needs_confirmation:
                truth = hands[hand - 1].result if hand <= len(hands) else None
                say(f"the camera settled hand {hand}: {event.result.kind} {event.result.winner or ''} {event.result.points}"
                    + (f" (the simulator's result: {truth.kind} {truth.winner or ''} {truth.points})" if truth else ""))
            card = script.answer(event)
            if card is None:
                continue
            record(pipeline.recorder.store, table.match_id, "reading_confirmed",
                   {"reading": reading_id(hand, event.seq), "choice": card}, SCRIPT_ACTOR)
            how = "" if card in reading_choices(event) else " (from the card picker)"
            say(f"answer from the script: {event.detail} -> {card}{how}")

    def enter_unsettled_hand(frame_id: int) -> None:
        number = pipeline.session.hand
        hand = script.overdue(frame_id, number)
        if hand is None or number in gave_up:
            return
        gave_up.add(number)
        try:
            score_hand(pipeline.recorder.store, table.match_id, script.score_form(hand), SCRIPT_ACTOR)
        except (InvalidInput, ValueError) as error:
            say(f"the script cannot enter hand {number}: {error}")
            return
        pipeline.recorder.notify()
        say(f"the camera did not settle hand {number}; the script entered both hands' cards as players do on the "
            f"Score page, and the engine settled it ({hand.result.kind} {hand.result.winner} {hand.result.points})")

    def open_demo_camera(url, on_status=None, stop=None, **defaults):
        consumed = lambda: pipeline.grabber.handed_out if pipeline.grabber else 0  # noqa: E731
        return ReconnectingCamera(lambda: DemoCamera(hands, game, fps=args.fps, consumed=consumed, name=url), url,
                                  on_status=on_status, stop=stop)

    # The camera's name is on every dashboard page's status line: it says what the demo is.
    camera = f"demo:seed={game.seed} (a rendered game{'; the players are a script' if script else ''})"
    deck = None
    if not args.no_learn_deck:
        say("the players teach the referee their deck first (rummyref learn-deck, two photos of the guided layout; "
            f"learned once, kept in {args.data})")
        deck = learned_demo_deck(args.data, progress=say)
    config = PipelineConfig(camera=camera, players=game.players, first_dealer=game.players[1],
                            table_cm=game.table_cm, threads=args.threads, frame_size=game.size, deck=deck)
    print(f"loading the recognizer ({args.threads} thread{'s' if args.threads > 1 else ''})...", flush=True)
    pipeline = table.pipeline(config, camera_opener=open_demo_camera,
                              on_events=answer_questions if script else lambda events: None,
                              on_frame=enter_unsettled_hand if script else None)

    def announce() -> None:
        frames = sum(len(hand.frames) for hand in hands)
        print(f"match {table.match_id}: {game.players[0]} vs {game.players[1]}, {len(hands)} simulated hands "
              f"(seed {game.seed}, {frames} frames of {game.size[0]}x{game.size[1]}, at most {args.fps:g} frames/s)",
              flush=True)
        if script:
            say(f"the players are a script that knows the simulator's truth; what it does is recorded as by "
                f"'{SCRIPT_ACTOR}' (--no-script: you answer instead)")

    def report_end() -> None:
        if pipeline.stats.errors:
            say(f"the pipeline stopped: {pipeline.stats.errors[-1]}")
        say(f"game over after {pipeline.stats.frames} frames: {pipeline.session.hand - 1} of {len(hands)} hands "
            "recorded; the dashboard stays up (Ctrl-C to stop)")

    return table.run(pipeline, args.host, args.port, "demo", announce=announce, on_end=report_end)
