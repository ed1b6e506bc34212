"""Frames to tile observations and the table's combinations.

1. :func:`vision.tiles.outlines.find_blobs` finds the light rectangles of tile faces (no
   model); a row of touching tiles is cut into tiles at its seams, and where the seams leave
   the count open (two likeliest counts), the count whose tiles the classifier reads best wins.
2. Every candidate is cut upright twice (both ways up), white-balanced on its face
   (:mod:`vision.tiles.patches`) and classified by ``tiles-classifier.onnx`` into ink colour x
   number, joker, "upside down" or "not a tile"; only the set's own four colours count. A
   candidate read unsurely is cut a few more ways around its place and read from all its cuts.
3. Touching tiles are grouped into rows (:mod:`vision.tiles.grouping`); a row decides which
   way is up for all its tiles together (players lay a row one way), by how readable its
   tiles are each way -- this settles 6/9 and 11/1-style turns that a lone tile's cues leave
   open.

Run time needs numpy, OpenCV and onnxruntime only::

    reader = TileReader(palette=RUMMIKUB)
    seen = reader.read(cv2.imread("table.jpg"))
    seen.groups          # e.g. [['R5', 'R6', 'R7'], ['K9', 'B9', 'O9']]
"""

from __future__ import annotations

import copy
import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cards import RAVENSBURGER, TilePalette
from vision.decks import DeckProfile, classifier_digest
from vision.motion import RESTING_HAND_SHARE, hand_patch
from vision.recognizer import DEFAULT_MODEL_DIR, Networks, _session, _softmax
from vision.tiles.grouping import Placed, components, gaps, outline, reading_order
from vision.tiles.labels import CLASS_CODES, NONE_CLASS, UPSIDE_CLASS, palette_classes
from vision.tiles.outlines import COLOUR_TOLERANCE, Blob, TileCandidate, find_layout, lighter_half_colour, row_pitch
from vision.tiles.patches import PATCH_HEIGHT, PATCH_WIDTH, balance, balanced_both_ways, cut_patch

CLASSIFIER_FILE = "tiles-classifier.onnx"
EDGE = 2.0
"""A tile candidate whose outline comes this near (pixels) to the frame's edge may go on beyond it."""
Point = tuple[float, float]
NEAR_DROPPED = 1.5
"""A blank patch of face colour this many tile heights from a candidate that was not read is a doubt."""
UNUSUAL_WIDTH = "of unusual width"
"""The end of a doubt about a blob whose count of tiles may be wrong (its tiles' width is not the frame's)."""
ROOM = "one tile's room between the tiles"
"""The start of a doubt about the room between two rows in one line (a tile may lie there unread)."""
PATCH = "a tile-sized patch of face colour"
"""The start of a doubt about a patch of the faces' colour that no tile explains."""
HAND = "a hand covers part of the table"
"""The doubt about a hand over the table (its ``near``: the pixels it covers)."""
BEYOND_END = "beyond a row's end the place"
"""The start of a doubt about the place beyond a row's end that looks like a tile's face where no tile is read."""
UNREADABLE = "cannot be read"
"""The end of a doubt about a tile found that the classifier could not read (its ``at``: the tile's centre)."""
NOT_BETWEEN = "has a tile that is not one between tiles"
"""The end of a doubt about a row with a candidate not read between tiles read (its ``near``: every candidate's centre)."""
OTHER_FACES = 2
"""Where the frame's likeliest face colour finds no tile, the reader tries this many of its other guesses."""
STEPS = (0.8, 1.0, 1.2)
"""Where the reader looks for a tile beyond a row's end: this many tile widths on from the end tile."""
JITTERS = ((0.05, 0.0, 0.0, 1.0), (-0.05, 0.0, 0.0, 1.0), (0.0, 0.05, 0.0, 1.0), (0.0, -0.05, 0.0, 1.0),
           (0.0, 0.0, 0.0, 0.93), (0.0, 0.0, 0.0, 1.07), (0.0, 0.0, 3.0, 1.0), (0.0, 0.0, -3.0, 1.0))
"""The further cuts of a tile read unsurely (:meth:`TileReader._read_again`): the centre moved
right / down by this share of the tile height, the cut turned by this many degrees and scaled
by this factor -- the outline finder's errors the classifier was trained on."""
WIDER = ((0.05, 0.05, 0.0, 1.0), (-0.05, 0.05, 0.0, 1.0), (0.05, -0.05, 0.0, 1.0), (-0.05, -0.05, 0.0, 1.0))
"""The cuts added for a candidate still read below the confirmation bar after :data:`JITTERS`
(as those: along, across, degrees, scale): the centre moved diagonally. On the validation
tables these took more right readings over the bar than cuts twice as far off, scaled or
turned more, and lifted no misread over it."""


def geometric_mean(combined: np.ndarray, more: np.ndarray, read: int) -> np.ndarray:
    """Class probabilities from all cuts of each candidate: ``combined`` (N, ..., C) is the
    normalised geometric mean of ``read`` cuts already, ``more`` (N, K, ..., C) the probabilities
    of K further cuts. Every cut weighs alike, so reading the cuts in two steps gives what one
    step over all of them gives; a class one cut finds unlikely stays unlikely.

    >>> unsure = np.array([[0.5, 0.5]])                                  # one cut, undecided
    >>> geometric_mean(unsure, np.array([[[0.9, 0.1], [0.8, 0.2]]]), 1).round(3).tolist()   # two more, agreeing
    [[0.768, 0.232]]
    >>> once = geometric_mean(unsure, np.array([[[0.9, 0.1]]]), 1)          # the same cuts in two steps
    >>> geometric_mean(once, np.array([[[0.8, 0.2]]]), 2).round(3).tolist()
    [[0.768, 0.232]]
    """
    logs = (read * np.log(np.clip(combined, 1e-9, 1.0)) + np.log(np.clip(more, 1e-9, 1.0)).sum(axis=1)) / (read + more.shape[1])
    mean = np.exp(logs - logs.max(axis=-1, keepdims=True))
    return mean / mean.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class TileObservation:
    """One tile seen in a frame: its code (``R7``, ``JK``), how sure the reader is (0..1),
    its outline (corners as read upright: top-left, top-right, bottom-right, bottom-left) and
    the row it lies in (an index into :attr:`TableReading.groups`).

    >>> TileObservation("R7", 0.991, ((1.0, 2.0), (3.0, 2.0), (3.0, 6.0), (1.0, 6.0)), 0).to_json()
    {'tile': 'R7', 'confidence': 0.991, 'outline': [[1.0, 2.0], [3.0, 2.0], [3.0, 6.0], [1.0, 6.0]]}
    """

    tile: str
    confidence: float
    outline: tuple[Point, Point, Point, Point]
    row: int

    def to_json(self) -> dict:
        return {"tile": self.tile, "confidence": round(float(self.confidence), 4),
                "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in self.outline]}

    @property
    def center(self) -> Point:
        return (sum(p[0] for p in self.outline) / 4, sum(p[1] for p in self.outline) / 4)

    def moved(self, dx: float, dy: float) -> "TileObservation":
        """The tile of a crop read at (``dx``, ``dy``) of the frame, in the frame's pixels."""
        return TileObservation(self.tile, self.confidence, tuple((x + dx, y + dy) for x, y in self.outline), self.row)

    @property
    def height(self) -> float:
        """The tile's longer side in the photo."""
        corners = self.outline
        return max(math.dist(corners[0], corners[1]), math.dist(corners[1], corners[2]))


class Doubt(str):
    """A reason a reading may be incomplete, in words, with the image point it is about (``at``)
    where it is about one place where one tile may lie unread or misread: a tile that cannot be
    read, a patch of face colour no tile explains, one tile's room in a line, a lone blob of odd
    width, a tile whose colour or number keeps its row from being a combination. Doubts about
    several tiles or none in particular (a hand, a row at the frame's edge) have none; where they
    are about one row, ``near`` holds the centres of the tiles they are about (a row whose count
    may be wrong, the end tile of one that may go on beyond the frame), and for a hand the points
    it covers (:func:`vision.motion.hand_patch`'s pixels). ``misread``: the doubt is about the tile
    read at ``at`` (it may be another tile), not about one missed.

    >>> doubt = Doubt("the tile at (10, 20) cannot be read", (10.0, 20.0))
    >>> doubt, doubt.at, Doubt("a hand covers part of the table").at, doubt.misread
    ('the tile at (10, 20) cannot be read', (10.0, 20.0), None, False)
    >>> Doubt("the tile at (5, 9) touches the frame's edge", near=[(5, 9)]).near
    ((5.0, 9.0),)
    """

    at: Point | None
    misread: bool
    near: tuple[Point, ...]

    def __new__(cls, why: str, at: Point | None = None, misread: bool = False, near=()) -> "Doubt":
        if misread and at is None:
            raise ValueError(f"a doubt about a tile read is at that tile: {why!r} has no place")
        doubt = super().__new__(cls, why)
        doubt.at = None if at is None else (float(at[0]), float(at[1]))
        doubt.misread = misread
        doubt.near = tuple((float(x), float(y)) for x, y in near)
        return doubt

    def moved(self, dx: float, dy: float) -> "Doubt":
        """The doubt of a crop read at (``dx``, ``dy``) of the frame, in the frame's pixels (its words too).

        >>> doubt = Doubt("one tile's room between the tiles at (10, 20) and (70, 20) in one line", (40, 20)).moved(100, 5)
        >>> doubt, doubt.at
        ("one tile's room between the tiles at (110, 25) and (170, 25) in one line", (140.0, 25.0))
        """
        words = re.sub(r"\((-?[\d.]+), (-?[\d.]+)\)", lambda m: f"({float(m[1]) + dx:.0f}, {float(m[2]) + dy:.0f})", self)
        return Doubt(words, None if self.at is None else (self.at[0] + dx, self.at[1] + dy), self.misread,
                     [(x + dx, y + dy) for x, y in self.near])


def doubt_place(why: str) -> Point | None:
    """The image point a doubt of :attr:`TableReading.doubts` is about (:class:`Doubt`), if one.

    >>> doubt_place(Doubt("the tile at (10, 20) cannot be read", (10, 20))), doubt_place("a gap")
    ((10.0, 20.0), None)
    """
    return why.at if isinstance(why, Doubt) else None


@dataclass(frozen=True)
class TableReading:
    """Everything read in one frame: the tiles (row by row, in reading order) and the rows
    as lists of tile codes -- the table's combinations as the engine takes them.

    ``doubts`` says why the reading may be incomplete: a missed tile has no confidence of its
    own, so signs that one is missing (a one-tile gap in a line of tiles, a tile-sized patch of
    face colour left unexplained, a blob cut into tiles of the wrong width, a tile in a row that
    could not be read, a tile at the frame's edge, a hand over the table) are listed here, with
    one sign of a misread tile (a row that is a combination but for one tile's colour or number: at the
    tile that may be misread), and a
    caller must ask the players rather than judge. Each is a :class:`Doubt`, with its place where it
    has one.

    >>> TableReading((), ("a gap",)).complete, TableReading(()).to_json()
    (False, {'tiles': [], 'groups': [], 'doubts': []})
    """

    tiles: tuple[TileObservation, ...]
    doubts: tuple[str, ...] = ()
    face: tuple[float, float, float] | None = None
    """The tile faces' colour the outline finder went by (:attr:`vision.tiles.outlines.Layout.face`)."""

    @property
    def complete(self) -> bool:
        """No sign of a missed tile."""
        return not self.doubts

    @property
    def rows(self) -> list[list[TileObservation]]:
        """The tiles of each group of :attr:`groups`, in the same order."""
        found: dict[int, list[TileObservation]] = {}
        for tile in self.tiles:
            found.setdefault(tile.row, []).append(tile)
        return list(found.values())

    @property
    def groups(self) -> list[list[str]]:
        return [[tile.tile for tile in row] for row in self.rows]

    def least_confidence(self) -> float:
        return min((t.confidence for t in self.tiles), default=1.0)

    @property
    def missing_doubts(self) -> tuple[str, ...]:
        """The doubts that a tile may be missed (all but those about a tile read: :attr:`Doubt.misread`)."""
        return tuple(d for d in self.doubts if not getattr(d, "misread", False))

    def unsure_places(self, below: float) -> list[tuple[int, int]]:
        """(group, position) in :attr:`groups` of each tile read less sure than ``below`` or doubted
        as misread (a :class:`Doubt` with ``misread`` at its centre).

        >>> square = lambda x: ((x, 0), (x + 2, 0), (x + 2, 2), (x, 2))
        >>> reading = TableReading(tuple(TileObservation(code, sure, square(x), row) for code, sure, row, x in
        ...     (("R1", 0.9, 4, 0), ("B2", 0.99, 7, 5), ("R2", 0.5, 4, 10), ("B3", 0.96, 7, 15))),
        ...     (Doubt("B3 may be misread", (16, 1), misread=True), Doubt("a hand")))
        >>> reading.unsure_places(0.7), reading.missing_doubts
        ([(0, 1), (1, 1)], ('a hand',))
        """
        doubted = [d.at for d in self.doubts if getattr(d, "misread", False)]
        return [(group, position) for group, row in enumerate(self.rows) for position, tile in enumerate(row)
                if tile.confidence < below or any(math.dist(tile.center, at) < 1.0 for at in doubted)]

    def to_json(self) -> dict:
        return {"tiles": [t.to_json() for t in self.tiles], "groups": self.groups, "doubts": list(self.doubts)}


@dataclass(frozen=True)
class TileReaderOptions:
    """``min_confidence``: readings less sure than this are left out (a tile the reader cannot
    read at all); callers ask the players about anything below their own, higher bar."""

    min_confidence: float = 0.3
    max_tiles: int = 160
    pitch_tolerance: float = 0.15
    """A blob cut into tiles whose width / height is off the frame's typical one by more than
    this fraction is doubted (its count may be wrong, or a lone tile is part of a row)."""
    sure_none: float = 0.5
    """A candidate dropped as "not a tile" less surely than this is doubted."""
    sure_found: float = 0.7
    """A tile the reader looks for again (beyond a row's end, at a patch of face colour no tile
    explains) is found where the classifier reads it at least this surely."""
    read_again: float = 0.9
    """A candidate read less surely than this (either way up) and not surely "not a tile" is cut
    again :data:`JITTERS` ways and read from all its cuts together."""
    bare: float = 0.8
    """A patch of face colour no tile explains is bare table, no doubt, where every look at it
    reads "not a tile" at least this surely and it is neither as light as the faces nor inked
    like one (:meth:`_Surroundings.plain`)."""
    mend_chance: float = 0.01
    """A row that is a combination but for one tile's number is doubted where the classifier
    gives that tile the number that would mend the row at least this chance (on validation
    turns: number misreads 0.013-0.68, rows a tile was taken out of 0.0002-0.007)."""
    others_below: float = 0.95
    """The classifier's first network reads every patch; the others (:data:`CLASSIFIER_FILE` joins
    three) read only the patches it reads less surely than this, and their mean is taken there.
    On validation scenes the first network's best class at 0.95 or more was the three's in every
    patch (models/TILES.md, session 19); 1.0 reads every patch with all of them."""


class TileReader:
    """Loads the classifier once; :meth:`read` is then called per frame.

    ``profile`` swaps the classifier's last layer for one fitted to a player's set by
    :mod:`vision.tiles.learn`.
    """

    def __init__(self, model_dir: str | Path | None = None, threads: int = 1, palette: TilePalette = RAVENSBURGER,
                 profile: DeckProfile | None = None, options: TileReaderOptions = TileReaderOptions()) -> None:
        directory = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        if not (directory / CLASSIFIER_FILE).is_file():
            raise FileNotFoundError(f"model file {directory / CLASSIFIER_FILE} is missing: train it with "
                                    f"`python -m vision.train.tiles --out {directory}`")
        self.networks = Networks(_session(directory / CLASSIFIER_FILE, threads))
        self.classifier_digest = classifier_digest(directory / CLASSIFIER_FILE)
        self._embedding_width = self.networks.embedding_width
        self.palette = palette
        self.profile = self._fitting(profile)
        self.options = options
        self._classes = np.array(palette_classes(palette) + [UPSIDE_CLASS, NONE_CLASS])

    def with_palette(self, palette: TilePalette, profile: DeckProfile | None = None) -> "TileReader":
        clone = copy.copy(self)
        clone.palette, clone.profile = palette, self._fitting(profile)
        clone._classes = np.array(palette_classes(palette) + [UPSIDE_CLASS, NONE_CLASS])
        return clone

    def _fitting(self, profile: DeckProfile | None) -> DeckProfile | None:
        """``profile``, checked to fit this classifier (ValueError otherwise: learn the set again)."""
        if profile is not None:
            profile.check_width(self._embedding_width)
            profile.check_classifier(self.classifier_digest)
        return profile

    def classify(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits over all classes (the mean of the networks', or a learned set's last layer) and
        embeddings (the networks' side by side) of (N, H, W, 3) uint8 patches, every network reading."""
        if not len(patches):
            return np.zeros((0, len(CLASS_CODES)), np.float32), np.zeros((0, self._embedding_width), np.float32)
        logits, embeddings = self.networks.read(patches)
        embedding = np.hstack(embeddings)
        if self.profile is not None:
            return self.profile.logits(embedding), embedding
        return sum(logits) * np.float32(1.0 / len(logits)), embedding

    def logits(self, patches: np.ndarray) -> np.ndarray:
        """As :meth:`classify`'s logits, the networks but the first reading only the patches the first
        reads less surely than :attr:`TileReaderOptions.others_below` over the set's classes."""
        count = self.networks.count
        if self.profile is not None or count == 1 or not len(patches):
            return self.classify(patches)[0]
        (first,), _ = self.networks.read(patches, range(1))
        unsure = np.flatnonzero(_softmax(first[:, self._classes]).max(axis=1) < self.options.others_below)
        if len(unsure):
            others, _ = self.networks.read(patches[unsure], range(1, count))
            first[unsure] = (first[unsure] + sum(others)) * np.float32(1.0 / count)
        return first

    def probabilities(self, frame: np.ndarray, places: list[TileCandidate]) -> np.ndarray:
        """The set's class probabilities (the last two: upside down, not a tile) of each place, cut
        upright and turned over (rows ``2k``, ``2k + 1``), the unsure ones read again from more cuts
        (:meth:`_read_again`): how :meth:`read` reads the tiles it found, and how
        ``benchmarks/eval_tile_classifier.py`` reads tiles where they truly lie."""
        upright = np.empty((len(places), PATCH_HEIGHT, PATCH_WIDTH, 3), np.uint8)
        for k, c in enumerate(places):
            upright[k] = cut_patch(frame, (c.x, c.y), c.angle, c.height)
        probs = _softmax(self.logits(balanced_both_ways(upright))[:, self._classes])  # only the set's classes compete
        self._read_again(frame, places, probs)
        return probs

    def _place_probs(self, frame: np.ndarray, places: list[Placed]) -> np.ndarray:
        """The set's class probabilities of each upright place (the last two: upside down, not a tile)."""
        patches = np.stack([cut_patch(frame, (p.x, p.y), p.angle, p.height) for p in places])
        logits = self.logits(balance(patches))
        return _softmax(logits[:, self._classes])

    def _read_places(self, frame: np.ndarray, places: list[Placed]) -> list[tuple[str, float] | None]:
        """The tile each upright place holds (code, confidence) where the classifier reads one
        at least :attr:`TileReaderOptions.sure_found` sure; None elsewhere."""
        if not places:
            return []
        probs = self._place_probs(frame, places)
        upside = len(self._classes) - 2
        best = probs[:, :upside].argmax(axis=1)
        return [(CLASS_CODES[self._classes[b]], float(p[b])) if p[b] >= self.options.sure_found else None
                for b, p in zip(best, probs)]

    def _read_again(self, frame: np.ndarray, cut: list, probs: np.ndarray) -> None:
        """Read the candidates of ``cut`` that read unsurely (:attr:`TileReaderOptions.read_again`)
        from :data:`JITTERS` more cuts each, both ways up, and put the geometric mean of all their
        cuts' probabilities in ``probs`` (rows ``2k``, ``2k + 1``: candidate ``k`` upright and
        turned over) in place. One cut a little off the digit's centre, scale or turn reads a
        font the classifier never saw less surely (or wrongly) than the cuts around it together:
        on validation turns fewer right tiles fell below the confirmation bar and fewer misread
        ones reached it. A candidate still below the confirmation bar (:attr:`TileReaderOptions.sure_found`)
        either way up, and not surely "not a tile", is cut the :data:`WIDER` ways too and read
        from all its cuts."""
        pairs = probs.reshape(-1, 2, probs.shape[1])
        upside = probs.shape[1] - 2
        unsure = np.flatnonzero((pairs[:, :, :upside].max(axis=(1, 2)) < self.options.read_again)
                                & (pairs[:, :, -1].min(axis=1) < self.options.read_again))
        self._add_cuts(frame, cut, pairs, unsure, JITTERS, 1)
        still = unsure[(pairs[unsure, :, :upside].max(axis=(1, 2)) < self.options.sure_found)
                       & (pairs[unsure, :, -1].min(axis=1) < self.options.sure_none)]
        self._add_cuts(frame, cut, pairs, still, WIDER, 1 + len(JITTERS))

    def _add_cuts(self, frame: np.ndarray, cut: list, pairs: np.ndarray, which: np.ndarray,
                  jitters: tuple[tuple[float, float, float, float], ...], read: int) -> None:
        """Cut the candidates ``which`` of ``cut`` the ``jitters`` ways more, both ways up, and put
        in ``pairs`` (candidate, way up, class) the geometric mean of the probabilities of all their
        cuts: the ``read`` ones whose mean ``pairs`` holds and the new ones."""
        if not len(which):
            return
        patches = []
        for k in which:
            c = cut[k]
            right, down = np.array([math.cos(c.angle), math.sin(c.angle)]), np.array([-math.sin(c.angle), math.cos(c.angle)])
            for along, across, degrees, scale in jitters:
                centre = np.array([c.x, c.y]) + c.height * (along * right + across * down)
                patches.append(cut_patch(frame, (float(centre[0]), float(centre[1])), c.angle + math.radians(degrees),
                                         c.height * scale))
        logits = self.logits(balanced_both_ways(np.stack(patches)))
        more = _softmax(logits[:, self._classes]).reshape(len(which), len(jitters), 2, -1)
        pairs[which] = geometric_mean(pairs[which], more, read)

    def _extend_rows(self, frame: np.ndarray, rows: list[list[tuple[Placed, str, float]]],
                     others: list[Placed] = (), open_ends: list[Placed] | None = None) -> list[Placed]:
        """Tiles found beyond the ends of the rows (each row: its tiles upright, in reading order,
        with code and confidence), one tile's width on at a time, added to the rows in place: a
        row whose blob was cut short or split (a faint seam, glare on its end) loses its end
        tiles otherwise. The places at each end are read upright as the row stands, a little
        nearer and farther too (:data:`STEPS`: a row cut into tiles of the wrong width has its
        tiles off their true places), the surest reading winning. ``others``: tiles of other
        rows, whose places are not looked at; ``open_ends`` gets the places beyond an end that
        look like a face (as light, of its colour) where no tile was read."""
        found: list[Placed] = []
        ends = [(r, side) for r, row in enumerate(rows) if row for side in (0, -1)]
        if not ends:
            return found
        height, width = frame.shape[:2]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        taken = [tile for row in rows for tile, _, _ in row] + list(others)
        while ends:
            places: dict[tuple[int, int], list[Placed]] = {}
            centres = np.array([(t.x, t.y) for t in taken])
            for r, side in ends:
                tile = rows[r][side][0]
                beyond = []
                for step in STEPS:
                    along = (step if side else -step) * tile.width
                    beyond.append(Placed(tile.x + along * math.cos(tile.angle), tile.y + along * math.sin(tile.angle),
                                         tile.angle, tile.width, tile.height))
                # Only where a face may be: inside the frame, as light as the end tile's face and of its
                # colour (a light green table is as light), no tile there yet.
                beyond = [place for place in beyond if _within(outline(place), width, height)
                          and np.hypot(*(centres - (place.x, place.y)).T).min() >= 0.5 * place.width]
                if beyond and _as_light(grey, beyond[len(beyond) // 2], tile) and _face_coloured(
                        frame, beyond[len(beyond) // 2], tile):
                    places[r, side] = beyond
            hits = iter(self._read_places(frame, [place for beyond in places.values() for place in beyond]))
            best = []
            for (r, side), beyond in places.items():
                tried = [(hit, place) for place, hit in zip(beyond, hits) if hit]     # beyond first: zip stops there
                if tried:
                    best.append(((r, side), *max(tried, key=lambda item: item[0][1])))
                elif open_ends is not None:
                    open_ends.append(beyond[len(beyond) // 2])
            # Two rows' ends may reach into one gap in the same round (a row the finder split):
            # the surer reading takes the place, the other end stops there.
            going = []
            for (r, side), hit, place in sorted(best, key=lambda item: -item[1][1]):
                if any(math.hypot(place.x - t.x, place.y - t.y) < 0.5 * place.width for t in taken):
                    continue
                rows[r].insert(len(rows[r]) if side else 0, (place, hit[0], hit[1]))
                found.append(place)
                taken.append(place)
                going.append((r, side))
            ends = going
        return found

    def _look_at_patches(self, frame: np.ndarray, points: list[Point],
                         tiles: list[Placed]) -> list[tuple[Placed, str, float]]:
        """Tiles read surely at patches of face colour no tile explains (``points``), as the
        frame's ``tiles`` lie (their size, and the turn of the nearest one, or a quarter turn
        more) either way up."""
        if not tiles or not points:
            return []
        tile_width = float(np.median([t.width for t in tiles]))
        places = _looks(points, tiles)
        hits = self._read_places(frame, places)
        found = []
        for k in range(len(points)):
            read = [(hit, place) for hit, place in zip(hits[4 * k:4 * k + 4], places[4 * k:4 * k + 4]) if hit]
            if read:
                (code, confidence), place = max(read, key=lambda item: item[0][1])
                if not any(math.hypot(place.x - t.x, place.y - t.y) < 0.5 * tile_width for t in tiles):
                    found.append((place, code, confidence))
        return found

    def _bare_table(self, frame: np.ndarray, points: list[Point], tiles: list[Placed],
                    around: "_Surroundings | None" = None) -> set[Point]:
        """The ``points`` (patches of face colour no tile explains) that are surely bare table:
        every look at them (as :meth:`_look_at_patches` looks) reads "not a tile" at least
        :attr:`TileReaderOptions.bare` surely, and the patch shows no face (:meth:`_Surroundings.no_face`).
        A face washed out by glare also reads as no tile, but it is as light as the faces; a tile in
        a shadow still shows its ink's contrast. ``around``: the frame's surroundings of ``tiles``
        where the caller has them already."""
        if not tiles or not points:
            return set()
        none = self._place_probs(frame, _looks(points, tiles))[:, -1].reshape(-1, 4).min(axis=1)
        around = around or _Surroundings.of(frame, tiles)
        width, height = float(np.median([t.width for t in tiles])), float(np.median([t.height for t in tiles]))
        places = [Placed(point[0], point[1], 0.0, width, height) for point in points]
        return {point for point, place, sure in zip(points, places, none) if sure >= self.options.bare
                and around.no_face(place)}

    def read(self, frame: np.ndarray, face: tuple[float, float, float] | None = None) -> TableReading:
        """All tiles in one BGR frame, grouped into rows. ``face``: the tile faces' colour to go by
        instead of the frame's own guesses (:attr:`TableReading.face` of another photo of the same
        table in the same light)."""
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("read expects a BGR uint8 image of shape (H, W, 3)")
        reading, other_faces = self._read(frame, face)
        if face is None and not reading.tiles:
            # The face colour that explained the most tile-shaped blobs may be the table's: the light
            # stripes of a striped cloth are blobs too, and read as no tile. The faces may be of another guess.
            for other in other_faces[:OTHER_FACES]:
                again, _ = self._read(frame, other)
                if again.tiles:
                    return again
        return reading

    def _read(self, frame: np.ndarray, face: tuple[float, float, float] | None
              ) -> tuple[TableReading, list[tuple[float, float, float]]]:
        """:meth:`read` by one face colour (``None``: the frame's own likeliest), and the other face colours guessed."""
        layout = find_layout(frame, face=face)
        # A row's count is also tried at the pitch the frame's other rows share: the seams may
        # leave the true count out where the frame's lone tiles give a misleading aspect.
        shared = row_pitch(layout.blobs)
        options = [blob.cut(n) for blob in layout.blobs for n in _counts(blob, shared)]
        cut = [c for option in options for c in option][:2 * self.options.max_tiles]
        if not cut:
            return TableReading((), tuple(Doubt(f"{PATCH} at ({x:.0f}, {y:.0f}) is no tile found",
                                                (x, y)) for x, y in layout.unexplained) + (Doubt("no tile found"),),
                                layout.face), layout.other_faces
        doubts: list[Doubt] = []
        unreadable: list[Placed] = []       # candidates that may be tiles the classifier could not read
        dropped: list[Placed] = []          # ... and all candidates it did not read
        all_probs = self.probabilities(frame, cut)
        upside, none = len(self._classes) - 2, len(self._classes) - 1
        # Where a blob may hold more than one count of tiles, the count whose tiles read best wins.
        sureness = all_probs[:, :upside].max(axis=1).reshape(-1, 2).max(axis=1)
        chosen: dict[int, tuple[float, int, int]] = {}
        start = 0
        for option in options:
            stop = min(start + len(option), len(cut))
            if start < stop:
                score = float(sureness[start:stop].mean())
                number = option[0].row
                if number not in chosen or score > chosen[number][0]:
                    chosen[number] = (score, start, stop)
            start += len(option)
        rows_kept = sorted(chosen.values(), key=lambda item: item[1])
        keep = np.array([k for _, a, b in rows_kept for k in range(a, b)], int)
        candidates = [cut[k] for k in keep]
        probs = all_probs.reshape(-1, 2, all_probs.shape[1])[keep].reshape(-1, all_probs.shape[1])
        # Blobs that are surely no tiles either way up (a light patch of the table) raise no doubt of
        # their own about their width or the frame's edge; where one explained a face-coloured
        # patch, that patch stays a doubt (its ``vouches``).
        tileish = probs[:, none].reshape(-1, 2).min(axis=1) < self.options.sure_none
        blank = {c.row for c in candidates} - {c.row for c, maybe in zip(candidates, tileish) if maybe}
        second_look = {blob.number for blob in layout.blobs if blob.second_look}
        pairs = all_probs.reshape(-1, 2, all_probs.shape[1])
        as_tile = (pairs[:, :, :upside].max(axis=2) > np.maximum(pairs[:, :, none], self.options.min_confidence)).any(axis=1)
        blank_blobs: list[tuple[list[TileCandidate], Doubt]] = []   # doubts that go where the blob is plain table
        # A blob's own height misleads where the frame's edge cuts a row along its length or a
        # shadow widens it: its tiles' width is also judged against the height of the frame's tiles.
        typical = float(np.median([cut[k].height for k in keep if as_tile[k]] or [0.0]))
        for _, a, b in rows_kept:
            pitch = cut[a].width / cut[a].height
            # A row of tiles as wide as the frame's other rows' (for their own height or the frame's
            # tiles' height), each read as a tile one way up, is cut right even where the frame's
            # lone tiles are shaped otherwise.
            usual = (shared is not None and b - a >= 2 and bool(as_tile[a:b].all()) and any(
                abs(ratio / shared - 1) <= self.options.pitch_tolerance
                for ratio in (pitch, cut[a].width / typical)))     # the row's own cuts make typical > 0
            if abs(pitch / layout.aspect - 1) > self.options.pitch_tolerance and not usual and not (
                    cut[a].row in blank and cut[a].row in second_look):     # a wrong count, or part of a tile
                doubt = Doubt(f"the blob at ({cut[a].x:.0f}, {cut[a].y:.0f}) cut into {b - a} tile(s) {UNUSUAL_WIDTH}",
                              (cut[a].x, cut[a].y) if b - a == 1 else None,    # a lone tile's place, or a row
                              near=[(c.x, c.y) for c in cut[a:b]])
                if pairs[a:b, :, none].min() >= self.options.bare:
                    blank_blobs.append((cut[a:b], doubt))
                else:
                    doubts.append(doubt)
        readable = np.clip(1.0 - probs[:, upside] - probs[:, none], 1e-6, 1.0)
        placed = [Placed(c.x, c.y, c.angle, c.width, c.height) for c in candidates]
        rows: list[list[tuple[Placed, str, float]]] = []
        unread = {blob.number for blob in layout.blobs} - {c.row for c in candidates}
        groups = components(placed)
        for members in groups:
            for i in row_ends_at_frame(frame, [placed[i] for i in members]):
                if candidates[members[i]].row not in blank:     # the rest of its row may lie beyond the frame
                    doubts.append(Doubt(f"the tile at ({placed[members[i]].x:.0f}, {placed[members[i]].y:.0f}) "
                                        f"touches the frame's edge", near=[(placed[members[i]].x, placed[members[i]].y)]))
        # One tile's room between two rows in one line may hold a tile the finder missed: a doubt
        # unless a tile is found there or the room is bare table (as a patch no tile explains is).
        rooms = [(point, Doubt(f"{ROOM} at ({placed[i].x:.0f}, {placed[i].y:.0f}) and "
                               f"({placed[j].x:.0f}, {placed[j].y:.0f}) in one line", point))
                 for i, j in gaps(placed, groups)
                 for point in [((placed[i].x + placed[j].x) / 2, (placed[i].y + placed[j].y) / 2)]]
        for row, members in enumerate(groups):
            # One way up for the whole row: the way its tiles read best together.
            ref = placed[members[0]].angle
            aligned = {i: (0 if abs((placed[i].angle - ref + math.pi) % (2 * math.pi) - math.pi) < math.pi / 2 else 1)
                       for i in members}
            vote = sum(math.log(readable[2 * i + aligned[i]]) - math.log(readable[2 * i + 1 - aligned[i]]) for i in members)
            flip = 0 if vote >= 0 else 1
            turned = []
            for i in members:
                way = aligned[i] ^ flip
                turned.append(Placed(placed[i].x, placed[i].y, placed[i].angle + way * math.pi,
                                     placed[i].width, placed[i].height))
            by_index = dict(zip(members, turned))
            upright = [by_index.get(j, placed[j]) for j in range(len(placed))]
            read = []
            rows.append([])
            for i in reading_order(upright, members):
                p = probs[2 * i + (aligned[i] ^ flip)]
                best = int(np.argmax(p[:upside]))
                read.append(not (p[none] >= p[best] or p[best] < self.options.min_confidence))
                if not read[-1]:
                    unread.add(candidates[i].row)
                    dropped.append(placed[i])
                    if p[none] < self.options.sure_none:
                        unreadable.append(by_index[i])
                    continue
                rows[-1].append((by_index[i], CLASS_CODES[self._classes[best]], float(p[best])))
            kept = [k for k, r in enumerate(read) if r]
            if kept and not all(read[kept[0]:kept[-1] + 1]):
                doubts.append(Doubt(f"a row at ({placed[members[0]].x:.0f}, {placed[members[0]].y:.0f}) {NOT_BETWEEN}",
                                    near=[(placed[m].x, placed[m].y) for m in members]))
        # Look again where a tile may have been missed: beyond the ends of each row, and at the
        # patches of face colour no tile explains; a tile read there surely is found, and the
        # doubts it answers go.
        found = self._extend_rows(frame, rows)
        # A blank patch (no number in it) holds no whole tile, but beside a candidate that was not
        # read it may be the rest of a tile the finder cut wrong (a face washed into a glare halo).
        reach = NEAR_DROPPED * float(np.median([c.height for c in candidates]))
        dropped += [Placed(blob.x, blob.y, 0.0, blob.across, blob.length) for blob in layout.blobs
                    if blob.number not in {c.row for c in candidates}]
        patches = [(point, "found") for point in layout.unexplained] + [
            (point, "found") for point in layout.blank
            if any(math.hypot(point[0] - d.x, point[1] - d.y) < reach for d in dropped)] + [
            (point, "read") for blob in layout.blobs if blob.number in unread for point in blob.vouches]
        read_tiles = [t for row in rows for t, _, _ in row]
        looked = self._look_at_patches(frame, [point for point, _ in patches], read_tiles)
        unanswered = [point for point, how in patches if how == "found" and not _answered(
            point, [tile for tile, _, _ in looked])] + [point for point, _ in rooms if not _answered(point, found)]
        around = _Surroundings.of(frame, read_tiles) if read_tiles and (unanswered or blank_blobs) else None
        bare = self._bare_table(frame, unanswered, read_tiles, around)
        # A blob of no tile's shape whose every cut reads surely as no tile either way up is a patch
        # of the table where it shows no face (:meth:`_Surroundings.no_face`); a face washed out by glare does.
        doubts += [doubt for cuts, doubt in blank_blobs if around is None or not all(
            around.no_face(Placed(c.x, c.y, c.angle, c.width, c.height)) for c in cuts)]
        # A tile found at a patch may be one of a row the finder missed: look beyond it too. Where
        # the place beyond such a row's end looks like a face but reads as no tile, the finder may
        # have lost more of the row there (glare over its middle): a doubt.
        patch_rows = [[hit] for hit in looked]
        open_ends: list[Placed] = []
        found += [tile for tile, _, _ in looked] + self._extend_rows(frame, patch_rows, read_tiles + found, open_ends)
        rows += patch_rows
        doubts += [Doubt(f"the tile at ({tile.x:.0f}, {tile.y:.0f}) {UNREADABLE}", (tile.x, tile.y)) for tile in unreadable
                   if not _answered((tile.x, tile.y), found)]
        doubts += [Doubt(f"{PATCH} at ({x:.0f}, {y:.0f}) is no tile {how}", (x, y))
                   for (x, y), how in patches if not _answered((x, y), found) and (x, y) not in bare]
        doubts += [doubt for point, doubt in rooms if not _answered(point, found) and point not in bare]
        doubts += [Doubt(f"{BEYOND_END} at ({p.x:.0f}, {p.y:.0f}) looks like a tile's face, but no tile is "
                         f"read there", (p.x, p.y)) for p in open_ends if not _answered((p.x, p.y), found)]
        # A colour misread (the classifier's surest mistakes) turns a run or group of the table into
        # no combination: a row that is one but for a single tile's colour is asked about, at the
        # tile(s) that may be misread, so the players can name the tile that lies there.
        doubts += [Doubt(f"the tile at ({row[at][0].x:.0f}, {row[at][0].y:.0f}) may be misread: its row is a "
                         f"combination but for one tile's colour", (row[at][0].x, row[at][0].y), misread=True)
                   for row in rows for at in _odd_colour([code for _, code, _ in row])]
        # A number misread does so too, but so does a tile taken out of a run (R6 R7 R9): such a
        # tile is asked about where the classifier gives the code that would mend the row a chance,
        # or where its row holds it twice (:func:`holds_twice`).
        fixes = [(r, at, code) for r, row in enumerate(rows) for at, code in number_fixes([code for _, code, _ in row])]
        if fixes:
            chances = self._place_probs(frame, [rows[r][at][0] for r, at, _ in fixes])
            column = {code: int(np.flatnonzero(self._classes == CLASS_CODES.index(code))[0]) for _, _, code in fixes}
            mendable = sorted({(r, at) for (r, at, code), p in zip(fixes, chances)
                               if p[column[code]] >= self.options.mend_chance or holds_twice([c for _, c, _ in rows[r]], at)})
            doubts += [Doubt(f"the tile at ({rows[r][at][0].x:.0f}, {rows[r][at][0].y:.0f}) may be misread: its row is a "
                             f"combination but for one tile's number", (rows[r][at][0].x, rows[r][at][0].y), misread=True)
                       for r, at in mendable]
        observations = [TileObservation(code, confidence, outline(tile), number)
                        for number, row in enumerate(rows) for tile, code, confidence in row]
        # A hand over the table may hide whole tiles; the pipeline waits for it to go. Tiles read
        # as tiles are no hand (faces in warm light are skin-coloured; a light hand may pass as face),
        # nor is a skin-coloured patch the table shows through (glare, grain, or holes: the cloth
        # between a pattern's dots) or that has a soft rim.
        hand = hand_patch(frame, ignore=[np.array(o.outline) for o in observations], opaque=True)
        if hand.mean() > RESTING_HAND_SHARE:
            scale = frame.shape[1] / hand.shape[1]
            ys, xs = np.nonzero(hand)
            doubts.append(Doubt(HAND, near=zip((xs + 0.5) * scale, (ys + 0.5) * scale)))
        if not observations:
            if layout.contrast_only:    # light patches of the table's grain, nothing to tell from an empty table
                return TableReading((), (Doubt("no tile found"),), layout.face), layout.other_faces
            doubts.append(Doubt("no tile found"))
        return TableReading(_renumber(observations), tuple(doubts), layout.face), layout.other_faces


def row_ends_at_frame(frame: np.ndarray, row: list[Placed], margin: float = 0.1) -> list[int]:
    """The tiles of ``row`` (touching tiles, any order) behind which the row may go on beyond
    the frame: an end tile whose face runs into the frame's edge (:func:`runs_off_frame`) where
    the frame cuts off clearly more (``margin`` of a tile) of the place of a next tile beyond
    it than of the tile itself, and, for a row of two or more, the part of that place the frame
    still shows is no bare table (:func:`_shows_table`). A row lying along the edge, its tiles
    all cut alike, goes on sideways, not beyond; a row whose end tile only grazes the edge with
    a corner shows the table where its next tile would begin.

    >>> frame = np.full((100, 200, 3), 40, np.uint8); frame[:30, 50:110] = 230   # a row cut by the top edge
    >>> row = [Placed(65, 10, 0.0, 30, 40), Placed(95, 10, 0.0, 30, 40)]
    >>> row_ends_at_frame(frame, row)
    []
    >>> frame[30:70, 170:] = 230; row_ends_at_frame(frame, [Placed(185, 50, 0.0, 30, 40)])    # a row cut by the right edge
    [0]
    """
    height, width = frame.shape[:2]
    grey = None         # made only for a tile that runs off the frame (most rows have none)
    order = reading_order(row, list(range(len(row))))
    ends = {order[0]: -1.0, order[-1]: 1.0} if len(order) > 1 else {order[0]: 0.0}
    along = row[order[0]].angle     # the order's direction (the tiles' own angles may differ by a half turn)
    found = []
    for i, way in ends.items():
        tile = row[i]
        if not runs_off_frame(frame, np.array(outline(tile))):
            continue
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if grey is None else grey
        share = _inside_share(outline(tile), width, height)
        beyond = [Placed(tile.x + side * tile.width * math.cos(along), tile.y + side * tile.width * math.sin(along),
                         tile.angle, tile.width, tile.height) for side in ((way,) if way else (-1.0, 1.0))]
        # Only a row of two or more shows which way it runs; a lone candidate cut by the frame
        # may be outlined turned a quarter (a cut tile read sideways), its "beyond" the wrong way.
        if any(_inside_share(outline(next_tile), width, height) < share - margin
               and not (way and _shows_table(grey, next_tile, tile)) for next_tile in beyond):
            found.append(i)
    return found


def _shows_table(grey: np.ndarray, place: Placed, tile: Placed, least: float = 0.2, share: float = 0.75,
                 steps: int = 8) -> bool:
    """Whether the part of ``place`` inside a grey frame is bare table: at least ``least`` of
    the place lies inside (more than :data:`EDGE` pixels from the edge, on a ``steps`` x
    ``steps`` grid) and is darker there than ``share`` of the middle of ``tile``, a tile's face
    (75th percentiles, as :func:`_as_light`). A tile lying there, even one the frame cuts,
    shows its face on that part; too small a part proves nothing.

    >>> grey = np.full((100, 100), 60, np.uint8); grey[30:70, 50:80] = 220
    >>> tile = Placed(65, 50, 0.0, 30, 40)
    >>> _shows_table(grey, Placed(90, 50, 0.0, 30, 40), tile)         # two thirds inside, all table
    True
    >>> grey[30:70, 80:] = 220; _shows_table(grey, Placed(90, 50, 0.0, 30, 40), tile)   # ... or a face
    False
    >>> _shows_table(grey, Placed(110, 50, 0.0, 30, 40), tile)        # a sixth inside: too little to tell
    False
    """
    height, width = grey.shape
    points = _grid(outline(place), steps)
    inside = points[((points >= EDGE) & (points < np.array([width, height]) - EDGE)).all(axis=1)]
    if len(inside) < least * len(points):
        return False
    xs, ys = inside.astype(int).T
    return bool(np.percentile(grey[ys, xs], 75) < share * _light(grey, tile))


def _inside_share(corners, width: int, height: int, steps: int = 8) -> float:
    """The share of a quadrilateral (corners in order) inside a ``width`` x ``height`` frame,
    sampled on a ``steps`` x ``steps`` grid.

    >>> _inside_share(((-10, 0), (10, 0), (10, 10), (-10, 10)), 100, 100)
    0.5
    """
    points = _grid(corners, steps)
    inside = (points[:, 0] >= 0) & (points[:, 0] <= width) & (points[:, 1] >= 0) & (points[:, 1] <= height)
    return float(inside.mean())


def _grid(corners, steps: int) -> np.ndarray:
    """``steps`` x ``steps`` points (x, y rows) spread evenly over a quadrilateral (corners in order).

    >>> _grid(((0, 0), (10, 0), (10, 10), (0, 10)), 2).tolist()
    [[2.5, 2.5], [7.5, 2.5], [2.5, 7.5], [7.5, 7.5]]
    """
    a, b, c, d = (np.array(p, float) for p in corners)
    u, v = np.meshgrid((np.arange(steps) + 0.5) / steps, (np.arange(steps) + 0.5) / steps)
    top, bottom = a + u[..., None] * (b - a), d + u[..., None] * (c - d)
    return (top + v[..., None] * (bottom - top)).reshape(-1, 2)


def runs_off_frame(frame: np.ndarray, corners: np.ndarray, face_share: float = 0.8) -> bool:
    """Whether a tile's face (``corners``: its outline, frame pixels) runs into the frame's
    edge: the outline comes within :data:`EDGE` pixels of it and the frame's outermost pixels
    inside the outline are about as light as the face (at least ``face_share`` of it). A tile
    ending just short of the edge shows its darker bevel or the table there.

    >>> frame = np.full((100, 100, 3), 40, np.uint8); frame[20:60, 70:100] = 230     # a face cut by the right edge
    >>> runs_off_frame(frame, np.array([[70, 20], [100, 20], [100, 60], [70, 60]], float))
    True
    >>> frame[20:60, 98:] = 40                                                      # ... or ending 2 px short of it
    >>> runs_off_frame(frame, np.array([[70, 20], [100, 20], [100, 60], [70, 60]], float))
    False
    """
    height, width = frame.shape[:2]
    if not ((corners < EDGE).any() or (corners > np.array([width, height]) - 1 - EDGE).any()):
        return False
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, None)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (width, height))
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(corners - (x0, y0)).astype(np.int32)], 1)
    grey = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2GRAY)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    border = (xs == 0) | (ys == 0) | (xs == width - 1) | (ys == height - 1)
    outer, face = grey[(inside > 0) & border], grey[(inside > 0) & ~border]
    if not len(outer) or not len(face):
        return bool(len(outer))
    return bool(np.percentile(outer, 75) >= face_share * np.median(face))


def _within(corners, width: int, height: int) -> bool:
    """Whether a quadrilateral lies wholly inside a ``width`` x ``height`` frame.

    >>> _within(((0, 0), (10, 0), (10, 10), (0, 10)), 100, 100), _within(((-1, 0), (10, 0), (10, 10), (0, 10)), 100, 100)
    (True, False)
    """
    return all(0 <= x <= width and 0 <= y <= height for x, y in corners)


def _as_light(grey: np.ndarray, place: Placed, tile: Placed, share: float = 0.75) -> bool:
    """Whether the middle of ``place`` is about as light (``share`` of it, 75th percentiles) as
    the middle of ``tile``, a tile's face, in a grey frame: where it is darker, the table
    shows there, no face.

    >>> grey = np.full((100, 200), 60, np.uint8); grey[30:70, 50:80] = 220
    >>> tile = Placed(65, 50, 0.0, 30, 40)
    >>> _as_light(grey, Placed(95, 50, 0.0, 30, 40), tile), _as_light(grey, tile, tile)
    (False, True)
    """
    return _light(grey, place) >= share * _light(grey, tile)


def _light(grey: np.ndarray, place: Placed) -> float:
    """The 75th percentile of a grey frame in the middle of ``place`` (half its smaller side
    across), 0 where that lies outside the frame.

    >>> grey = np.full((100, 200), 60, np.uint8); grey[30:70, 50:80] = 220
    >>> _light(grey, Placed(65, 50, 0.0, 30, 40)), _light(grey, Placed(300, 50, 0.0, 30, 40))
    (220.0, 0.0)
    """
    window = _middle(grey, place)
    return float(np.sort(window, axis=None)[3 * window.size // 4]) if window.size else 0.0


NUMBER_ACROSS = 1.5
""":func:`_middle`'s ``across`` for the square where a tile's number is: two thirds of its smaller side."""


def _middle(image: np.ndarray, place: Placed, across: float = 2) -> np.ndarray:
    """The square in the middle of ``place`` (its smaller side over ``across`` wide, half of it by
    default; :func:`_middles` looks at two thirds, where a tile's number is) cut from ``image``,
    clipped to it (empty where the place lies outside)."""
    half = max(1, int(min(place.width, place.height) / (2 * across)))
    x, y = int(round(place.x)), int(round(place.y))
    return image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]


FACE_COLOUR_DISTANCE = 40.0
"""How far (Lab a, b units) the lighter half of a place's middle may be from a tile face's for a
face to lie there: on validation tables the tiles found beyond rows' ends were at most 27 from
their end tile (faces across a light gradient), a light green table beside a row over 50."""


def _face_coloured(frame: np.ndarray, place: Placed, tile: Placed, distance: float = FACE_COLOUR_DISTANCE) -> bool:
    """Whether the middle of ``place`` has the colour of the middle of ``tile``, a tile's face, in
    a BGR frame: the mean a, b (Lab) of the lighter half of each middle (the face, not the ink)
    at most ``distance`` apart.

    >>> frame = np.zeros((100, 200, 3), np.uint8); frame[:] = (120, 200, 90); frame[30:70, 50:80] = (215, 230, 235)
    >>> tile = Placed(65, 50, 0.0, 30, 40)
    >>> _face_coloured(frame, Placed(95, 50, 0.0, 30, 40), tile), _face_coloured(frame, tile, tile)
    (False, True)
    """
    def colour(p: Placed) -> np.ndarray:
        lab = cv2.cvtColor(_middle(frame, p), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
        lighter = lab[lab[:, 0] >= np.median(lab[:, 0])]
        return lighter[:, 1:].mean(axis=0)
    return float(np.hypot(*(colour(place) - colour(tile)))) <= distance


def _looks(points: list[Point], tiles: list[Placed]) -> list[Placed]:
    """Four places at each point, as the frame's ``tiles`` lie: their median size, the turn of
    the nearest one and a quarter, half and three quarters turn more.

    >>> [round(p.angle, 2) for p in _looks([(0.0, 0.0)], [Placed(5.0, 0.0, 0.1, 30.0, 40.0)])]
    [0.1, 1.67, 3.24, 4.81]
    """
    height = float(np.median([t.height for t in tiles]))
    width = float(np.median([t.width for t in tiles]))
    places = []
    for x, y in points:
        near = min(tiles, key=lambda t: math.hypot(t.x - x, t.y - y))
        places += [Placed(x, y, near.angle + quarter * math.pi / 2, width, height) for quarter in range(4)]
    return places


FACE_SHARE = 0.9
INK_CONTRAST = 0.5
NEAR_PLAIN = 1.5
DARK_SHARE = 0.5
"""A place whose middle is, at its lightest (90th percentile), under this share of the faces' light
shows no face. On the validation tables (seeds 600-617) every missed tile whose place the classifier
read as no tile showed at least 0.69 of the faces' light; 31 places of bare table below 0.5 had been
asked about (a dark cloth's grain is not plain)."""
OFF_COLOUR = COLOUR_TOLERANCE
"""A place whose lighter half is farther than this (Lab a, b) from the colour of the faces read shows
no face: a coloured table (a yellow cloth beside cream faces, an olive dot of a cloth). On validation
tables (seeds 600-602) and turns (seed 600) every true tile the classifier read as no tile at least
:attr:`TileReaderOptions.bare` surely lay within 15.6 of the faces' colour (a tile 70 % under a hand);
32 places of bare table 19-45 away had been asked about."""


@dataclass(frozen=True)
class _Surroundings:
    """A grey frame, where its tiles were read (``known``, grown a little) and the light of
    their faces (``face``: the median of their middles' 90th percentiles); with the frame itself
    (``frame``, BGR) and its ``tiles``, also the faces' colour (:attr:`colour`)."""

    grey: np.ndarray
    known: np.ndarray
    face: float
    frame: np.ndarray | None = None
    tiles: tuple[Placed, ...] = ()

    @classmethod
    def of(cls, frame: np.ndarray, tiles: list[Placed]) -> "_Surroundings":
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        known = np.zeros(grey.shape, np.uint8)
        grown = [Placed(t.x, t.y, t.angle, 1.2 * t.width, 1.2 * t.height) for t in tiles]
        cv2.fillPoly(known, [np.round(np.array(outline(t))).astype(np.int32) for t in grown], 1)
        return cls(grey, known > 0, float(np.median(_middles(grey, tiles, (90,))[:, 0])), frame, tuple(tiles))

    @functools.cached_property
    def colour(self) -> tuple[float, float] | None:
        """The faces' colour: the medians of the tiles' :func:`_face_colour` (worked out when first asked)."""
        colours = [c for c in (_face_colour(self.frame, t) for t in self.tiles) if c is not None]
        return (float(np.median([a for a, _ in colours])), float(np.median([b for _, b in colours]))) if colours else None

    def no_face(self, place: Placed) -> bool:
        """Whether a tile-sized ``place`` shows no face: it is plain (:meth:`plain`), far darker than
        the faces (:meth:`dark`: a dark cloth's grain is no plain patch, but no face either) or of
        another colour than the faces (:meth:`off_colour`)."""
        return self.dark(place) or self.plain(place) or self.off_colour(place)

    def off_colour(self, place: Placed) -> bool:
        """Whether the lighter half of a tile-sized ``place``'s middle is farther than
        :data:`OFF_COLOUR` from the faces' colour (a, b).

        >>> frame = np.full((100, 200, 3), (60, 200, 220), np.uint8)         # a yellow cloth (BGR)
        >>> frame[30:70, 120:150] = (215, 238, 245)                           # a cream face
        >>> table = _Surroundings.of(frame, [Placed(135, 50, 0.0, 30, 40)])
        >>> table.off_colour(Placed(50, 50, 0.0, 30, 40)), table.off_colour(Placed(135, 50, 0.0, 30, 40))
        (True, False)
        """
        if self.frame is None or self.colour is None:
            return False
        here = _face_colour(self.frame, place)
        return here is not None and math.hypot(here[0] - self.colour[0], here[1] - self.colour[1]) > OFF_COLOUR

    def dark(self, place: Placed) -> bool:
        """Whether a tile-sized ``place`` is far darker than the faces (:data:`DARK_SHARE`).

        >>> grey = np.full((100, 200), 60, np.uint8); grey[30:70, 120:150] = 200
        >>> table = _Surroundings(grey, np.zeros(grey.shape, bool), 200.0)
        >>> table.dark(Placed(50, 50, 0.0, 30, 40)), table.dark(Placed(135, 50, 0.0, 30, 40))
        (True, False)
        """
        return bool(_middles(self.grey, [place], (90,))[0, 0] < DARK_SHARE * self.face)

    def plain(self, place: Placed) -> bool:
        """Whether a tile-sized ``place`` is plain table: nothing within :data:`NEAR_PLAIN` of
        its heights around it but the tiles read is nearly as light as the faces (at least
        :data:`FACE_SHARE` of them, 99th percentile: a face washed out by glare, or a tile the
        finder missed beside the patch, is), and its middle shows no ink on a face (its 95th
        less 5th percentile under :data:`INK_CONTRAST` of its 90th: a face in a shadow still
        shows its number).

        >>> grey = np.full((100, 200), 120, np.uint8); grey[30:70, 50:80] = 130
        >>> table = _Surroundings(grey, np.zeros(grey.shape, bool), 220.0)
        >>> table.plain(Placed(65, 50, 0.0, 30, 40))
        True
        >>> grey[40:60, 60:70] = 40; table.plain(Placed(65, 50, 0.0, 30, 40))     # a number on it
        False
        >>> grey[40:60, 60:70] = 130; grey[40:80, 130:160] = 215; table.plain(Placed(95, 50, 0.0, 30, 40))  # a face beside it
        False
        >>> known = np.zeros(grey.shape, bool); known[35:85, 125:165] = True       # ... read as a tile
        >>> _Surroundings(grey, known, 220.0).plain(Placed(95, 50, 0.0, 30, 40))
        True
        """
        reach = int(NEAR_PLAIN * place.height)
        x, y = int(round(place.x)), int(round(place.y))
        box = (slice(max(0, y - reach), y + reach + 1), slice(max(0, x - reach), x + reach + 1))
        near = self.grey[box][~self.known[box]]
        if near.size and np.percentile(near, 99) >= FACE_SHARE * self.face:
            return False
        light, low, high = _middles(self.grey, [place], (90, 5, 95))[0]
        return bool(high - low < INK_CONTRAST * light)


def _face_colour(frame: np.ndarray, place: Placed) -> tuple[float, float] | None:
    """The Lab a, b (OpenCV's scale, centred on 0) of the lighter half of a place's middle
    (:func:`_middles`' window) in a BGR frame: a face's colour beside its darker number; None out
    of the frame.

    >>> frame = np.full((60, 60, 3), (215, 238, 245), np.uint8); frame[28:32, 25:35] = (40, 40, 200)  # red ink
    >>> _face_colour(frame, Placed(30, 30, 0.0, 30, 40))
    (-1.0, 12.0)
    """
    window = _middle(frame, place, NUMBER_ACROSS)
    if not window.size:
        return None
    return lighter_half_colour(cv2.cvtColor(window, cv2.COLOR_BGR2LAB).reshape(-1, 3))


def _middles(grey: np.ndarray, places: list[Placed], which: tuple[float, ...]) -> np.ndarray:
    """Percentiles (one row per place) of a grey frame in the middle of each place: an upright
    square of two thirds of its narrower side (where a tile's number is); 0 where it is out of
    the frame. Windows of one shape are stacked and go through :func:`numpy.percentile` together
    (the same numbers, a fraction of its overhead).

    >>> grey = np.zeros((100, 100), np.uint8); grey[40:60, 40:60] = 200
    >>> _middles(grey, [Placed(50, 50, 0.0, 30, 40), Placed(10, 10, 0.0, 30, 40), Placed(-50, 5, 0.0, 30, 40)], (50,))
    array([[200.],
           [  0.],
           [  0.]])
    """
    found = np.zeros((len(places), len(which)))
    windows: dict[tuple[int, int], list[tuple[int, np.ndarray]]] = {}
    for k, place in enumerate(places):
        window = _middle(grey, place, NUMBER_ACROSS)
        if window.size:
            windows.setdefault(window.shape, []).append((k, window))
    for same in windows.values():
        rows = [k for k, _ in same]
        found[rows] = np.percentile(np.stack([window.ravel() for _, window in same]), which, axis=1).T
    return found


def _odd_colour(codes: list[str]) -> list[int]:
    """Where a row of tile codes (in reading order) is a combination but for one tile's colour: the
    places in the row of the tiles that may be misread. A run (numbers one apart either way, jokers
    standing in) in one colour but a single tile: that tile; a group (one number) with a colour
    twice: both tiles of that colour. A legal table has no such row; a colour misread makes one.

    >>> _odd_colour(["K8", "K9", "B10", "K11"]), _odd_colour(["B9", "O9", "B9"]), _odd_colour(["R5", "JK", "B7"])
    ([2], [0, 2], [])
    >>> _odd_colour(["K8", "K9", "K10"]), _odd_colour(["B9", "O9", "K9"]), _odd_colour(["R3", "K8", "B11"])
    ([], [], [])
    """
    if len(codes) < 3:
        return []
    placed = [(i, code[0], int(code[1:])) for i, code in enumerate(codes) if code != "JK"]
    colours = [colour for _, colour, _ in placed]
    if len({number for _, _, number in placed}) == 1:
        return [i for i, colour, _ in placed if colours.count(colour) > 1]
    odd = [colour for colour in set(colours) if colours.count(colour) == 1]
    if len(set(colours)) != 2 or len(odd) != 1 or len(placed) < 3:
        return []
    first, _, start = placed[0]
    if not any(all(number == start + step * (i - first) for i, _, number in placed) for step in (1, -1)):
        return []
    return [i for i, colour, _ in placed if colour == odd[0]]


def number_fixes(codes: list[str]) -> list[tuple[int, str]]:
    """Where a row of tile codes (in reading order) is a combination but for one tile's number:
    (that tile's place in the row, the code that would make the row one), for a run in one colour
    whose numbers are one apart either way but at a single tile, or a group (colours all
    different) whose numbers are one but for a single tile. A legal table has no such row; a
    number misread (5 as 6, 8 as 6) makes one, and so does a tile taken out of a run.

    >>> number_fixes(["Y3", "Y4", "Y6", "Y6", "JK"]), number_fixes(["B11", "Y11", "G1", "R11"])
    ([(2, 'Y5')], [(2, 'G11')])
    >>> number_fixes(["R6", "R7", "R9"]), number_fixes(["R7", "R6", "R7"])
    ([(2, 'R8')], [(0, 'R5'), (2, 'R5')])
    >>> number_fixes(["Y3", "Y4", "Y5"]), number_fixes(["R5", "B5", "G5"]), number_fixes(["R3", "B8", "G11"])
    ([], [], [])
    """
    placed = [(i, code[0], int(code[1:])) for i, code in enumerate(codes) if code != "JK"]
    if len(codes) < 3 or len(placed) < 3:
        return []
    colours = [colour for _, colour, _ in placed]
    numbers = [number for _, _, number in placed]
    if len(set(colours)) == len(colours):        # a group but for one number
        return [(i, f"{colour}{shared}") for shared in set(numbers) if numbers.count(shared) == len(numbers) - 1
                for i, colour, number in placed if number != shared]
    if len(set(colours)) != 1:
        return []
    fixes = []
    for odd, (at, colour, number) in enumerate(placed):     # a run in one colour but for one number
        rest = placed[:odd] + placed[odd + 1:]
        first, _, start = rest[0]
        for step in (1, -1):
            wanted = start + step * (at - first)
            if all(n == start + step * (i - first) for i, _, n in rest) and number != wanted and 1 <= wanted <= 13:
                fixes.append((at, f"{colour}{wanted}"))
    return fixes


def holds_twice(codes: list[str], at: int) -> bool:
    """Whether a row of tile codes holds the tile at place ``at`` twice: no tile taken out of a run
    makes a twin, a 5 read surely as 6 beside a 6 does (and the classifier then gives the mending
    code as little a chance as it gives a taken tile's), so such a tile is doubted as a number
    misread whatever that chance.

    >>> holds_twice(["G2", "G3", "G4", "G6", "G6", "G7"], 3), holds_twice(["R6", "R7", "R9"], 2)
    (True, False)
    """
    return codes.count(codes[at]) > 1


def _answered(point: Point, found: list[Placed]) -> bool:
    """Whether a doubt at ``point`` is answered by a tile found there (within half its width).

    >>> _answered((10.0, 10.0), [Placed(18.0, 10.0, 0.0, 30.0, 40.0)]), _answered((10.0, 10.0), [])
    (True, False)
    """
    return any(math.hypot(point[0] - t.x, point[1] - t.y) < 0.5 * t.width for t in found)


def _counts(blob: Blob, pitch: float | None) -> tuple[int, ...]:
    """The counts to cut a row ``blob`` into: its own likeliest ones and the one at the
    ``pitch`` the frame's rows share (:func:`vision.tiles.outlines.row_pitch`), if that is
    another count of two or more tiles.

    >>> row = Blob(0, 0, 0.0, 200.0, 40.0, (6,), 0)
    >>> _counts(row, 0.7), _counts(row, 0.82), _counts(row, None)
    ((6, 7), (6,), (6,))
    """
    if pitch is None or blob.counts[0] < 2:
        return blob.counts
    n = blob.count_at(pitch)
    return blob.counts if n < 2 or n in blob.counts else blob.counts + (n,)


def _renumber(observations: list[TileObservation]) -> tuple[TileObservation, ...]:
    """Rows numbered 0, 1, ... in order, with rows whose every tile was dropped left out."""
    numbers: dict[int, int] = {}
    out = []
    for o in observations:
        numbers.setdefault(o.row, len(numbers))
        out.append(TileObservation(o.tile, o.confidence, o.outline, numbers[o.row]))
    return tuple(out)
