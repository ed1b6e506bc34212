"""What the recognizer reports about one card on the table.

>>> obs = CardObservation("10H", 0.98, ((120.0, 40.5), (260.0, 230.0)))
>>> obs.to_json()
{'card': '10H', 'confidence': 0.98, 'corners': [[120.0, 40.5], [260.0, 230.0]]}
>>> CardObservation("BACK", 0.9, ((5.0, 6.0),), back_design="blue").to_json()["back_design"]
'blue'
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class CardObservation:
    """One card seen in a frame.

    ``card`` is a card code (``10H``), ``JK`` or ``BACK``. ``confidence`` is
    0..1; the recognizer never raises it to look sure: a caller should ask the
    player about low-confidence cards. ``corners`` holds the frame position of
    each visible corner index (for ``BACK``: the card's centre). ``outline`` is
    the card's four corners, estimated from two diagonal indices, or ``None``
    when only one corner index was read. ``back_design`` names the colour of
    a face-down card's back so that two decks can be told apart.
    """

    card: str
    confidence: float
    corners: tuple[Point, ...]
    outline: tuple[Point, Point, Point, Point] | None = None
    back_design: str | None = None

    def to_json(self) -> dict:
        data: dict = {
            "card": self.card,
            "confidence": round(float(self.confidence), 4),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }
        if self.outline is not None:
            data["outline"] = [[round(float(x), 1), round(float(y), 1)] for x, y in self.outline]
        if self.back_design is not None:
            data["back_design"] = self.back_design
        return data
