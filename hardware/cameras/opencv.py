"""Sources read through ``cv2.VideoCapture``: USB/V4L2 webcams, RTSP streams, video files."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from hardware.cameras.base import (
    CameraClosed,
    CameraLost,
    CameraSetupError,
    CameraSource,
    CameraUnavailable,
    EndOfStream,
    Pacer,
    as_bgr,
)
from hardware.cameras.url import CameraConfig

#: Opens a capture the way ``cv2.VideoCapture(target, api_preference, params)`` does.
CaptureFactory = Callable[..., Any]


class VideoCaptureCamera(CameraSource):
    """A live ``cv2.VideoCapture``: a failed read means the camera is lost (unplugged, stream cut).

    OpenCV reports an unplugged V4L2 camera or a dropped RTSP stream the same
    way, by ``read()`` returning ``(False, None)``, so one class serves both.
    """

    def __init__(self, capture: Any, name: str) -> None:
        self.name = name
        self._capture = capture
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._resolution: tuple[int, int] | None = None

    @property
    def resolution(self) -> tuple[int, int] | None:
        return self._resolution

    @property
    def fps(self) -> float | None:
        import cv2

        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        return fps if fps > 0 else None

    def _grab(self) -> np.ndarray | None:
        """One frame from the capture, or ``None`` when it has none."""
        import cv2

        if self._closed.is_set():
            raise CameraClosed(f"{self.name}: camera is closed")
        try:
            with self._lock:
                ok, frame = self._capture.read()
        except cv2.error as exc:
            raise CameraLost(f"{self.name}: OpenCV failed to read ({exc})") from exc
        if not ok or frame is None:
            return None
        frame = as_bgr(frame, self.name)
        self._resolution = (frame.shape[1], frame.shape[0])
        return frame

    def read(self) -> np.ndarray:
        frame = self._grab()
        if frame is None:
            if self._closed.is_set():
                raise CameraClosed(f"{self.name}: camera is closed")
            raise CameraLost(f"{self.name}: the camera delivered no frame (unplugged or stream ended)")
        return frame

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self._capture.release()


class VideoFileCamera(VideoCaptureCamera):
    """A recorded video, played at its own frame rate (``realtime``) or as fast as it decodes."""

    def __init__(self, capture: Any, name: str, *, loop: bool, realtime: bool) -> None:
        super().__init__(capture, name)
        self.loop = loop
        self._pacer = Pacer(self.fps if realtime else None, self._closed)

    def read(self) -> np.ndarray:
        import cv2

        self._pacer.wait()
        frame = self._grab()
        if frame is None and self.loop:
            with self._lock:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._pacer.restart()
            frame = self._grab()
        if frame is None:
            raise EndOfStream(f"{self.name}: end of video")
        return frame


def open_usb(config: CameraConfig, capture_factory: CaptureFactory | None = None) -> VideoCaptureCamera:
    """A V4L2 webcam set to ``config.size``/``fps``/``fourcc``.

    Webcams deliver 1280x720 at full rate only compressed, hence the MJPG
    default. ``capture_factory`` replaces ``cv2.VideoCapture`` (tests).
    """
    import cv2

    factory = capture_factory or cv2.VideoCapture
    device: int | str = int(config.target) if config.target.isdigit() else config.target
    capture = factory(device, cv2.CAP_V4L2)
    if not capture.isOpened():
        capture.release()
        path = f"/dev/video{device}" if isinstance(device, int) else device
        raise CameraUnavailable(
            f"{config.url}: no webcam at {path} (is it plugged in? `v4l2-ctl --list-devices` lists cameras)"
        )
    if config.fourcc:
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*config.fourcc))
    width, height = config.size
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    if config.fps:
        capture.set(cv2.CAP_PROP_FPS, config.fps)
    # A one-frame driver queue: frames waiting in the driver are stale frames.
    capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
    return VideoCaptureCamera(capture, config.url)


def open_rtsp(config: CameraConfig, capture_factory: CaptureFactory | None = None) -> VideoCaptureCamera:
    """An RTSP stream through FFmpeg, with open and read time-outs of ``config.timeout_s``."""
    import cv2

    factory = capture_factory or cv2.VideoCapture
    timeout_ms = int(config.timeout_s * 1000)
    params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, timeout_ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, timeout_ms]
    capture = factory(config.target, cv2.CAP_FFMPEG, params)
    if not capture.isOpened():
        capture.release()
        raise CameraUnavailable(f"{config.url}: cannot open the RTSP stream (wrong URL, or the server is down)")
    return VideoCaptureCamera(capture, config.url)


def open_video_file(config: CameraConfig, capture_factory: CaptureFactory | None = None) -> VideoFileCamera:
    """A video file; missing or undecodable files are setup errors (retrying will not help)."""
    import os

    import cv2

    if not os.path.isfile(config.target):
        raise CameraSetupError(f"{config.url}: no such video file")
    capture = (capture_factory or cv2.VideoCapture)(config.target)
    if not capture.isOpened():
        capture.release()
        raise CameraSetupError(f"{config.url}: OpenCV cannot decode this file (not a video, or an unknown codec)")
    return VideoFileCamera(capture, config.url, loop=config.loop, realtime=config.realtime)
