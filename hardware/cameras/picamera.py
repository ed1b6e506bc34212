"""The Raspberry Pi camera through picamera2 (libcamera).

picamera2 comes with Raspberry Pi OS (``apt install python3-picamera2``); pip
cannot install its libcamera bindings. It is imported only when a
``picamera2:`` camera is opened, so nothing else needs it.
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import Any

import numpy as np

from hardware.cameras.base import CameraClosed, CameraLost, CameraSetupError, CameraSource, CameraUnavailable, as_bgr
from hardware.cameras.url import CameraConfig

PICAMERA2_MISSING = (
    "picamera2 cannot be imported by this Python ({python}): {error}. "
    "On Raspberry Pi OS it comes from the OS, not from pip: run `sudo apt install python3-picamera2`, "
    "and create the project's venv with `python3 -m venv --system-site-packages .venv` so that the venv "
    "sees it (hardware/install-pi.sh does both). Without a Pi camera use usb:0, an http:// stream, "
    "file: or dir: instead."
)

#: libcamera's continuous autofocus mode (``controls.AfModeEnum.Continuous``).
AF_MODE_CONTINUOUS = 2


def video_configuration(config: CameraConfig) -> dict[str, Any]:
    """Keyword arguments for ``Picamera2.create_video_configuration``, as data.

    ``RGB888`` is libcamera's name for 24-bit pixels stored B, G, R in memory,
    which is OpenCV's BGR, so frames need no conversion. ``queue=False`` makes
    every capture wait for a new frame instead of returning a queued, older one.

    >>> from hardware.cameras.url import parse_camera_url
    >>> video_configuration(parse_camera_url("picamera2:0?fps=10"))
    {'main': {'size': (1280, 720), 'format': 'RGB888'}, 'buffer_count': 4, 'queue': False, 'controls': {'FrameRate': 10.0}}
    """
    arguments: dict[str, Any] = {
        "main": {"size": tuple(config.size), "format": "RGB888"},
        "buffer_count": 4,
        "queue": False,
        "controls": {},
    }
    if config.fps:
        arguments["controls"]["FrameRate"] = config.fps
    return arguments


def import_picamera2() -> Any:
    """The ``picamera2`` module, or a :class:`CameraSetupError` that says how to install it."""
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:  # also numpy ABI mismatches, which surface as ImportError
        raise CameraSetupError(PICAMERA2_MISSING.format(python=sys.executable, error=exc)) from exc
    except ValueError as exc:  # "numpy.dtype size changed": simplejpeg built for another numpy
        raise CameraSetupError(
            PICAMERA2_MISSING.format(python=sys.executable, error=exc)
            + " This error means the venv's numpy differs from the one the OS packages were built for; "
            "`pip install --force-reinstall simplejpeg` inside the venv fixes it."
        ) from exc


class PiCamera(CameraSource):
    """A started ``Picamera2`` object, read with ``capture_array("main")``."""

    def __init__(self, camera: Any, name: str, size: tuple[int, int]) -> None:
        self.name = name
        self._camera = camera
        self._size = size
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @property
    def resolution(self) -> tuple[int, int] | None:
        return self._size

    def read(self) -> np.ndarray:
        if self._closed.is_set():
            raise CameraClosed(f"{self.name}: camera is closed")
        try:
            with self._lock:
                frame = self._camera.capture_array("main")
        except Exception as exc:  # libcamera reports a lost camera as RuntimeError, OSError, ...
            if self._closed.is_set():
                raise CameraClosed(f"{self.name}: camera is closed") from exc
            raise CameraLost(f"{self.name}: capture failed ({type(exc).__name__}: {exc})") from exc
        return as_bgr(frame, self.name)

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            for step in (self._camera.stop, self._camera.close):
                try:
                    step()
                except Exception:  # already stopped or gone; closing must not fail
                    pass


def open_picamera(config: CameraConfig) -> PiCamera:
    picamera2 = import_picamera2()
    index = int(config.target)
    try:
        camera = picamera2.Picamera2(camera_num=index)
    except (IndexError, RuntimeError, OSError) as exc:
        raise CameraUnavailable(
            f"{config.url}: cannot open Raspberry Pi camera {index} ({exc}); "
            "`rpicam-hello --list-cameras` lists the connected cameras"
        ) from exc
    try:
        arguments = video_configuration(config)
        if "AfMode" in getattr(camera, "camera_controls", {}):  # Camera Module 3 focuses itself
            arguments["controls"]["AfMode"] = AF_MODE_CONTINUOUS
        camera.configure(camera.create_video_configuration(**arguments))
        camera.start()
        size = tuple(camera.camera_configuration()["main"]["size"])
    except Exception as exc:
        camera.close()
        raise CameraUnavailable(f"{config.url}: cannot start the camera ({type(exc).__name__}: {exc})") from exc
    return PiCamera(camera, config.url, (int(size[0]), int(size[1])))
