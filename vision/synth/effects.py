"""What a real camera does to a table: light, glare, blur, noise, colour, JPEG.

Each effect takes and returns a float32 BGR image (0..255); :func:`photograph`
applies a random selection of them and returns uint8.

>>> import numpy as np
>>> image = np.full((40, 60, 3), 128, np.float32)
>>> photographed = photograph(np.random.default_rng(0), image)
>>> photographed.shape, photographed.dtype.name
((40, 60, 3), 'uint8')
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .backgrounds import gaussian_noise, smooth_noise


def light_gradient(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Room light: a smooth brightness field, brighter towards a lamp."""
    h, w = image.shape[:2]
    sw, sh = max(2, w // 16), max(2, h // 16)  # smooth: compute coarse, scale up
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32) * 16
    lamp = rng.uniform(-0.5, 1.5, 2) * (w, h)
    distance = np.hypot(xs - lamp[0], ys - lamp[1]) / max(w, h)
    field = 1.15 - rng.uniform(0.1, 0.6) * distance + 0.15 * (smooth_noise(rng, sw, sh, max(sw, sh) / 3) - 0.5)
    field = cv2.resize((field * rng.uniform(0.6, 1.2)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return image * field[:, :, None]


def glare(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Specular spots of a lamp on glossy cards: soft bright ellipses."""
    h, w = image.shape[:2]
    spot = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.02, 0.12) * w), int(rng.uniform(0.01, 0.08) * w))
        cv2.ellipse(spot, centre, axes, rng.uniform(0, 180), 0, 360, float(rng.uniform(0.3, 1.0)), -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(w, h) * rng.uniform(0.005, 0.03))
    return image + spot[:, :, None] * rng.uniform(60, 220)


def white_balance(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A colour cast: warm tungsten, cold daylight or a green-ish fluorescent."""
    return image * rng.uniform(0.78, 1.22, 3).astype(np.float32)


def defocus(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    sigma = rng.uniform(0.3, 1.3) * max(image.shape[:2]) / 1280
    return cv2.GaussianBlur(image, (0, 0), sigma)


def lens_defocus(rng: np.random.Generator, image: np.ndarray, radius: tuple[float, float] = (1.0, 2.5)) -> np.ndarray:
    """A lens out of focus: a disc kernel (a Gaussian blur keeps strokes crisper than a real
    defocus does), its radius in pixels drawn from ``radius``.

    >>> dot = np.zeros((9, 9), np.float32); dot[4, 4] = 1
    >>> spread = lens_defocus(np.random.default_rng(0), dot, (2.0, 2.0))
    >>> round(float(spread.sum()), 3), bool(spread[4, 2] > 0), float(spread[4, 0])
    (1.0, True, 0.0)
    """
    r = float(rng.uniform(*radius))
    size = 2 * math.ceil(r) + 1
    ys, xs = np.mgrid[:size, :size] - size // 2
    kernel = np.clip(r + 0.5 - np.hypot(xs, ys), 0, 1).astype(np.float32)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def motion_blur(rng: np.random.Generator, image: np.ndarray, length: tuple[int, int] = (3, 10)) -> np.ndarray:
    """A shaken camera: a streak ``length`` px long (at 1280 px; the high end excluded) at any angle."""
    length = int(rng.integers(*length) * max(1.0, max(image.shape[:2]) / 1280))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rotation = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rotation, (length, length))
    return cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))


def sensor_noise(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Shot noise (stronger in bright parts) plus read noise, partly coloured."""
    h, w = image.shape[:2]
    sigma = rng.uniform(1, 7)
    noise = gaussian_noise(rng, (h, w, 3), rng.uniform(0, 0.6))
    noise += gaussian_noise(rng, (h, w, 1), 1.0)
    shot = np.sqrt(np.clip(image, 0, 255) * np.float32(1 / 255)) + np.float32(0.5)
    return image + np.float32(sigma) * noise * shot


def low_resolution(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A cheap camera: details lost to a smaller sensor, scaled back up."""
    h, w = image.shape[:2]
    factor = rng.uniform(0.4, 0.8)
    small = cv2.resize(image, (max(1, int(w * factor)), max(1, int(h * factor))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def sharpen(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A phone camera's unsharp mask: haloes along edges, noise made crisper."""
    sigma = rng.uniform(0.8, 2.5) * max(image.shape[:2]) / 1280
    amount = np.float32(rng.uniform(0.4, 1.5))
    return image + amount * (image - cv2.GaussianBlur(image, (0, 0), sigma))


def vignette(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """A phone lens's darker corners."""
    h, w = image.shape[:2]
    ys, xs = np.ogrid[0:h, 0:w]
    r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2
    return image * (1 - rng.uniform(0.15, 0.45) * np.minimum(r2, 2.0) / 2).astype(np.float32)[:, :, None]


def jpeg(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    quality = int(rng.integers(20, 96))
    ok, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR).astype(np.float32)


# (effect, probability) in the order a camera applies them.
_PIPELINE = (
    (light_gradient, 0.8), (glare, 0.35), (white_balance, 0.7), (defocus, 0.35), (motion_blur, 0.15),
    (low_resolution, 0.15), (vignette, 0.25), (sensor_noise, 0.7), (sharpen, 0.3), (jpeg, 0.8),
)


def photograph(rng: np.random.Generator, image: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Apply each camera effect with its probability (scaled by ``strength``, 0 = none)."""
    for effect, probability in _PIPELINE:
        if rng.random() < probability * strength:
            image = effect(rng, image)
    return np.clip(image, 0, 255).astype(np.uint8)
