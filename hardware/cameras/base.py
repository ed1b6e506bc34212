"""The camera interface every source implements, and the errors it raises.

A :class:`CameraSource` hands out BGR frames (``numpy.ndarray`` of shape
``(height, width, 3)``, ``uint8``), the layout OpenCV and the recognizer use.
Errors are split by what the caller should do about them:

* :class:`CameraSetupError` - retrying will not help (bad URL, missing file,
  picamera2 not installed); fix the configuration.
* :class:`CameraUnavailable` - the camera cannot be opened right now (unplugged,
  server down); :class:`~hardware.cameras.reconnect.ReconnectingCamera` retries.
* :class:`CameraLost` - it was streaming and stopped; also retried.
* :class:`CameraClosed` - read after :meth:`CameraSource.close` or a stop request.
* :class:`EndOfStream` - a video file or image folder has no more frames. It is
  not an error, so it does not derive from :class:`CameraError`.
"""

from __future__ import annotations

import abc
import threading
import time
from collections.abc import Iterator
from types import TracebackType

import numpy as np


class CameraError(Exception):
    """Base of every camera failure."""


class CameraSetupError(CameraError):
    """A configuration problem that retrying cannot fix."""


class CameraUnavailable(CameraError):
    """The camera cannot be opened now; it may come back."""


class CameraLost(CameraError):
    """A camera that was delivering frames stopped doing so."""


class CameraClosed(CameraError):
    """The source was closed or asked to stop."""


class EndOfStream(Exception):
    """A finite source (video file, image folder) has delivered its last frame."""


class CameraSource(abc.ABC):
    """One camera: ``read()`` frames, then ``close()``; a context manager and an iterator.

    Iterating yields frames until the source ends (:class:`EndOfStream`); every
    other failure propagates.
    """

    #: The URL-like string this source was opened from, for messages and the dashboard.
    name: str

    @property
    @abc.abstractmethod
    def resolution(self) -> tuple[int, int] | None:
        """``(width, height)`` of the frames, once known."""

    @property
    def fps(self) -> float | None:
        """Nominal frames per second, when the source knows it."""
        return None

    @abc.abstractmethod
    def read(self) -> np.ndarray:
        """The next frame as a BGR ``uint8`` array of shape ``(height, width, 3)``."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the device or connection; safe to call twice and from another thread."""

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            try:
                yield self.read()
            except EndOfStream:
                return

    def __enter__(self) -> CameraSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} resolution={self.resolution}>"


def as_bgr(frame: np.ndarray, source: str) -> np.ndarray:
    """Check a decoded frame and bring gray or BGRA images to 3-channel BGR.

    >>> as_bgr(np.zeros((2, 3), np.uint8), "x").shape
    (2, 3, 3)
    >>> as_bgr(np.zeros((2, 3, 4), np.uint8), "x").shape
    (2, 3, 3)
    >>> as_bgr(np.zeros((2, 3, 2), np.uint8), "cam")
    Traceback (most recent call last):
    ...
    hardware.cameras.base.CameraLost: cam: frame has unsupported shape (2, 3, 2)
    """
    import cv2

    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise CameraLost(f"{source}: frame has unsupported shape {frame.shape}")


class Pacer:
    """Spaces reads ``1/fps`` apart, like a camera would; ``fps=None`` does not wait.

    A late reader is not made up for with a burst: the next frame is due one
    period after the later of its due time and now. Waiting ends early when
    ``stop`` is set, so closing a source never waits out a period.

    >>> import threading, time
    >>> pacer = Pacer(20.0, threading.Event())
    >>> start = time.monotonic(); _ = [pacer.wait() for _ in range(3)]
    >>> 0.09 <= time.monotonic() - start < 0.5
    True
    """

    def __init__(self, fps: float | None, stop: threading.Event) -> None:
        self.period = 1.0 / fps if fps else 0.0
        self._stop = stop
        self._due: float | None = None

    def wait(self) -> None:
        if not self.period:
            return
        now = time.monotonic()
        if self._due is not None and self._due > now:
            self._stop.wait(self._due - now)
        self._due = max(self._due or now, now) + self.period

    def restart(self) -> None:
        """Forget the schedule (after a loop back to the first frame)."""
        self._due = None
