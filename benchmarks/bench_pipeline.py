"""Whole-pipeline speed and memory at 1280x720, with 1 and 4 onnxruntime threads, and start-up time.

    python benchmarks/bench_pipeline.py [--threads 1 4] [--work DIR] [--startup 3]

The frames are the demo's game (two short simulated Gin hands, 165 frames, rendered once into
``--work`` as JPEG). Each thread count runs in a fresh process: the threaded
:class:`rummyref.pipeline.Pipeline` exactly as ``rummyref run`` builds it (camera thread ->
markers, motion, recognizer on still frames, tracker -> SQLite record with a JPEG snapshot per
event), fed by a camera that hands out every frame once the worker took the one before, so
every frame is processed and none is dropped. It reports frames per second over the game, the
recognizer's time per still frame, the CPU time per frame (all threads; unlike wall time it
hardly depends on other work on the machine) and the process's peak resident memory. The
baseline for the ratios is the first thread count, measured by the same script.

Start-up: process start until the dashboard answers HTTP, for ``rummyref run`` (a frame folder
camera) and ``rummyref demo``, the median of ``--startup`` starts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def render_frames(folder: Path) -> list[Path]:
    """The demo game's frames as JPEG (quality 90, like ``rummyref render-game``), rendered once."""
    import cv2

    from rummyref.demo import DemoCamera, DemoGame

    paths = sorted(folder.glob("f*.jpg"))
    if paths:
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    print(f"rendering the demo game into {folder} (once)...", flush=True)
    game = DemoGame()
    for number, image in enumerate(DemoCamera(game.simulate(), game), start=1):
        cv2.imwrite(str(folder / f"f{number:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return sorted(folder.glob("f*.jpg"))


def measure(folder: Path, threads: int) -> dict:
    """One run of the threaded pipeline over the frames in ``folder`` (in this process)."""
    import cv2

    from hardware.cameras.base import CameraClosed, CameraSource, EndOfStream
    from rummyref.demo import DemoGame
    from rummyref.pipeline import Pipeline, PipelineConfig
    from vision.recognizer import Recognizer
    from webui.events import create_match
    from webui.store import EventStore

    paths = sorted(folder.glob("f*.jpg"))

    class FolderInStep(CameraSource):
        """The frames of ``paths``, each handed out once the pipeline took the one before."""

        name, resolution = "bench", (1280, 720)

        def __init__(self, consumed) -> None:
            self.consumed, self.delivered, self.closed = consumed, 0, threading.Event()

        def read(self):
            while self.consumed() < self.delivered:
                if self.closed.wait(0.002):
                    raise CameraClosed("closed")
            if self.delivered == len(paths):
                raise EndOfStream("done")
            image = cv2.imread(str(paths[self.delivered]))
            self.delivered += 1
            return image

        def close(self) -> None:
            self.closed.set()

    recognizer = Recognizer(threads=threads)
    spent: list[float] = []
    recognize = recognizer.recognize

    def timed_recognize(image, *more, **options):     # as Recognizer.recognize is called (a card diagonal too)
        start = time.perf_counter()
        try:
            return recognize(image, *more, **options)
        finally:
            spent.append(time.perf_counter() - start)

    recognizer.recognize = timed_recognize
    game = DemoGame()
    with tempfile.TemporaryDirectory() as scratch:
        store = EventStore(Path(scratch) / "record.sqlite3")
        match = create_match(store, {"players": list(game.players), "first_dealer": game.players[1]}, "bench")
        store.close()
        config = PipelineConfig(camera="bench", players=game.players, first_dealer=game.players[1],
                                table_cm=game.table_cm, threads=threads)
        pipeline = Pipeline(config, lambda: EventStore(Path(scratch) / "record.sqlite3"), match.match_id,
                            recognizer=recognizer,
                            camera_opener=lambda url, **kw: FolderInStep(
                                lambda: pipeline.grabber.handed_out if pipeline.grabber else 0))
        start, cpu = time.perf_counter(), time.process_time()
        pipeline.start()
        pipeline.wait()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    if pipeline.stats.errors:
        raise RuntimeError(f"the pipeline stopped: {pipeline.stats.errors}")
    return {"threads": threads, "frames": pipeline.stats.frames, "seconds": seconds,
            "fps": pipeline.stats.frames / seconds, "cpu_ms": 1000 * cpu / pipeline.stats.frames,
            "still": pipeline.stats.read, "events": pipeline.stats.events,
            "dropped": pipeline.grabber.dropped, "recognize_ms": 1000 * statistics.median(spent) if spent else None,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def startup_seconds(command: list[str], data: Path) -> float:
    """Seconds from process start until the dashboard answers ``GET /``."""
    port = free_port()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "rummyref", *command, "--host", "127.0.0.1", "--port", str(port),
                                "--data", str(data)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                return time.perf_counter() - start
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"rummyref {command[0]} exited with {process.returncode}") from None
                if time.perf_counter() - start > 120:
                    raise RuntimeError(f"rummyref {command[0]} did not answer within 120 s") from None
                time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 4], help="onnxruntime thread counts")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "rummyref-bench-pipeline",
                        help="folder for the rendered frames (kept for the next run)")
    parser.add_argument("--startup", type=int, default=3, help="starts of run and demo to time (0: none)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child process: measure this thread count
    args = parser.parse_args()
    frames = args.work / "frames"
    if args.one is not None:
        print(json.dumps(measure(frames, args.one)))
        return 0

    paths = render_frames(frames)
    print(f"machine: {os.cpu_count()} CPU cores; load average {os.getloadavg()[0]:.2f} at the start "
          f"(other work on the machine slows every figure)")
    print(f"frames: the demo game, {len(paths)} frames of 1280x720 JPEG (decoded on the camera thread)")
    results = []
    for threads in args.threads:
        child = subprocess.run([sys.executable, __file__, "--one", str(threads), "--work", str(args.work)],
                               capture_output=True, text=True, check=True)
        result = json.loads(child.stdout.strip().splitlines()[-1])
        results.append(result)
        note = f" (more threads than the {os.cpu_count()} cores)" if threads > (os.cpu_count() or 1) else ""
        print(f"{threads} thread{'s' if threads > 1 else ''}{note}: {result['fps']:.2f} frames/s "
              f"({result['frames']} frames in {result['seconds']:.1f} s, {result['still']} still and recognized, "
              f"{result['dropped']} dropped, {result['events']} events); recognizer median "
              f"{result['recognize_ms']:.0f} ms per still frame; CPU time {result['cpu_ms']:.0f} ms per frame "
              f"(all threads); peak RSS {result['peak_rss_mb']:.0f} MB", flush=True)
    base = results[0]
    idle_fps = 1000 / base["cpu_ms"]
    print(f"CPU time is what the work costs, whatever else runs: {base['cpu_ms']:.0f} ms per frame with "
          f"{base['threads']} thread(s), so one idle core of this machine would do about {idle_fps:.1f} frames/s; "
          f"a Pi 5 core (2-3x slower) {idle_fps / 3:.1f}-{idle_fps / 2:.1f}, a Pi 4 core (4-6x) "
          f"{idle_fps / 6:.1f}-{idle_fps / 4:.1f} frames/s")
    for result in results[1:]:
        print(f"{result['threads']} vs {base['threads']} thread(s): x{result['fps'] / base['fps']:.2f} frames/s, "
              f"recognizer x{base['recognize_ms'] / result['recognize_ms']:.2f}, "
              f"memory x{result['peak_rss_mb'] / base['peak_rss_mb']:.2f}")
    if args.startup:
        with tempfile.TemporaryDirectory() as scratch:
            for command in (["run", "--camera", f"dir:{frames}?fps=5", "--players", "Ann,Ben"], ["demo"]):
                times = [startup_seconds(command, Path(scratch) / f"{command[0]}{i}") for i in range(args.startup)]
                print(f"start-up of rummyref {command[0]}, process start to dashboard answering: median "
                      f"{statistics.median(times):.2f} s (of {', '.join(f'{t:.2f}' for t in times)})", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
