"""Gin Rummy rules as data: one object holding every option, with named presets.

The rulebook texts are in ``shared/rules``: 000 (the official rules, our default),
003 (house rules) and 004 (variants, Oklahoma Gin, chouette).

>>> GinRules().knock_limit, GinRules().gin_bonus, GinRules().undercut_bonus
(10, 20, 10)
>>> preset("gra").gin_bonus, preset("gra").undercut_bonus
(25, 25)
>>> preset("rulebook").replace(undercut_bonus=25).undercut_bonus
25
>>> preset("poker")
Traceback (most recent call last):
...
engine.rules.RulesError: unknown rules preset 'poker': choose one of rulebook, house, oklahoma, gra
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal


class RulesError(ValueError):
    """An unknown preset, an unknown option or an option value out of range."""


DealVariant = Literal["eleven", "upcard"]


@dataclass(frozen=True)
class GinRules:
    """Every option of Gin Rummy; the defaults are the official rules (000)."""

    # Melds (000 §4, 003 options)
    ace_high: bool = False
    """Q-K-A is a run (003 option)."""
    round_the_corner: bool = False
    """K-A-2 is a run (003 option, "round the corner gin"); implies ace_high."""
    max_run_length: int | None = None
    """Longest run allowed; 003's house rules describe runs of 3 or 4 cards."""

    # Knocking (000 §7, 004 Oklahoma)
    knock_limit: int = 10
    oklahoma: bool = False
    """The first upcard's value sets the knock limit (004)."""
    oklahoma_ace_gin_only: bool = True
    """With Oklahoma, an ace upcard means the hand can only end with gin."""
    oklahoma_spade_doubles: bool = False
    """With Oklahoma, a spade upcard doubles the hand's score."""

    # Hand result (000 §9-§11)
    undercut_bonus: int = 10
    tie_is_undercut: bool = True
    """Equal deadwood is an undercut (000 §10 "gleich oder niedriger"); OpenSpiel scores it 0."""
    gin_bonus: int = 20
    big_gin_bonus: int | None = None
    """All 11 cards melded (knocker does not discard); None: not played."""
    layoffs_on_gin: bool = False
    """004 lists as a variant whether cards may be laid off on a gin hand."""

    # Stock and dealing (000 §3, §12; 003; 004)
    last_two_cards_reserved: bool = True
    """The last two stock cards are never drawn: no game when only they remain (000 §12)."""
    last_discard_may_be_taken: bool = False
    """004 variant: at the no-game point the next player may still take the last discard and go out."""
    deal: DealVariant = "eleven"
    """'eleven': non-dealer gets 11 and discards first (000 §3); 'upcard': 10 each, upcard with first refusal (003/004)."""

    # Match (000 §13, 004 Hollywood)
    match_target: int = 100
    box_bonus: int = 20
    game_bonus: int = 100
    shutout_bonus: int = 100
    shutout_doubles: bool = False
    """Option: a shutout doubles the winner's total instead of adding the shutout bonus."""
    hollywood: bool = False
    """Hollywood scoring: three games scored at once."""
    four_player_target: int = 125
    """Target of a four-player partnership match (000 §16)."""
    six_player_target: int = 150
    """Target of a six-player partnership match (000 §16)."""

    def __post_init__(self) -> None:
        if self.knock_limit < 0:
            raise RulesError(f"knock_limit must be >= 0, got {self.knock_limit}")
        if self.max_run_length is not None and self.max_run_length < 3:
            raise RulesError(f"max_run_length must be >= 3 or None, got {self.max_run_length}")
        if self.deal not in ("eleven", "upcard"):
            raise RulesError(f"deal must be 'eleven' or 'upcard', got {self.deal!r}")
        for name in ("match_target", "four_player_target", "six_player_target"):
            if getattr(self, name) <= 0:
                raise RulesError(f"{name} must be positive, got {getattr(self, name)}")

    def replace(self, **changes: Any) -> "GinRules":
        """A copy with some options changed; unknown option names are an error."""
        return from_dict(changes, base=self)


def from_dict(options: dict[str, Any], base: GinRules | None = None) -> GinRules:
    """Build rules from a plain mapping (JSON, a web form), naming any unknown option.

    >>> from_dict({"knock_limit": 7}).knock_limit
    7
    >>> from_dict({"knock": 7})
    Traceback (most recent call last):
    ...
    engine.rules.RulesError: unknown rules option 'knock'
    """
    base = base or GinRules()
    known = {f.name: f for f in dataclasses.fields(GinRules)}
    for name, value in options.items():
        if name not in known:
            raise RulesError(f"unknown rules option {name!r}")
        expected = getattr(base, name)
        if isinstance(expected, bool) and not isinstance(value, bool):
            raise RulesError(f"rules option {name!r} must be true or false, got {value!r}")
    return dataclasses.replace(base, **options)


PRESETS: dict[str, GinRules] = {
    "rulebook": GinRules(),
    "house": GinRules(deal="upcard", max_run_length=4),
    "oklahoma": GinRules(oklahoma=True, deal="upcard"),
    "gra": GinRules(gin_bonus=25, undercut_bonus=25),
}
"""Named presets: the official rules (000), the house rules of 003, Oklahoma Gin (004) and
the Gin Rummy Association bonuses that OpenSpiel uses."""


def preset(name: str) -> GinRules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}") from None
