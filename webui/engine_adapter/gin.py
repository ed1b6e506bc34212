"""The Gin Rummy forms: two players (with Hollywood scoring), three players, chouette, partnerships.

Every Gin hand is stored as the same plain dict (a *hand result*):

.. code-block:: text

    {"kind": "knock" | "undercut" | "gin" | "big_gin" | "no_game",
     "knocker": "Ann" | None, "winner": "Ann" | None, "points": 12,
     "explanation": "Ann knocks with 5, Ben has 17: Ann scores 12",
     "rule": "000 §9",
     "players": {"Ann": {"melds": [["7H", "8H", "9H"]], "deadwood": ["2C"],
                         "deadwood_points": 2, "laid_off": []}, ...}}

    A knocker's ``melds`` are shown as they lie at the end, with the opponent's
    layoffs added; the opponent's ``laid_off`` names those cards.

A partnership round is ``{"kind": "round", "tables": [hand result, ...], "winner": team,
"points": net, ...}``: one hand per table, added up (000 §16).

Engine calls used here:

* ``engine.rules.PRESETS`` / ``preset`` / ``GinRules.replace`` -- rule options.
* ``engine.gin.settle_hand(knocker_hand, opponent_hand, rules, upcard=..., names=...)`` -> a
  ``HandResult`` (``winner`` 'knocker'/'opponent'/'none', ``points``, ``gin``, ``big_gin``,
  ``undercut``, ``knocker``/``opponent`` arrangements, ``layoffs``, ``explanation``).
* ``engine.match.score_match`` (two players, Hollywood), ``engine.multiplayer.score_three_player``,
  ``Chouette``, ``PartnershipMatch`` with ``PartnershipSeating`` -- the match from its hands.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine import gin as engine_gin
from engine import match as engine_match
from engine import multiplayer
from engine import rules as engine_rules
from engine.cards import CardError, parse_card, parse_cards
from webui.cards_view import picker_rows
from webui.engine_adapter.base import (Column, GameForm, HandRejected, Picker, Played, Setup, Sheet,
                                       Standing, Table, check_seat_count)

HAND_KINDS = engine_match.HAND_KINDS
RULE_PARAGRAPHS = {"knock": "000 §9", "undercut": "000 §10", "gin": "000 §11", "big_gin": "000 §11",
                   "no_game": "000 §12"}
"""Where the rulebook texts (shared/rules) rule on each kind of hand result."""


def rule_presets() -> dict[str, Any]:
    """The named rule presets of the engine (name -> rules object)."""
    return dict(engine_rules.PRESETS)


def build_rules(preset: str, options: Mapping[str, Any]) -> engine_rules.GinRules:
    """A rules object from a preset name and option overrides (engine errors are ValueErrors)."""
    return engine_rules.preset(preset).replace(**dict(options))


def settle_hand(hands: Mapping[str, Sequence[str]], knocker: str, preset: str, options: Mapping[str, Any],
                upcard: str | None = None) -> dict[str, Any]:
    """Settle a knocked Gin hand through ``engine.gin``; return the hand result dict.

    ``hands`` maps each of the two players at the table to the card codes they showed.
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


def _outcome(result: Mapping[str, Any], dealer: str | None = None) -> engine_match.HandScore:
    return engine_match.HandScore(result.get("winner"), result["points"], result["kind"], dealer)


def _accounts(settlement: engine_match.Settlement) -> dict[str, dict[str, int]]:
    return {a.party: {"hand_points": a.hand_points, "box_bonus": a.box_bonus, "game_bonus": a.game_bonus,
                      "total": a.total} for a in settlement.accounts}


def _sheet(title: str, sheet: engine_match.GameSheet, rules: engine_rules.GinRules,
           tags: Mapping[str, tuple[str, ...]], members: Mapping[str, tuple[str, ...]] | None = None) -> Sheet:
    """An engine game sheet as a scoreboard sheet, settled once it is closed."""
    settlement = sheet.settle(rules) if sheet.closed else None
    columns = tuple(Column(party, sheet.points(party), sheet.wins(party), (members or {}).get(party, ()),
                           tags.get(party, ())) for party in sheet.parties)
    return Sheet(title, columns, sheet.target, sheet.closed, accounts=settlement and _accounts(settlement),
                 winner=settlement and settlement.winner)


def _replayed(start: Any, outcomes: Sequence[Any], unit: str = "hand") -> Any:
    try:
        return engine_match.replay(start, outcomes, unit)
    except engine_match.MatchError as exc:
        raise HandRejected(str(exc), "hand") from exc


class GinForm(GameForm):
    """What the Gin forms share: rule presets and options, the 52-card picker, settling one table."""

    raw_results = True

    def rules(self, setup: Setup) -> engine_rules.GinRules:
        return build_rules(setup.preset, setup.options)

    def normalize(self, players, preset, options, first_dealer):
        check_seat_count(self, players)
        presets = rule_presets()
        if preset not in presets:
            raise HandRejected(f"unknown rules preset {preset!r}: choose one of {', '.join(presets)}", "preset")
        try:
            build_rules(preset, options)
        except (engine_rules.RulesError, TypeError) as exc:
            raise HandRejected(str(exc), "options") from None
        return preset, dict(options), self.first_dealer(players, first_dealer)

    def first_dealer(self, players: Sequence[str], chosen: str | None) -> str:
        """Three-player Gin, chouette and partnerships seat the first dealer by the setup order."""
        return players[1]

    def picker(self, setup: Setup) -> Picker:
        return Picker(picker_rows())

    def summary(self, setup: Setup) -> str:
        rules = self.rules(setup)
        words = [f"knock ≤ {rules.knock_limit}", f"{setup.preset} rules"]
        if rules.oklahoma:
            words[0] = "Oklahoma: the upcard sets the knock limit"
        return " · ".join(words)

    def settle(self, setup, before, form):
        (table,) = self.scorers(setup, before)
        return self.settle_table(setup, table, form.get("knocker"), form["hands"], form.get("upcard"), "knocker")

    def settle_table(self, setup: Setup, table: Table, knocker: Any, hands: Mapping[str, Any], upcard: str | None,
                     field: str) -> dict[str, Any]:
        if knocker not in table.players:
            raise HandRejected(f"{knocker!r} is not at play: the hand is between {' and '.join(table.players)}", field)
        return settle_hand({p: hands[p] for p in table.players}, knocker, setup.preset, setup.options, upcard)

    def needs_upcard(self, setup: Setup) -> bool:
        return self.rules(setup).oklahoma


class TwoPlayerGin(GinForm):
    """Two players (000), one game or three at once with Hollywood scoring (004)."""

    game, title, sizes = "gin", "Gin Rummy", (2,)

    def first_dealer(self, players, chosen):
        if chosen is None:
            return players[1]
        if chosen not in players:
            raise HandRejected(f"{chosen!r} is not one of the players", "first_dealer")
        return chosen

    def standing(self, setup, actions):
        rules = self.rules(setup)
        outcomes = [_outcome(a.result, a.dealer) for a in actions if isinstance(a, Played)]
        try:
            match = engine_match.score_match(setup.players, setup.first_dealer, outcomes, rules)
        except engine_match.MatchError as exc:
            raise HandRejected(str(exc), "hand") from exc
        tags = {} if match.finished else {match.next_dealer: ("deals",)}
        titles = [f"Game {i + 1}" for i in range(3)] if rules.hollywood else ["Score"]
        sheets = tuple(_sheet(title, game, rules, tags) for title, game in zip(titles, match.games))
        transfers = [(t.payer, t.payee, t.amount) for t in match.transfers()] if match.finished else []
        winner = None
        if match.finished:
            winner = sheets[0].winner if not rules.hollywood else (transfers[0][1] if transfers else None)
        return Standing(sheets, match.finished, match.next_dealer, winner, transfers, rounds_played=len(outcomes))

    def summary(self, setup):
        rules = self.rules(setup)
        return ("Hollywood: three games at once · " if rules.hollywood else "") + super().summary(setup)


class ThreePlayerGin(GinForm):
    """Three players, two at play (000 §15.1); set up as forehand, dealer, sitter of the first hand."""

    game, title, sizes = "three", "Gin Rummy for three", (3,)

    def standing(self, setup, actions):
        rules = self.rules(setup)
        start = multiplayer.ThreePlayerMatch.start(*setup.players, rules=rules)
        match = _replayed(start, [_outcome(a.result, a.dealer) for a in actions])
        tags = {} if match.finished else {match.forehand: ("forehand",), match.dealer: ("deals",),
                                          match.sitter: ("sits out",)}
        sheet = _sheet("Score", match.sheet, rules, tags)
        transfers = [(p.payer, p.payee, p.amount) for p in match.settlement().payments] if match.finished else []
        tables = () if match.finished else (Table((match.forehand, match.dealer), match.dealer),)
        return Standing((sheet,), match.finished, None if match.finished else match.dealer, sheet.winner, transfers,
                        tables, rounds_played=len(match.outcomes))


class ChouetteGin(GinForm):
    """Chouette (000 §15.2): the first player is declarer against the other two as a team."""

    game, title, sizes = "chouette", "Chouette", (3,)

    def standing(self, setup, actions):
        rules = self.rules(setup)
        declarer, first, second = setup.players
        start = multiplayer.Chouette.start(declarer, (first, second), rules)
        match = _replayed(start, [_outcome(a.result, a.dealer) for a in actions])
        team_tags = () if match.finished else (f"{match.active} plays", f"{match.waiting} waits")
        tags = {declarer: ("declarer",) + (("deals",) if match.dealer == declarer and not match.finished else ()),
                match.team: team_tags + (("deals",) if match.dealer != declarer and not match.finished else ())}
        sheet = _sheet("Score", match.sheet, rules, tags, {match.team: match.partners})
        transfers = [(p.payer, p.payee, p.amount) for p in match.payments()] if match.finished else []
        tables = () if match.finished else (Table((declarer, match.active), match.dealer),)
        return Standing((sheet,), match.finished, None if match.finished else match.dealer, sheet.winner, transfers,
                        tables, rounds_played=len(match.outcomes))


class PartnershipGin(GinForm):
    """Two teams of two or three (000 §16), set up in seat order clockwise from the highest card."""

    game, title, sizes = "partnership", "Partnership Gin", (4, 6)
    hand_word = "round"
    decides = "knockers"

    def seating(self, setup: Setup) -> multiplayer.PartnershipSeating:
        return multiplayer.PartnershipSeating(tuple(setup.players[0::2]), tuple(setup.players[1::2]))

    def standing(self, setup, actions):
        rules, seating = self.rules(setup), self.seating(setup)
        rounds = [[_outcome(table) for table in a.result["tables"]] for a in actions if isinstance(a, Played)]
        match = _replayed(multiplayer.PartnershipMatch.start(seating, rules), rounds, "round")
        teams = {multiplayer.team_name(seating.high): seating.high, multiplayer.team_name(seating.low): seating.low}
        tags = {} if match.finished else {multiplayer.team_name(match.dealing_team): ("deals",)}
        sheet = _sheet("Score", match.sheet, rules, tags, teams)
        transfers = [(p.payer, p.payee, p.amount) for p in match.settlement().payments] if match.finished else []
        tables = () if match.finished else tuple(
            Table((t.dealer, t.forehand), t.dealer, f"Table {i + 1}") for i, t in enumerate(match.tables()))
        return Standing((sheet,), match.finished, None, sheet.winner, transfers, tables,
                        rounds_played=len(match.rounds))

    def settle(self, setup, before, form):
        knockers = form.get("knockers")
        tables = self.scorers(setup, before)
        if not isinstance(knockers, list) or len(knockers) != len(tables):
            raise HandRejected(f"give who knocked at each of the {len(tables)} tables", "knockers")
        results = [self.settle_table(setup, table, knocker, form["hands"], None, f"knockers.{i}")
                   for i, (table, knocker) in enumerate(zip(tables, knockers))]
        seating = self.seating(setup)
        high, low = multiplayer.team_name(seating.high), multiplayer.team_name(seating.low)
        net = sum((r["points"] if r["winner"] in seating.high else -r["points"]) for r in results if r["winner"])
        winner = high if net > 0 else low if net < 0 else None
        words = [f"Table {i + 1}: " + (f"{r['winner']} +{r['points']}." if r["winner"] else "no game.")
                 for i, r in enumerate(results)]
        words.append(f"{winner} writes {abs(net)} and a box." if winner else "The tables cancel out: nothing is written.")
        return {"kind": "round", "tables": results, "winner": winner, "points": abs(net), "knocker": None,
                "explanation": " ".join(words), "rule": "000 §16",
                "headline": f"{winner} +{abs(net)}" if winner else "round cancels out"}


FORMS = (TwoPlayerGin(), ThreePlayerGin(), ChouetteGin(), PartnershipGin())
