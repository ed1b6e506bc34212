"""A test card: a drawn table scene that carries its frame number in a bar code.

Used to check a camera chain end to end (which frames arrived, in what order,
how many were dropped) without a camera: the MJPEG test server, the picamera2
stand-in and the recorded test videos all send test cards. The number survives
JPEG compression and scaling because each bit is a large black or white block.

>>> read_test_card(draw_test_card(1234))
1234
>>> read_test_card(draw_test_card(65535, size=(640, 360)))
65535
"""

from __future__ import annotations

import numpy as np

BITS = 16
_FELT_BGR = (40, 110, 30)


def draw_test_card(number: int, size: tuple[int, int] = (320, 240)) -> np.ndarray:
    """A BGR frame of ``size`` (width, height) showing two cards and ``number`` as 16 bits."""
    import cv2

    if not 0 <= number < 2**BITS:
        raise ValueError(f"test card number must be in 0..{2**BITS - 1}, not {number}")
    width, height = size
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = _FELT_BGR
    bar = height // 8
    cell = width // BITS
    for bit in range(BITS):
        value = 255 if number >> (BITS - 1 - bit) & 1 else 0
        frame[:bar, bit * cell : (bit + 1) * cell] = value
    # Two upright cards with a corner index, so the frames look like the real thing.
    card_w, card_h = width // 5, int(width // 5 * 88 / 63)
    for i, label in enumerate(("7H", "KS")):
        x, y = width // 4 + i * (card_w + width // 10), height // 3
        cv2.rectangle(frame, (x, y), (x + card_w, min(y + card_h, height - 1)), (250, 250, 250), -1)
        colour = (0, 0, 200) if label.endswith("H") else (20, 20, 20)
        cv2.putText(frame, label, (x + 3, y + card_h // 5), cv2.FONT_HERSHEY_SIMPLEX, card_w / 90, colour, 2)
    return frame


def read_test_card(frame: np.ndarray) -> int:
    """The number drawn by :func:`draw_test_card` into ``frame`` (BGR, any size)."""
    height, width = frame.shape[:2]
    bar, cell = height // 8, width // BITS
    number = 0
    for bit in range(BITS):
        block = frame[bar // 4 : bar * 3 // 4, bit * cell + cell // 4 : (bit + 1) * cell - cell // 4]
        number = number << 1 | int(block.mean() > 127)
    return number
