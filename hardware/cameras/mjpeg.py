"""MJPEG over HTTP (``multipart/x-mixed-replace``), the stream phone camera apps and IP cameras serve.

Parsed here with :mod:`http.client` rather than through OpenCV/FFmpeg, so that
time-outs, a server that goes away, and a clean stop from another thread
(shutting the socket down) behave the same everywhere.
"""

from __future__ import annotations

import base64
import http.client
import logging
import socket
import threading
from urllib.parse import unquote, urlsplit

import numpy as np

from hardware.cameras.base import (
    CameraClosed,
    CameraError,
    CameraLost,
    CameraSetupError,
    CameraSource,
    CameraUnavailable,
    as_bgr,
)
from hardware.cameras.url import CameraConfig

log = logging.getLogger(__name__)

#: Bounds that keep a stream that is not MJPEG from eating memory.
MAX_PART_BYTES = 16 * 1024 * 1024
MAX_HEADER_LINES = 64
#: Undecodable parts in a row before the stream counts as lost.
MAX_BAD_PARTS = 10


class MjpegStream(CameraSource):
    """One HTTP connection to an MJPEG stream; every ``read()`` returns the next JPEG part."""

    def __init__(self, config: CameraConfig) -> None:
        self.name = config.url
        self.timeout_s = config.timeout_s
        self.bad_parts = 0
        self._resolution: tuple[int, int] | None = None
        self._closed = threading.Event()
        self._at_part_headers = False
        self._socket: socket.socket | None = None
        self._reading = threading.Lock()
        self._released = False
        self._connection, self._response = self._connect(config)
        self._boundary = self._boundary_of(self._response)

    def _connect(self, config: CameraConfig) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        url = urlsplit(config.target)
        connection_class = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        try:
            port = url.port
        except ValueError as exc:
            raise CameraSetupError(f"{self.name}: bad port ({exc})") from None
        if not url.hostname:
            raise CameraSetupError(f"{self.name}: the URL names no host")
        connection = connection_class(url.hostname, port, timeout=config.timeout_s)
        headers = {"User-Agent": "rummyref", "Accept": "multipart/x-mixed-replace, image/jpeg"}
        if url.username is not None:  # http://user:password@phone:8080/video
            credentials = f"{unquote(url.username)}:{unquote(url.password or '')}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(credentials).decode()
        path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        try:
            connection.request("GET", path, headers=headers)
            # Kept for close(): the connection drops its reference once the response owns the socket.
            self._socket = connection.sock
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            raise CameraUnavailable(f"{self.name}: cannot connect ({exc})") from exc
        if response.status != 200:
            connection.close()
            problem = f"{self.name}: the server answered HTTP {response.status} {response.reason}"
            if response.status in (401, 403, 404):
                raise CameraSetupError(f"{problem} (check the path and the user:password in the URL)")
            raise CameraUnavailable(problem)
        return connection, response

    def _boundary_of(self, response: http.client.HTTPResponse) -> bytes:
        content_type = response.headers.get_content_type()
        boundary = response.headers.get_param("boundary")
        if content_type != "multipart/x-mixed-replace" or not isinstance(boundary, str):
            self.close()
            raise CameraSetupError(
                f"{self.name}: the server sent {content_type}, not an MJPEG stream "
                "(multipart/x-mixed-replace with a boundary); phone apps serve it under a path such as /video"
            )
        boundary = boundary.strip('"')
        return (boundary if boundary.startswith("--") else "--" + boundary).encode()

    @property
    def resolution(self) -> tuple[int, int] | None:
        return self._resolution

    def _readline(self) -> bytes:
        line = self._response.readline(MAX_PART_BYTES)
        if not line:
            raise CameraLost(f"{self.name}: the server closed the stream")
        return line

    def _next_part(self) -> bytes:
        """The body of the next multipart part."""
        if not self._at_part_headers:
            line, skipped = self._readline(), 0
            while line.strip() != self._boundary:
                if line.strip() == self._boundary + b"--":
                    raise CameraLost(f"{self.name}: the server ended the stream")
                skipped += len(line)
                if skipped > MAX_PART_BYTES:
                    boundary = self._boundary.decode("latin-1")
                    raise CameraLost(f"{self.name}: no part boundary {boundary!r} in {skipped} bytes of stream")
                line = self._readline()
        self._at_part_headers = False
        length: int | None = None
        for _ in range(MAX_HEADER_LINES):
            line = self._readline()
            if not line.strip():
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length" and value.strip().isdigit():
                length = int(value)
        else:
            raise CameraLost(f"{self.name}: a part has more than {MAX_HEADER_LINES} header lines")
        if length is not None:
            if length > MAX_PART_BYTES:
                raise CameraLost(f"{self.name}: a part of {length} bytes is too large for a frame")
            body = self._response.read(length)
            if len(body) < length:
                raise CameraLost(f"{self.name}: the stream broke off inside a frame")
            return body
        # No Content-Length: the part runs to the next boundary line.
        chunks: list[bytes] = []
        size = 0
        while True:
            line = self._readline()
            if line.strip() == self._boundary:
                self._at_part_headers = True  # the next part's headers follow
                break
            chunks.append(line)
            size += len(line)
            if size > MAX_PART_BYTES:
                raise CameraLost(f"{self.name}: a part larger than {MAX_PART_BYTES} bytes; not an MJPEG stream")
        return b"".join(chunks).removesuffix(b"\r\n")

    def _receive(self) -> bytes:
        """The next part's body; only one thread at a time touches the response."""
        with self._reading:
            try:
                if self._closed.is_set():
                    raise CameraClosed(f"{self.name}: camera is closed")
                return self._next_part()
            except TimeoutError as exc:
                failure: CameraError = CameraLost(f"{self.name}: no data for {self.timeout_s:g} s")
                cause: BaseException = exc
            except (CameraError, OSError, ValueError, http.client.HTTPException) as exc:
                failure = exc if isinstance(exc, CameraError) else CameraLost(
                    f"{self.name}: connection failed ({exc})"
                )
                cause = exc
            if self._closed.is_set():  # close() shut the socket down under us
                self._release_locked()
                failure = CameraClosed(f"{self.name}: camera is closed")
            raise failure from cause

    def read(self) -> np.ndarray:
        import cv2

        while True:
            body = self._receive()
            frame = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR) if body else None
            if frame is not None:
                self.bad_parts = 0
                frame = as_bgr(frame, self.name)
                self._resolution = (frame.shape[1], frame.shape[0])
                return frame
            self.bad_parts += 1
            log.warning("%s: skipping a part that is not a decodable JPEG (%d bytes)", self.name, len(body))
            if self.bad_parts >= MAX_BAD_PARTS:
                raise CameraLost(f"{self.name}: {self.bad_parts} undecodable frames in a row")

    def _release_locked(self) -> None:
        if not self._released:
            self._released = True
            self._response.close()
            self._connection.close()

    def close(self) -> None:
        self._closed.set()
        if self._socket is not None:
            try:  # wakes a read blocked in another thread at once
                self._socket.shutdown(socket.SHUT_RDWR)
            except OSError:  # already disconnected
                pass
        # http.client is not thread-safe: a reading thread releases the response itself.
        if self._reading.acquire(blocking=False):
            try:
                self._release_locked()
            finally:
                self._reading.release()


def open_mjpeg(config: CameraConfig) -> MjpegStream:
    return MjpegStream(config)
