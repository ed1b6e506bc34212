"""Tile Rummy refereed through the live path of ``rummyref run --game tiles``, on filmed simulated games.

Each simulated game (:func:`engine.simulate_tiles.simulate_tiles`) is filmed as a camera above the
table would film it: a still table gives the same picture frame after frame but for the camera's
sensor noise (one photo per still period, :func:`vision.synth.tile_table.render_table`: held-out
font, table texture, room light, camera effects; ``--sensor-noise`` grey levels of noise drawn
afresh for each frame), and while the players' hands move an arm reaches in over it. Every frame goes
through :class:`rummyref.tile_pipeline.TileReferee` as the pipeline feeds it: the table's corners,
motion detection, the tile reader, the tracker and a real match record. At each turn's end the next
player's turn is tapped in the record (the dashboard's turn clock); the questions the referee
proposes there are answered there by the simulated players, truthfully, from the true table.

Per game and in all: turns whose call agrees with the truth, wrong calls (a verdict committed that
is not the truth: never allowed), turns left unjudged, questions.

Run: ``python benchmarks/eval_tile_referee.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import PALETTES  # noqa: E402
from engine.simulate_tiles import simulate_tiles  # noqa: E402
from engine.tile_tracker import NOT_AS_READ, TileTrackerOptions  # noqa: E402
from engine.tiles import TileRules  # noqa: E402
from rummyref.pipeline import Recorder, make_calibrator, reading_id  # noqa: E402
from rummyref.tile_pipeline import TileReferee, TileRound, TileTableReader  # noqa: E402
from vision.synth.tile_table import TableCamera, TableLook, render_table  # noqa: E402
from vision.tiles.reader import TileReader  # noqa: E402
from webui.events import create_match, record  # noqa: E402
from webui.state import replay  # noqa: E402
from webui.store import EventStore  # noqa: E402

ARM_BGR = (95, 125, 200)
"""A forearm's colour in room light (in the YCrCb skin range)."""


def with_arm(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo with an arm reaching in over the table from its near edge (hands moving)."""
    height, width = image.shape[:2]
    x, reach, thick = rng.uniform(0.2, 0.8) * width, rng.uniform(0.3, 0.6) * height, 0.09 * width
    tip = (x + rng.uniform(-0.2, 0.2) * width, height - reach)
    arm = np.array([(x - thick, height), (x + thick, height), (tip[0] + thick / 2, tip[1]), (tip[0] - thick / 2, tip[1])])
    moved = image.copy()
    cv2.fillPoly(moved, [arm.astype(np.int32)], ARM_BGR)
    return moved


def with_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """One frame of a still scene: the photo with a camera's sensor noise (``sigma`` grey levels)."""
    if sigma <= 0:
        return image
    return np.clip(image + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)


def referee_game(seed: int, reader: TileReader, size: tuple[int, int], players: int, turns: int,
                 options: TileTrackerOptions, data: Path, sensor_noise: float = 0.0, tile_set: str = "ravensburger",
                 verbose: bool = False) -> dict:
    rules = TileRules(palette=PALETTES[tile_set])
    game = simulate_tiles(seed, players=players, turns=turns, rules=rules)
    camera = TableCamera.overhead(*size)
    corners = [tuple(map(float, p)) for p in camera.to_image([(0, 0), (80, 0), (80, 60), (0, 60)])]
    look = TableLook.random(np.random.default_rng([seed, 0]), camera, palette=tile_set)
    store = EventStore(data / f"game{seed}.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": list(game.players), "options": {"set": tile_set}},
                            "eval").match_id
    recorder = Recorder(store, match_id)
    table_reader = TileTableReader(reader.with_palette(rules.palette), make_calibrator((80.0, 60.0), corners, size), (80.0, 60.0))
    referee = TileReferee(table_reader, TileRound(game.players, game.players[0], rules, options), recorder)
    rng = np.random.default_rng([seed, 2])
    photo, period, read_seconds, calls, asked = None, 0, 0.0, [], 0
    record(store, match_id, "table", {"turn": game.players[0]}, "player")
    referee.inbox(recorder.inbox())

    def answer(events, frame) -> None:
        nonlocal asked
        while events:
            pending = replay(store.events(match_id)).readings
            for event in events:
                name = reading_id(referee.game.hand, event.seq)
                if event.needs_confirmation and event.kind in ("reading", "doubt") and name in pending:
                    asked += 1
                    choice = frame.answer(event, options.tile_cm) or NOT_AS_READ
                    if choice not in pending[name].choices and not pending[name].picker:
                        choice = NOT_AS_READ
                    if verbose and choice == NOT_AS_READ:
                        print(f"  question #{event.seq} ({event.detail}) has no true answer among "
                              f"{pending[name].choices}", flush=True)
                    record(store, match_id, "reading_confirmed", {"reading": name, "choice": choice}, "player")
            events = [e for e in referee.inbox(recorder.inbox()) if e.kind in ("reading", "doubt")]

    for number, frame in enumerate(game.frames):
        if frame.still and (photo is None or not previous_still):
            period += 1
            photo = render_table(np.random.default_rng([seed, 1, period]), camera, look, frame.table).image
        image = with_noise(photo, sensor_noise, rng) if frame.still else with_arm(photo if photo is not None else
                                                   render_table(np.random.default_rng([seed, 1, 0]), camera, look,
                                                                frame.table).image, rng)
        previous_still = frame.still
        started = time.perf_counter()
        events = referee.frame(frame.frame_id, image)
        read_seconds += time.perf_counter() - started
        answer(events, frame)
        if frame.end_turn:
            player = referee.game.tracker.players[(referee.game.tracker.turn + 1) % len(game.players)]
            record(store, match_id, "table", {"turn": player}, "player")
            events = referee.inbox(recorder.inbox())
            calls += [e for e in events if e.kind in ("turn", "draw")]
            answer([e for e in events if e.kind in ("reading", "doubt")], frame)
    outcome = Counter()
    for truth, call in zip(game.truth, calls):
        outcome["unjudged" if call.needs_confirmation else "agree" if call.key() == truth.key() else "wrong"] += 1
        if verbose and call.key() != truth.key():
            print(f"  turn {call.player}: truth {truth.describe()}; called {call.describe()}", flush=True)
    plays = replay(store.events(match_id)).plays
    store.close()
    return {"seed": seed, "turns": len(game.truth), "calls": len(calls), **outcome, "questions": asked,
            "plays_recorded": len(plays), "frames": len(game.frames), "read_seconds": round(read_seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0", help="games, comma-separated seeds (default 0)")
    parser.add_argument("--turns", type=int, default=30, help="turns a game (default 30)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--size", default="1280x960", help="frame size (default 1280x960)")
    parser.add_argument("--window", type=int, default=TileTrackerOptions().window,
                        help="still frames the tracker settles on (default: rummyref run's)")
    parser.add_argument("--sensor-noise", type=float, default=3.0,
                        help="grey levels of sensor noise in each frame of a still table (default 3; 0: the same "
                        "picture frame after frame)")
    parser.add_argument("--tiles", default="ravensburger", choices=sorted(PALETTES), help="the tile set (default ravensburger)")
    parser.add_argument("--verbose", action="store_true", help="print each turn not agreeing with the truth")
    parser.add_argument("--quorum", type=int, default=TileTrackerOptions().quorum, help="of which agree (default: run's)")
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    options = TileTrackerOptions(window=args.window, quorum=args.quorum)
    reader = TileReader(threads=1)
    total: Counter = Counter()
    with tempfile.TemporaryDirectory() as data:
        for seed in (int(s) for s in args.seeds.split(",")):
            result = referee_game(seed, reader, size, args.players, args.turns, options, Path(data), args.sensor_noise, args.tiles, args.verbose)
            print(result, flush=True)
            total.update({k: v for k, v in result.items() if k != "seed"})
    print(f"all: {total['turns']} turns, agree {total['agree']}, wrong {total['wrong']}, unjudged {total['unjudged']}, "
          f"questions {total['questions']}; {total['frames']} frames read in {total['read_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
