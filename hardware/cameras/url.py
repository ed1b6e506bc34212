"""The ``--camera`` argument: a URL-like string naming a source and its options.

Options of local sources go after ``?`` like URL query parameters; network URLs
keep their query for the server.

>>> parse_camera_url("usb:0?size=640x480&fps=30")
CameraConfig(scheme='usb', target='0', size=(640, 480), fps=30.0, loop=False, realtime=True, fourcc='MJPG', timeout_s=5.0)
>>> parse_camera_url("dir:frames/?fps=2&loop=yes").loop
True
>>> parse_camera_url("http://phone:8080/video?x=1").target
'http://phone:8080/video?x=1'
>>> parse_camera_url("webcam0")
Traceback (most recent call last):
...
hardware.cameras.url.CameraUrlError: camera 'webcam0' has no scheme; accepted forms:
  picamera2:0               Raspberry Pi camera number 0 through picamera2 (options: size, fps)
...
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from hardware.cameras.base import CameraSetupError

NETWORK_SCHEMES = ("http", "https", "rtsp")

#: The options each local scheme takes, in the order the help lists them.
SCHEME_OPTIONS: dict[str, tuple[str, ...]] = {
    "picamera2": ("size", "fps"),
    "usb": ("size", "fps", "fourcc"),
    "file": ("loop", "realtime"),
    "dir": ("fps", "loop"),
}

ACCEPTED_FORMS = """\
  picamera2:0               Raspberry Pi camera number 0 through picamera2 (options: size, fps)
  usb:0 or usb:/dev/video2  USB/V4L2 webcam through OpenCV (options: size, fps, fourcc)
  http://HOST:PORT/PATH     MJPEG stream, e.g. a phone camera app (also https://)
  rtsp://HOST:PORT/PATH     RTSP stream through OpenCV/FFmpeg
  file:game.mp4             video file (options: loop, realtime)
  dir:frames/               folder of images, in name order (options: fps, loop)
options follow '?', e.g. usb:0?size=1280x720&fps=30 or dir:frames/?fps=2&loop=1"""


class CameraUrlError(CameraSetupError, ValueError):
    """A ``--camera`` string that does not name a source; the message lists the accepted forms."""


@dataclass(frozen=True)
class CameraConfig:
    """Everything needed to open one camera, as plain data.

    ``size`` is the requested ``(width, height)`` for cameras that can be set
    (picamera2, USB); files and folders deliver their own size. ``fps`` paces an
    image folder, or asks a camera for that rate; ``None`` means the source's own
    rate (a folder then goes as fast as it is read). ``realtime`` plays a video
    file at its recorded rate instead of as fast as possible. ``timeout_s``
    bounds how long a read may wait before the camera counts as lost.
    """

    scheme: str
    target: str
    size: tuple[int, int] = (1280, 720)
    fps: float | None = None
    loop: bool = False
    realtime: bool = True
    fourcc: str | None = "MJPG"
    timeout_s: float = 5.0

    @property
    def url(self) -> str:
        """The source without options, as shown to users.

        >>> parse_camera_url("dir:frames?fps=2").url
        'dir:frames'
        """
        if self.scheme in NETWORK_SCHEMES:
            return self.target
        return f"{self.scheme}:{self.target}"


def _parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)[xX](\d+)", text)
    if not match or min(int(match[1]), int(match[2])) < 1:
        raise ValueError(f"size must look like 1280x720, not {text!r}")
    return int(match[1]), int(match[2])


def _parse_fps(text: str) -> float:
    try:
        fps = float(text)
    except ValueError:
        fps = 0.0
    if not 0 < fps <= 1000:
        raise ValueError(f"fps must be a number above 0 (at most 1000), not {text!r}")
    return fps


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _parse_bool(text: str) -> bool:
    if text.lower() in _TRUE | _FALSE:
        return text.lower() in _TRUE
    raise ValueError(f"expected one of 1/0, true/false, yes/no, on/off, not {text!r}")


def _parse_fourcc(text: str) -> str | None:
    if text.lower() == "none":
        return None
    if len(text) != 4 or not text.isascii():
        raise ValueError(f"fourcc must be 4 characters such as MJPG or YUYV (or 'none'), not {text!r}")
    return text.upper()


_OPTION_PARSERS = {
    "size": _parse_size,
    "fps": _parse_fps,
    "loop": _parse_bool,
    "realtime": _parse_bool,
    "fourcc": _parse_fourcc,
}


def _error(text: str, problem: str) -> CameraUrlError:
    return CameraUrlError(f"camera {text!r} {problem}; accepted forms:\n{ACCEPTED_FORMS}")


def _local_target(scheme: str, target: str, text: str) -> str:
    if scheme in ("picamera2", "usb"):
        target = target or "0"
        if not (target.isdigit() or (scheme == "usb" and target.startswith("/dev/"))):
            raise _error(text, f"has no valid {scheme} camera number (got {target!r})")
        return target
    if target.startswith("//"):  # file:///abs/path -> /abs/path
        target = target[2:]
    if not target:
        raise _error(text, f"names no {'video file' if scheme == 'file' else 'folder'}")
    return os.path.expanduser(target)


def parse_camera_url(text: str, **defaults: object) -> CameraConfig:
    """Parse a ``--camera`` string; ``defaults`` are :class:`CameraConfig` fields the URL may override.

    >>> parse_camera_url("picamera2", size=(2304, 1296)).size
    (2304, 1296)
    >>> parse_camera_url("file:game.mp4?fps=3")
    Traceback (most recent call last):
    ...
    hardware.cameras.url.CameraUrlError: camera 'file:game.mp4?fps=3' has option 'fps', which file: does not take (it takes: loop, realtime); accepted forms:
    ...
    """
    text = text.strip()
    scheme, colon, rest = text.partition(":")
    scheme = scheme.lower()
    if scheme == "picamera2" and not colon:
        rest = "0"
    elif not colon or not scheme:
        hint = ""
        if os.path.isdir(text):
            hint = f" (for this folder use dir:{text})"
        elif os.path.isfile(text):
            hint = f" (for this file use file:{text})"
        raise _error(text, f"has no scheme{hint}")
    if scheme in NETWORK_SCHEMES:
        if not rest.startswith("//") or len(rest) <= 2:
            raise _error(text, f"is not a {scheme}:// URL")
        return CameraConfig(scheme=scheme, target=text, **defaults)  # type: ignore[arg-type]
    if scheme not in SCHEME_OPTIONS:
        raise _error(text, f"has unknown scheme {scheme!r}")

    target, _, query = rest.partition("?")
    fields: dict[str, object] = dict(defaults)
    for key, value in parse_qsl(query, keep_blank_values=True, strict_parsing=False):
        key = key.lower()
        if key not in SCHEME_OPTIONS[scheme]:
            takes = ", ".join(SCHEME_OPTIONS[scheme])
            raise _error(text, f"has option {key!r}, which {scheme}: does not take (it takes: {takes})")
        try:
            fields[key] = _OPTION_PARSERS[key](value)
        except ValueError as exc:
            raise _error(text, f"has a bad {key} option: {exc}") from None
    return CameraConfig(scheme=scheme, target=_local_target(scheme, target, text), **fields)  # type: ignore[arg-type]

