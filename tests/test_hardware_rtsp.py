"""The RTSP source against a real RTSP server (GStreamer) on 127.0.0.1: frames, outage, reconnection."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from hardware.cameras import Backoff, CameraUnavailable, FrameGrabber, open_camera, open_reconnecting

SERVER = Path(__file__).resolve().parent / "data" / "rtsp_server.py"
SYSTEM_PYTHON = "/usr/bin/python3"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    process = subprocess.Popen([SYSTEM_PYTHON, str(SERVER), str(port)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    if line.strip() != "ready":
        process.kill()
        pytest.fail(f"the RTSP test server did not start: {line}{process.stdout.read()} (it needs the Debian packages "
                    "python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-base gstreamer1.0-plugins-good)")
    return process


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(10)


def test_rtsp_stream_gives_moving_frames() -> None:
    port = free_port()
    server = start_server(port)
    try:
        with open_camera(f"rtsp://127.0.0.1:{port}/test", timeout_s=5.0) as camera:
            frames = [camera.read() for _ in range(20)]
    finally:
        stop_server(server)
    assert all(f.shape == (240, 320, 3) and f.dtype == np.uint8 for f in frames)
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 1.0, "the ball should have moved"


def test_no_rtsp_server_is_unavailable_not_a_crash() -> None:
    with pytest.raises(CameraUnavailable, match="cannot open the RTSP stream"):
        open_camera(f"rtsp://127.0.0.1:{free_port()}/test", timeout_s=2.0)


def test_rtsp_server_going_away_is_reported_and_the_stream_comes_back() -> None:
    port = free_port()
    server = start_server(port)
    states: list[str] = []
    camera = open_reconnecting(f"rtsp://127.0.0.1:{port}/test", on_status=lambda s: states.append(s.state),
                               backoff=Backoff(initial_s=0.2, max_s=1.0), timeout_s=2.0)
    try:
        with FrameGrabber(camera) as grabber:
            first = grabber.latest(timeout=10)
            assert first is not None
            stop_server(server)
            deadline = time.monotonic() + 20
            while "lost" not in states and time.monotonic() < deadline:
                time.sleep(0.1)
            assert "lost" in states, states
            server = start_server(port)
            deadline = time.monotonic() + 30
            while states[-1] != "streaming" and time.monotonic() < deadline:
                time.sleep(0.1)
            again = grabber.latest(timeout=10)
            assert again is not None and again.number > first.number and again.image.shape == (240, 320, 3)
        assert states[:2] == ["streaming", "lost"] and states.count("streaming") >= 2, states
        assert camera.reconnects >= 1
    finally:
        stop_server(server)
