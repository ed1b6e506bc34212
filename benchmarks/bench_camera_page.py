"""What a phone on the camera page costs the referee: one newest-frame JPEG and one calibration
view (markers, state, zones) per refresh, on a rendered 1280x720 table.

Times the two requests through the app (Flask test client, no network) and, as the baseline in
the same process, the bare OpenCV work they wrap (JPEG encoding, marker detection).

    python benchmarks/bench_camera_page.py --repeat 30
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from engine.simulate import Placed  # noqa: E402
from engine.zones import default_zones  # noqa: E402
from rummyref.render_game import GameRenderer  # noqa: E402
from vision.calibration import find_markers  # noqa: E402
from webui import create_app  # noqa: E402


class StillCamera:
    """A :class:`webui.camera.TableCamera` whose newest frame never changes: what is measured is the
    page's work, not the camera's."""

    reads, deck_name = "cards", None

    def __init__(self, image) -> None:
        self.image, self.zones = image, default_zones("gin", 2)

    def latest_image(self):
        return self.image

    def use_corners(self, corners, size=None) -> None:
        raise AssertionError("the benchmark sets no corners")

    def geometry_status(self):
        return None             # no referee reading yet: the page finds the markers itself

    def corners_in_use(self):
        return None             # the markers, no corners set by hand


def median_ms(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="requests of each kind (median reported)")
    parser.add_argument("--size", default="1280x720", help="frame size, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    cards = tuple(Placed(code, 20 + 9.5 * i, 48, "layout") for i, code in enumerate("7H 8H 9H KS KD KC".split()))
    image = GameRenderer(width, height, seed=1).render(cards, True)
    app = create_app({"DATABASE": str(Path(tempfile.mkdtemp()) / "record.sqlite3"), "CAMERA": StillCamera(image)})
    client = app.test_client()
    assert client.get("/camera/view.json").json["state"] == "calibrated"

    frame = median_ms(lambda: client.get("/camera/frame.jpg"), args.repeat)
    view = median_ms(lambda: client.get("/camera/view.json"), args.repeat)
    encode = median_ms(lambda: cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80]), args.repeat)
    markers = median_ms(lambda: find_markers(image), args.repeat)
    print(f"camera page on a {width}x{height} frame, median of {args.repeat} requests each:")
    print(f"  GET /camera/frame.jpg  {frame:7.1f} ms   (bare JPEG encoding {encode:.1f} ms: x{frame / encode:.2f})")
    print(f"  GET /camera/view.json  {view:7.1f} ms   (bare marker detection {markers:.1f} ms: x{view / markers:.2f})")
    print(f"  one refresh (both)     {frame + view:7.1f} ms; the page asks about once a second per phone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
