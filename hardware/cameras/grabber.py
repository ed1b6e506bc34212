"""A reader thread that keeps only the newest frame, so a slow consumer never falls behind.

The camera is read as fast as it delivers; each new frame replaces the one
before it. A consumer that takes longer per frame than the camera simply gets
the latest one next time, and :attr:`FrameGrabber.dropped` counts the frames
it never saw. Memory is bounded by one frame in hand plus one being read.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from hardware.cameras.base import CameraSource

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Frame:
    """One frame with its position in the camera's sequence (1-based) and when it was read."""

    image: np.ndarray
    number: int
    timestamp: float


class FrameGrabber:
    """Reads ``camera`` on a daemon thread; :meth:`latest` hands out the newest frame once.

    When the camera ends or fails, :meth:`latest` first hands out the last
    frame not yet seen, then raises what stopped the reader
    (:class:`~hardware.cameras.base.EndOfStream`, a camera error). Wrap the
    camera in a :class:`~hardware.cameras.reconnect.ReconnectingCamera` to
    ride out failures instead.
    """

    def __init__(self, camera: CameraSource, *, thread_name: str = "camera-grabber") -> None:
        self.camera = camera
        self.read_count = 0
        self.dropped = 0
        self._latest: Frame | None = None
        self._handed_out = 0
        self._error: BaseException | None = None
        self._stop = threading.Event()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    def start(self) -> FrameGrabber:
        self._thread.start()
        return self

    @property
    def handed_out(self) -> int:
        """The number of the last frame :meth:`latest` handed out (0: none yet)."""
        return self._handed_out

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                image = self.camera.read()
            except BaseException as exc:  # closed, ended or failed: handed to the consumer
                self._finish(exc)
                return
            with self._changed:
                self.read_count += 1
                if self._latest is not None and self._latest.number > self._handed_out:
                    self.dropped += 1
                self._latest = Frame(image, self.read_count, time.monotonic())
                self._changed.notify_all()

    def _finish(self, exc: BaseException) -> None:
        with self._changed:
            self._error = exc
            self._changed.notify_all()

    def latest(self, timeout: float | None = None) -> Frame | None:
        """The newest frame not handed out yet, waiting up to ``timeout`` s (``None``: no limit).

        Returns ``None`` when the wait times out.
        """
        with self._changed:
            fresh = lambda: self._latest is not None and self._latest.number > self._handed_out  # noqa: E731
            if not self._changed.wait_for(lambda: fresh() or self._error is not None, timeout):
                return None
            if fresh():
                assert self._latest is not None
                self._handed_out = self._latest.number
                return self._latest
            assert self._error is not None
            raise self._error

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading and close the camera; waits at most ``timeout`` s for the thread."""
        self._stop.set()
        self.camera.close()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("camera reader %s did not stop within %.1f s", self.camera.name, timeout)

    def __enter__(self) -> FrameGrabber:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
