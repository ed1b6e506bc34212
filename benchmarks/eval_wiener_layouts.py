"""Rendered Wiener rounds from the knock on: the layouts photographed and read, the play before as simulated readings.

    python benchmarks/eval_wiener_layouts.py --seeds 2,4,6 [--record DIR] [--learn-deck] [--events]

A whole rendered round costs 600-1300 photographed frames; the layouts, where most questions and
most lost results of the rendered rounds come from, about 100. Each round of ``--seeds`` is played by
:func:`engine.simulate_wiener.simulate_wiener`; the frames before the knock's action reach the
tracker as the simulator's readings, the rest are photographed with the held-out deck (and its
jokers) and read by :class:`rummyref.wiener_replay.WienerFilm`, with the deck learned first as the
players teach it (``--learn-deck``). With ``--record DIR`` the readings are kept there (and the
learned deck) and a later run replays them in seconds: a tracker change is measured without
photographing anything again.

Prints one JSON line per round (truth, result, agree, questions from the knock on, frames read)
and, with ``--events``, what the tracker committed and asked from the knock on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="2,4,6,8", help="comma-separated round seeds (4 players)")
    parser.add_argument("--record", type=Path, default=None, help="keep the readings (and the learned deck) here and reuse them")
    parser.add_argument("--learn-deck", action="store_true", help="read with the held-out deck learned first, jokers too")
    parser.add_argument("--events", action="store_true", help="print the events committed and the questions from the knock on")
    args = parser.parse_args()
    try:
        seeds = [int(seed) for seed in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds must be comma-separated whole numbers, got {args.seeds!r}")

    from engine.simulate import feed
    from engine.simulate_wiener import simulate_wiener
    from engine.wiener_tracker import WienerTracker
    from rummyref.wiener_replay import WienerFilm
    from vision.recognizer import Recognizer
    from vision.synth.decks import HELDOUT_DESIGNS
    from vision.train.layout import recorded_deck

    record = None
    if args.record is not None:  # named as `rummyref replay --record` names its folders
        record = args.record / f"wiener-{HELDOUT_DESIGNS[0].replace('/', '_')}-shipped-{'learned' if args.learn_deck else 'plain'}-1280x720"
    deck = recorded_deck(None, jokers=True, record=record) if args.learn_deck else None
    recognizer = Recognizer(threads=1).with_deck(deck)
    for seed in seeds:
        game = simulate_wiener(seed, players=4)
        start = game.knock_action()
        film = WienerFilm(recognizer, read_from=start, record=record)
        tracker = WienerTracker(game.players, game.dealer, zones=game.zones)
        began, cpu = time.perf_counter(), time.process_time()
        committed, asked = feed(tracker, film.frames(game, tracker), True, limit=100)
        end = next((e for e in reversed(committed) if e.kind == "hand_end"), None)
        result = list(end.penalties) if end is not None and end.penalties is not None else None
        truth = list(game.penalties)
        print(json.dumps({"seed": seed, "photographed_from_frame": game.frames[start].frame_id, "truth": truth,
                          "result": result, "agree": result == truth, "wrong": result is not None and result != truth,
                          "questions_from_the_knock": len(asked), "wall_s": round(time.perf_counter() - began, 1),
                          "cpu_s": round(time.process_time() - cpu, 1)} | film.counts.to_json()), flush=True)
        if args.events:
            for event in committed:
                if event.frame_id >= game.frames[start].frame_id:
                    print("  committed", event.describe(), "|", event.detail[:160])
            for question, reply in asked:
                print("  asked", question.describe()[:120], question.position, "->", repr(reply), "|", question.detail[:100])


if __name__ == "__main__":
    main()
