"""Kill the dashboard server in the middle of a match, restart it: nothing that was shown is lost."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.webui.support import PIN, knock_result


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_dashboard(data, port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "rummyref", "dashboard", "--data", str(data), "--host", "127.0.0.1", "--port", str(port), "--pin", PIN],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None:
                raise AssertionError("the dashboard exited: " + process.stdout.read().decode())
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the dashboard did not start within 20 s")


def post(port: int, path: str, body: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 201
        return json.load(response)


def test_a_killed_server_loses_nothing_it_had_confirmed(tmp_path):
    port = free_port()
    server = start_dashboard(tmp_path, port)
    try:
        match_id = post(port, "/api/matches", {"players": ["Ann", "Ben"]})["match_id"]
        confirmed = []
        for n in range(40):
            event = post(port, f"/api/matches/{match_id}/events", {"kind": "discard", "payload": {"player": "Ann", "card": "KS"}})
            confirmed.append(event["id"])
            if n == 20:
                confirmed.append(post(port, f"/api/matches/{match_id}/events",
                                      {"kind": "hand_recorded", "payload": {"result": knock_result(12)}})["id"])
    finally:
        server.send_signal(signal.SIGKILL)
        banner = server.stdout.read()
        server.wait(timeout=10)
    assert f"table PIN: {PIN}".encode() in banner
    restarted = start_dashboard(tmp_path, port)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/m/{match_id}/export.json", timeout=5) as response:
            document = json.load(response)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/matches/{match_id}", timeout=5) as response:
            state = json.load(response)
    finally:
        restarted.terminate()
        restarted.wait(timeout=10)
    kept = [e["id"] for e in document["events"]]
    assert set(confirmed) <= set(kept), "an event the server confirmed was lost"
    assert state["totals"] == {"Ann": 12, "Ben": 0} and len(state["discards"]) == 19
