"""Adapting the tile reader to a player's own set from a photo of a guided layout.

The layout (say it to the player exactly like this): lay one tile of each number and colour
face up and upright, apart (not touching), in four rows: one row per colour in the set's
order (Ravensburger: yellow, green, blue, red; Rummikub-style: black, blue, orange, red),
each row 1 2 3 ... 13 from left to right. Photograph the rows from above: one photo of all
four, or several photos each of whole rows in that order.

The tiles are found like any table's (:mod:`vision.tiles.outlines`); the rows are split at
the largest vertical gaps and each is read left to right. Patches of every tile (jittered
like the outline finder's errors, upright and upside down) are fed through the classifier,
and its last layer is refitted on their embeddings with :func:`vision.learn_deck.fit_head`
(pulled towards the shipped layer). The result is a :class:`vision.decks.DeckProfile`
stored as ``tiles-SET``, used by ``rummyref recognize --tiles SET``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from engine.cards import TilePalette
from vision.decks import DeckProfile
from vision.learn_deck import _colour_variants, fit_head, shipped_head
from vision.tiles.labels import NONE_CLASS, UPSIDE_CLASS, class_of
from vision.tiles.outlines import TileCandidate, find_tiles
from vision.tiles.patches import jittered_patch, tile_patch
from vision.tiles.reader import TileReader

ROW_LENGTH = 13


class TileLayoutError(ValueError):
    """A photo does not show the guided layout."""


def profile_name(set_name: str) -> str:
    """The stored name of a set's learned last layer.

    >>> profile_name("rummikub")
    'tiles-rummikub'
    """
    return f"tiles-{set_name}"


def learned_profile(set_name: str) -> DeckProfile | None:
    """The set's last layer learned with ``rummyref learn-tiles``, or None where it was never learned."""
    name = profile_name(set_name)
    return DeckProfile.load(name) if DeckProfile.path(name).is_file() else None


def layout_order(palette: TilePalette) -> list[str]:
    """Tile codes row after row as the layout lays them.

    >>> from engine.cards import RUMMIKUB
    >>> layout_order(RUMMIKUB)[:2], layout_order(RUMMIKUB)[-1]
    (['K1', 'K2'], 'R13')
    """
    return [f"{colour}{n}" for colour in palette.colours for n in range(1, ROW_LENGTH + 1)]


def read_layout(reader: TileReader, frame: np.ndarray, first_row: int, photo: str) -> list[tuple[str, TileCandidate]]:
    """Label the tiles of one photo of whole rows, the first of them row ``first_row``."""
    candidates = find_tiles(frame)
    if candidates:
        patches = np.stack([tile_patch(frame, (c.x, c.y), c.angle, c.height) for c in candidates])
        logits, _ = reader.classify(patches)
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        tile_like = 1.0 - shifted[:, NONE_CLASS] / shifted.sum(axis=1)
        candidates = [c for c, p in zip(candidates, tile_like) if p > 0.3]
    candidates.sort(key=lambda c: c.y)
    rows = max(1, round(len(candidates) / ROW_LENGTH))
    gaps = sorted(range(1, len(candidates)), key=lambda i: candidates[i].y - candidates[i - 1].y)[-(rows - 1):] if rows > 1 else []
    bounds = [0, *sorted(gaps), len(candidates)]
    grid = [sorted(candidates[a:b], key=lambda c: c.x) for a, b in zip(bounds, bounds[1:])]
    colours = reader.palette.colours
    if not candidates or any(len(row) != ROW_LENGTH for row in grid):
        raise TileLayoutError(
            f"{photo}: found {len(candidates)} tiles in rows of {[len(r) for r in grid]}, expected whole rows of "
            f"{ROW_LENGTH}; lay the tiles upright and apart, one row per colour, and photograph them from above")
    if first_row + rows > len(colours):
        raise TileLayoutError(f"{photo}: more rows than the {len(colours)} colours of the set")
    return [(f"{colours[first_row + r]}{column + 1}", tile)
            for r, row in enumerate(grid) for column, tile in enumerate(row)]


def _patches(frame: np.ndarray, labelled: list[tuple[str, TileCandidate]], rng: np.random.Generator,
             variants: int) -> tuple[np.ndarray, np.ndarray]:
    patches, classes = [], []
    for code, c in labelled:
        for v in range(variants):
            strength = 0.0 if v == 0 else 1.0
            patches.append(jittered_patch(frame, (c.x, c.y), c.angle, c.height, rng, strength))
            classes.append(class_of(code))
            if v % 3 == 0:
                patches.append(jittered_patch(frame, (c.x, c.y), c.angle + math.pi, c.height, rng, strength))
                classes.append(UPSIDE_CLASS)
    h, w = frame.shape[:2]
    heights = [c.height for _, c in labelled]
    for _ in range(3 * len(labelled)):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if any(math.hypot(x - c.x, y - c.y) < 0.8 * c.height for _, c in labelled):
            continue
        patches.append(tile_patch(frame, (x, y), rng.uniform(-math.pi, math.pi), float(rng.choice(heights))))
        classes.append(NONE_CLASS)
    return np.stack(patches), np.asarray(classes)


def learn_tiles(reader: TileReader, photos: list[tuple[str, np.ndarray]], set_name: str, seed: int = 0,
                variants: int = 12, progress: Callable[[str], None] = lambda line: None) -> DeckProfile:
    """Read the guided layout from ``photos`` (name, BGR frame) and fit the set's last layer."""
    rng = np.random.default_rng(seed)
    base = reader.with_palette(reader.palette, None)     # read the layout with the shipped layer
    all_patches, all_classes, row = [], [], 0
    for photo, frame in photos:
        labelled = read_layout(base, frame, row, photo)
        row += len(labelled) // ROW_LENGTH
        progress(f"{photo}: {len(labelled)} tiles, {len(labelled) // ROW_LENGTH} row(s)")
        patches, classes = _patches(frame, labelled, rng, variants)
        all_patches.append(_colour_variants(patches, rng))
        all_classes.append(classes)
    if row != len(reader.palette.colours):
        raise TileLayoutError(f"the photos show {row} rows of the layout; all {len(reader.palette.colours)} are needed "
                              f"(one per colour: {', '.join(reader.palette.colour_names)})")
    patches, classes = np.concatenate(all_patches), np.concatenate(all_classes)
    logits, embeddings = base.classify(patches)
    weight0, bias0 = shipped_head(embeddings, logits)
    progress(f"fitting the last layer on {len(classes)} patches")
    weight, bias = fit_head(embeddings, classes, weight0, bias0)
    return DeckProfile(profile_name(set_name), weight, bias, classifier=reader.classifier_digest)
