"""Camera sources behind one interface, chosen by a URL-like ``--camera`` string::

    from hardware.cameras import open_camera
    camera = open_camera("usb:0?size=640x480&fps=30")
    frame = camera.read()  # BGR numpy array

The forms (see :data:`ACCEPTED_FORMS`): ``picamera2:0``, ``usb:0``,
``http://...``/``https://...`` (MJPEG), ``rtsp://...``, ``file:game.mp4``,
``dir:frames/``. For a game, wrap the camera so it survives being unplugged
and read it on its own thread::

    with FrameGrabber(open_reconnecting("usb:0", on_status=show)) as grabber:
        frame = grabber.latest(timeout=1.0)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from hardware.cameras.base import (
    CameraClosed,
    CameraError,
    CameraLost,
    CameraSetupError,
    CameraSource,
    CameraUnavailable,
    EndOfStream,
)
from hardware.cameras.grabber import Frame, FrameGrabber
from hardware.cameras.reconnect import Backoff, CameraStatus, ReconnectingCamera, StatusCallback
from hardware.cameras.url import ACCEPTED_FORMS, CameraConfig, CameraUrlError, parse_camera_url

__all__ = [
    "ACCEPTED_FORMS",
    "Backoff",
    "CameraClosed",
    "CameraConfig",
    "CameraError",
    "CameraLost",
    "CameraSetupError",
    "CameraSource",
    "CameraStatus",
    "CameraUnavailable",
    "CameraUrlError",
    "EndOfStream",
    "Frame",
    "FrameGrabber",
    "ReconnectingCamera",
    "open_camera",
    "open_reconnecting",
    "parse_camera_url",
]


def _opener(scheme: str) -> Callable[[CameraConfig], CameraSource]:
    # Imported per scheme, so that opening one kind of camera loads only its code.
    if scheme == "picamera2":
        from hardware.cameras.picamera import open_picamera

        return open_picamera
    if scheme == "usb":
        from hardware.cameras.opencv import open_usb

        return open_usb
    if scheme == "rtsp":
        from hardware.cameras.opencv import open_rtsp

        return open_rtsp
    if scheme == "file":
        from hardware.cameras.opencv import open_video_file

        return open_video_file
    if scheme == "dir":
        from hardware.cameras.folder import open_image_folder

        return open_image_folder
    from hardware.cameras.mjpeg import open_mjpeg

    return open_mjpeg


def open_camera(camera: str | CameraConfig, **defaults: object) -> CameraSource:
    """Open the camera a ``--camera`` string (or a parsed :class:`CameraConfig`) names.

    ``defaults`` are :class:`CameraConfig` fields (``size``, ``fps``,
    ``timeout_s``, ...) that options in the string override. Raises
    :class:`CameraUrlError` for a malformed string, :class:`CameraSetupError`
    when retrying cannot help, :class:`CameraUnavailable` when it might.

    >>> open_camera("floppy:0")
    Traceback (most recent call last):
    ...
    hardware.cameras.url.CameraUrlError: camera 'floppy:0' has unknown scheme 'floppy'; accepted forms:
    ...
    """
    config = camera if isinstance(camera, CameraConfig) else parse_camera_url(camera, **defaults)
    return _opener(config.scheme)(config)


def open_reconnecting(
    camera: str | CameraConfig,
    *,
    backoff: Backoff = Backoff(),
    on_status: StatusCallback | None = None,
    stop: threading.Event | None = None,
    **defaults: object,
) -> ReconnectingCamera:
    """A :class:`ReconnectingCamera` for ``camera``; the string is checked now, the camera opened on first read.

    >>> open_reconnecting("usb:zero")
    Traceback (most recent call last):
    ...
    hardware.cameras.url.CameraUrlError: camera 'usb:zero' has no valid usb camera number (got 'zero'); accepted forms:
    ...
    """
    config = camera if isinstance(camera, CameraConfig) else parse_camera_url(camera, **defaults)
    return ReconnectingCamera(lambda: open_camera(config), config.url, backoff=backoff, on_status=on_status, stop=stop)
