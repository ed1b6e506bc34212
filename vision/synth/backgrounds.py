"""Table surfaces, drawn procedurally: wood, cloth and felt, patterned
tablecloths, noise textures, plain light and dark tables.

>>> import numpy as np
>>> table = random_table(np.random.default_rng(1), 64, 48)
>>> table.shape, table.dtype.name
((48, 64, 3), 'uint8')
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, width: int, height: int, cell: float) -> np.ndarray:
    """Value noise in 0..1 varying over about ``cell`` pixels (float32, HxW)."""
    gw, gh = max(2, int(width / cell) + 2), max(2, int(height / cell) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def fractal_noise(rng: np.random.Generator, width: int, height: int, cell: float, octaves: int = 4) -> np.ndarray:
    """Several octaves of :func:`smooth_noise`, normalised to 0..1."""
    total = np.zeros((height, width), np.float32)
    for octave in range(octaves):
        total += smooth_noise(rng, width, height, max(1.0, cell / 2 ** octave)) / 2 ** octave
    total -= total.min()
    return total / max(float(total.max()), 1e-6)


def _random_colour(rng: np.random.Generator, lightness: tuple[int, int] = (0, 255)) -> np.ndarray:
    """A BGR colour with a lightness (HSV value) in the given range."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(*lightness)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _blend(field: np.ndarray, dark: np.ndarray, light: np.ndarray) -> np.ndarray:
    return dark + field[:, :, None] * (light - dark)


def wood(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Wood grain: stretched rings warped by noise, in a random wood tone."""
    angle = rng.uniform(0, np.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = xs * np.cos(angle) + ys * np.sin(angle)
    across = -xs * np.sin(angle) + ys * np.cos(angle)
    warp = fractal_noise(rng, width, height, rng.uniform(100, 300)) * rng.uniform(20, 80)
    period = rng.uniform(6, 25)
    rings = 0.5 + 0.5 * np.sin((across + warp + 0.02 * along) / period * 2 * np.pi)
    grain = fractal_noise(rng, width, height, 6, 2)
    field = (0.65 * rings ** rng.uniform(0.5, 3) + 0.35 * grain).astype(np.float32)
    tones = [(20, 45, 90), (40, 80, 140), (60, 110, 170), (25, 30, 60), (90, 150, 200), (35, 40, 45)]
    base = np.float32(tones[rng.integers(len(tones))]) * rng.uniform(0.7, 1.3)
    image = _blend(field, base * 0.6, np.minimum(base * 1.5, 255))
    if rng.random() < 0.5:  # planks
        plank = rng.uniform(80, 300)
        seams = (np.abs(((across + 1000) % plank) - plank / 2) > plank / 2 - 1.5)
        image[seams] *= 0.5
    return image


def cloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Felt, fleece or cloth: one colour, blotchy shading and fine fibres."""
    base = _random_colour(rng, (40, 230))
    blotches = fractal_noise(rng, width, height, rng.uniform(40, 200), 3)
    fibres = rng.standard_normal((height, width)).astype(np.float32)
    fibres = cv2.GaussianBlur(fibres, (0, 0), rng.uniform(0.5, 1.5))
    field = 0.75 + 0.35 * blotches + rng.uniform(0.02, 0.1) * fibres
    return base * field[:, :, None]


def tablecloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Patterned tablecloths: gingham, stripes, polka dots, flowers of blobs."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xs * np.cos(angle) + ys * np.sin(angle)
    v = -xs * np.sin(angle) + ys * np.cos(angle)
    period = rng.uniform(15, 120)
    first, second = _random_colour(rng, (120, 256)), _random_colour(rng, (20, 256))
    kind = rng.integers(4)
    if kind == 0:  # gingham
        field = 0.5 * ((u % period) < period / 2) + 0.5 * ((v % period) < period / 2)
    elif kind == 1:  # stripes
        field = ((u % period) < period * rng.uniform(0.2, 0.7)).astype(np.float32)
    elif kind == 2:  # polka dots
        du, dv = (u % period) - period / 2, (v % period) - period / 2
        field = (du * du + dv * dv < (period * rng.uniform(0.15, 0.4)) ** 2).astype(np.float32)
    else:  # blotchy print
        field = (fractal_noise(rng, width, height, period, 3) > rng.uniform(0.4, 0.6)).astype(np.float32)
    field = cv2.GaussianBlur(field.astype(np.float32), (0, 0), 1.0)
    return _blend(field, first, second)


def noise_texture(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Marble-like multi-colour noise, including stone-like and busy surfaces."""
    field = fractal_noise(rng, width, height, rng.uniform(20, 400), int(rng.integers(2, 6)))
    colours = [_random_colour(rng) for _ in range(3)]
    low = _blend(np.clip(field * 2, 0, 1), colours[0], colours[1])
    return _blend(np.clip(field * 2 - 1, 0, 1), low, colours[2])


def plain(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A plain table in one colour, often light (white or grey laminate)."""
    lightness = (170, 256) if rng.random() < 0.6 else (10, 120)
    base = _random_colour(rng, lightness) * np.float32(rng.uniform(0.95, 1.05, 3))
    return base * (0.92 + 0.1 * smooth_noise(rng, width, height, 300))[:, :, None]


TABLES: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "wood": wood, "cloth": cloth, "tablecloth": tablecloth, "noise": noise_texture, "plain": plain,
}
_WEIGHTS = np.array([0.3, 0.25, 0.15, 0.15, 0.15])


def random_table(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A random table surface (BGR uint8), drawn at up to ~700 px and scaled up
    with fine noise added back, so large tables stay cheap."""
    kind = list(TABLES)[rng.choice(len(TABLES), p=_WEIGHTS)]
    scale = min(1.0, 700 / max(width, height))
    w, h = max(8, int(width * scale)), max(8, int(height * scale))
    image = TABLES[kind](rng, w, h)
    if scale < 1.0:
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)
        image += rng.normal(0, rng.uniform(1, 6), (height, width, 1)).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)
