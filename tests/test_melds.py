import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, DuplicateCardError, parse_cards
from engine.melds import (
    GIN_MELDS, Meld, MeldError, MeldRules, arrange, arrangement_of, arrangements, best_discards, min_deadwood,
    optimal_arrangements, reference_min_deadwood,
)
from tests.strategies import hands, meld_rules

ACE_HIGH = MeldRules(ace_high=True)
CORNER = MeldRules(round_the_corner=True)


def cards(text):
    return parse_cards(text)


# --- meld legality (000 §4, 003 options) ------------------------------------------------


@pytest.mark.parametrize("text,kind,ordered", [
    ("KS KH KD", "set", "KS KH KD"),                    # 000 §4
    ("3C 3S 3D 3H", "set", "3S 3H 3D 3C"),              # 000 §4, suit order S H D C
    ("3S AS 2S", "run", "AS 2S 3S"),                    # ace low
    ("JH 8H 10H 9H", "run", "8H 9H 10H JH"),            # 000 §4
    ("KD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD", "run", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"),
])
def test_legal_melds(text, kind, ordered):
    meld = Meld.of(cards(text))
    assert (meld.kind, str(meld)) == (kind, ordered)


@pytest.mark.parametrize("text,rules,message", [
    ("QC KC AC", GIN_MELDS, "ace high (Q-K-A) is not allowed"),               # 000 §4 counterexample
    ("KD AD 2D", GIN_MELDS, "round the corner (K-A-2) is not allowed"),       # 000 §4 counterexample
    ("KD AD 2D", ACE_HIGH, "round the corner (K-A-2) is not allowed"),
    ("7H 8H 10H", GIN_MELDS, "9H is missing"),
    ("7H 8H", GIN_MELDS, "has 2 card(s); a meld needs at least 3"),
    ("7H 7D 8H", GIN_MELDS, "8H differs in rank from 7H"),
    ("3H 4H 5H 6H 7H", MeldRules(max_run_length=4), "a run of 5 cards; these rules allow at most 4"),
])
def test_illegal_melds_say_why(text, rules, message):
    with pytest.raises(MeldError, match=re.escape(message)) as excinfo:
        Meld.of(cards(text), rules)
    assert text.split()[0] in str(excinfo.value)  # the meld is named


def test_ace_options():
    assert str(Meld.of(cards("AC QC KC"), ACE_HIGH)) == "QC KC AC"
    assert str(Meld.of(cards("2D KD AD"), CORNER)) == "KD AD 2D"
    assert str(Meld.of(cards("QD KD AD 2D 3D"), CORNER)) == "QD KD AD 2D 3D"
    assert str(Meld.of(cards("AD 2D 3D"), CORNER)) == "AD 2D 3D"


def test_meld_rejects_repeated_cards_and_jokers():
    with pytest.raises(MeldError, match="contains 7H more than once"):
        Meld.of(cards("7H 7D") + cards("7H"))
    with pytest.raises(MeldError, match="JK is not a playing card"):
        Meld.of(cards("7H 8H") + [JOKER])


def test_max_run_length_must_make_sense():
    with pytest.raises(MeldError, match="max_run_length"):
        MeldRules(max_run_length=2)


# --- the solver ------------------------------------------------------------------------


@pytest.mark.parametrize("text,rules,deadwood", [
    ("AS 2S 3S 7H 7D 7C 9D 10D JD KH", GIN_MELDS, 10),
    ("7S 7H 7D 7C 5S 6S", GIN_MELDS, 0),           # a 3-card set out of four, the fourth in a run
    ("7S 7H 7D 5S 6S 8S", GIN_MELDS, 14),          # run 5S-8S beats the set of sevens (7H 7D left)
    ("QH KH AH", GIN_MELDS, 21),
    ("QH KH AH", ACE_HIGH, 0),
    ("KH AH 2H", ACE_HIGH, 13),
    ("KH AH 2H", CORNER, 0),
    ("AH 2H 3H 4H 5H", MeldRules(max_run_length=4), 1),  # 2H-5H melded, the ace left
])
def test_known_minimum_deadwood(text, rules, deadwood):
    hand = cards(text)
    assert min_deadwood(hand, rules) == deadwood
    assert arrange(hand, rules).deadwood == deadwood
    assert reference_min_deadwood(hand, rules) == deadwood


def test_full_suit_round_the_corner_with_short_runs():
    hearts = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert min_deadwood(hearts, MeldRules(round_the_corner=True, max_run_length=3)) == 1  # 12 melded, one left
    assert min_deadwood(hearts, MeldRules(round_the_corner=True)) == 0


def test_arrangement_lists_melds_and_deadwood():
    arrangement = arrange(cards("AS 2S 3S 7H 7D 7C 9D 10D JD KH"))
    assert sorted(str(m) for m in arrangement.melds) == ["7H 7D 7C", "9D 10D JD", "AS 2S 3S"]
    assert [str(c) for c in arrangement.deadwood_cards] == ["KH"]


def test_eleven_cards_best_discards():
    choice = best_discards(cards("AS 2S 3S 7H 7D 7C 9D 10D JD KH KD"))
    assert choice.deadwood == 10
    assert [str(c) for c in choice.discards] == ["KH", "KD"]
    assert choice.can_knock(10) and not choice.can_knock(9) and not choice.gin
    assert [str(c) for c in choice.knock_discards(10)] == ["KH", "KD"]


def test_eleven_cards_gin_discard():
    choice = best_discards(cards("AS 2S 3S 7H 7D 7C 9D 10D JD QD KC"))
    assert choice.gin and [str(c) for c in choice.discards] == ["KC"]
    assert choice.arrangement.deadwood == 0


def test_bad_hands_are_named():
    with pytest.raises(DuplicateCardError, match="7H"):
        min_deadwood(cards("7H 8H") + cards("7H"))
    with pytest.raises(MeldError, match="jokers"):
        min_deadwood(cards("7H 8H") + [JOKER])
    with pytest.raises(MeldError, match="needs 11 cards, got 10"):
        best_discards(cards("AS 2S 3S 7H 7D 7C 9D 10D JD KH"))


def test_chosen_arrangement_is_checked():
    hand = cards("AS 2S 3S 4S 7H 7D 7C 9D 10D JD")
    with pytest.raises(MeldError, match="3S, which is already in another meld"):
        arrangement_of(hand, [Meld.of(cards("AS 2S 3S")), Meld.of(cards("3S 4S 5S"))])
    assert arrangement_of(hand, [Meld.of(cards("AS 2S 3S"))]).deadwood == 4 + 21 + 29


def test_optimal_arrangements_lists_every_minimum():
    found = optimal_arrangements(cards("7S 7H 7D 7C 5S 6S 8S"))
    layouts = sorted(sorted(str(m) for m in a.melds) for a in found)
    # The run must take 7S to reach 8S, so the set is the other three sevens.
    assert layouts == [["5S 6S 7S 8S", "7H 7D 7C"]]
    assert all(a.deadwood == 0 for a in found)


# --- properties ------------------------------------------------------------------------


def check_arrangement(hand, arrangement, rules):
    assert arrangement.deadwood == sum(rules.value(c) for c in arrangement.deadwood_cards)
    melded = arrangement.melded_cards()
    assert len(melded) == len(set(melded)), "melds overlap"
    assert sorted(melded + list(arrangement.deadwood_cards)) == sorted(hand)
    for meld in arrangement.melds:
        assert Meld.of(meld.cards, rules) == meld


@settings(max_examples=300, deadline=None)
@given(hand=hands(), rules=meld_rules)
def test_solver_is_optimal_and_consistent(hand, rules):
    arrangement = arrange(hand, rules)
    check_arrangement(hand, arrangement, rules)
    assert min_deadwood(hand, rules) == arrangement.deadwood
    assert reference_min_deadwood(hand, rules) == arrangement.deadwood


@settings(max_examples=100, deadline=None)
@given(hand=hands(min_size=11, max_size=11), rules=meld_rules)
def test_best_discards_match_brute_force(hand, rules):
    choice = best_discards(hand, rules)
    after = {card: reference_min_deadwood([c for c in hand if c != card], rules) for card in hand}
    assert choice.deadwood == min(after.values())
    assert set(choice.discards) == {card for card, d in after.items() if d == choice.deadwood}
    assert dict(choice.deadwood_after) == after
    check_arrangement([c for c in hand if c != choice.discards[0]], choice.arrangement, rules)


@settings(max_examples=60, deadline=None)
@given(hand=hands(max_size=10), rules=meld_rules, limit=st.integers(0, 30))
def test_every_enumerated_arrangement_is_sound(hand, rules, limit):
    for arrangement in arrangements(hand, rules, max_deadwood=limit):
        assert arrangement.deadwood <= limit
        check_arrangement(hand, arrangement, rules)
