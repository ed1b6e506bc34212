"""Keeping a camera going: reopen it with capped exponential back-off, and say so.

:class:`ReconnectingCamera` wraps any source. When the camera fails or is
unplugged it reports ``lost`` with the reason, then retries every
``initial_s``, ``initial_s*factor``, ... seconds, at most ``max_s`` apart,
reporting each wait, until the camera is back (``streaming``) or the stop
event is set. Setup errors (a bad URL, picamera2 missing) are not retried.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from hardware.cameras.base import CameraClosed, CameraError, CameraSetupError, CameraSource, EndOfStream

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Backoff:
    """Delays between reconnection attempts: ``initial_s`` growing by ``factor`` up to ``max_s``.

    >>> list(Backoff(initial_s=0.5, factor=2, max_s=3).delays(6))
    [0.5, 1.0, 2.0, 3, 3, 3]
    """

    initial_s: float = 0.5
    factor: float = 2.0
    max_s: float = 30.0

    def __post_init__(self) -> None:
        if not (0 < self.initial_s <= self.max_s and self.factor >= 1):
            raise ValueError(f"back-off needs 0 < initial_s <= max_s and factor >= 1, got {self}")

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        return min(self.initial_s * self.factor ** (attempt - 1), self.max_s)

    def delays(self, count: int) -> Iterator[float]:
        return (self.delay(attempt) for attempt in range(1, count + 1))


#: The states a camera goes through, in the words the dashboard shows.
STATES = ("connecting", "streaming", "lost", "waiting", "ended", "failed", "stopped")


@dataclass(frozen=True)
class CameraStatus:
    """What the camera is doing now, for the dashboard and the status LED.

    >>> str(CameraStatus("waiting", "usb:0", "no webcam at /dev/video0", attempt=3, retry_in_s=2.0))
    'usb:0: waiting - no webcam at /dev/video0 (attempt 3, next try in 2.0 s)'
    """

    state: str
    camera: str
    reason: str = ""
    attempt: int = 0
    retry_in_s: float | None = None
    since: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if self.state not in STATES:
            raise ValueError(f"camera state must be one of {', '.join(STATES)}, not {self.state!r}")

    @property
    def ok(self) -> bool:
        return self.state == "streaming"

    def __str__(self) -> str:
        text = f"{self.camera}: {self.state}"
        if self.reason:
            text += f" - {self.reason}"
        if self.retry_in_s is not None:
            text += f" (attempt {self.attempt}, next try in {self.retry_in_s:.1f} s)"
        return text


StatusCallback = Callable[[CameraStatus], None]


class ReconnectingCamera(CameraSource):
    """A camera that reopens itself; ``read()`` blocks through outages until stopped.

    ``opener`` opens the underlying source (for example
    ``lambda: open_camera("usb:0")``). Nothing is opened before the first
    ``read()``. ``stop`` (or :meth:`close`) ends a wait at once; ``read()``
    then raises :class:`CameraClosed`. ``on_status`` is called on every change
    of :attr:`status`, from the thread that caused it (the reader, or the
    one calling :meth:`close`).
    """

    def __init__(
        self,
        opener: Callable[[], CameraSource],
        name: str,
        *,
        backoff: Backoff = Backoff(),
        on_status: StatusCallback | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.name = name
        self.backoff = backoff
        self._opener = opener
        self._on_status = on_status
        self._stop = stop or threading.Event()
        self._camera: CameraSource | None = None
        self._resolution: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.reconnects = 0
        self.status = CameraStatus("connecting", name)

    @property
    def resolution(self) -> tuple[int, int] | None:
        return self._resolution

    @property
    def fps(self) -> float | None:
        camera = self._camera
        return camera.fps if camera else None

    def _report(self, state: str, reason: str = "", attempt: int = 0, retry_in_s: float | None = None) -> None:
        self.status = CameraStatus(state, self.name, reason, attempt, retry_in_s)
        level = logging.INFO if state in ("streaming", "connecting", "stopped", "ended") else logging.WARNING
        log.log(level, "camera %s", self.status)
        if self._on_status:
            self._on_status(self.status)

    def _open(self) -> CameraSource:
        attempt = 0
        while True:
            if self._stop.is_set():
                raise CameraClosed(f"{self.name}: stopped")
            attempt += 1
            try:
                camera = self._opener()
            except CameraSetupError as exc:
                self._report("failed", str(exc))
                raise
            except CameraError as exc:
                delay = self.backoff.delay(attempt)
                self._report("waiting", str(exc), attempt, delay)
                if self._stop.wait(delay):
                    raise CameraClosed(f"{self.name}: stopped") from exc
                continue
            with self._lock:
                if self._stop.is_set():  # closed while opening: do not leak the device
                    camera.close()
                    raise CameraClosed(f"{self.name}: stopped")
                self._camera = camera
            return camera

    def _drop(self) -> None:
        with self._lock:
            camera, self._camera = self._camera, None
        if camera:
            camera.close()

    def read(self) -> np.ndarray:
        while True:
            camera = self._camera or self._open()
            try:
                frame = camera.read()
            except EndOfStream:
                self._report("ended", "no more frames")
                raise
            except CameraError as exc:
                if self._stop.is_set():
                    raise CameraClosed(f"{self.name}: stopped") from exc
                if isinstance(exc, CameraSetupError):
                    self._report("failed", str(exc))
                    raise
                self._drop()
                self._report("lost", str(exc))
            else:
                if not self.status.ok:
                    if self._resolution is not None:  # it had streamed before
                        self.reconnects += 1
                    self._report("streaming", f"{frame.shape[1]}x{frame.shape[0]}")
                self._resolution = (frame.shape[1], frame.shape[0])
                return frame

    def close(self) -> None:
        """Stop: wake any back-off wait, release the camera; idempotent and thread-safe."""
        self._stop.set()
        self._drop()
        if self.status.state != "stopped":
            self._report("stopped")
