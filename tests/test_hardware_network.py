"""The MJPEG network source against a real HTTP server on 127.0.0.1, including outages and reconnection."""

from __future__ import annotations

import http.server
import logging
import threading
import time

import cv2
import pytest

from hardware.cameras import (
    Backoff,
    CameraClosed,
    CameraLost,
    CameraSetupError,
    CameraStatus,
    CameraUnavailable,
    FrameGrabber,
    open_camera,
    open_reconnecting,
)
from hardware.cameras import mjpeg
from hardware.cameras.testcard import draw_test_card, read_test_card

SIZE = (320, 240)


class MjpegServer:
    """A small MJPEG server like a phone camera app: ``/video`` streams numbered test cards.

    ``first_number`` tells apart the frames of successive server runs; ``content_length``
    chooses whether parts carry a Content-Length header; ``corrupt`` numbers are sent as junk.
    ``stall_after`` frames, the server keeps the connection open but sends nothing more.
    """

    def __init__(self, port: int = 0, *, first_number: int = 0, fps: float = 60.0, content_length: bool = True,
                 boundary: str = "frame", corrupt: frozenset[int] = frozenset(), stall_after: int | None = None):
        self.first_number, self.fps, self.content_length = first_number, fps, content_length
        self.boundary, self.corrupt, self.stall_after = boundary, corrupt, stall_after
        self.part_boundary: str | None = None
        self.stopping = threading.Event()
        self.connections = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                if self.path == "/snapshot.jpg":
                    body = cv2.imencode(".jpg", draw_test_card(0, SIZE))[1].tobytes()
                    self.send_response(200)
                    self.send_header("Content-Type", "image/jpeg")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path != "/video":
                    self.send_error(404)
                    return
                server.connections += 1
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={server.boundary}")
                self.end_headers()
                number = server.first_number
                token = (server.part_boundary or server.boundary).strip('"')
                marker = token if token.startswith("--") else "--" + token
                while not server.stopping.is_set():
                    if server.stall_after is not None and number - server.first_number >= server.stall_after:
                        server.stopping.wait()
                        break
                    if number in server.corrupt:
                        body = b"\xff\xd8 this part is not a JPEG \xff\xd9"
                    else:
                        body = cv2.imencode(".jpg", draw_test_card(number, SIZE))[1].tobytes()
                    head = f"{marker}\r\nContent-Type: image/jpeg\r\n"
                    if server.content_length:
                        head += f"Content-Length: {len(body)}\r\n"
                    try:
                        self.wfile.write(head.encode() + b"\r\n" + body + b"\r\n")
                        self.wfile.flush()
                    except OSError:
                        return
                    number += 1
                    time.sleep(1 / server.fps)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/video"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def stop(self) -> None:
        """The server goes away: streams end, and nothing listens on the port any more."""
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def servers():
    started: list[MjpegServer] = []

    def start(*args, **kwargs) -> MjpegServer:
        started.append(MjpegServer(*args, **kwargs))
        return started[-1]

    yield start
    for server in started:
        if not server.stopping.is_set():
            server.stop()


def numbers(camera, count: int) -> list[int]:
    return [read_test_card(camera.read()) for _ in range(count)]


@pytest.mark.parametrize(
    ("content_length", "boundary"),
    [(True, "frame"), (False, "frame"), (True, "--myboundary"), (False, '"quoted"')],
)
def test_stream_delivers_consecutive_frames(servers, content_length: bool, boundary: str) -> None:
    server = servers(content_length=content_length, boundary=boundary)
    with open_camera(server.url) as camera:
        got = numbers(camera, 6)
        assert got == list(range(got[0], got[0] + 6))
        assert camera.resolution == SIZE


def test_undecodable_parts_are_skipped(servers, caplog) -> None:
    server = servers(corrupt=frozenset({2, 3}))
    with open_camera(server.url) as camera, caplog.at_level(logging.WARNING):
        assert numbers(camera, 4) == [0, 1, 4, 5]
        assert camera.bad_parts == 0  # reset by the good frame after them
    assert sum("not a decodable JPEG" in r.getMessage() for r in caplog.records) == 2


def test_a_stream_of_junk_is_lost(servers) -> None:
    server = servers(corrupt=frozenset(range(100)))
    with open_camera(server.url) as camera, pytest.raises(CameraLost, match="10 undecodable frames in a row"):
        camera.read()


def test_wrong_address_content_and_path_are_clear(servers) -> None:
    server = servers()
    base = f"http://127.0.0.1:{server.port}"
    with pytest.raises(CameraSetupError, match=r"sent image/jpeg, not an MJPEG stream .*such as /video"):
        open_camera(f"{base}/snapshot.jpg")
    with pytest.raises(CameraSetupError, match="answered HTTP 404"):
        open_camera(f"{base}/nothing-here")
    server.stop()
    with pytest.raises(CameraUnavailable, match="cannot connect"):
        open_camera(server.url)


def test_a_stream_without_its_boundary_is_lost(servers, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mjpeg, "MAX_PART_BYTES", 50_000)  # a few frames' worth, to fail fast
    server = servers(boundary="frame", fps=500)
    server.part_boundary = "other"  # the parts are marked with a boundary the header did not announce
    with open_camera(server.url) as camera, pytest.raises(CameraLost, match="no part boundary '--frame' in"):
        camera.read()


def test_a_stalled_stream_is_lost_after_the_timeout(servers) -> None:
    server = servers(stall_after=2)
    with open_camera(server.url, timeout_s=0.3) as camera:
        assert numbers(camera, 2) == [0, 1]
        start = time.monotonic()
        with pytest.raises(CameraLost, match=r"no data for 0.3 s"):
            camera.read()
        assert time.monotonic() - start < 2


def test_close_from_another_thread_ends_a_blocked_read(servers) -> None:
    server = servers(stall_after=1)
    camera = open_camera(server.url, timeout_s=30)
    camera.read()
    threading.Timer(0.1, camera.close).start()
    start = time.monotonic()
    with pytest.raises(CameraClosed):
        camera.read()
    assert time.monotonic() - start < 2


def test_server_going_away_mid_stream_and_coming_back(servers) -> None:
    first = servers(first_number=0)
    statuses: list[CameraStatus] = []
    camera = open_reconnecting(
        first.url, backoff=Backoff(initial_s=0.05, factor=2, max_s=0.2), on_status=statuses.append, timeout_s=2
    )
    assert numbers(camera, 3) == [0, 1, 2]
    assert [s.state for s in statuses] == ["streaming"]

    first.stop()
    # Back in 0.6 s on the same port, numbering from 1000 so its frames are told apart.
    threading.Timer(0.6, lambda: servers(first.port, first_number=1000)).start()
    start = time.monotonic()
    while (number := read_test_card(camera.read())) < 1000:
        pass  # frames still buffered from before the outage
    assert number < 1010
    assert 0.5 < time.monotonic() - start < 3

    states = [s.state for s in statuses]
    assert states[:2] == ["streaming", "lost"]
    assert "the server closed the stream" in statuses[1].reason or "connection failed" in statuses[1].reason
    waits = [s for s in statuses if s.state == "waiting"]
    assert len(waits) >= 3
    assert all("cannot connect" in s.reason for s in waits)
    assert [s.attempt for s in waits] == list(range(1, len(waits) + 1))
    assert [s.retry_in_s for s in waits] == list(Backoff(0.05, 2, 0.2).delays(len(waits)))  # capped at 0.2
    assert states[-1] == "streaming" and camera.reconnects == 1
    camera.close()
    assert statuses[-1].state == "stopped"


def test_grabber_keeps_only_the_newest_frame_for_a_slow_consumer(servers) -> None:
    server = servers(fps=100)
    with FrameGrabber(open_camera(server.url)) as grabber:
        handed = []
        for _ in range(5):
            frame = grabber.latest(timeout=2)
            handed.append(frame.number)
            assert read_test_card(frame.image) == frame.number - 1  # stream numbers from 0
            time.sleep(0.1)  # the consumer is ten times slower than the camera
        assert handed == sorted(set(handed))
        assert grabber.dropped > 20
        assert grabber.read_count - handed[-1] < 30  # never far behind the camera
    assert not grabber.running


def test_stop_during_an_outage_is_prompt(servers) -> None:
    server = servers()
    statuses: list[CameraStatus] = []
    camera = open_reconnecting(server.url, backoff=Backoff(initial_s=30, max_s=30), on_status=statuses.append)
    grabber = FrameGrabber(camera).start()
    assert grabber.latest(timeout=2) is not None
    server.stop()
    deadline = time.monotonic() + 3
    while not any(s.state == "waiting" for s in statuses) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert statuses[-1].state == "waiting" and statuses[-1].retry_in_s == 30
    start = time.monotonic()
    grabber.stop()
    assert time.monotonic() - start < 1
    assert not grabber.running
    assert statuses[-1].state == "stopped"
    with pytest.raises(CameraClosed):
        while grabber.latest(timeout=1) is not None:
            pass
