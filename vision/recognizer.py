"""Frames to card observations: corner indices found by a detector, read by a classifier.

Stage 1, :class:`IndexDetector`: a tiny fully-convolutional net on the frame
scaled to ``detect_long_side`` pixels (and to the other levels of an image
pyramid, :attr:`RecognizerOptions.pyramid`) predicts, at stride 4, a heat map of
corner-index centres with the glyphs' orientation and size, and a heat map of
face-down card centres with their size. Stage 2: every index candidate is cut
upright from the FULL-resolution frame (:mod:`vision.patches`) and classified
into 52 cards, the joker or "not an index". Readings of the same card at two
diagonal corners are merged into one observation with both corner positions.

Run time needs numpy, OpenCV and onnxruntime only::

    rec = Recognizer()
    [o.card for o in rec.recognize(cv2.imread("table.jpg"))]   # e.g. ['10H', 'JS', 'BACK']
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.backs import confirm_backs
from vision.decks import DeckProfile, classifier_digest
from vision.labels import BACK_CODE, CLASS_CODES, NONE_CLASS
from vision.observation import CardObservation
from vision.patches import index_patches

DEFAULT_MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
DETECTOR_FILE = "cards-detector.onnx"
CLASSIFIER_FILE = "cards-classifier.onnx"
STRIDE = 4
RESCALE_BELOW_PX = 9.0
RESCALE_TARGET_PX = 18.0

# Where a corner index sits on a card, as fractions of the card's width and
# height (typical of French-suited decks); used to estimate outlines.
INDEX_OFFSET_X = 0.085
INDEX_OFFSET_Y = 0.14

CardDiagonal = Callable[[tuple[float, float]], float]
"""How long a card's diagonal looks, in pixels, at an image point (from the table's calibration, see
:meth:`vision.calibration.Calibration.image_length`): a card's two indices lie closer than that."""


@dataclass(frozen=True)
class IndexCandidate:
    """A detector peak: where an index may be, how it is turned and how tall."""

    x: float
    y: float
    angle: float
    size: float
    heat: float


@dataclass(frozen=True)
class IndexReading:
    """A candidate after classification."""

    candidate: IndexCandidate
    card: str
    confidence: float


@dataclass(frozen=True)
class RecognizerOptions:
    """Tuning knobs; the defaults were chosen on rendered validation scenes.

    ``min_confidence`` drops readings below it from the result (a face-down
    card's confidence is its heat, which must also reach ``back_threshold``);
    it is not a decision threshold for the product, which asks the player about anything
    that is not clearly sure.

    ``pyramid`` lists the detector passes as fractions of ``detect_long_side``:
    the default ``(1.0, 0.5)`` runs the detector on the frame scaled to 640 px
    and again at 320 px, where the indices of close-ups (too big for the
    detector at 640 px) come into its range; the second pass costs a quarter
    of the first. Candidates of all passes are pooled before classification
    and overlapping readings are then suppressed, so an index found by both
    passes is reported once.

    ``second_look``: a candidate whose best card is neither clearly right nor
    clearly wrong (probability in ``second_look_range``) is cut again at
    these multiples of its size and classified again; the readings are
    combined by the geometric mean of their probabilities. Indices under
    ``second_look_min_size`` pixels tall are not looked at again: their
    patches are upsampled from a few pixels, and cutting them at another size
    adds no detail, only interpolation. It costs about half
    the classifier's time again and removes readings that only one cut
    supports (on rendered validation scenes: precision 0.85 -> 0.89 at the
    same recall). ``()`` turns it off.

    ``confirm_backs``: a face-down card is reported only where a card-sized
    outline surrounds the detector's peak and no index reading lies in its
    middle (:mod:`vision.backs`), not wherever something looks like a back's
    pattern.
    """

    detect_long_side: int = 640
    pyramid: tuple[float, ...] = (1.0, 0.5)
    second_look: tuple[float, ...] = (0.87, 1.15)
    second_look_range: tuple[float, float] = (0.3, 0.9)
    second_look_min_size: float = 12.0
    max_upscale: float = 2.0
    max_long_side: int = 1600
    index_threshold: float = 0.2
    back_threshold: float = 0.4
    min_confidence: float = 0.3
    max_candidates: int = 300
    confirm_backs: bool = True


def _session(path: Path, threads: int):
    import onnxruntime as ort

    if not path.is_file():
        raise FileNotFoundError(f"model file {path} is missing: train it with `python -m vision.train --out {path.parent}`")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle pool threads sleep instead of spinning: on a busy machine (the camera, the dashboard, or
    # other work) spinning threads took the cores the work needed; measured on 2 shared cores, 2 and
    # 4 threads then cost 2x and 4x the CPU of 1 (benchmarks/bench_pipeline.py).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _patch_tensor(patches: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 patches as the classifiers' (N, 3, H, W) float32 input, scaled to 0-1."""
    return patches.astype(np.float32).transpose(0, 3, 1, 2) * (1.0 / 255.0)


def run_classifier(session, patches: np.ndarray, classes: int,
                   profile: DeckProfile | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Logits and embeddings of (N, H, W, 3) uint8 patches from a classifier session with a ``patch``
    input; a learned ``profile`` (deck or tile set) replaces the shipped last layer (a deck's, the last
    convolution blocks too, run on the session's ``features`` output)."""
    if len(patches) == 0:
        return np.zeros((0, classes), np.float32), np.zeros((0, 0), np.float32)
    tensor = _patch_tensor(patches)
    wanted = ["logits", "embedding"]
    if profile is not None and profile.reads not in wanted:
        if profile.reads not in {output.name for output in session.get_outputs()}:
            raise ValueError(f"the learned deck {profile.name!r} needs the classifier's {profile.reads!r} output, which "
                             f"this model lacks: add it with `python -m vision.train.expose MODEL.onnx`")
        wanted.append(profile.reads)
    logits, embedding, *more = session.run(wanted, {"patch": tensor})
    if profile is not None:
        logits = profile.logits(more[0] if more else embedding)
    return logits, embedding


class Networks:
    """A classifier session of one network (``patch`` in; ``logits``, ``embedding`` out) or of several
    joined by :mod:`vision.train.ensemble` (member ``k`` reads ``patch`` or ``patch_k`` and gives
    ``m{k}/logits`` and ``m{k}/embedding``). :meth:`read` reads patches with the members asked for;
    the others are given no patches, which costs them nothing."""

    def __init__(self, session) -> None:
        self.session = session
        self.inputs = [given.name for given in session.get_inputs()]
        outputs = session.get_outputs()
        self.joined = "logits" not in {output.name for output in outputs}
        self.count = len(self.inputs) if self.joined else 1
        self.embedding_width = sum(output.shape[1] for output in outputs if output.name.endswith("embedding"))

    def read(self, patches: np.ndarray, members: range | None = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each asked member's logits and embeddings of (N, H, W, 3) uint8 patches (all members by default)."""
        tensor = _patch_tensor(patches)
        if not self.joined:
            logits, embedding = self.session.run(["logits", "embedding"], {self.inputs[0]: tensor})
            return [logits], [embedding]
        members = range(self.count) if members is None else members
        feed = {name: tensor if k in members else tensor[:0] for k, name in enumerate(self.inputs)}
        found = self.session.run([f"m{k}/{what}" for k in members for what in ("logits", "embedding")], feed)
        return found[0::2], found[1::2]


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def _peaks(heat: np.ndarray, threshold: float, limit: int) -> list[tuple[int, int]]:
    """Local maxima (3x3) of a heat map above ``threshold``, strongest first."""
    dilated = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= dilated) & (heat >= threshold))
    order = np.argsort(-heat[ys, xs])[:limit]
    return [(int(ys[i]), int(xs[i])) for i in order]


def _refine(heat: np.ndarray, y: int, x: int) -> tuple[float, float]:
    """Sub-cell peak position: the heat-weighted centroid of the 3x3 neighbourhood."""
    y0, y1, x0, x1 = max(0, y - 1), min(heat.shape[0], y + 2), max(0, x - 1), min(heat.shape[1], x + 2)
    window = heat[y0:y1, x0:x1]
    gy, gx = np.mgrid[y0:y1, x0:x1]
    total = float(window.sum())
    return float((window * gx).sum() / total), float((window * gy).sum() / total)


def back_design_name(frame: np.ndarray, center: tuple[float, float], size: float) -> str:
    """A colour name for the back of a face-down card (red, blue, green, ...).

    Stable across frames and enough to tell the two decks of a game apart.

    >>> img = np.zeros((50, 50, 3), np.uint8); img[:] = (200, 40, 30)   # BGR blue
    >>> back_design_name(img, (25.0, 25.0), 40.0)
    'blue'
    """
    half = max(2, int(size * 0.25))
    x, y = int(round(center[0])), int(round(center[1]))
    region = frame[max(0, y - half):y + half, max(0, x - half):x + half]
    if region.size == 0:
        return "unknown"
    hsv = cv2.cvtColor(region, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    saturated = hsv[hsv[:, 1] > 80]
    if len(saturated) < 0.2 * len(hsv):
        value = float(np.median(hsv[:, 2]))
        return "black" if value < 70 else "grey" if value < 170 else "white"
    # Circular mean of OpenCV hue (0..180).
    angles = saturated[:, 0] * (np.pi / 90.0)
    hue = (math.degrees(math.atan2(np.sin(angles).mean(), np.cos(angles).mean())) % 360.0) / 2.0
    for name, upper in (("red", 8), ("orange", 20), ("yellow", 33), ("green", 80), ("cyan", 97),
                        ("blue", 130), ("purple", 160), ("red", 181)):
        if hue < upper:
            return name
    return "red"


class IndexDetector:
    """Stage 1 alone: the detector's ONNX model, loaded once; :meth:`detect` finds the index and
    face-down card candidates of a frame. Training mines the places a detector mistakes for
    indices with it before any classifier exists."""

    def __init__(self, model_dir: str | Path | None = None, threads: int = 1,
                 options: RecognizerOptions = RecognizerOptions()) -> None:
        self.model_dir = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        self.detector = _session(self.model_dir / DETECTOR_FILE, threads)
        self.options = options

    # Stage 1 ------------------------------------------------------------------
    def detector_scales(self, frame: np.ndarray) -> list[float]:
        """The pyramid's scales for this frame, largest first; levels that
        :attr:`RecognizerOptions.max_upscale` makes equal are run once."""
        long_side = max(frame.shape[:2])
        scales: list[float] = []
        for fraction in sorted(self.options.pyramid, reverse=True):
            scale = min(self.options.max_upscale, fraction * self.options.detect_long_side / long_side)
            if all(abs(scale / other - 1) > 0.1 for other in scales):
                scales.append(scale)
        return scales

    def detector_input(self, frame: np.ndarray, scale: float) -> tuple[np.ndarray, float]:
        """The frame scaled for the detector (padded to a multiple of 16) and the exact scale used."""
        height, width = frame.shape[:2]
        new_w, new_h = max(16, round(width * scale)), max(16, round(height * scale))
        resized = cv2.resize(frame, (new_w, new_h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        pad_h, pad_w = -new_h % 16, -new_w % 16
        if pad_h or pad_w:
            resized = cv2.copyMakeBorder(resized, 0, pad_h, 0, pad_w, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        return resized, new_w / width

    def detect(self, frame: np.ndarray) -> tuple[list[IndexCandidate], list[IndexCandidate]]:
        """Index candidates and face-down card candidates of all pyramid levels, in frame coordinates.

        When the first (largest) level finds only tiny indices in a large frame
        (a wide shot of a big table), it is run again at the scale that makes
        them :data:`RESCALE_TARGET_PX` tall. A back candidate's ``size`` is the
        card's height; its angle is unused. An index found at several levels
        gives several candidates (their readings are suppressed after
        classification); a back found at several levels is reported once.
        """
        if not self.options.pyramid:
            raise ValueError("RecognizerOptions.pyramid needs at least one detector scale")
        first, *others = self.detector_scales(frame)
        indices, backs = self._detect_at(frame, first)
        sure = [c.size for c in indices if c.heat >= 0.4]
        if sure:
            typical = float(np.median(sure)) * first
            wanted = min(first * RESCALE_TARGET_PX / typical, self.options.max_upscale,
                         self.options.max_long_side / max(frame.shape[:2]))
            if typical < RESCALE_BELOW_PX and wanted > 1.4 * first:
                indices, backs = self._detect_at(frame, wanted)
        for scale in others:
            more_indices, more_backs = self._detect_at(frame, scale)
            indices += more_indices
            backs += more_backs
        # A back's size is the card's height: backs a third of it apart are one card.
        return indices, strongest_apart(backs, lambda b: b, lambda b: b.heat, reach=1 / 3)

    def _detect_at(self, frame: np.ndarray, scale: float) -> tuple[list[IndexCandidate], list[IndexCandidate]]:
        image, scale = self.detector_input(frame, scale)
        tensor = (image.astype(np.float32) * (1.0 / 255.0)).transpose(2, 0, 1)[None]
        maps = self.detector.run(None, {"image": tensor})[0][0]
        opts = self.options
        indices = []
        for y, x in _peaks(maps[0], opts.index_threshold, opts.max_candidates):
            cx, cy = _refine(maps[0], y, x)
            indices.append(IndexCandidate(
                x=(cx + 0.5) * STRIDE / scale, y=(cy + 0.5) * STRIDE / scale,
                angle=math.atan2(float(maps[3, y, x]), float(maps[2, y, x])),
                size=math.exp(float(maps[4, y, x])) / scale, heat=float(maps[0, y, x])))
        backs = []
        for y, x in _peaks(maps[1], opts.back_threshold, opts.max_candidates):
            cx, cy = _refine(maps[1], y, x)
            backs.append(IndexCandidate(
                x=(cx + 0.5) * STRIDE / scale, y=(cy + 0.5) * STRIDE / scale, angle=0.0,
                size=math.exp(float(maps[5, y, x])) / scale, heat=float(maps[1, y, x])))
        return indices, backs


class Recognizer(IndexDetector):
    """Loads the two ONNX models once; :meth:`recognize` is then called per frame.

    ``threads`` is onnxruntime's intra-op thread count (1 on a busy Pi core).
    ``deck`` swaps the classifier's last layers for ones fitted to a player's
    own deck by :mod:`vision.learn_deck`.
    """

    def __init__(self, model_dir: str | Path | None = None, threads: int = 1, deck: DeckProfile | None = None,
                 options: RecognizerOptions = RecognizerOptions()) -> None:
        super().__init__(model_dir, threads, options)
        self.classifier = _session(self.model_dir / CLASSIFIER_FILE, threads)
        self.classifier_digest = classifier_digest(self.model_dir / CLASSIFIER_FILE)
        self.deck = self._fitting(deck)

    def with_deck(self, deck: DeckProfile | None) -> "Recognizer":
        """The same loaded models with another deck's last layers (or the shipped ones)."""
        clone = copy.copy(self)
        clone.deck = self._fitting(deck)
        return clone

    def _fitting(self, deck: DeckProfile | None) -> DeckProfile | None:
        """``deck``, checked to have been fitted to this classifier (ValueError otherwise: learn it again)."""
        if deck is not None:
            deck.check_classifier(self.classifier_digest)
        return deck

    # Stage 2 ------------------------------------------------------------------
    def classify_patches(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities and embeddings of a batch of (N, S, S, 3) uint8 patches."""
        logits, embedding = run_classifier(self.classifier, patches, len(CLASS_CODES), self.deck)
        return _softmax(logits), embedding

    def read_indices(self, frame: np.ndarray, candidates: list[IndexCandidate]) -> list[IndexReading]:
        """Classify every candidate, take a second look at the unsure ones, suppress overlapping readings."""
        probs, _ = self.classify_patches(index_patches(frame, candidates))
        probs = self._second_look(frame, candidates, probs)
        readings = []
        for candidate, p in zip(candidates, probs):
            best = int(np.argmax(p[:NONE_CLASS]))
            confidence = float(p[best])
            if confidence >= self.options.min_confidence:
                readings.append(IndexReading(candidate, CLASS_CODES[best], confidence))
        return _suppress(readings)

    def _second_look(self, frame: np.ndarray, candidates: list[IndexCandidate], probs: np.ndarray) -> np.ndarray:
        low, high = self.options.second_look_range
        best = probs[:, :NONE_CLASS].max(axis=1) if len(probs) else np.zeros(0)
        sizes = np.array([c.size for c in candidates])
        unsure = np.nonzero((best >= low) & (best < high) & (sizes >= self.options.second_look_min_size))[0]
        if not self.options.second_look or len(unsure) == 0:
            return probs
        log_sum = np.log(probs[unsure] + 1e-6)
        for factor in self.options.second_look:
            again = [replace(candidates[i], size=candidates[i].size * factor) for i in unsure]
            log_sum += np.log(self.classify_patches(index_patches(frame, again))[0] + 1e-6)
        combined = np.exp(log_sum / (1 + len(self.options.second_look)))
        probs = probs.copy()
        probs[unsure] = combined / combined.sum(axis=1, keepdims=True)
        return probs

    # Whole frame ---------------------------------------------------------------
    def recognize(self, frame: np.ndarray, card_diagonal: CardDiagonal | None = None) -> list[CardObservation]:
        """All cards seen in one BGR frame, most confident first; with ``card_diagonal`` (how long a
        card's diagonal looks at an image point, known from the table's calibration) no two indices
        further apart than that are taken for the two corners of one card."""
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("recognize expects a BGR uint8 image of shape (H, W, 3)")
        index_candidates, back_candidates = self.detect(frame)
        readings = self.read_indices(frame, index_candidates)
        observations = merge_corners(readings, card_diagonal)
        # A face-down card is a reading like any other: as sure as asked, or not reported.
        backs = [back for back in back_candidates if back.heat >= self.options.min_confidence]
        if self.options.confirm_backs:
            backs = confirm_backs(frame, backs, [(r.candidate.x, r.candidate.y) for r in readings])
        for back in backs:
            observations.append(CardObservation(
                BACK_CODE, back.heat, ((back.x, back.y),),
                back_design=back_design_name(frame, (back.x, back.y), back.size)))
        return sorted(observations, key=lambda o: -o.confidence)


def strongest_apart(items: list, candidate_of, strength, reach: float = 0.45) -> list:
    """The strongest of items whose candidates lie on top of each other.

    Two candidates overlap when they are closer than ``reach`` times the larger
    one's size; items are kept strongest first.

    >>> near = [IndexCandidate(0, 0, 0.0, 20, 0.5), IndexCandidate(5, 0, 0.0, 20, 0.9), IndexCandidate(40, 0, 0.0, 20, 0.3)]
    >>> [c.heat for c in strongest_apart(near, lambda c: c, lambda c: c.heat)]
    [0.9, 0.3]
    """
    kept: list = []
    for item in sorted(items, key=lambda i: -strength(i)):
        c = candidate_of(item)
        if all(math.hypot(c.x - k.x, c.y - k.y) > reach * max(c.size, k.size) for k in map(candidate_of, kept)):
            kept.append(item)
    return kept


SAME_CARD_REACH = 1.0
"""Two readings of the same card closer than this many index heights are one index read twice
(two pyramid levels, a little apart): indices of different cards lie that close in tight fans,
so readings of different cards are only suppressed within 0.45 index heights."""


def _suppress(readings: list[IndexReading]) -> list[IndexReading]:
    """Keep the most confident of readings that lie on top of each other (from one or several pyramid levels)."""
    kept = strongest_apart(readings, lambda r: r.candidate, lambda r: r.confidence)
    by_card: dict[str, list[IndexReading]] = {}
    for reading in kept:
        by_card.setdefault(reading.card, []).append(reading)
    return [reading for same in by_card.values()
            for reading in strongest_apart(same, lambda r: r.candidate, lambda r: r.confidence, SAME_CARD_REACH)]


# The two indices of one card, seen from the upper one: "down" over "right" and their distance in
# index heights. The limits hold 98 % of the pairs in rendered scenes of many decks photographed
# at up to 60 degrees tilt (grazing views squeeze "down"; some decks have small indices).
MIN_DIAGONAL_ASPECT = 0.45
MAX_DIAGONAL_ASPECT = 3.0
MAX_DIAGONAL_INDICES = 10.0

def diagonal_partner(a: IndexCandidate, b: IndexCandidate, card_diagonal: CardDiagonal | None = None) -> bool:
    """Could ``b`` be the index at the corner diagonally opposite ``a`` on one card?

    The two indices of a card are turned by 180 degrees and, seen from ``a``'s
    glyphs, ``b`` lies to the lower right at a card's distance: at most
    :data:`MAX_DIAGONAL_INDICES` index heights (indices are large on some decks,
    small on others) and, where the frame's ``card_diagonal`` is known, within it.

    >>> a = IndexCandidate(10, 10, 0.0, 20, 1.0)
    >>> diagonal_partner(a, IndexCandidate(60, 80, math.pi, 20, 1.0))
    True
    >>> diagonal_partner(a, IndexCandidate(-40, 80, math.pi, 20, 1.0))
    False
    >>> diagonal_partner(a, IndexCandidate(60, 80, math.pi, 20, 1.0), card_diagonal=lambda point: 80.0)
    False
    """
    turn = abs((a.angle - b.angle + math.pi) % (2 * math.pi) - math.pi)
    if turn < math.radians(130):
        return False
    dx, dy = b.x - a.x, b.y - a.y
    c, s = math.cos(a.angle), math.sin(a.angle)
    right, down = dx * c + dy * s, -dx * s + dy * c
    size = (a.size + b.size) / 2
    if not (right > 0.8 * size and down > 1.2 * size and MIN_DIAGONAL_ASPECT < down / right < MAX_DIAGONAL_ASPECT
            and math.hypot(dx, dy) < MAX_DIAGONAL_INDICES * size):
        return False
    return card_diagonal is None or math.hypot(dx, dy) < card_diagonal(((a.x + b.x) / 2, (a.y + b.y) / 2))


def card_outline(a: IndexCandidate, b: IndexCandidate) -> tuple[tuple[float, float], ...]:
    """Estimate the card's four corners from its two diagonal indices (``a`` upper left)."""
    dx, dy = b.x - a.x, b.y - a.y
    c, s = math.cos(a.angle), math.sin(a.angle)
    right, down = dx * c + dy * s, -dx * s + dy * c
    width, height = right / (1 - 2 * INDEX_OFFSET_X), down / (1 - 2 * INDEX_OFFSET_Y)
    cx, cy = (a.x + b.x) / 2, (a.y + b.y) / 2
    ux, uy = c, s             # card's right direction
    vx, vy = -s, c            # card's down direction
    corners = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        corners.append((cx + sx * width / 2 * ux + sy * height / 2 * vx, cy + sx * width / 2 * uy + sy * height / 2 * vy))
    return tuple(corners)


def merge_corners(readings: list[IndexReading], card_diagonal: CardDiagonal | None = None) -> list[CardObservation]:
    """One observation per card: two agreeing diagonal readings become one card (see :func:`diagonal_partner`)."""
    remaining = sorted(readings, key=lambda r: -r.confidence)
    observations = []
    while remaining:
        first = remaining.pop(0)
        partner = None
        for other in remaining:
            if other.card != first.card:
                continue
            for upper, lower in ((first, other), (other, first)):
                if diagonal_partner(upper.candidate, lower.candidate, card_diagonal):
                    partner = (upper, lower)
                    break
            if partner:
                remaining.remove(other)
                break
        if partner is None:
            observations.append(CardObservation(first.card, first.confidence, ((first.candidate.x, first.candidate.y),)))
            continue
        upper, lower = partner
        # The readings are not independent (same deck, same light): take the
        # better one rather than claiming more certainty than either has.
        confidence = max(upper.confidence, lower.confidence)
        observations.append(CardObservation(
            first.card, confidence,
            ((upper.candidate.x, upper.candidate.y), (lower.candidate.x, lower.candidate.y)),
            outline=card_outline(upper.candidate, lower.candidate)))
    return observations
