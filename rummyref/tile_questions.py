"""Tile Rummy questions on the dashboard: what the tile tracker asks, with the photo it is about.

The tile tracker (:class:`engine.tile_tracker.TileTracker`) asks about a tile read unsurely
(``reading``) and about the reader's doubts (``doubt``: a tile may be missed or misread at a place).
:func:`ask` stores the still frame as evidence, with every tile read outlined and the place asked
about drawn as a dashed square labelled with the question's number, and proposes the question
with its answers (the tiles that fit there, "no tile here", "the table is as read", "none of
these"; any other tile of the set from the dashboard's tile picker where the question is about one
place) through the match record, as the Gin pipeline's questions go
(:class:`rummyref.pipeline.Recorder`). :func:`settle` hands the players' answers back to the
tracker; the turn's verdict then comes from :meth:`~engine.tile_tracker.TileTracker.end_turn`.

>>> question_prompt(TileEvent(7, "doubt", 3, position=(20.0, 10.0), read=None,
...     detail="one tile's room between the tiles at (100, 80) and (160, 80) in one line"))
"The camera may have missed a tile at the mark #7 (one tile's room between the tiles at (100, 80) and (160, 80) in one line). What lies there?"
>>> reading_answers(TileEvent(2, "reading", 3, candidates=("R7",), position=(5.0, 5.0)))
['R7', 'Y7', 'G7', 'B7', 'NO_TILE']
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from engine.cards import RAVENSBURGER, Joker, TilePalette, parse_tile
from engine.tile_tracker import NO_TILE, TileEvent, TileTracker

MAX_ANSWERS = 7
"""The most answers a dashboard question offers (:data:`webui.events.MAX_CHOICES`)."""


def question_prompt(event: TileEvent) -> str:
    """What the dashboard asks for a tile tracker question."""
    if event.kind == "reading":
        return f"Which tile is at the mark #{event.seq}? The camera read {event.candidates[0]} ({event.detail})."
    if event.position is None:
        return f"The camera is unsure of the table ({event.detail}). Is the table exactly as marked on the photo?"
    if event.read:
        return f"The camera read {event.read} at the mark #{event.seq} but is unsure ({event.detail}). Which tile lies there?"
    return f"The camera may have missed a tile at the mark #{event.seq} ({event.detail}). What lies there?"


def reading_answers(event: TileEvent, palette: TilePalette = RAVENSBURGER) -> list[str]:
    """The answers to a tile read unsurely: the tile read, its number in the other colours (the usual
    misreading), "no tile here"."""
    read = event.candidates[0]
    tile = parse_tile(read, palette)
    others = [] if isinstance(tile, Joker) else [f"{c}{tile.number}" for c in palette.colours if c != tile.colour]
    return [read, *others, NO_TILE][:MAX_ANSWERS]


def answers(event: TileEvent, palette: TilePalette = RAVENSBURGER) -> list[str]:
    """The buttons a question offers on the dashboard (tiles of ``palette``)."""
    return reading_answers(event, palette) if event.kind == "reading" else list(event.candidates)[:MAX_ANSWERS]


def mark(place: tuple[float, float], to_image: Any, size_cm: tuple[float, float]) -> list[list[float]]:
    """A tile-sized square around ``place`` (table cm) in image pixels (``to_image``: table cm to
    image, a calibration's or a camera's)."""
    x, y = place
    w, h = size_cm[0] * 0.7, size_cm[1] * 0.7
    corners = to_image([(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)])
    return [[round(float(u), 1), round(float(v), 1)] for u, v in np.asarray(corners)]


def tile_overlay(tile: Any) -> dict[str, Any]:
    """A tile read (``vision.tiles.reader.TileObservation``) as the evidence overlay draws it: its
    outline, and its centre as the one point of a card's index corners."""
    outline = [[round(float(x), 1), round(float(y), 1)] for x, y in tile.outline]
    centre = np.mean(outline, axis=0)
    return {"card": tile.tile, "confidence": float(tile.confidence),
            "corners": [[round(float(centre[0]), 1), round(float(centre[1]), 1)]], "outline": outline}


def ask(recorder: Any, turn: int, events: Sequence[TileEvent], image: np.ndarray, tiles: Sequence[Any],
        to_image: Any, tracker: TileTracker) -> int:
    """Propose the questions among ``events`` (of turn ``turn``) on the dashboard, with ``image`` (the
    still frame) as evidence: ``tiles`` (``vision.tiles.reader.TileObservation``) outlined, the places
    asked about marked. Returns how many were proposed."""
    questions = [e for e in events if e.needs_confirmation and e.kind in ("reading", "doubt")]
    if not questions:
        return 0
    read = [tile_overlay(t) for t in tiles]
    places = [{"name": f"#{e.seq}", "points": mark(e.position, to_image, tracker.options.tile_cm)}
              for e in questions if e.position is not None]
    evidence = recorder.snapshot(image, read, doubts=places)
    proposed = sum(recorder.propose(turn, e.seq, question_prompt(e), answers(e, tracker.rules.palette), evidence,
                                    "tiles" if e.any_tile else None)
                   for e in questions)
    recorder.notify()
    return proposed


def settle(recorder: Any, tracker: TileTracker) -> list[TileEvent]:
    """The players' answers since the last call, handed to ``tracker``; returns the events they bring.
    An answer to a question another answer settled (or the turn's end dropped) is moot."""
    events = []
    for _, seq, choice in recorder.inbox().answers:
        if tracker.awaits(seq):
            events += tracker.confirm(seq, choice)
    return events
