"""Helpers for the dashboard tests (fixtures are in conftest.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

PIN = "246810"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
SCREENSHOTS = Path(os.environ.get("RUMMYREF_SCREENSHOTS", "runs/screenshots"))


class FakeClock:
    """Time for the PIN back-off, moved by the test instead of by sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def undercut_result() -> dict:
    """A hand result as the engine reports it (000 §10's example)."""
    return {
        "kind": "undercut", "knocker": "Ann", "winner": "Ben", "points": 11,
        "explanation": "Ben 4 <= Ann 5: undercut, 1 + 10 bonus", "rule": "000 §10",
        "players": {
            "Ann": {"melds": [["7H", "8H", "9H", "10H"], ["KS", "KD", "KC"]], "deadwood": ["2C", "3D"], "deadwood_points": 5, "laid_off": []},
            "Ben": {"melds": [["4S", "5S", "6S"], ["QH", "QD", "QC"]], "deadwood": ["AC", "3S"], "deadwood_points": 4, "laid_off": ["10H"]},
        },
    }


def knock_result(points: int = 12) -> dict:
    return {"kind": "knock", "knocker": "Ann", "winner": "Ann", "points": points,
            "explanation": f"Ann knocks with 5, Ben has {5 + points}: Ann scores {points}", "rule": "000 §9", "players": {}}



TABLE_CARDS = ("7H", "8H", "9H", "KS", "KD", "KC")


def render_table(width: int = 1280, height: int = 720, seed: int = 1):
    """A camera frame as :mod:`rummyref.render_game` films a table: markers at the corners and
    :data:`TABLE_CARDS` laid out in a row in the near seat's zone."""
    from engine.simulate import Placed
    from rummyref.render_game import GameRenderer

    renderer = GameRenderer(width, height, seed=seed)
    return renderer.render(tuple(Placed(code, 20 + 9.5 * i, 48, "layout") for i, code in enumerate(TABLE_CARDS)), True)


class RenderedCamera:
    """A stand-in for the running pipeline's camera (``webui.camera.TableCamera``) showing a rendered
    table; it remembers the corners the dashboard hands it."""

    def __init__(self, image) -> None:
        from engine.zones import default_zones

        self.image = image
        self.zones = default_zones("gin", 2)
        self.corners_used: list = []
        self.sizes_used: list = []
        self.geometry: dict | None = None
        self.deck_name: str | None = None
        self.reads = "cards"
        self.corners_given: dict | None = None
        """Corners the referee was started with (``run --corners``)."""

    def latest_image(self):
        return self.image

    def use_corners(self, corners, size=None) -> None:
        self.corners_used.append(corners)
        self.sizes_used.append(size)

    def geometry_status(self):
        return self.geometry

    def corners_in_use(self):
        return self.corners_given


def without_markers(image):
    """The frame with its four table markers covered by felt, as on a table without them."""
    import cv2

    from vision.calibration import find_markers

    covered = image.copy()
    for x, y in find_markers(image).values():
        cv2.circle(covered, (round(x), round(y)), 40, (30, 100, 26), -1)
    return covered


def csrf_of(client, path: str = "/unlock") -> str:
    """The CSRF token a page hands this client."""
    page = client.get(path)
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def api_post(client, path: str, body: dict, pin: str | None = PIN):
    headers = {"X-Table-Pin": pin} if pin is not None else {}
    return client.post(path, json=body, headers=headers)


def new_match(client, **extra) -> str:
    response = api_post(client, "/api/matches", {"players": ["Ann", "Ben"], "preset": "rulebook", **extra})
    assert response.status_code == 201, response.json
    return response.json["match_id"]


def post_event(client, match_id: str, kind: str, payload: dict, pin: str | None = PIN):
    return api_post(client, f"/api/matches/{match_id}/events", {"kind": kind, "payload": payload}, pin)



def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def screenshot(page, name: str) -> Path:
    path = screenshot_dir() / f"{name}.png"
    page.wait_for_timeout(700)  # let the update animation finish
    page.screenshot(path=str(path), full_page=True)
    return path
