"""The one place where the dashboard calls the rules engine.

The web UI never decides a rule itself. It hands the engine what the table showed
and stores what the engine ruled, as a plain JSON-able dict (a *hand result*):

.. code-block:: text

    {"kind": "knock" | "undercut" | "gin" | "big_gin" | "no_game",
     "knocker": "Ann" | None, "winner": "Ann" | None, "points": 12,
     "explanation": "Ann knocks with 5, Ben has 17: Ann scores 12",
     "rule": "000 §9",
     "players": {"Ann": {"melds": [["7H", "8H", "9H"]], "deadwood": ["2C"],
                         "deadwood_points": 2, "laid_off": []}, ...}}

    A knocker's ``melds`` are shown as they lie at the end, with the opponent's
    layoffs added; the opponent's ``laid_off`` names those cards.

Engine calls used here (the engine modules arrive from other branches; until then
the calls raise :class:`EngineUnavailable` with a message naming what is missing):

* ``engine.rules.PRESETS`` / ``engine.rules.from_dict`` -- rule options (present).
* ``engine.gin.settle_hand(hands, knocker, rules)`` -> a result with ``kind``, ``winner``,
  ``points``, ``explanation``, ``rule`` and per player ``melds``, ``deadwood``,
  ``deadwood_points``, ``laid_off`` (see :func:`settle_hand`).
* ``engine.match.score_match(players, outcomes, rules)`` -> a standing with ``totals``,
  ``boxes``, ``bonuses``, ``finished``, ``winner``, ``next_dealer`` (see :func:`match_standing`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine import rules as engine_rules
from engine.cards import CardError, format_cards, parse_cards

HAND_KINDS = ("knock", "undercut", "gin", "big_gin", "no_game")


class EngineUnavailable(RuntimeError):
    """The engine module a page needs is not part of this build."""


class HandRejected(ValueError):
    """The engine refused the hand as given (wrong card count, knock over the limit, ...)."""


@dataclass(frozen=True)
class Standing:
    """The match as the match scorer sees it; ``None`` fields are unknown without the engine."""

    totals: dict[str, int]
    boxes: dict[str, int]
    bonuses: dict[str, dict[str, int]] = field(default_factory=dict)
    finished: bool | None = None
    winner: str | None = None
    next_dealer: str | None = None


def rule_presets() -> dict[str, Any]:
    """The named rule presets of the engine (name -> rules object)."""
    return dict(engine_rules.PRESETS)


def build_rules(preset: str, options: Mapping[str, Any]):
    """A rules object from a preset name and option overrides; engine errors become ValueError."""
    return engine_rules.preset(preset).replace(**dict(options))


def rules_summary(preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that a scoreboard shows (match target, knock limit, bonuses)."""
    rules = build_rules(preset, options)
    return {
        "match_target": rules.match_target,
        "knock_limit": rules.knock_limit,
        "gin_bonus": rules.gin_bonus,
        "undercut_bonus": rules.undercut_bonus,
        "box_bonus": rules.box_bonus,
    }


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise EngineUnavailable(
            f"this build has no {name} yet: the dashboard can record and show results, "
            "but computing them needs the rules engine"
        ) from None


def settle_hand(hands: Mapping[str, Sequence[str]], knocker: str, preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Settle a finished Gin hand through ``engine.gin`` and return a hand result dict.

    ``hands`` maps each player to the card codes of the hand they showed.
    """
    gin = _module("engine.gin")
    try:
        parsed = {player: parse_cards(codes) for player, codes in hands.items()}
        result = gin.settle_hand(parsed, knocker, build_rules(preset, options))
    except (CardError, ValueError) as exc:
        raise HandRejected(str(exc)) from exc
    return result_to_dict(result, list(hands))


def result_to_dict(result: Any, players: Sequence[str]) -> dict[str, Any]:
    """Turn an engine hand result into the stored dict (cards as codes)."""

    def codes(cards) -> list[str]:
        return format_cards(cards).split()

    return {
        "kind": str(result.kind),
        "knocker": result.knocker,
        "winner": result.winner,
        "points": int(result.points),
        "explanation": str(result.explanation),
        "rule": str(getattr(result, "rule", "")),
        "players": {
            player: {
                "melds": [codes(meld) for meld in result.melds[player]],
                "deadwood": codes(result.deadwood[player]),
                "deadwood_points": int(result.deadwood_points[player]),
                "laid_off": codes(result.laid_off.get(player, ())),
            }
            for player in players
        },
    }


def match_standing(players: Sequence[str], outcomes: Sequence[Mapping[str, Any]], preset: str, options: Mapping[str, Any]) -> Standing:
    """The standing after the given hand results, from ``engine.match``.

    Without the match scorer the standing still has the running totals and boxes
    (the plain sums of the hands' points, as on a paper score sheet); bonuses, the
    end of the match and the next dealer stay unknown.
    """
    totals = {player: 0 for player in players}
    boxes = {player: 0 for player in players}
    for outcome in outcomes:
        if outcome.get("winner") in totals:
            totals[outcome["winner"]] += int(outcome["points"])
            boxes[outcome["winner"]] += 1
    try:
        match = _module("engine.match")
    except EngineUnavailable:
        return Standing(totals, boxes)
    standing = match.score_match(list(players), list(outcomes), build_rules(preset, options))
    return Standing(
        totals=dict(standing.totals),
        boxes=dict(standing.boxes),
        bonuses={k: dict(v) for k, v in getattr(standing, "bonuses", {}).items()},
        finished=bool(standing.finished),
        winner=standing.winner,
        next_dealer=standing.next_dealer,
    )
