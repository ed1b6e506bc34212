"""Wiener Rummy (001) through ``engine.wiener``: rounds settled from each player's cards,
penalty totals, eliminations above 100, the re-buy, the pot and the kitty.

A round is stored as:

.. code-block:: text

    {"kind": "knock" | "rummy" | "undercut", "seated": ["Ann", "Ben", "Cy"],
     "knocker": "Ann", "winner": "Ann" | None, "penalties": [2, 24, 6], "payments": [2, -1, -1],
     "to_pot": 0, "rummy": false, "undercut": false, "explanation": "...", "headline": "...",
     "players": {"Ann": {"melds": [...], "deadwood": [...], "deadwood_points": 2, "laid_off": []}, ...}}

Lists follow the seat order of ``seated`` (the players still in, or those of a deciding round).
Who deals is not spelt out in 001; the deal passes to the left among the players still in.

Engine calls: ``engine.wiener.WienerRules``, ``settle_round(hands, knocker, rules)`` -> ``RoundResult``,
``Game`` (``start_round``, ``record``, ``rebuy``, ``may_rebuy``, ``scores``, ``out``, ``money``,
``pot``, ``kitty``, ``decider``, ``winner``).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from typing import Any, Mapping

from engine import wiener
from engine.cards import JOKER, parse_cards
from webui.cards_view import card_face, picker_rows
from webui.engine_adapter.base import (Column, GameForm, HandRejected, Picker, Rebuy, Setup, Sheet,
                                       Standing, Table, check_seat_count, next_in_circle)


def _codes(pieces) -> list[str]:
    return [str(p) for p in pieces]


def _money(units: float) -> str:
    """Units as the table says them: whole numbers without decimals.

    >>> _money(3.0), _money(-10.5)
    ('+3', '-10.5')
    """
    text = f"{units:+.2f}".rstrip("0").rstrip(".")
    return text


class WienerForm(GameForm):
    game, title, sizes = "wiener", "Wiener Rummy", (2, 3, 4, 5, 6)
    hand_word = "round"
    stock_max = 106
    pieces_hint = "10 cards each after the knocker's face-down discard; two decks, so a card may come twice"

    def rules(self, setup: Setup) -> wiener.WienerRules:
        return wiener.WienerRules(**setup.options)

    def normalize(self, players, preset, options, first_dealer):
        check_seat_count(self, players)
        if preset not in ("rulebook", None):
            raise HandRejected(f"Wiener Rummy has no preset {preset!r}: set its options instead", "preset")
        defaults = wiener.WienerRules()
        known = {f.name: getattr(defaults, f.name) for f in dataclasses.fields(wiener.WienerRules)}
        for name, value in options.items():
            if name not in known:
                raise HandRejected(f"unknown Wiener Rummy option {name!r}: one of {', '.join(known)}", "options")
            if type(value) is not type(known[name]):
                raise HandRejected(f"option {name!r} must be {type(known[name]).__name__}, got {value!r}", "options")
        try:
            wiener.WienerRules(**options)
        except wiener.WienerError as exc:
            raise HandRejected(str(exc), "options") from None
        dealer = players[0] if first_dealer is None else first_dealer
        if dealer not in players:
            raise HandRejected(f"{dealer!r} is not one of the players", "first_dealer")
        return "rulebook", dict(options), dealer

    def game_after(self, setup: Setup, actions) -> tuple[wiener.Game, str, int]:
        """The engine's game after the actions, who deals next, and the rounds played."""
        game = wiener.Game(list(setup.players), self.rules(setup))
        dealer, rounds = setup.first_dealer, 0
        for action in actions:
            if isinstance(action, Rebuy):
                try:
                    game.rebuy(action.player)
                except wiener.WienerError as exc:
                    raise HandRejected(str(exc), "player") from None
                continue
            rounds += 1
            seated = game.start_round()
            result = action.result
            if list(result["seated"]) != seated:
                raise HandRejected(f"round {rounds} was played by {', '.join(result['seated'])}, but the game now "
                                   f"seats {', '.join(seated)}", "hand")
            game.record(seated, _round_result(result))
            if game.winner is None:
                dealer = next_in_circle(setup.players, action.dealer or dealer, game.decider or game.remaining)
        return game, dealer, rounds

    def standing(self, setup, actions):
        rules = self.rules(setup)
        game, dealer, rounds = self.game_after(setup, actions)
        over = game.winner is not None
        seated = [] if over else (game.decider or game.remaining)
        columns = []
        for player in setup.players:
            tags = []
            if player in game.out:
                tags.append("out")
            if player == game.winner:
                tags.append("wins")
            if player in game.rebought:
                tags.append("re-bought")
            if player == dealer and not over:
                tags.append("deals")
            columns.append(Column(player, game.scores[player], None, (), tuple(tags), player in game.out))
        sheet = Sheet("Penalty points", tuple(columns), rules.out_above, over, lower_wins=True, winner=game.winner)
        facts = [("Pot", str(game.pot))]
        if rules.rummy_kitty:
            facts.append(("Kitty", str(game.kitty)))
        facts.append(("Round", str(rounds + (0 if over else 1))))
        if game.decider:
            facts.append(("Deciding round", ", ".join(game.decider)))
        rebuy = {} if over else {p: game.may_rebuy(p) for p in setup.players if p not in game.out}
        return Standing((sheet,), over, None if over else dealer, game.winner, (), () if over else
                        (Table(tuple(seated), dealer),), tuple(facts), dict(game.money), rebuy, rounds)

    def settle(self, setup, before, form):
        (table,) = self.scorers(setup, before)
        seated = list(table.players)
        knocker = form.get("knocker")
        if knocker not in seated:
            raise HandRejected(f"{knocker!r} is not playing this round ({', '.join(seated)})", "knocker")
        hands = [self.parse_pieces(setup, form["hands"][player]) for player in seated]
        try:
            result = wiener.settle_round(hands, seated.index(knocker), self.rules(setup))
        except wiener.WienerError as exc:
            raise HandRejected(_named(str(exc), seated)) from None
        return _result_dict(result, seated)

    def parse_pieces(self, setup, codes):
        return parse_cards(codes, decks=2, jokers=2)

    def picker(self, setup):
        return Picker(picker_rows() + [[card_face(str(JOKER))]], copies=2, jokers=2)

    def summary(self, setup):
        rules = self.rules(setup)
        words = [f"knock ≤ {rules.knock_limit}", f"out above {rules.out_above}", f"buy-in {rules.buy_in}"]
        if rules.undercut:
            words.append("undercut")
        if rules.layoffs != "none":
            words.append("layoffs onto " + ("the knocker" if rules.layoffs == "knocker" else "the right"))
        if rules.rummy_kitty:
            words.append("kitty")
        return " · ".join(words)

    def money_line(self, units: float) -> str:
        return _money(units)


def _named(text: str, seated: list[str]) -> str:
    """The engine numbers players by seat; the page names them."""
    return re.sub(r"player (\d)", lambda m: seated[int(m.group(1))], text)


def _round_result(stored: Mapping[str, Any]) -> wiener.RoundResult:
    seated = list(stored["seated"])
    winner = stored.get("winner")
    return wiener.RoundResult(
        seated.index(stored["knocker"]), None if winner is None else seated.index(winner), stored["rummy"],
        stored["undercut"], (), (), tuple(stored["deadwood"]), tuple(stored["penalties"]), tuple(stored["payments"]),
        stored["to_pot"], stored.get("explanation", ""))


def _result_dict(result: wiener.RoundResult, seated: list[str]) -> dict[str, Any]:
    knocker = seated[result.knocker]
    winner = None if result.winner is None else seated[result.winner]
    players: dict[str, dict[str, Any]] = {}
    for name, arrangement in zip(seated, result.arrangements):
        players[name] = {"melds": [_codes(m.pieces) for m in arrangement.melds],
                         "deadwood": _codes(arrangement.deadwood_cards), "deadwood_points": arrangement.deadwood,
                         "laid_off": []}
    for layoff in result.layoffs:
        giver, onto = seated[layoff.player], seated[layoff.onto_player]
        players[giver]["laid_off"] += _codes(layoff.cards)
        target = Counter(_codes(layoff.onto.pieces))  # the meld as it lay, earlier layoffs included
        for meld in players[onto]["melds"]:
            if Counter(meld) == target:
                meld += _codes(layoff.cards)
                break
    kind = "undercut" if result.undercut else "rummy" if result.rummy else "knock"
    verb = "goes Rummy" if result.rummy else f"knocks with {result.deadwood[result.knocker]}"
    return {
        "kind": kind, "seated": seated, "knocker": knocker, "winner": winner, "rummy": result.rummy,
        "undercut": result.undercut, "deadwood": list(result.deadwood), "penalties": list(result.penalties),
        "payments": list(result.payments), "to_pot": result.to_pot, "players": players,
        "explanation": _named(result.explanation, seated), "rule": "001 Abrechnung und Wertung",
        "headline": f"{knocker} {verb} · " + ", ".join(f"{p} {n}" for p, n in zip(seated, result.penalties)),
    }


FORMS = (WienerForm(),)
