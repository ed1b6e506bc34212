"""The one place where the dashboard calls the rules engine.

The web UI never decides a rule itself. It hands the engine what the table showed and
stores what the engine ruled, as plain JSON-able dicts. One *game form* per way to play
(see :mod:`webui.engine_adapter.base`); the submodules hold the engine calls:

* :mod:`~webui.engine_adapter.gin` -- two-player Gin (and Hollywood), three players,
  chouette, partnerships of four and six (``engine.gin``, ``engine.match``, ``engine.multiplayer``);
* :mod:`~webui.engine_adapter.wiener` -- Wiener Rummy (``engine.wiener``);
* :mod:`~webui.engine_adapter.tiles` -- tile Rummy (``engine.tiles``);
* :mod:`~webui.engine_adapter.tournament` -- round robin and Swiss (``engine.tournament``).

>>> sorted(FORMS)
['chouette', 'gin', 'partnership', 'three', 'tiles', 'wiener']
>>> form("poker")
Traceback (most recent call last):
...
webui.engine_adapter.base.HandRejected: unknown game 'poker': one of gin, three, chouette, partnership, wiener, tiles
"""

from __future__ import annotations

from webui.engine_adapter import gin, tiles, wiener
from webui.engine_adapter.base import (Action, Column, GameForm, HandRejected, Picker, Played, Rebuy, Setup, Sheet,
                                       Standing, Table)
from webui.engine_adapter.gin import HAND_KINDS, RULE_PARAGRAPHS, build_rules, result_to_dict, rule_presets, settle_hand

FORMS: dict[str, GameForm] = {f.game: f for f in (*gin.FORMS, *wiener.FORMS, *tiles.FORMS)}


def form(game: str) -> GameForm:
    """The game form called ``game``."""
    try:
        return FORMS[game]
    except (KeyError, TypeError):
        raise HandRejected(f"unknown game {game!r}: one of {', '.join(FORMS)}", "game") from None


__all__ = ["FORMS", "HAND_KINDS", "RULE_PARAGRAPHS", "Action", "Column", "GameForm", "HandRejected", "Picker",
           "Played", "Rebuy", "Setup", "Sheet", "Standing", "Table", "build_rules", "form", "result_to_dict",
           "rule_presets", "settle_hand"]
