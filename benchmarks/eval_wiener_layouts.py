"""Rendered Wiener rounds from the knock on: the layouts photographed and read, the play before as simulated readings.

    python benchmarks/eval_wiener_layouts.py --seeds 2,4,6 [--record DIR] [--learn-deck] [--events]
        [--design gnome/anglo] [--size 1920x1080] [--readings]

A whole rendered round costs 600-1300 photographed frames; the layouts, where most questions and
most lost results of the rendered rounds come from, about 100. Each round of ``--seeds`` is played by
:func:`engine.simulate_wiener.simulate_wiener`; the frames before the knock's action reach the
tracker as the simulator's readings, the rest are photographed with the held-out deck (and its
jokers; ``--design`` another) and read by :class:`rummyref.wiener_replay.WienerFilm`, with the deck
learned first as the players teach it (``--learn-deck``). With ``--record DIR`` the readings are kept there (and the
learned deck) and a later run replays them in seconds: a tracker change is measured without
photographing anything again.

Prints one JSON line per round (truth, result, agree, questions from the knock on, frames read)
and, with ``--events``, what the tracker committed and asked from the knock on. With ``--readings``,
then every reading of a card in the players' areas in the still frames from the knock on, matched
to the card lying within 1.2 cm: how many were another card, by confidence band (the tracker asks
about layout readings below :func:`engine.wiener_tracker.layout_confidence`: 0.9 with the deck learned,
0.98 without), and the surest misreads.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="2,4,6,8", help="comma-separated round seeds (4 players)")
    parser.add_argument("--record", type=Path, default=None, help="keep the readings (and the learned deck) here and reuse them")
    parser.add_argument("--learn-deck", action="store_true", help="read with the deck photographed learned first, jokers too")
    parser.add_argument("--events", action="store_true", help="print the events committed and the questions from the knock on")
    parser.add_argument("--design", default=None, help="the deck design photographed (default: the first held-out design)")
    parser.add_argument("--size", default="1280x720", help="the frame size WxH (default 1280x720)")
    parser.add_argument("--readings", action="store_true",
                        help="then how many readings of the areas were another card, by confidence band")
    args = parser.parse_args()
    try:
        seeds = [int(seed) for seed in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds must be comma-separated whole numbers, got {args.seeds!r}")
    try:
        width, height = (int(side) for side in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x720, got {args.size!r}")

    from engine.simulate import feed
    from engine.simulate_wiener import simulate_wiener
    from engine.wiener_tracker import WienerTracker
    from rummyref.wiener_replay import WienerFilm
    from vision.recognizer import Recognizer
    from vision.synth.decks import HELDOUT_DESIGNS
    from vision.train.layout import recorded_deck

    design = args.design or HELDOUT_DESIGNS[0]
    record = None
    if args.record is not None:  # named as `rummyref replay --record` names its folders
        record = args.record / f"wiener-{design.replace('/', '_')}-shipped-{'learned' if args.learn_deck else 'plain'}-{width}x{height}"
    deck = recorded_deck(design, jokers=True, record=record) if args.learn_deck else None
    recognizer = Recognizer(threads=1).with_deck(deck)
    rounds: Counter[str] = Counter()
    readings: Counter[tuple[float, bool]] = Counter()
    misreads: list[tuple[float, int, int, str, str, str]] = []
    for seed in seeds:
        game = simulate_wiener(seed, players=4)
        start = game.knock_action()
        film = WienerFilm(recognizer, (width, height), read_from=start, record=record, design=design)
        tracker = WienerTracker(game.players, game.dealer, zones=game.zones, layout_confidence=film.layout_confidence,
                                play_confidence=film.play_confidence)
        began, cpu = time.perf_counter(), time.process_time()
        frames = film.frames(game, tracker)
        if args.readings:
            frames = _checked(frames, game.frames[start].frame_id, readings, misreads, seed)
        committed, asked = feed(tracker, frames, True, limit=100)
        end = next((e for e in reversed(committed) if e.kind == "hand_end"), None)
        result = list(end.penalties) if end is not None and end.penalties is not None else None
        truth = list(game.penalties)
        agree, wrong = result == truth, result is not None and result != truth
        rounds.update(agree=agree, wrong=wrong, unsettled=result is None, questions=len(asked))
        print(json.dumps({"seed": seed, "photographed_from_frame": game.frames[start].frame_id, "truth": truth,
                          "result": result, "agree": agree, "wrong": wrong,
                          "questions_from_the_knock": len(asked), "wall_s": round(time.perf_counter() - began, 1),
                          "cpu_s": round(time.process_time() - cpu, 1)} | film.counts.to_json()), flush=True)
        if args.events:
            for event in committed:
                if event.frame_id >= game.frames[start].frame_id:
                    print("  committed", event.describe(), "|", event.detail[:160])
            for question, reply in asked:
                print("  asked", question.describe()[:120], question.position, "->", repr(reply), "|", question.detail[:100])
    print(f"{len(seeds)} rounds: {rounds['agree']} agree, {rounds['wrong']} wrong committed, {rounds['unsettled']} "
          f"without a result; {rounds['questions']} questions from the knock on", flush=True)
    if args.readings:
        for low, high in zip(BANDS, BANDS[1:] + (1.0,)):
            wrong, right = readings[(low, False)], readings[(low, True)]
            print(f"readings {low:.2f}-{high:.2f}: {wrong} of {wrong + right} another card")
        for confidence, seed, frame, zone, card, read in sorted(misreads, reverse=True)[:10]:
            print(f"  seed {seed} frame {frame} {zone}: {card} read {read} at {confidence:.3f}")


BANDS = (0.0, 0.5, 0.8, 0.9, 0.92, 0.94, 0.96, 0.98)
"""Confidence bands of the ``--readings`` table (lower bounds)."""


def _checked(frames, first_frame: int, readings: Counter, misreads: list, seed: int):
    """``frames`` passed on, with each reading of a card in a player's area in the still frames from
    ``first_frame`` on counted into ``readings`` by (band, right) and each misread into ``misreads``."""
    from engine.tracker import BACK, UNREAD

    for frame in frames:
        if frame.still and frame.frame_id >= first_frame:
            for sighting in frame.sightings:
                if sighting.zone is None or not sighting.zone.startswith("seat") or sighting.code in (UNREAD, BACK):
                    continue
                near = [p for p in frame.table if p.zone == sighting.zone
                        and math.dist((p.x, p.y), (sighting.x, sighting.y)) <= 1.2]
                if not near:
                    continue  # a reading of nothing: not a card read as another
                right = any(p.code == sighting.code for p in near)
                readings[(max(b for b in BANDS if sighting.confidence >= b), right)] += 1
                if not right:
                    card = min(near, key=lambda p: math.dist((p.x, p.y), (sighting.x, sighting.y))).code
                    misreads.append((sighting.confidence, seed, frame.frame_id, sighting.zone, card, sighting.code))
        yield frame


if __name__ == "__main__":
    main()
