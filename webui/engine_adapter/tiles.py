"""Tile Rummy (002) through ``engine.tiles``: rounds scored from the tiles left on each rack,
the agreed number of rounds, and the two-minute turn timer.

A round is stored as:

.. code-block:: text

    {"kind": "out" | "draw", "winner": "Ann" | None, "points": {"Ann": 44, "Ben": -30, "Cy": -14},
     "players": {"Ben": {"rack": ["R5", "JK"], "penalty": 30}, ...}, "explanation": "...", "headline": "..."}

002 draws lots for who begins and then plays clockwise; we let the next player clockwise begin
each new round.

Engine calls: ``engine.tiles.TileRules`` (``timer()``), ``score_round(racks, winner)``,
``engine.cards.parse_tiles``.
"""

from __future__ import annotations

from typing import Any

from engine import tiles as engine_tiles
from engine.cards import PALETTES, RAVENSBURGER, parse_tiles
from webui.cards_view import tile_rows
from webui.engine_adapter.base import (Column, GameForm, HandRejected, Picker, Played, Setup, Sheet, Standing,
                                       Table, check_seat_count, whole_number)

DEFAULT_ROUNDS = 4


class TilesForm(GameForm):
    game, title, sizes = "tiles", "Tile Rummy", (2, 3, 4)
    hand_word = "round"
    decides = "winner"
    timed = True
    stock_max = 106
    pieces_hint = "the tiles left on each rack (the winner's is empty); each tile exists twice"

    def rules(self, setup: Setup) -> engine_tiles.TileRules:
        return engine_tiles.TileRules(palette=PALETTES[setup.options.get("set", RAVENSBURGER.name)],
                                      jokers=setup.options.get("jokers", 4),
                                      turn_seconds=setup.options.get("turn_seconds", 120))

    def normalize(self, players, preset, options, first_dealer):
        check_seat_count(self, players)
        if preset not in ("rulebook", None):
            raise HandRejected(f"tile Rummy has no preset {preset!r}: set its options instead", "preset")
        unknown = set(options) - {"jokers", "turn_seconds", "rounds", "set"}
        if unknown:
            raise HandRejected(f"unknown tile Rummy option {sorted(unknown)[0]!r}: one of jokers, turn_seconds, rounds, "
                               "set", "options")
        tile_set = options.get("set", RAVENSBURGER.name)
        if tile_set not in PALETTES:
            raise HandRejected(f"tile set must be one of {', '.join(PALETTES)}, got {tile_set!r}", "options.set")
        clean = {"jokers": whole_number(options, "jokers", 2, 4, 4),
                 "turn_seconds": whole_number(options, "turn_seconds", 30, 600, 120),
                 "rounds": whole_number(options, "rounds", 1, 20, DEFAULT_ROUNDS)}
        if tile_set != RAVENSBURGER.name:     # the rulebook's set is the default, left out of the record
            clean["set"] = tile_set
        if clean["jokers"] == 3:
            raise HandRejected("tile Rummy is played with 4 jokers or 2, got 3", "options.jokers")
        starter = players[0] if first_dealer is None else first_dealer
        if starter not in players:
            raise HandRejected(f"{starter!r} is not one of the players", "first_dealer")
        return "rulebook", clean, starter

    def rounds(self, setup: Setup) -> int:
        return setup.options.get("rounds", DEFAULT_ROUNDS)

    def standing(self, setup, actions):
        played = [a.result for a in actions if isinstance(a, Played)]
        totals = {p: sum(r["points"][p] for r in played) for p in setup.players}
        over = len(played) >= self.rounds(setup)
        if len(played) > self.rounds(setup):
            raise HandRejected(f"the game was agreed at {self.rounds(setup)} rounds: no more rounds can be scored",
                               "hand")
        players = list(setup.players)
        starter = players[(players.index(setup.first_dealer) + len(played)) % len(players)]
        best = max(totals.values())
        leaders = [p for p in players if totals[p] == best]
        winner = leaders[0] if over and len(leaders) == 1 else None
        columns = tuple(Column(p, totals[p], None, (), ("starts",) if p == starter and not over else
                               ("wins",) if p == winner else ()) for p in players)
        sheet = Sheet("Points", columns, None, over, winner=winner)
        facts = (("Round", f"{min(len(played) + 1, self.rounds(setup))} of {self.rounds(setup)}"),
                 ("Turn limit", f"{self.rules(setup).turn_seconds} s"))
        return Standing((sheet,), over, None if over else starter, winner,
                        tables=() if over else (Table(tuple(players)),), facts=facts,
                        rounds_played=len(played))

    def settle(self, setup, before, form):
        rules = self.rules(setup)
        players = list(setup.players)
        racks = [self.parse_pieces(setup, form["hands"][player]) for player in players]
        winner = form.get("winner")
        if winner is None:
            raise HandRejected("say who laid out every tile, or \"\" when the pool ran out first", "winner")
        winner = winner or None
        if winner is not None and winner not in players:
            raise HandRejected(f"{winner!r} is not a player of this match", "winner")
        try:
            score = engine_tiles.score_round(racks, None if winner is None else players.index(winner))
        except engine_tiles.TileRuleError as exc:
            raise HandRejected(str(exc).replace(f"player {players.index(winner)}", winner) if winner else str(exc),
                               "winner") from None
        points = dict(zip(players, score.points))
        shown = {p: {"rack": [str(t) for t in rack], "penalty": sum(engine_tiles.tile_value(t) for t in rack)}
                 for p, rack in zip(players, racks)}
        if score.draw:
            words = "The stock ran out before anyone laid out every tile: a draw, nobody scores."
            headline = "draw: the stock ran out"
        else:
            losers = ", ".join(f"{p} {-points[p]}" for p in players if p != winner)
            words = f"{winner} laid out every tile and scores {points[winner]}: {losers} left on the racks (joker 25)."
            headline = f"{winner} out +{points[winner]}"
        return {"kind": "draw" if score.draw else "out", "winner": winner, "points": points, "players": shown,
                "explanation": words, "rule": "002 Ende des Spiels", "headline": headline}

    def parse_pieces(self, setup, codes):
        rules = self.rules(setup)
        return parse_tiles(codes, rules.palette, jokers=rules.jokers)

    def picker(self, setup):
        rules = self.rules(setup)
        return Picker(tile_rows(rules.palette), copies=2, jokers=rules.jokers)

    def summary(self, setup):
        rules = self.rules(setup)
        return f"{rules.palette.name.capitalize()} tiles · {self.rounds(setup)} rounds · {rules.jokers} jokers · opening ≥ {rules.opening_points} · {rules.turn_seconds} s a turn"

    def timer(self, setup: Setup) -> dict[str, Any]:
        return self.rules(setup).timer()


FORMS = (TilesForm(),)
