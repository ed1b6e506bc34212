"""Deck designs: real SVG decks rendered once and cached, and procedural decks.

Real designs come from the Debian packages ``gnome-cards-data`` (aisleriot
themes) and ``kdegames-card-data-kf5`` (KDE carddecks), rendered with
``rsvg-convert`` (``librsvg2-bin``). Each face is cropped to the card, scaled
to :data:`CARD_HEIGHT` pixels and cached as PNG with its corner-index boxes
under ``$RUMMYREF_CACHE/decks`` (default ``~/.cache/rummyref/decks``).

Design names are ``gnome/NAME``, ``kde/NAME`` or ``proc/SEED``:

>>> "gnome/anglo" in TRAIN_DESIGNS and "kde/standard" in TRAIN_DESIGNS
True
>>> set(TRAIN_DESIGNS) & set(HELDOUT_DESIGNS)
set()
>>> design_licence("kde/penguins"), design_licence("proc/7")
('GPL-3+', 'GPL-3.0-or-later (drawn by rummyref)')

:data:`HELDOUT_DESIGNS` must never be used for training: the recognizer's
accuracy on decks it has never seen is measured on them.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .faces import BACK_CODE, CARD_CODES, CardFace, IndexBox, find_corner_indices

CARD_HEIGHT = 512
"""Height in pixels of every cached face."""
CACHE_VERSION = 1
"""Bump when rendering or index finding changes, to re-render cached decks."""

_GNOME_DIR = Path("/usr/share/aisleriot/cards")
_KDE_DIR = Path("/usr/share/carddecks")
_RANK_WORDS = {1: "1", 11: "jack", 12: "queen", 13: "king"}
_SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


class DeckError(RuntimeError):
    """A deck design is unknown or cannot be rendered."""


@dataclass(frozen=True)
class SvgDesign:
    """A real deck design in one SVG file, its element naming and licence."""

    name: str
    path: Path
    naming: str  # "gnome": heart_queen, "kde": queen_heart
    licence: str
    jokers: tuple[str, ...] = ()

    def element_id(self, code: str) -> str:
        """The SVG element id of a card code.

        >>> REAL_DESIGNS["gnome/anglo"].element_id("QH")
        'heart_queen'
        >>> REAL_DESIGNS["kde/standard"].element_id("10C")
        '10_club'
        """
        if code == BACK_CODE:
            return "back"
        rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(code[:-1]) or int(code[:-1])
        word, suit = _RANK_WORDS.get(rank, str(rank)), _SUIT_WORDS[code[-1]]
        return f"{suit}_{word}" if self.naming == "gnome" else f"{word}_{suit}"


def _gnome(name: str) -> SvgDesign:
    return SvgDesign(f"gnome/{name}", _GNOME_DIR / f"{name}.svgz", "gnome", "GPL-3+", ("joker_red", "joker_black"))


def _kde(name: str, svg: str, licence: str = "GPL-2+", jokers: tuple[str, ...] = ()) -> SvgDesign:
    return SvgDesign(f"kde/{name}", _KDE_DIR / f"svg-{name}" / svg, "kde", licence, jokers)


# Decks with English indices (A K Q J), rank above suit in the corners. Left
# out: other indices (berlin, lattmann, ...), non-French suits, and decks whose
# corners carry no rank+suit index (oxygen*, ancient-egyptians, tango, future);
# konqi-modern's licence is limited to KDE members.
REAL_DESIGNS: dict[str, SvgDesign] = {d.name: d for d in [
    _gnome("anglo"), _gnome("anglo_poker"), _gnome("anglo_modern"), _gnome("anglo_modern_4_color"),
    _gnome("bellot"), _gnome("paris"), _gnome("guyenne-classic"), _gnome("dondorf"),
    _gnome("neoclassical"), _gnome("neoclassical_4_color"), _gnome("atlasnye"),
    _gnome("gnomangelo"), _gnome("tigullio"), _gnome("plastic"), _gnome("orell"),
    _gnome("ornamental"), _gnome("simplistic"),
    _kde("dondorf", "dondorf.svgz", jokers=("joker",)),
    _kde("gm-paris", "paris.svgz"),
    _kde("jolly-royal", "jolly-royal.svgz"),
    _kde("nicu-ornamental", "ornamental.svgz", jokers=("red_joker", "black_joker")),
    _kde("nicu-white", "white.svgz", jokers=("red_joker", "black_joker")),
    _kde("penguins", "penguins.svgz", "GPL-3+"),
    _kde("standard", "standard.svgz"),
    _kde("tigullio-international", "tigullio-international.svgz", "LGPL-2+"),
]}

HELDOUT_DESIGNS: tuple[str, ...] = ("gnome/guyenne-classic", "kde/jolly-royal")
"""Real designs kept out of training, to measure accuracy on unseen decks."""
TRAIN_DESIGNS: tuple[str, ...] = tuple(name for name in REAL_DESIGNS if name not in HELDOUT_DESIGNS)
"""Real designs training may use (plus any number of ``proc/SEED`` designs)."""
PROCEDURAL_LICENCE = "GPL-3.0-or-later (drawn by rummyref)"


def design_licence(name: str) -> str:
    """The licence of a design's artwork, for the model card."""
    if name.startswith("proc/"):
        return PROCEDURAL_LICENCE
    return _real_design(name).licence


def _real_design(name: str) -> SvgDesign:
    try:
        return REAL_DESIGNS[name]
    except KeyError:
        raise DeckError(f"unknown deck design {name!r}: expected one of {', '.join(REAL_DESIGNS)} or proc/SEED") from None


def cache_dir() -> Path:
    """Where rendered decks are cached: ``$RUMMYREF_CACHE/decks``, default ``~/.cache/rummyref/decks``."""
    root = os.environ.get("RUMMYREF_CACHE")
    return (Path(root) if root else Path.home() / ".cache" / "rummyref") / "decks"


@dataclass
class Deck:
    """All faces of one design, by code: the 52 cards, 'JK' where the design
    has jokers (several joker faces are kept as extra faces) and 'BACK'."""

    design: str
    faces: dict[str, CardFace]
    jokers: tuple[CardFace, ...] = ()

    @property
    def card_size(self) -> tuple[int, int]:
        return self.faces[BACK_CODE].size


def _run_rsvg(svg: Path, element: str, zoom: float, out: Path) -> None:
    result = subprocess.run(["rsvg-convert", "-z", f"{zoom:.5f}", "-i", element, str(svg), "-o", str(out)],
                            capture_output=True, text=True)
    if result.returncode != 0 or not out.exists():
        raise DeckError(f"rsvg-convert could not render {element!r} of {svg}: {result.stderr.strip()}")


def _crop_to_card(image: np.ndarray) -> np.ndarray:
    """Cut the non-transparent box out of a padded render."""
    if image.ndim != 3 or image.shape[2] != 4:
        raise DeckError("rendered card has no alpha channel")
    ys, xs = np.nonzero(image[:, :, 3] > 16)
    if len(xs) == 0:
        raise DeckError("rendered card is empty")
    return image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _render_svg_faces(design: SvgDesign, out_dir: Path) -> None:
    """Render every face of a design into out_dir as PNG plus indices.json."""
    if not design.path.exists():
        raise DeckError(f"deck file {design.path} is missing: install gnome-cards-data and kdegames-card-data-kf5")
    elements = {code: design.element_id(code) for code in CARD_CODES + (BACK_CODE,)}
    elements.update({f"JK{i}": element for i, element in enumerate(design.jokers)})
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.png"
        _run_rsvg(design.path, elements["AS"], 1.0, probe)
        zoom = CARD_HEIGHT / _crop_to_card(cv2.imread(str(probe), cv2.IMREAD_UNCHANGED)).shape[0]

        def render(item: tuple[str, str]) -> tuple[str, np.ndarray]:
            code, element = item
            path = Path(tmp) / f"{code}.png"
            _run_rsvg(design.path, element, zoom, path)
            return code, _crop_to_card(cv2.imread(str(path), cv2.IMREAD_UNCHANGED))

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            rendered = dict(pool.map(render, elements.items()))
    width = int(round(np.median([img.shape[1] * CARD_HEIGHT / img.shape[0] for img in rendered.values()])))
    index_boxes = {}
    out_dir.mkdir(parents=True, exist_ok=True)
    for code, image in rendered.items():
        image = cv2.resize(image, (width, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out_dir / f"{code}.png"), image)
        if code != BACK_CODE:
            index_boxes[code] = [[*b.box, b.rotation] for b in find_corner_indices(image)]
    _drop_implausible_joker_indices(index_boxes)
    meta = {"version": CACHE_VERSION, "design": design.name, "indices": index_boxes}
    (out_dir / "indices.json").write_text(json.dumps(meta, indent=1))


def _drop_implausible_joker_indices(index_boxes: dict[str, list[list[int]]]) -> None:
    """Joker corners often hold a star or a word, not an index like the
    cards': keep a joker's boxes only where they are sized like the deck's."""
    heights = [b[3] - b[1] for code in CARD_CODES for b in index_boxes.get(code, [])]
    if not heights:
        return
    typical = float(np.median(heights))
    for code in [c for c in index_boxes if c.startswith("JK")]:
        if not all(0.6 * typical <= b[3] - b[1] <= 1.6 * typical for b in index_boxes[code]):
            index_boxes[code] = []


def _load_svg_deck(design: SvgDesign, root: Path) -> Deck:
    out_dir = root / design.name.replace("/", "__")
    meta_path = out_dir / "indices.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    if meta.get("version") != CACHE_VERSION:
        _render_svg_faces(design, out_dir)
        meta = json.loads(meta_path.read_text())
    faces = {}
    for png in out_dir.glob("*.png"):
        code = png.stem
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        boxes = tuple(IndexBox(tuple(b[:4]), b[4]) for b in meta["indices"].get(code, []))
        faces[code] = CardFace("JK" if code.startswith("JK") else code, image, boxes)
    jokers = tuple(faces.pop(code) for code in sorted(c for c in list(faces) if c.startswith("JK")))
    return Deck(design.name, faces, jokers)


@lru_cache(maxsize=8)
def load_deck(name: str) -> Deck:
    """The faces of a design, rendering and caching real decks on first use.

    Real decks take a few seconds to render the first time (2 cores); later
    loads read the PNG cache.
    """
    if name.startswith("proc/"):
        from .procedural import procedural_deck
        try:
            seed = int(name[5:])
        except ValueError:
            raise DeckError(f"procedural design name must be proc/SEED with an integer seed, got {name!r}") from None
        return procedural_deck(seed)
    return _load_svg_deck(_real_design(name), cache_dir())
