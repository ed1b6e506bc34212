"""Camera-side cost per frame at 1280x720: JPEG decoding, and what the sources add on top.

    python benchmarks/bench_cameras.py [--frames 120]

Baseline: cv2.imdecode of the same JPEGs from memory, measured in this process.
Frames are test cards with added noise (so that the JPEGs are not unrealistically
small), JPEG quality 90. Prints frames per second and the ratio to
the baseline for the image-folder source, the MJPG video-file source, and the
video-file source behind a FrameGrabber thread.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.cameras import EndOfStream, FrameGrabber, open_camera  # noqa: E402
from hardware.cameras.testcard import draw_test_card  # noqa: E402

SIZE = (1280, 720)


def noisy_frames(count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    frames = []
    for number in range(count):
        frame = draw_test_card(number, SIZE).astype(np.int16)
        frame += rng.normal(0, 6, frame.shape).astype(np.int16)
        frames.append(np.clip(frame, 0, 255).astype(np.uint8))
    return frames


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:7.1f} frames/s ({seconds / count * 1000:5.2f} ms/frame)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120, help="frames per measurement (default 120)")
    args = parser.parse_args()
    count = args.frames
    print(f"making {count} test frames at {SIZE[0]}x{SIZE[1]} ...", flush=True)
    frames = noisy_frames(count)
    jpegs = [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 90])[1] for f in frames]
    print(f"JPEG size: {np.mean([j.size for j in jpegs]) / 1024:.0f} KiB on average; OpenCV {cv2.__version__}")

    start = time.perf_counter()
    for jpeg in jpegs:
        cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    baseline = time.perf_counter() - start
    print(f"baseline cv2.imdecode from memory   {rate(count, baseline)}")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "frames"
        folder.mkdir()
        for number, jpeg in enumerate(jpegs):
            (folder / f"f{number}.jpg").write_bytes(jpeg.tobytes())
        video = Path(tmp) / "game.avi"
        writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, SIZE)
        for frame in frames:
            writer.write(frame)
        writer.release()

        for label, url in (("dir: image folder", f"dir:{folder}"), ("file: MJPG video", f"file:{video}?realtime=0")):
            with open_camera(url) as camera:
                start = time.perf_counter()
                read = sum(1 for _ in camera)
                seconds = time.perf_counter() - start
            print(f"{label:35s} {rate(read, seconds)}  x{baseline / count / (seconds / read):.2f} of baseline rate")

        with FrameGrabber(open_camera(f"file:{video}?realtime=0")) as grabber:
            start = time.perf_counter()
            received = 0
            try:
                while grabber.latest(timeout=5) is not None:
                    received += 1
            except EndOfStream:
                pass
            seconds = time.perf_counter() - start
        print(
            f"{'file: behind FrameGrabber':35s} {rate(grabber.read_count, seconds)}  "
            f"x{baseline / count / (seconds / grabber.read_count):.2f} of baseline rate; "
            f"consumer got {received}, {grabber.dropped} dropped"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
