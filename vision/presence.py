"""Cards that lie on the table but were not read: found by colour in a top-down view of the table.

The recognizer reads card indices; a card whose index it cannot read (an unusual court figure, a
glare) would simply be missing from a frame, and a missing card is worse than a doubtful one: a
discard nobody saw puts the turn order out, a fan short of a card splits into wrong melds. The
felt is green and a card (face or back) is not, so a top-down view of the table
(:func:`table_view`) shows where cards lie (:func:`card_mask`); :func:`unread_cards` compares that
with the cards read and names each place where a card lies unread, so that the tracker can ask
the players about exactly that card.

>>> mask = np.zeros((100, 200), np.uint8)
>>> mask[20:64, 40:72] = 1          # one card of 6.3 x 8.8 cm at 5 px/cm, left edge at 8 cm
>>> unread_cards(mask, 5.0, [], (0, 0, 40, 20))
[(11.2, 8.3)]
>>> unread_cards(mask, 5.0, [(11.1, 8.3)], (0, 0, 40, 20))
[]

A fan of three cards, 2 cm apart, whose first card was not read:

>>> mask[:] = 0; mask[20:64, 40:92] = 1
>>> unread_cards(mask, 5.0, [(13.1, 8.3), (15.1, 8.3)], (0, 0, 40, 20))
[(11.2, 8.3)]

Read nowhere, it is three cards to ask about (a fan's usual step apart):

>>> unread_cards(mask, 5.0, [], (0, 0, 40, 20))
[(11.2, 8.3), (13.1, 8.3), (15.1, 8.3)]

Its first card read twice 0.3 cm apart (its index and its face) and its last card read, the middle
one is unread: one card, not a gap cut into 0.3 cm steps:

>>> unread_cards(mask, 5.0, [(11.2, 8.3), (11.5, 8.3), (15.1, 8.3)], (0, 0, 40, 20))
[(13.3, 8.3)]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CARD_WIDTH_CM, CARD_HEIGHT_CM = 6.3, 8.8
"""A poker card (the same as :data:`engine.zones.CARD_WIDTH_CM`; vision does not import the engine's zones)."""
PX_PER_CM = 5.0
"""Resolution of the top-down view: a card index (about 1 cm) is five pixels, a card 31 x 44."""
FELT_RATIO = 1.6
"""A pixel whose green exceeds both blue and red by this factor is felt; anything else is card."""
MIN_CARD_SHARE = 0.4
"""A patch of card colour smaller than this share of a card is no card (a marker's corner, noise)."""
EDGE_SLACK_CM = 1.0
"""A row of cards may reach this far beyond the cards read in it (turned cards, estimated centres)
before the rest counts as a card of its own; a fan steps about 2 cm."""
GAP_CM = 3.4
"""Two cards read in one row this far apart, with card colour between them, have a card between
them (the tracker takes cards closer than 3.5 cm as one meld)."""
ROW_CM = 2.5
"""Cards read within this height of each other lie in one row."""
FAN_STEP_CM = 2.0
"""How far apart fanned cards usually lie, for a fan with too few cards read to tell."""
MIN_FAN_STEP_CM = 1.2
"""Fanned cards lie at least this far apart (their indices must show): two cards read closer together
are one card read twice (its index and its face), not a fan's step."""


def table_view(image: np.ndarray, homography: np.ndarray, size_cm: tuple[float, float],
               px_per_cm: float = PX_PER_CM) -> np.ndarray:
    """The table seen from above: ``homography`` maps image pixels to table cm (a calibration's)."""
    scale = np.diag([px_per_cm, px_per_cm, 1.0]) @ homography
    size = (int(round(size_cm[0] * px_per_cm)), int(round(size_cm[1] * px_per_cm)))
    return cv2.warpPerspective(image, scale, size, flags=cv2.INTER_AREA)


def card_mask(view: np.ndarray) -> np.ndarray:
    """1 where a card lies (anything that is not green felt), 0 on the felt; specks removed, ink filled.

    >>> view = np.zeros((20, 20, 3), np.uint8); view[:] = (38, 105, 30); view[5:15, 5:15] = 230
    >>> int(card_mask(view).sum())
    100
    """
    b, g, r = (view[:, :, k].astype(np.float32) for k in range(3))
    card = (g < FELT_RATIO * np.maximum(np.maximum(b, r), 1.0)).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    card = cv2.morphologyEx(card, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(card, cv2.MORPH_CLOSE, kernel)


def unread_cards(mask: np.ndarray, px_per_cm: float, read: Sequence[tuple[float, float]],
                 region: tuple[float, float, float, float], rows: bool = True,
                 marks: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float]]:
    """Centres (table cm) of cards lying in ``region`` (x0, y0, x1, y1 cm) that none of the cards
    ``read`` (their centres) accounts for: a patch of card colour without a card read on it, and
    (``rows``) in a row of cards read, card colour reaching a card beyond either end or a gap
    between two of them. A pile (cards on top of each other) is looked at without ``rows``.
    ``marks`` are the points where indices were read: a patch with one on it was read (a card's
    lower index read alone puts its estimated centre off the card).
    """
    x0, y0, x1, y1 = (int(round(v * px_per_cm)) for v in region)
    x0, y0 = max(x0, 0), max(y0, 0)
    part = np.ascontiguousarray(mask[y0:y1, x0:x1])
    if part.size == 0:
        return []
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(part, connectivity=8)
    card_px = CARD_WIDTH_CM * CARD_HEIGHT_CM * px_per_cm ** 2
    inside = [(x, y) for x, y in read if region[0] <= x < region[2] and region[1] <= y < region[3]]
    found: list[tuple[float, float]] = []
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < MIN_CARD_SHARE * card_px:
            continue
        mine = [(x, y) for x, y in inside if _label_at(labels, (x * px_per_cm - x0, y * px_per_cm - y0)) == label]
        marked = any(_label_at(labels, (x * px_per_cm - x0, y * px_per_cm - y0)) == label for x, y in marks)
        if not rows:  # a pile: only whether anything on it was read
            if not mine and not marked:
                found.append(_cm(centroids[label][0] + x0, centroids[label][1] + y0, px_per_cm))
            continue
        if not mine and marked:
            continue  # read only at an index whose estimated centre lies off it (a lower index)
        blob = (labels == label).astype(np.uint8)
        if not mine:  # nothing read on it: one row through its middle, each of its cards to be asked about
            found += _row_gaps(blob, [], (centroids[label][1] + y0) / px_per_cm, px_per_cm, (x0, y0))
            continue
        for row in _rows(mine):
            found += _row_gaps(blob, [x for x, _ in row], sum(y for _, y in row) / len(row), px_per_cm, (x0, y0))
    return found


def card_share(mask: np.ndarray, px_per_cm: float, x: float, y: float, radius_cm: float = 1.0) -> float:
    """The share of card colour in ``mask`` within ``radius_cm`` (a square) of the table point ``(x, y)``
    cm; 0.0 off the view.

    >>> mask = np.zeros((100, 200), np.uint8); mask[20:64, 40:72] = 1
    >>> card_share(mask, 5.0, 11.2, 8.3), card_share(mask, 5.0, 30.0, 8.3), card_share(mask, 5.0, 90.0, 8.3)
    (1.0, 0.0, 0.0)
    """
    r = radius_cm * px_per_cm
    x0, y0 = max(int(round(x * px_per_cm - r)), 0), max(int(round(y * px_per_cm - r)), 0)
    part = mask[y0:max(int(round(y * px_per_cm + r)) + 1, 0), x0:max(int(round(x * px_per_cm + r)) + 1, 0)]
    return float(part.mean()) if part.size else 0.0


def _label_at(labels: np.ndarray, point: tuple[float, float]) -> int:
    x, y = int(round(point[0])), int(round(point[1]))
    if 0 <= y < labels.shape[0] and 0 <= x < labels.shape[1]:
        return int(labels[y, x])
    return 0


def _cm(x_px: float, y_px: float, px_per_cm: float) -> tuple[float, float]:
    return round(float(x_px) / px_per_cm, 1), round(float(y_px) / px_per_cm, 1)


def _rows(points: Sequence[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Points grouped into rows (by height), each ordered left to right."""
    rows: list[list[tuple[float, float]]] = []
    for point in sorted(points, key=lambda p: p[1]):
        if rows and point[1] - rows[-1][-1][1] <= ROW_CM:
            rows[-1].append(point)
        else:
            rows.append([point])
    return [sorted(row) for row in rows]


def _row_gaps(blob: np.ndarray, xs: list[float], y: float, px_per_cm: float,
              origin: tuple[int, int]) -> list[tuple[float, float]]:
    """Unread cards of one row of cards at height ``y`` (cm) whose cards read lie at ``xs`` (cm, left
    to right; none: nothing read): where the card colour around the row's middle height reaches
    beyond the cards read (by more than :data:`EDGE_SLACK_CM`) or fills a gap between two of them.
    A gap or a row read nowhere holds as many cards as the row's step (between cards read, else
    :data:`FAN_STEP_CM`) makes room for."""
    band_top = int(round((y - CARD_HEIGHT_CM / 6) * px_per_cm)) - origin[1]
    band_bottom = int(round((y + CARD_HEIGHT_CM / 6) * px_per_cm)) - origin[1]
    band = blob[max(band_top, 0):max(band_bottom, 0)]
    if band.size == 0:
        return []
    covered = band.mean(axis=0) > 0.5
    if not covered.any():
        return []
    px = [x * px_per_cm - origin[0] for x in xs]
    inside = [int(np.clip(round(x), 0, len(covered) - 1)) for x in px] or [int(np.flatnonzero(covered)[0])]
    left, right = min(inside), max(inside)
    while left > 0 and covered[left - 1]:
        left -= 1
    while right < len(covered) - 1 and covered[right + 1]:
        right += 1
    half, slack = CARD_WIDTH_CM / 2 * px_per_cm, EDGE_SLACK_CM * px_per_cm
    steps = [b - a for a, b in zip(px, px[1:]) if MIN_FAN_STEP_CM * px_per_cm <= b - a <= GAP_CM * px_per_cm]
    step = float(np.median(steps)) if steps else FAN_STEP_CM * px_per_cm
    new = []
    if not px or left < px[0] - half - slack:
        new.append(left + half)
    if right > (px[-1] if px else left + half) + half + slack:
        new.append(right - half)
    points = sorted(px + new)
    for a, b in zip(points, points[1:]):
        if b - a > GAP_CM * px_per_cm and covered[int(round(a)):int(round(b)) + 1].all():
            between = max(1, int(round((b - a) / step)) - 1)
            new += [a + (b - a) * k / (between + 1) for k in range(1, between + 1)]
    return [_cm(x + origin[0], y * px_per_cm, px_per_cm) for x in sorted(new)]


SAME_PICTURE = 0.95
"""Correlation above which two pictures of one place show the same thing (the same card lying there
under other light and noise correlates above 0.99; another card on top of it below 0.9)."""


def similar(a: np.ndarray, b: np.ndarray, threshold: float = SAME_PICTURE) -> bool:
    """Whether two pictures of the same place (same shape) show the same thing: their normalized
    correlation (blind to brightness and contrast) is above ``threshold``.

    >>> rng = np.random.default_rng(0)
    >>> card = rng.integers(0, 255, (40, 30, 3)).astype(np.uint8)
    >>> similar(card, (card * 0.8 + 10).astype(np.uint8)), similar(card, card[::-1].copy())
    (True, False)
    """
    if a.shape != b.shape or a.size == 0:
        return False
    x = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32) if a.ndim == 3 else a.astype(np.float32)
    y = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32) if b.ndim == 3 else b.astype(np.float32)
    x, y = x - x.mean(), y - y.mean()
    scale = float(np.sqrt((x * x).sum() * (y * y).sum()))
    return scale > 0 and float((x * y).sum()) / scale > threshold
