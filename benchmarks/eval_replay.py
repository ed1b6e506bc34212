"""Replay rendered Gin hands through the whole pipeline and compare with the simulator's truth.

    python benchmarks/eval_replay.py --hands 5 --seed 100 [--size 1280x720] [--work DIR]

Each hand is rendered into its own folder (held-out deck design), replayed frame by frame
(recognizer -> calibration -> tracker) and its committed events are compared with the truth:

- hands whose committed events equal the truth exactly (in order, by Event.key());
- wrong committed events: committed events that are not among the hand's true events (must be 0);
- questions asked (needs_confirmation events) and frames per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tracker import Event  # noqa: E402
from engine.zones import default_zones
from rummyref.pipeline import HandSession, TableReader, make_calibrator
from rummyref.render_game import GameRenderer, render_hand, simulate_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    from vision.recognizer import Recognizer

    recognizer = Recognizer(threads=args.threads)
    zones = default_zones("gin", 2)
    players = ("Ann", "Ben")
    exact = wrong = questions = committed = true_total = frames = 0
    seconds = 0.0
    outcomes: Counter[str] = Counter()
    for number, hand in enumerate(simulate_match(args.seed, args.hands, players, zones), start=1):
        images = []
        render_hand(hand, GameRenderer(width, height, (zones.width, zones.height), seed=args.seed + number), images.append)
        reader = TableReader(recognizer, zones, make_calibrator((zones.width, zones.height)))
        session = HandSession(players, hand.dealer, zones=zones)
        start = time.perf_counter()
        events: list[Event] = []
        for frame_id, image in enumerate(images):
            reading = reader.read(frame_id, image)
            events += session.update(frame_id, reading.sightings, reading.still)
        seconds += time.perf_counter() - start
        frames += len(images)
        asked = [e for e in events if e.needs_confirmation]
        done = [e.key() for e in events if not e.needs_confirmation]
        truth = [e.key() for e in hand.truth]
        extra = Counter(done) - Counter(truth)
        exact += done == truth
        wrong += sum(extra.values())
        questions += len(asked)
        committed += len(done)
        true_total += len(truth)
        outcomes[hand.outcome] += 1
        print(f"hand {number} (seed {hand.seed}, {hand.outcome}, {len(images)} frames): committed {len(done)} of "
              f"{len(truth)} true events, wrong {sum(extra.values())}, questions {len(asked)}, "
              f"still frames recognized {reader.recognized}", flush=True)
    hands = sum(outcomes.values())
    print(f"hands {hands} ({dict(outcomes)}), {width}x{height}, {args.threads} thread(s)")
    print(f"hands with committed events equal to the truth: {exact}/{hands} = {exact / hands:.0%}")
    print(f"committed events: {committed} of {true_total} true events; wrong committed events: {wrong}")
    print(f"questions asked: {questions}")
    print(f"pipeline speed: {frames} frames in {seconds:.1f} s = {frames / seconds:.1f} fps (rendering not counted)")


if __name__ == "__main__":
    main()
