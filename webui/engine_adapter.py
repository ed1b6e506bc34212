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

Engine calls used here:

* ``engine.rules.PRESETS`` / ``preset`` / ``GinRules.replace`` -- rule options.
* ``engine.gin.settle_hand(knocker_hand, opponent_hand, rules, upcard=..., names=...)`` -> a
  ``HandResult`` (``winner`` 'knocker'/'opponent'/'none', ``points``, ``gin``, ``big_gin``,
  ``undercut``, ``knocker``/``opponent`` arrangements, ``layoffs``, ``explanation``).
* ``engine.match.score_match(players, first_dealer, [HandScore...], rules)`` -> the match
  (running scores, boxes, ``finished``, ``next_dealer``, ``settlements()``, ``transfers()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine import gin as engine_gin
from engine import match as engine_match
from engine import rules as engine_rules
from engine.cards import CardError, parse_card, parse_cards

HAND_KINDS = engine_match.HAND_KINDS
RULE_PARAGRAPHS = {"knock": "000 §9", "undercut": "000 §10", "gin": "000 §11", "big_gin": "000 §11",
                   "no_game": "000 §12"}
"""Where the rulebook texts (shared/rules) rule on each kind of hand result."""


class HandRejected(ValueError):
    """The engine refused the hand as given (wrong card count, knock over the limit, match over, ...)."""


@dataclass(frozen=True)
class Standing:
    """The match as the engine's match scorer sees it."""

    totals: dict[str, int]
    boxes: dict[str, int]
    finished: bool
    next_dealer: str
    accounts: dict[str, dict[str, int]] = field(default_factory=dict)
    """After the match: per player hand points, box bonus, game bonus and total (game 1)."""
    winner: str | None = None
    transfers: list[tuple[str, str, int]] = field(default_factory=list)
    """After the match: (payer, payee, amount)."""


def rule_presets() -> dict[str, Any]:
    """The named rule presets of the engine (name -> rules object)."""
    return dict(engine_rules.PRESETS)


def build_rules(preset: str, options: Mapping[str, Any]):
    """A rules object from a preset name and option overrides (engine errors are ValueErrors)."""
    return engine_rules.preset(preset).replace(**dict(options))


def rules_summary(preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that a scoreboard shows."""
    rules = build_rules(preset, options)
    return {"match_target": rules.match_target, "knock_limit": rules.knock_limit, "oklahoma": rules.oklahoma,
            "hollywood": rules.hollywood}


def settle_hand(hands: Mapping[str, Sequence[str]], knocker: str, preset: str, options: Mapping[str, Any],
                upcard: str | None = None) -> dict[str, Any]:
    """Settle a knocked Gin hand through ``engine.gin``; return the hand result dict.

    ``hands`` maps each of the two players to the card codes they showed.
    """
    (opponent,) = [player for player in hands if player != knocker]
    try:
        result = engine_gin.settle_hand(
            parse_cards(hands[knocker]), parse_cards(hands[opponent]), build_rules(preset, options),
            upcard=parse_card(upcard) if upcard else None, names=(knocker, opponent),
        )
    except (CardError, ValueError) as exc:
        raise HandRejected(str(exc)) from exc
    return result_to_dict(result, knocker, opponent)


def result_to_dict(result: Any, knocker: str, opponent: str) -> dict[str, Any]:
    """An ``engine.gin.HandResult`` as the stored dict; the knocker's melds include the layoffs."""
    extended = {layoff.onto: layoff.result for layoff in result.layoffs}
    kind = ("big_gin" if result.big_gin else "gin" if result.gin else "undercut" if result.undercut
            else "knock" if result.winner != "none" else "no_game")
    return {
        "kind": kind,
        "knocker": knocker,
        "winner": {"knocker": knocker, "opponent": opponent, "none": None}[result.winner],
        "points": int(result.points),
        "explanation": result.explanation,
        "rule": RULE_PARAGRAPHS[kind],
        "players": {
            knocker: {"melds": [_codes(extended.get(meld, meld).cards) for meld in result.knocker.melds],
                      "deadwood": _codes(result.knocker.deadwood_cards), "deadwood_points": result.knocker.deadwood,
                      "laid_off": []},
            opponent: {"melds": [_codes(meld.cards) for meld in result.opponent.melds],
                       "deadwood": _codes(result.opponent.deadwood_cards), "deadwood_points": result.opponent.deadwood,
                       "laid_off": _codes(result.laid_off)},
        },
    }


def _codes(cards) -> list[str]:
    return [str(card) for card in cards]


def match_standing(players: Sequence[str], first_dealer: str, hands: Sequence[tuple[Mapping[str, Any], str | None]],
                   preset: str, options: Mapping[str, Any]) -> Standing:
    """The standing after the counted hands, each a (result dict, dealer or None), from ``engine.match``.

    Raises :class:`HandRejected` when the engine refuses the sequence (a hand after the match ended).
    """
    try:
        outcomes = [engine_match.HandScore(r.get("winner"), r["points"], r["kind"], dealer) for r, dealer in hands]
        match = engine_match.score_match(players, first_dealer, outcomes, build_rules(preset, options))
    except engine_match.MatchError as exc:
        raise HandRejected(str(exc)) from exc
    game = match.games[0]
    standing = Standing(totals={p: game.points(p) for p in players}, boxes={p: game.wins(p) for p in players},
                        finished=match.finished, next_dealer=match.next_dealer)
    if not match.finished:
        return standing
    settlement = match.settlements()[0]
    accounts = {a.party: {"hand_points": a.hand_points, "box_bonus": a.box_bonus, "game_bonus": a.game_bonus,
                          "total": a.total} for a in settlement.accounts}
    transfers = [(t.payer, t.payee, t.amount) for t in match.transfers()]
    return Standing(standing.totals, standing.boxes, True, standing.next_dealer, accounts, settlement.winner, transfers)
