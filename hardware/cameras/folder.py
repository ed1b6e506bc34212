"""A folder of still images played as a camera, in natural name order (``frame2`` before ``frame10``)."""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path

import numpy as np

from hardware.cameras.base import CameraClosed, CameraSetupError, CameraSource, EndOfStream, Pacer, as_bgr
from hardware.cameras.url import CameraConfig

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


def natural_key(path: Path) -> list[object]:
    """Sort key that orders embedded numbers by value.

    >>> sorted(["f10.png", "f2.png", "f1.png"], key=lambda p: natural_key(Path(p)))
    ['f1.png', 'f2.png', 'f10.png']
    """
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class ImageFolderCamera(CameraSource):
    """Images of a folder, one per ``read()``, paced to ``fps`` (``None``: as fast as read).

    An image that cannot be decoded is skipped with a warning and listed in
    :attr:`skipped` as ``(path, reason)``; the rest goes on. A folder none of
    whose images decode is a :class:`CameraSetupError`.
    """

    def __init__(self, folder: Path, name: str, *, fps: float | None, loop: bool) -> None:
        self.name = name
        self.folder = folder
        self.loop = loop
        self.paths = sorted(
            (p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()), key=natural_key
        )
        if not self.paths:
            kinds = ", ".join(sorted(IMAGE_SUFFIXES))
            raise CameraSetupError(f"{name}: no images ({kinds}) in {folder}")
        self.skipped: list[tuple[Path, str]] = []
        self._fps = fps
        self._next = 0
        self._decoded_this_pass = 0
        self._resolution: tuple[int, int] | None = None
        self._closed = threading.Event()
        self._pacer = Pacer(fps, self._closed)

    @property
    def resolution(self) -> tuple[int, int] | None:
        return self._resolution

    @property
    def fps(self) -> float | None:
        return self._fps

    def _decode(self, path: Path) -> np.ndarray | None:
        import cv2

        try:
            data = np.frombuffer(path.read_bytes(), np.uint8)
        except OSError as exc:
            reason = f"cannot read: {exc.strerror or exc}"
        else:
            image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
            if image is not None:
                return as_bgr(image, self.name)
            reason = "empty file" if not data.size else "not a decodable image"
        if all(skipped != path for skipped, _ in self.skipped):
            log.warning("%s: skipping %s: %s", self.name, path.name, reason)
            self.skipped.append((path, reason))
        return None

    def read(self) -> np.ndarray:
        while True:
            if self._closed.is_set():
                raise CameraClosed(f"{self.name}: camera is closed")
            if self._next == len(self.paths):
                if not self._decoded_this_pass:
                    raise CameraSetupError(f"{self.name}: none of the {len(self.paths)} images could be decoded")
                if not self.loop:
                    raise EndOfStream(f"{self.name}: last image read")
                self._next, self._decoded_this_pass = 0, 0
            path = self.paths[self._next]
            self._next += 1
            image = self._decode(path)
            if image is not None:
                self._decoded_this_pass += 1
                self._pacer.wait()
                self._resolution = (image.shape[1], image.shape[0])
                return image

    def close(self) -> None:
        self._closed.set()


def open_image_folder(config: CameraConfig) -> ImageFolderCamera:
    folder = Path(config.target)
    if not folder.is_dir():
        raise CameraSetupError(f"{config.url}: no such folder")
    return ImageFolderCamera(folder, config.url, fps=config.fps, loop=config.loop)
