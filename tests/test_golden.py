"""The whole shared golden corpus (OpenSpiel and RLCard peers) through ``rummyref analyze``'s handlers.

Where our rules differ from the peers on purpose (each case carries the peers' ``rules``, so
the comparison itself is exact):

- Equal deadwood after a knock: the rulebook (000 §10, "gleich oder niedriger") makes it an
  undercut, OpenSpiel scores it 0 for nobody. Our default is the rulebook; the corpus cases
  say ``tie_is_undercut: false``. ``test_rulebook_scores_ties_as_undercuts`` shows the difference.
- Bonuses: the rulebook has gin 20 and undercut 10; OpenSpiel (the ``gra`` preset) 25 and 25.
- Layoff chains: OpenSpiel lays at most 2 cards on each end of a run; we allow any chain
  (8H, 9H, 10H onto 5H-6H-7H). The deadwood never differs, the ``layoffs`` lists may, so
  ours are re-validated for legality instead of compared.
- 11 cards: OpenSpiel gates its Knock action on its own 11-card ``MinDeadwood`` (the
  ``peer_notes``); we, like the rules, ask whether some discard leaves deadwood <= the limit.
"""

import json
from pathlib import Path

import pytest

from engine.cards import parse_cards
from engine.gin import Layoff, check_layoffs
from engine.melds import GIN_MELDS, Meld
from rummyref.commands.analyze import analyze_record

GOLDEN = Path(__file__).resolve().parents[1].parent / "shared" / "golden"
INPUT_FIELDS = ("id", "kind", "hand", "knocker_hand", "opponent_hand", "knocker_melds", "rules")


def corpus(name):
    path = GOLDEN / f"{name}.jsonl"
    if not path.is_file():
        pytest.fail(f"golden corpus missing: {path} (expected at ../shared/golden next to the repository)")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def request(case, **changes):
    return {**{k: case[k] for k in INPUT_FIELDS if k in case}, **changes}


def mismatches(cases, compare):
    wrong = []
    for case in cases:
        problems = compare(case, analyze_record(request(case)))
        wrong += [f"{case['id']}: {p}" for p in problems]
    return wrong


def differ(case, out, names):
    return [f"{n} expected {case[n]!r}, got {out.get(n)!r}" for n in names if n in case and out.get(n) != case[n]]


def check_melds_cover(hand, melds, deadwood_cards, deadwood, laid_off=()):
    """Our melds are legal and disjoint, and with the deadwood (and layoffs) make up the hand."""
    problems = []
    melded = []
    for meld in melds:
        melded += Meld.of(parse_cards(meld), GIN_MELDS).codes()
    if sorted(melded + list(deadwood_cards) + list(laid_off)) != sorted(hand):
        problems.append("melds + deadwood cards do not make up the hand")
    if sum(c.gin_value for c in parse_cards(deadwood_cards)) != deadwood:
        problems.append("deadwood cards do not add up to the deadwood")
    return problems


def test_deadwood_cases():
    def compare(case, out):
        problems = differ(case, out, ["min_deadwood", "best_discard_deadwood", "knock_legal", "gin"])
        for name in ("best_discards", "legal_knock_discards"):
            if name in case and sorted(case[name]) != sorted(out[name]):
                problems.append(f"{name} expected {case[name]}, got {out[name]}")
        problems += check_melds_cover(case["hand"], out["melds"], out["deadwood_cards"], out["min_deadwood"])
        return problems

    cases = corpus("deadwood")
    assert len(cases) == 1100
    assert mismatches(cases, compare) == []


def test_layoff_cases_and_our_layoffs_are_legal():
    def compare(case, out):
        problems = differ(case, out, ["opponent_deadwood_after_layoffs", "opponent_deadwood_without_layoffs",
                                      "knocker_deadwood", "layoffs_allowed"])
        knocker_melds = [Meld.of(parse_cards(m)) for m in case["knocker_melds"]]
        layoffs = [Layoff.of(Meld.of(parse_cards(e["meld"])), parse_cards(e["cards"]), GIN_MELDS) for e in out["layoffs_onto"]]
        check_layoffs(knocker_melds, layoffs, GIN_MELDS)
        if sorted(c for e in out["layoffs_onto"] for c in e["cards"]) != sorted(out["layoffs"]):
            problems.append("layoffs and layoffs_onto disagree")
        if out["layoffs"] and not case["layoffs_allowed"]:
            problems.append("laid off on gin")
        problems += check_melds_cover(case["opponent_hand"], out["opponent_melds"], out["opponent_deadwood_cards"],
                                      out["opponent_deadwood_after_layoffs"], out["layoffs"])
        return problems

    cases = corpus("layoff")
    assert len(cases) == 400
    assert mismatches(cases, compare) == []


SCORE_FIELDS = ["knocker_deadwood", "opponent_deadwood", "winner", "points", "gin", "undercut"]


def test_score_cases_with_the_peers_rules():
    cases = corpus("score")
    assert len(cases) == 500
    assert {json.dumps(c["rules"], sort_keys=True) for c in cases} == {json.dumps(
        {"knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": None,
         "tie_is_undercut": False, "layoffs_on_gin": False}, sort_keys=True)}
    assert mismatches(cases, lambda case, out: differ(case, out, SCORE_FIELDS)) == []


def test_score_cases_without_melds_pick_the_knockers_best_arrangement():
    """Without ``knocker_melds`` we choose the arrangement; the peers' best is ``knocker_return``."""
    wrong = []
    for case in corpus("score"):
        out = analyze_record(request(case, knocker_melds=None))
        signed = {"knocker": 1, "opponent": -1, "none": 0}[out["winner"]] * out["points"]
        if signed != case["knocker_return"]:
            wrong.append(f"{case['id']}: expected {case['knocker_return']}, got {signed}")
    assert wrong == []


def test_rulebook_scores_ties_as_undercuts():
    ties = [c for c in corpus("score") if c["winner"] == "none"]
    assert len(ties) == 43
    for case in ties:
        out = analyze_record(request(case, rules="rulebook"))
        assert (out["winner"], out["points"], out["undercut"]) == ("opponent", 10, True), case["id"]
