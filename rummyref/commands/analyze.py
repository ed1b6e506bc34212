"""`rummyref analyze [FILE]`: audit recorded hands, one JSON line in, one JSON line out.

Each input line is a JSON object with a ``kind``; the answer echoes its ``id`` and
``kind`` and adds the results (field names as in the shared golden corpus). A line that
cannot be analysed gets an ``error`` field instead, and processing goes on.

>>> analyze_record({"id": 7, "kind": "deadwood", "hand": "AS 2S 3S 7H 7D 7C 9D 10D JD KH"})["min_deadwood"]
10
>>> analyze_record({"kind": "poker"})
Traceback (most recent call last):
...
rummyref.commands.analyze.RecordError: unknown kind 'poker': expected one of deadwood, layoff, score...

New kinds register a handler with :func:`kind`; a handler takes the record and the rules
and returns the fields to add.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Iterable, Iterator

from engine.cards import CardError, parse_card, parse_cards
from engine.gin import GinError, Layoff, best_layoffs, knock_limit, meld_rules, settle_hand
from engine.melds import Arrangement, Meld, MeldError, arrangement_of, best_discards, solver
from engine.rules import PRESETS, GinRules, RulesError, from_dict, preset

Record = dict[str, Any]
Handler = Callable[[Record, GinRules], Record]

KINDS: dict[str, Handler] = {}
"""Handlers by ``kind``; extend with :func:`kind`."""


class RecordError(ValueError):
    """An input line that is not a well-formed request."""


OWN_RULES: set[str] = set()
"""Kinds that read their own ``rules`` object (other games), not the Gin options."""


def kind(name: str, own_rules: bool = False) -> Callable[[Handler], Handler]:
    """Register the handler of one input kind."""

    def register_handler(handler: Handler) -> Handler:
        KINDS[name] = handler
        if own_rules:
            OWN_RULES.add(name)
        return handler

    return register_handler


# --- field helpers ---------------------------------------------------------------------


def field(record: Record, name: str) -> Any:
    if name not in record:
        raise RecordError(f"missing field {name!r}")
    return record[name]


def cards_field(record: Record, name: str) -> list:
    value = field(record, name)
    if not isinstance(value, (str, list)):
        raise RecordError(f"field {name!r} must be a list of card codes, got {value!r}")
    try:
        return parse_cards(value)
    except CardError as error:
        raise RecordError(f"field {name!r}: {error}") from None


def melds_field(record: Record, name: str, rules: GinRules) -> list[Meld]:
    value = field(record, name)
    if not isinstance(value, list):
        raise RecordError(f"field {name!r} must be a list of melds (lists of card codes), got {value!r}")
    melds = []
    for item in value:
        if not isinstance(item, (str, list)):
            raise RecordError(f"field {name!r}: a meld must be a list of card codes, got {item!r}")
        try:
            melds.append(Meld.of(parse_cards(item), meld_rules(rules)))
        except (CardError, MeldError) as error:
            raise RecordError(f"field {name!r}: {error}") from None
    return melds


def record_rules(record: Record, base: GinRules) -> GinRules:
    """``rules`` may be a preset name or an object of options (with an optional ``preset``)."""
    options = record.get("rules")
    if options is None:
        return base
    if isinstance(options, str):
        return preset(options)
    if not isinstance(options, dict):
        raise RecordError(f"field 'rules' must be a preset name or an object of options, got {options!r}")
    options = dict(options)
    start = preset(options.pop("preset")) if "preset" in options else base
    return from_dict(options, base=start)


def upcard_field(record: Record) -> Any:
    return parse_card(record["upcard"]) if record.get("upcard") is not None else None


def codes(cards: Iterable) -> list[str]:
    return [str(card) for card in cards]


def meld_codes(melds: Iterable[Meld]) -> list[list[str]]:
    return [meld.codes() for meld in melds]


# --- kinds -----------------------------------------------------------------------------


@kind("deadwood")
def deadwood(record: Record, rules: GinRules) -> Record:
    """Minimum deadwood and one arrangement; with 11 cards also the best discards and knock/gin."""
    hand = cards_field(record, "hand")
    best: Arrangement = solver(meld_rules(rules)).arrange(hand)
    out = {"min_deadwood": best.deadwood, "melds": meld_codes(best.melds), "deadwood_cards": codes(best.deadwood_cards)}
    if len(hand) == 11:
        choice = best_discards(hand, meld_rules(rules))
        limit = knock_limit(rules, upcard_field(record))
        out.update(
            best_discard_deadwood=choice.deadwood,
            best_discards=codes(choice.discards),
            best_discard_melds=meld_codes(choice.arrangement.melds),
            knock_legal=choice.can_knock(limit),
            gin=choice.gin,
            legal_knock_discards=codes(choice.knock_discards(limit)),
        )
    return out


def layoff_fields(layoffs: Iterable[Layoff]) -> Record:
    layoffs = list(layoffs)
    return {
        "layoffs": [str(card) for layoff in layoffs for card in layoff.cards],
        "layoffs_onto": [{"meld": layoff.onto.codes(), "cards": codes(layoff.cards)} for layoff in layoffs],
    }


@kind("layoff")
def layoff(record: Record, rules: GinRules) -> Record:
    """The opponent's best melds and layoffs against the knocker's laid-out melds."""
    knocker_hand = cards_field(record, "knocker_hand")
    opponent_hand = cards_field(record, "opponent_hand")
    knocker = arrangement_of(knocker_hand, melds_field(record, "knocker_melds", rules), meld_rules(rules))
    shared = set(knocker_hand) & set(opponent_hand)
    if shared:
        raise RecordError(f"{min(shared, key=lambda c: c.index)} is in both hands")
    allowed = knocker.deadwood > 0 or rules.layoffs_on_gin
    outcome = best_layoffs(knocker.melds if allowed else [], opponent_hand, meld_rules(rules))
    return {
        "knocker_deadwood": knocker.deadwood,
        "layoffs_allowed": allowed,
        "opponent_deadwood_after_layoffs": outcome.opponent.deadwood,
        **layoff_fields(outcome.layoffs),
        "opponent_melds": meld_codes(outcome.opponent.melds),
        "opponent_deadwood_cards": codes(outcome.opponent.deadwood_cards),
        "opponent_deadwood_without_layoffs": outcome.deadwood_without_layoffs,
    }


@kind("score")
def score(record: Record, rules: GinRules) -> Record:
    """The hand result; without ``knocker_melds`` the knocker's best arrangement."""
    melds = melds_field(record, "knocker_melds", rules) if record.get("knocker_melds") is not None else None
    result = settle_hand(
        cards_field(record, "knocker_hand"), cards_field(record, "opponent_hand"), rules,
        knocker_melds=melds, upcard=upcard_field(record),
    )
    return {
        "knocker_deadwood": result.knocker_deadwood,
        "opponent_deadwood": result.opponent_deadwood,
        "winner": result.winner,
        "points": result.points,
        "gin": result.gin,
        "big_gin": result.big_gin,
        "undercut": result.undercut,
        "knocker_melds": meld_codes(result.knocker.melds),
        **layoff_fields(result.layoffs),
        "opponent_melds": meld_codes(result.opponent.melds),
        "knock_limit": result.knock_limit,
        "explanation": result.explanation,
    }


# --- the stream ------------------------------------------------------------------------


def analyze_record(record: Any, base_rules: GinRules = GinRules()) -> Record:
    """Answer one request; raises on bad input (see :func:`analyze_lines` for the error lines)."""
    if not isinstance(record, dict):
        raise RecordError(f"a line must be a JSON object, got {type(record).__name__}")
    name = field(record, "kind")
    handler = KINDS.get(name) if isinstance(name, str) else None
    if handler is None:
        raise RecordError(f"unknown kind {name!r}: expected one of {', '.join(sorted(KINDS))}")
    head = {key: record[key] for key in ("id", "kind") if key in record}
    rules = base_rules if name in OWN_RULES else record_rules(record, base_rules)
    return {**head, **handler(record, rules)}


ANALYSIS_ERRORS = (RecordError, CardError, MeldError, GinError, RulesError)


def analyze_lines(lines: Iterable[str], base_rules: GinRules = GinRules()) -> Iterator[Record]:
    """One answer per non-blank line; a bad line gets ``error`` (and its ``line`` number)."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record: Any = None
        try:
            record = json.loads(line)
            yield analyze_record(record, base_rules)
        except json.JSONDecodeError as error:
            yield {"line": number, "error": f"invalid JSON: {error}"}
        except ANALYSIS_ERRORS as error:
            echo = {"id": record["id"]} if isinstance(record, dict) and "id" in record else {}
            yield {**echo, "line": number, "error": str(error)}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="audit recorded hands: JSON lines in, one JSON line out per input",
        description=(
            "Audit recorded hands. Each input line is a JSON object with a 'kind'; each answer echoes its\n"
            "'id' and 'kind' and adds the results (field names as in the shared golden corpus). A line\n"
            "that cannot be analysed gets an 'error' field instead, and processing goes on."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "kinds:\n"
            '  {"kind":"deadwood","hand":[...]}\n'
            "      -> min_deadwood, melds, deadwood_cards; with 11 cards also best_discard_deadwood,\n"
            "         best_discards, knock_legal, gin, legal_knock_discards\n"
            '  {"kind":"layoff","knocker_melds":[[...]],"knocker_hand":[...],"opponent_hand":[...]}\n'
            "      -> opponent_deadwood_after_layoffs, layoffs, opponent_melds\n"
            '  {"kind":"score","knocker_hand":[...],"opponent_hand":[...],"knocker_melds"?:..,"rules"?:{..}}\n'
            "      -> knocker_deadwood, opponent_deadwood, winner, points, gin, undercut, explanation\n"
            '  {"kind":"wiener","hand":[10 or 11 cards],"rules"?:{"knock_limit":5}}\n'
            "      -> min_deadwood, melds (jokers as JK); with 11 cards also best_discard_deadwood,\n"
            "         best_discards, knock_legal, rummy\n"
            '  {"kind":"tiles_partition","tiles":[...],"rules"?:{"jokers":2,"palette":"rummikub"}}\n'
            "      -> valid, partition (groups and runs) or reason\n"
            '  {"kind":"tiles_turn","before":[[..]],"after":[[..]],"rack_played":[..],"opened":bool,"drew"?:bool}\n'
            "      -> legal, violations, opening_points (when the turn is an opening)\n"
            "optional on every line: \"id\" (echoed), \"rules\" (a preset name or an object of options,\n"
            "e.g. {\"preset\":\"gra\",\"tie_is_undercut\":false}), \"upcard\" (Oklahoma Gin).\n"
            "exit status: 0 if every line was analysed, 1 if some line got an error."
        ),
    )
    parser.add_argument("file", nargs="?", default="-", help="JSON lines to read (default: standard input)")
    parser.add_argument(
        "--rules", default="rulebook", choices=sorted(PRESETS),
        help="rules preset for lines without their own 'rules' (default: rulebook, the official rules)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as error:
        print(f"analyze: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    total = errors = 0
    with source:
        for answer in analyze_lines(source, preset(args.rules)):
            total += 1
            errors += "error" in answer
            print(json.dumps(answer), flush=False)
    if not args.quiet:
        print(f"analyze: {total} lines, {errors} with errors", file=sys.stderr)
    return 1 if errors else 0


# The kinds of the other games register themselves (after `kind` exists).
from rummyref.commands import analyze_games  # noqa: E402,F401
