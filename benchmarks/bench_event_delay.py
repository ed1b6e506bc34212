"""Whole-pipeline speed at 1280x720 on one core, and the delay from a card landing to its event.

    python benchmarks/bench_event_delay.py [--seed 101] [--size 1280x720] [--camera-fps 10]

One simulated Gin hand is rendered first (not timed), then every frame goes through the live
path (:class:`rummyref.pipeline.TableReader`: markers, motion, recognizer on still frames the
tracker still needs, then :class:`~rummyref.pipeline.HandSession`) with OpenCV and onnxruntime
on one thread. Printed:

- frames per second over the whole hand, and per still frame that was recognized (the worst case);
- the cost of the parts per frame (markers + motion alone, as the in-process baseline);
- the delay of each committed event: frames from the first still frame showing the change to the
  frame that commits it, and in seconds when frames come at the pipeline's own pace (the camera
  reader keeps only the newest frame, so the pipeline reads at most ``--camera-fps``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from engine.simulate import simulate_hand  # noqa: E402
from engine.zones import default_zones  # noqa: E402
from rummyref.pipeline import TableReader, make_calibrator  # noqa: E402
from rummyref.render_game import GameRenderer, render_hand  # noqa: E402
from rummyref.simulated_replay import replay_rendered  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=101, help="the simulated hand")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--camera-fps", type=float, default=10.0, help="the camera's frame rate")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    cv2.setNumThreads(1)
    from vision.recognizer import Recognizer

    zones = default_zones("gin", 2)
    hand = simulate_hand(args.seed, zones=zones, players=("Ann", "Ben"))
    images = []
    render_hand(hand, GameRenderer(width, height, (zones.width, zones.height), seed=args.seed), images.append)
    recognizer = Recognizer(threads=1)
    still = [image for frame, image in zip(hand.frames, images) if frame.still]
    recognizer.recognize(still[0])  # warm up the sessions
    t = time.perf_counter()
    for image in still[:10]:
        recognizer.recognize(image)
    per_still = (time.perf_counter() - t) / 10

    base = TableReader(recognizer, zones, make_calibrator((zones.width, zones.height)))
    t = time.perf_counter()
    for frame, image in zip(hand.frames, images):
        base.read(frame.frame_id, image, wanted=False)
    markers_motion = (time.perf_counter() - t) / len(images)

    replay = replay_rendered(hand, images, TableReader(recognizer, zones, make_calibrator((zones.width, zones.height))), zones,
                             answer=True)
    print(f"hand seed {args.seed} ({hand.outcome}), {len(images)} frames at {width}x{height}, one thread")
    print(f"whole pipeline: {replay.frames / replay.seconds:.2f} fps over the hand ({replay.recognized} still frames "
          f"recognized, the rest skipped while moving or settled; the players' answers to {replay.questions} questions "
          f"take no time here)")
    print(f"recognizing a still frame: {per_still * 1000:.0f} ms = {1 / per_still:.2f} fps; markers + motion alone "
          f"(baseline): {markers_motion * 1000:.1f} ms per frame, {per_still / markers_motion:.0f}x cheaper")

    shown: dict[tuple, list[int]] = {}
    for e in hand.truth:  # in order: the same card can be discarded twice in a hand
        shown.setdefault((e.kind, e.player, e.cards), []).append(e.frame_id)
    delays = [e.frame_id - shown[(e.kind, e.player, e.cards)].pop(0) for e in replay.events
              if not e.needs_confirmation and e.kind in ("discard", "pickup") and shown.get((e.kind, e.player, e.cards))]
    if not delays:
        print("no discard or pickup was committed: no delay to measure")
        return
    pace = min(args.camera_fps, 1 / per_still)
    median = statistics.median(delays)
    print(f"delay card landing -> event ({len(delays)} discards/pickups committed without a question): median "
          f"{median:.0f} frames, max {max(delays)} frames; the pipeline reading {pace:.2f} still frames/s: "
          f"median {median / pace:.1f} s, max {max(delays) / pace:.1f} s")


if __name__ == "__main__":
    main()
