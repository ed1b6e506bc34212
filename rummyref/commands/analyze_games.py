"""The `rummyref analyze` kinds of Knock/Wiener Rummy and tile Rummy (issue 3).

These kinds read their own ``rules`` object (not the Gin options), so they register with
``own_rules=True``; every rules error of these games becomes the line's ``error``.

>>> from rummyref.commands.analyze import analyze_record
>>> analyze_record({"id": 1, "kind": "tiles_partition", "tiles": ["R5", "R6", "JK"]})
{'id': 1, 'kind': 'tiles_partition', 'valid': True, 'partition': [['R5', 'R6', 'JK']]}
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from engine.cards import PALETTES, CardError, parse_cards, parse_tiles
from engine.tiles import TileRuleError, TileRules, check_turn, parse_groups, partition
from engine.wiener import WienerError, WienerRules, arrange, best_discard
from engine.wildmelds import WildMeldError
from rummyref.commands.analyze import Record, RecordError, codes, field, kind

GAME_ERRORS = (CardError, WienerError, TileRuleError, WildMeldError, TypeError)


def _errors_named(handler: Callable[[Record, Any], Record]) -> Callable[[Record, Any], Record]:
    @functools.wraps(handler)
    def answer(record: Record, rules: Any) -> Record:
        try:
            return handler(record, rules)
        except GAME_ERRORS as error:
            raise RecordError(str(error)) from None

    return answer


def _options(record: Record, allowed: set[str]) -> dict:
    options = record.get("rules") or {}
    if not isinstance(options, dict):
        raise RecordError(f"field 'rules' must be an object of options, got {options!r}")
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise RecordError(f"unknown rules option {unknown[0]!r}: expected one of {', '.join(sorted(allowed))}")
    return options


WIENER_OPTIONS = {"knock_limit", "undercut", "layoffs", "rummy_kitty"}
TILE_OPTIONS = {"jokers", "palette", "joker_opening_represented", "opening_points"}


def _tile_rules(record: Record) -> TileRules:
    options = dict(_options(record, TILE_OPTIONS))
    if "palette" in options:
        name = options.pop("palette")
        if name not in PALETTES:
            raise RecordError(f"unknown palette {name!r}: expected one of {', '.join(sorted(PALETTES))}")
        options["palette"] = PALETTES[name]
    return TileRules(**options)


def _list_field(record: Record, name: str) -> list:
    value = field(record, name)
    if not isinstance(value, list):
        raise RecordError(f"field {name!r} must be a list, got {value!r}")
    return value


@kind("wiener", own_rules=True)
@_errors_named
def wiener(record: Record, _: Any) -> Record:
    """Knock/Wiener Rummy hand: min deadwood and melds; with 11 cards the best discard and knock."""
    rules = WienerRules(**_options(record, WIENER_OPTIONS))
    hand = parse_cards(_list_field(record, "hand"), decks=2, jokers=2)
    if len(hand) not in (10, 11):
        raise RecordError(f"a Wiener Rummy hand has 10 cards (11 after drawing), got {len(hand)}")
    best = arrange(hand)
    out: Record = {"min_deadwood": best.deadwood, "melds": [m.codes() for m in best.melds],
                   "deadwood_cards": codes(best.deadwood_cards)}
    if len(hand) == 11:
        choice = best_discard(hand)
        out.update(
            best_discard_deadwood=choice.deadwood,
            best_discards=codes(choice.discards),
            best_discard_melds=[m.codes() for m in choice.arrangement.melds],
            knock_legal=choice.deadwood <= rules.knock_limit,
            rummy=choice.deadwood == 0,
        )
    return out


@kind("tiles_partition", own_rules=True)
@_errors_named
def tiles_partition(record: Record, _: Any) -> Record:
    """Can the tiles be laid out as valid groups and runs, every tile used?"""
    rules = _tile_rules(record)
    tiles = parse_tiles(_list_field(record, "tiles"), rules.palette, jokers=rules.jokers)
    result = partition(tiles, rules)
    if result.valid:
        return {"valid": True, "partition": [list(group) for group in result.groups]}
    return {"valid": False, "reason": result.reason}


@kind("tiles_turn", own_rules=True)
@_errors_named
def tiles_turn(record: Record, _: Any) -> Record:
    """Is a tile-Rummy turn legal? Violations name the groups and tiles."""
    rules = _tile_rules(record)
    before = parse_groups(_list_field(record, "before"), rules, "before")
    after = parse_groups(_list_field(record, "after"), rules, "after")
    played = parse_tiles(_list_field(record, "rack_played"), rules.palette, jokers=rules.jokers)
    opened = field(record, "opened")
    drew = record.get("drew", False)
    if not isinstance(opened, bool) or not isinstance(drew, bool):
        raise RecordError("fields 'opened' and 'drew' must be true or false")
    check = check_turn(before, after, played, opened, rules, drew=drew)
    out: Record = {"legal": check.legal, "violations": list(check.violations)}
    if check.opening_points is not None:
        out["opening_points"] = check.opening_points
    return out
