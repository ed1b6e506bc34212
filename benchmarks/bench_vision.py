"""Speed and memory of the card recognizer, single thread (onnxruntime's and OpenCV's), end to end.

Renders a 1280x720 table with 30 cards (fanned melds, many overlapping) and a
1920x1080 one, runs ``Recognizer.recognize`` on each repeatedly and prints the
median and 90th-percentile time per frame, split into detector, patch cutting
and classifier, plus the model sizes and this process's peak memory. The
baselines in the same process are the detector alone on the same frame and
the plain recognizer: a one-level pyramid (the detector at 640 px only) and
no second look at unsure readings.

    python benchmarks/bench_vision.py [--repeat 30] [--threads 1]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return times


def opencv_threads(threads: int) -> None:
    """Let OpenCV use ``threads`` threads, as onnxruntime does: its own pool would otherwise take
    every core and a "single thread" figure would not be one (on this 2-core machine OpenCV's
    pool also costs more CPU than it saves: wall time 1-12 % longer, CPU time up to 35 %)."""
    import cv2

    cv2.setNumThreads(threads)


def describe(times: list[float]) -> str:
    ordered = sorted(times)
    return f"median {statistics.median(ordered):6.1f} ms, p90 {ordered[int(0.9 * (len(ordered) - 1))]:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    from dataclasses import replace

    from vision.recognizer import CLASSIFIER_FILE, DEFAULT_MODEL_DIR, DETECTOR_FILE, Recognizer
    from vision.train.data import render_scenes

    opencv_threads(args.threads)
    recognizer = Recognizer(threads=args.threads)
    plain = Recognizer(threads=args.threads, options=replace(recognizer.options, pyramid=(1.0,), second_look=()))
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        print(f"{name}: {(DEFAULT_MODEL_DIR / name).stat().st_size / 1e6:.2f} MB")
    for width, height in ((1280, 720), (1920, 1080)):
        scene = next(render_scenes(7, 1, "heldout", kinds=False, width=width, height=height, cards=(30, 30),
                                   card_height=(height * 0.17, height * 0.21), overlap=0.8))
        frame = scene.image
        recognizer.recognize(frame)                  # warm up
        observations = recognizer.recognize(frame)
        candidates, _ = recognizer.detect(frame)
        total = timed(lambda: recognizer.recognize(frame), args.repeat)
        detect = timed(lambda: recognizer.detect(frame), args.repeat)
        read = timed(lambda: recognizer.read_indices(frame, candidates), args.repeat)
        single = timed(lambda: plain.recognize(frame), args.repeat)
        print(f"{width}x{height}, {len(scene.cards)} cards, {len(candidates)} index candidates, "
              f"{len(observations)} cards reported, {args.threads} thread(s):")
        print(f"  end to end       {describe(total)}")
        print(f"  detector (base)  {describe(detect)}   -> end to end / detector = "
              f"{statistics.median(total) / statistics.median(detect):.2f}x")
        print(f"  patches+classify {describe(read)}")
        print(f"  plain recognizer {describe(single)}   -> end to end / plain = "
              f"{statistics.median(total) / statistics.median(single):.2f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
