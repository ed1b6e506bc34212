"""The tile reader's fast paths give the very numbers of the straightforward ones they stand for:
each helper against the plain numpy arithmetic, and whole readings of rendered tables with every
fast path swapped for its plain twin (tiles, confidences, outlines and doubts all equal)."""

import math

import cv2
import numpy as np
import pytest

import vision.tiles.outlines as outlines_module
import vision.tiles.reader as reader_module
from engine.cards import PALETTES
from vision.synth.tiles import TileSceneParams, render_tile_scene
from vision.tiles.grouping import Placed, outline
from vision.tiles.outlines import SEAM_PERCENTILE, _percentiles, _Scaled, _seam_rows
from vision.tiles.patches import FACE_LEVEL, balance, balanced_both_ways, cut_patch
from vision.tiles.reader import TileReader, _middles


def plain_balance(patches: np.ndarray) -> np.ndarray:
    """Every pixel scaled in float32, as :func:`balance` defines it."""
    batch = patches if patches.ndim == 4 else patches[None]
    n, h, w = batch.shape[:3]
    middle = batch[:, h // 6:h - h // 6, w // 5:w - w // 5].reshape(n, -1, 3).astype(np.float32)
    brightness = middle.sum(axis=2)
    bright = brightness >= np.median(brightness, axis=1, keepdims=True)
    face = (middle * bright[:, :, None]).sum(axis=1) / bright.sum(axis=1, keepdims=True)
    gains = FACE_LEVEL / np.maximum(face, 8.0)
    balanced = np.clip(batch.astype(np.float32) * gains[:, None, None, :], 0, 255).astype(np.uint8)
    return balanced if patches.ndim == 4 else balanced[0]


def plain_balanced_both_ways(upright: np.ndarray) -> np.ndarray:
    """Each patch and the patch turned over, every one balanced on its own."""
    both = np.stack([patch for upright_patch in upright for patch in (upright_patch, upright_patch[::-1, ::-1])])
    return plain_balance(both)


def plain_near_colour(self: _Scaled, a: float, b: float, tolerance: float, window=None) -> np.ndarray:
    near = np.hypot(self.a - a, self.b - b) < tolerance
    return near if window is None else near[window]


def plain_merged_looks(mask: np.ndarray, merged: list, margin: int, stricter=None):
    """The merged blobs' pixels on the whole mask, the stricter mask made for the whole frame."""
    blob = np.zeros_like(mask)
    cv2.drawContours(blob, merged, -1, 255, -1)
    whole = (slice(None), slice(None))
    return [blob & mask] + ([blob & mask & stricter(whole)] if stricter else []), (0, 0)


def plain_chroma(self: _Scaled) -> np.ndarray:
    return np.hypot(self.a, self.b)


def plain_seam_profiles(self: _Scaled, rects: list) -> list[np.ndarray]:
    return [np.percentile(_seam_rows(self.bgr, rect), SEAM_PERCENTILE, axis=0) for rect in rects]


def plain_middles(grey: np.ndarray, places: list[Placed], which: tuple[float, ...]) -> np.ndarray:
    found = []
    for place in places:
        half = max(1, int(min(place.width, place.height) / 3))
        x, y = int(round(place.x)), int(round(place.y))
        window = grey[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
        found.append(np.percentile(window, which) if window.size else np.zeros(len(which)))
    return np.array(found).reshape(len(places), len(which))


def plain_outline(tile: Placed) -> tuple[tuple[float, float], ...]:
    right = np.array([math.cos(tile.angle), math.sin(tile.angle)])
    down = np.array([-math.sin(tile.angle), math.cos(tile.angle)])
    center = np.array([tile.x, tile.y])
    return tuple(tuple(float(v) for v in center + sx * tile.width / 2 * right + sy * tile.height / 2 * down)
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


@pytest.fixture(scope="module")
def scene():
    return render_tile_scene(np.random.default_rng(4), TileSceneParams(palette="rummikub", fonts="heldout"))


def test_balance_by_tables_equals_scaling_every_pixel(scene):
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 256, (40, 40, 32, 3), dtype=np.uint8)
    cut = np.stack([cut_patch(scene.image, t.center, t.angle, t.height) for t in scene.tiles])
    for patches in (noise, cut, cut[:, ::-1, ::-1], np.zeros((3, 40, 32, 3), np.uint8)):
        assert np.array_equal(balance(patches), plain_balance(patches))
        assert np.array_equal(balanced_both_ways(patches), plain_balanced_both_ways(patches))
    assert np.array_equal(balance(cut[0]), plain_balance(cut[0]))


def test_colour_tests_by_tables_equal_the_arithmetic_on_every_pixel(scene):
    small = cv2.resize(scene.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    scaled = _Scaled.of(small)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32) - np.float32([0, 128, 128])
    assert all(np.array_equal(plane, lab[:, :, k]) for k, plane in enumerate((scaled.light, scaled.a, scaled.b)))
    assert np.array_equal(scaled.chroma(), plain_chroma(scaled))
    rng = np.random.default_rng(1)
    faces = [(float(np.median(scaled.a)), float(np.median(scaled.b)))] + [tuple(rng.uniform(-60, 60, 2)) for _ in range(30)]
    for a, b in faces:
        for tolerance in (10.0, 20.0, 32.0, float(rng.uniform(1, 50))):
            assert np.array_equal(scaled.near_colour(a, b, tolerance), plain_near_colour(scaled, a, b, tolerance))


def test_seam_profiles_side_by_side_equal_one_percentile_per_rectangle(scene):
    small = cv2.resize(scene.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(2)
    rects = [((float(rng.uniform(40, 600)), float(rng.uniform(40, 320))),
              (float(rng.uniform(8, 200)), float(rng.uniform(8, 30))), float(rng.uniform(-90, 90))) for _ in range(60)]
    scaled = _Scaled.of(small)
    fast = scaled.seam_profiles(rects[:40]) + [scaled.seam_profile(rect) for rect in rects[30:]]
    plain = plain_seam_profiles(scaled, rects[:40] + rects[30:])
    assert all(p.dtype == q.dtype and np.array_equal(p, q) for p, q in zip(fast, plain, strict=True))


def test_stacked_window_percentiles_and_sorted_percentiles_equal_numpy_one_by_one():
    rng = np.random.default_rng(3)
    for trial in range(30):
        grey = rng.integers(0, 256, (120, 200), dtype=np.uint8) // (1 + trial % 4 * 40)   # ties too
        places = [Placed(*rng.uniform(-20, 220, 2), 0.0, *rng.uniform(6, 40, 2)) for _ in range(40)]
        for which in ((90,), (90, 5, 95)):
            assert np.array_equal(_middles(grey, places, which), plain_middles(grey, places, which))
        values = rng.normal(100, 30, (90, 160)).astype(np.float32)
        for data in (values, np.round(values), grey.astype(np.float32)):
            assert np.array_equal(_percentiles(data, (60, 92, 97, 99.5)), np.percentile(data, (60, 92, 97, 99.5)))


def test_outlines_in_plain_floats_equal_the_vector_arithmetic():
    rng = np.random.default_rng(4)
    for _ in range(2000):
        tile = Placed(*rng.uniform(-2000, 2000, 2), rng.uniform(-7, 7), *rng.uniform(5, 90, 2))
        assert outline(tile) == plain_outline(tile)


@pytest.mark.parametrize("palette", list(PALETTES))
def test_readings_through_the_fast_paths_equal_readings_through_the_plain_ones(palette, monkeypatch):
    reader = TileReader(palette=PALETTES[palette])
    scenes = [render_tile_scene(np.random.default_rng([23, seed]), TileSceneParams(palette=palette, fonts="heldout"))
              for seed in range(3)]
    fast = [reader.read(scene.image) for scene in scenes]
    monkeypatch.setattr(reader_module, "balance", plain_balance)
    monkeypatch.setattr(reader_module, "balanced_both_ways", plain_balanced_both_ways)
    monkeypatch.setattr(outlines_module, "_merged_looks", plain_merged_looks)
    monkeypatch.setattr(reader_module, "outline", plain_outline)
    monkeypatch.setattr(reader_module, "_middles", plain_middles)
    monkeypatch.setattr(outlines_module, "_percentiles", np.percentile)
    monkeypatch.setattr(_Scaled, "near_colour", plain_near_colour)
    monkeypatch.setattr(_Scaled, "chroma", plain_chroma)
    monkeypatch.setattr(_Scaled, "seam_profiles", plain_seam_profiles)
    plain = [reader.read(scene.image) for scene in scenes]
    assert sum(len(reading.tiles) for reading in fast) >= 30
    for a, b in zip(fast, plain):
        assert a.tiles == b.tiles
        assert [(str(d), reader_module.doubt_place(d)) for d in a.doubts] == [(str(d), reader_module.doubt_place(d))
                                                                             for d in b.doubts]


def test_merged_blobs_opened_in_their_window_equal_the_whole_mask_opened(scene):
    small = cv2.resize(scene.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    scaled = _Scaled.of(small)
    face = (float(np.percentile(scaled.light, 97)), float(np.median(scaled.a)), float(np.median(scaled.b)))
    rng = np.random.default_rng(5)
    for trial in range(40):
        mask = np.zeros(small.shape[:2], np.uint8)
        for _ in range(6):      # tiles with light stripes through them, some at the frame's edge
            x, y = rng.integers(-20, small.shape[1]), rng.integers(-20, small.shape[0])
            cv2.rectangle(mask, (int(x), int(y)), (int(x + rng.integers(10, 80)), int(y + rng.integers(10, 40))), 255, -1)
            cv2.line(mask, (int(x), int(y)), (int(x + rng.integers(-90, 90)), int(y + rng.integers(-90, 90))), 255, 3)
        merged = list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])[:1 + trial % 3]
        size = int(rng.integers(3, 16))
        kernel = cv2.getStructuringElement(outlines_module.REOPEN_KERNEL, (size, size))
        stricter = lambda box: outlines_module.face_mask(scaled, face, 10.0, window=box)   # noqa: E731
        looks, (x0, y0) = outlines_module._merged_looks(mask, merged, max(size, outlines_module.FACE_MASK_REACH),
                                                        stricter)
        whole, _ = plain_merged_looks(mask, merged, 0, stricter)
        for look, plain in zip(looks, whole, strict=True):
            opened = np.zeros_like(mask)
            opened[y0:y0 + look.shape[0], x0:x0 + look.shape[1]] = cv2.morphologyEx(look, cv2.MORPH_OPEN, kernel)
            assert np.array_equal(opened, cv2.morphologyEx(plain, cv2.MORPH_OPEN, kernel))


def test_a_face_mask_of_a_window_equals_the_whole_frames_but_along_its_sides(scene):
    small = cv2.resize(scene.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    scaled = _Scaled.of(small)
    face = (float(np.percentile(scaled.light, 97)), float(np.median(scaled.a)), float(np.median(scaled.b)))
    whole = outlines_module.face_mask(scaled, face)
    reach = outlines_module.FACE_MASK_REACH
    rng = np.random.default_rng(6)
    for _ in range(40):
        y0, x0 = int(rng.integers(0, small.shape[0] - 20)), int(rng.integers(0, small.shape[1] - 20))
        window = (slice(y0, y0 + int(rng.integers(12, 200))), slice(x0, x0 + int(rng.integers(12, 300))))
        part = outlines_module.face_mask(scaled, face, window=window)
        # the window's sides inside the frame are left out, those on the frame's edge not
        top, left = (reach if y0 else 0), (reach if x0 else 0)
        bottom = part.shape[0] - (reach if window[0].stop < small.shape[0] else 0)
        right = part.shape[1] - (reach if window[1].stop < small.shape[1] else 0)
        assert np.array_equal(part[top:bottom, left:right], whole[window][top:bottom, left:right])
