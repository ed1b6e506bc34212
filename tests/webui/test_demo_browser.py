"""End to end: `rummyref demo` in its own process, its dashboard in a real headless Chromium."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from rummyref.demo import SCRIPT_ACTOR, DemoGame
from tests.webui.support import screenshot
from webui.state import replay
from webui.store import EventStore

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(log: Path, pattern: str, process: subprocess.Popen, seconds: float) -> re.Match:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text())
        if found:
            return found
        assert process.poll() is None, f"rummyref demo exited early:\n{log.read_text()}"
        time.sleep(0.2)
    raise AssertionError(f"no line matching {pattern!r} within {seconds} s:\n{log.read_text()}")


def test_demo_shows_its_first_hand_result_live_in_chromium(phone, tmp_path: Path) -> None:
    port, data, log = free_port(), tmp_path / "data", tmp_path / "demo.log"
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "rummyref", "demo", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
             "--hands", "1", "--pin", "2468"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        # First the players teach the referee the demo deck (learned once per --data folder; this one is new).
        match_id = wait_for_line(log, r"match ([0-9a-f]+): Ann vs Ben", process, 300).group(1)
        server = f"http://127.0.0.1:{port}"
        phone.goto(f"{server}/m/{match_id}")
        answering = time.monotonic() - started
        phone.evaluate("window.__same_page = true")
        phone.wait_for_selector(".hands li", timeout=240_000)
        first_result = time.monotonic() - started
        assert phone.evaluate("window.__same_page") is True, "the page reloaded instead of updating live"
        truth = DemoGame(hands=1).simulate()[0].result
        assert phone.locator(f'.total[data-player="{truth.winner}"]').inner_text() == str(truth.points)
        assert "knock" in phone.locator(".hands li").first.inner_text()
        status = phone.locator("#camera-status").inner_text()
        assert "camera demo:seed=250 (a rendered game; the players are a script)" in status
        screenshot(phone, "demo-scoreboard")
        phone.goto(f"{server}/m/{match_id}/history")
        recorded_by = phone.locator(".history .audit small").first.inner_text()
        # With the deck learned the camera settles this hand itself; the script only answers questions.
        assert recorded_by.startswith("camera"), recorded_by
        screenshot(phone, "demo-history")
        wait_for_line(log, r"demo: game over", process, 120)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    output = log.read_text()
    assert process.returncode == 0, output
    print(f"dashboard answering {answering:.1f} s after start, first hand result {first_result:.1f} s after start")

    store = EventStore(data / "record.sqlite3")
    events = store.events(match_id)
    store.close()
    # The reading path did real work: the camera recorded what it read, and every answer the
    # script gave is marked as the script's, on the page and in the record.
    assert any(e.kind == "discard" and e.actor == "camera" for e in events), output
    assert all(e.actor == SCRIPT_ACTOR for e in events if e.kind == "reading_confirmed")
    state = replay(events)
    assert [h.result["points"] for h in state.hands] == [truth.points]
    assert f"demo: the camera settled hand 1: {truth.kind} {truth.winner} {truth.points}" in output, output
    assert "the script entered both hands' cards" not in output, output
