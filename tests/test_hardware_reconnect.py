"""ReconnectingCamera and FrameGrabber on a camera whose failures are scripted, and Backoff."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

import numpy as np
import pytest

from hardware.cameras import (
    Backoff,
    CameraClosed,
    CameraError,
    CameraLost,
    CameraSetupError,
    CameraSource,
    CameraStatus,
    CameraUnavailable,
    EndOfStream,
    FrameGrabber,
    ReconnectingCamera,
)
from hardware.cameras.testcard import draw_test_card, read_test_card

FAST = Backoff(initial_s=0.01, factor=2, max_s=0.04)


class ScriptedCamera(CameraSource):
    """Delivers test cards; ``script`` entries that are exceptions are raised instead of a frame."""

    def __init__(self, script: Iterable[int | BaseException], name: str = "scripted:0") -> None:
        self.name = name
        self.script = iter(script)
        self.closed = False

    @property
    def resolution(self) -> tuple[int, int]:
        return (320, 240)

    def read(self) -> np.ndarray:
        if self.closed:
            raise CameraClosed("closed")
        step = next(self.script, EndOfStream("script done"))
        if isinstance(step, BaseException):
            raise step
        return draw_test_card(step)

    def close(self) -> None:
        self.closed = True


class Opener:
    """Opens cameras from a list: an exception entry is one failed attempt to open."""

    def __init__(self, outcomes: list[ScriptedCamera | BaseException]) -> None:
        self.outcomes = iter(outcomes)
        self.opened: list[ScriptedCamera] = []

    def __call__(self) -> CameraSource:
        outcome = next(self.outcomes)
        if isinstance(outcome, BaseException):
            raise outcome
        self.opened.append(outcome)
        return outcome


def test_backoff_grows_and_is_capped() -> None:
    assert list(Backoff().delays(8)) == [0.5, 1, 2, 4, 8, 16, 30, 30]
    assert list(Backoff(initial_s=1, factor=1, max_s=5).delays(3)) == [1, 1, 1]
    for bad in ({"initial_s": 0}, {"initial_s": 5, "max_s": 1}, {"factor": 0.5}):
        with pytest.raises(ValueError, match="back-off needs"):
            Backoff(**bad)


def test_status_rejects_unknown_states() -> None:
    with pytest.raises(ValueError, match="camera state must be one of connecting, streaming"):
        CameraStatus("sleeping", "usb:0")


def test_camera_absent_at_start_is_waited_for() -> None:
    statuses: list[CameraStatus] = []
    opener = Opener([CameraUnavailable("no webcam"), CameraUnavailable("no webcam"), ScriptedCamera([7])])
    camera = ReconnectingCamera(opener, "usb:0", backoff=FAST, on_status=statuses.append)
    assert camera.status.state == "connecting" and camera.resolution is None
    assert read_test_card(camera.read()) == 7
    assert [(s.state, s.attempt, s.retry_in_s) for s in statuses] == [
        ("waiting", 1, 0.01),
        ("waiting", 2, 0.02),
        ("streaming", 0, None),
    ]
    assert camera.reconnects == 0  # a late start is not a reconnection
    assert camera.resolution == (320, 240)


def test_lost_camera_is_reopened_and_frames_continue() -> None:
    statuses: list[CameraStatus] = []
    first = ScriptedCamera([1, 2, CameraLost("usb:0: the camera delivered no frame (unplugged?)")])
    second = ScriptedCamera([3, 4])
    opener = Opener([first, CameraUnavailable("usb:0: no webcam"), second])
    camera = ReconnectingCamera(opener, "usb:0", backoff=FAST, on_status=statuses.append)
    assert [read_test_card(camera.read()) for _ in range(4)] == [1, 2, 3, 4]
    assert first.closed and not second.closed
    assert [s.state for s in statuses] == ["streaming", "lost", "waiting", "streaming"]
    assert statuses[1].reason == "usb:0: the camera delivered no frame (unplugged?)"
    assert str(statuses[2]) == "usb:0: waiting - usb:0: no webcam (attempt 1, next try in 0.0 s)"
    assert camera.reconnects == 1


def test_setup_errors_are_not_retried() -> None:
    statuses: list[CameraStatus] = []
    camera = ReconnectingCamera(
        Opener([CameraSetupError("picamera2 cannot be imported")]), "picamera2:0", on_status=statuses.append
    )
    with pytest.raises(CameraSetupError):
        camera.read()
    assert [(s.state, s.reason) for s in statuses] == [("failed", "picamera2 cannot be imported")]


def test_end_of_a_finite_source_is_passed_on_not_retried() -> None:
    statuses: list[CameraStatus] = []
    camera = ReconnectingCamera(Opener([ScriptedCamera([1])]), "file:x", on_status=statuses.append)
    assert read_test_card(camera.read()) == 1
    with pytest.raises(EndOfStream):
        camera.read()
    assert [s.state for s in statuses] == ["streaming", "ended"]


def test_shared_stop_event_ends_the_back_off_wait() -> None:
    stop = threading.Event()
    opener = Opener([CameraUnavailable("down")] * 3)
    camera = ReconnectingCamera(opener, "usb:0", backoff=Backoff(initial_s=60, max_s=60), stop=stop)
    threading.Timer(0.1, stop.set).start()
    start = time.monotonic()
    with pytest.raises(CameraClosed):
        camera.read()
    assert time.monotonic() - start < 2


def test_grabber_hands_out_each_frame_once_then_the_end() -> None:
    with FrameGrabber(ScriptedCamera(range(5))) as grabber:
        seen = []
        while True:
            try:
                frame = grabber.latest(timeout=2)
            except EndOfStream:
                break
            assert frame is not None
            seen.append((frame.number, read_test_card(frame.image)))
        assert seen[-1] == (5, 4)  # the last frame is never lost to the end of the stream
        assert [n for n, _ in seen] == sorted({n for n, _ in seen})
        assert grabber.read_count == 5
        assert grabber.dropped == 5 - len(seen)
        with pytest.raises(EndOfStream):
            grabber.latest(timeout=0)


def test_grabber_passes_on_a_camera_error_and_times_out_without_frames() -> None:
    class Silent(ScriptedCamera):
        def read(self) -> np.ndarray:
            time.sleep(0.05)
            raise CameraLost("gone")

    grabber = FrameGrabber(Silent([])).start()
    assert grabber.latest(timeout=0.01) is None
    with pytest.raises(CameraError, match="gone"):
        grabber.latest(timeout=2)
    grabber.stop()
    assert not grabber.running
