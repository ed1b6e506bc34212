"""Tracker throughput and commit delay on simulated Gin hands; motion and calibration per 1280x720 frame.

    python benchmarks/bench_tracker.py [--hands 100]

Delay is counted in frames from the first still frame showing a change to the frame whose
reading commits it (at 10 frames/s, 10 frames are one second).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from engine.simulate import feed, simulate_hand  # noqa: E402
from engine.tracker import GinTracker  # noqa: E402
from vision.calibration import Calibrator  # noqa: E402
from vision.motion import MotionDetector  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    args = parser.parse_args()
    cv2.setNumThreads(1)

    hands = [simulate_hand(seed) for seed in range(args.hands)]
    frames = sum(len(h.frames) for h in hands)
    delays, questions = [], 0
    start = time.perf_counter()
    for hand in hands:
        committed, asked = feed(GinTracker(hand.players, hand.dealer), hand.frames)
        questions += len(asked)
        delays += [e.frame_id - t.frame_id for e, t in zip(committed, hand.truth) if e.kind != "stock_draw"]
    elapsed = time.perf_counter() - start
    print(f"tracker: {args.hands} simulated hands, {frames} frames in {elapsed:.2f} s = {frames / elapsed:,.0f} frames/s "
          f"({questions} questions answered)")
    print(f"commit delay: median {statistics.median(delays):.0f} frames, max {max(delays)} frames "
          f"(window {GinTracker(('a', 'b'), 'a').options.window})")

    from tests.test_calibration import VIEW, camera_view  # the rendered table of the calibration tests

    frame = camera_view(VIEW)
    for name, step in (("motion flag", MotionDetector().update), ("marker check", Calibrator().update)):
        step(frame)
        n, start = 50, time.perf_counter()
        for _ in range(n):
            step(frame)
        print(f"{name}: {(time.perf_counter() - start) / n * 1000:.1f} ms per 1280x720 frame (one thread)")


if __name__ == "__main__":
    main()
