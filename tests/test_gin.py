import pytest
from hypothesis import given, settings

from engine.cards import Card, parse_cards
from engine.gin import (
    GinError, IllegalKnockError, Layoff, best_layoffs, check_layoffs, knock_limit, meld_rules, reference_layoffs,
    settle_hand,
)
from engine.melds import Meld, MeldError, MeldRules, arrange, solver
from engine.rules import GinRules, preset
from tests.strategies import deals, meld_rules as meld_rules_strategy

# A knocks with 5: AS-2S-3S, 7H-7D-7C, 9D-10D-JD, 5C loose.
A_HAND = "AS 2S 3S 7H 7D 7C 9D 10D JD 5C"
A_MELDS = ["AS 2S 3S", "7H 7D 7C", "9D 10D JD"]
OPPONENT = "KS KH KC 8D 4H 6C 2H 3D 8C 9S"


def cards(text):
    return parse_cards(text)


def melds(texts, rules=MeldRules()):
    return [Meld.of(cards(t), rules) for t in texts]


def settle(knocker, opponent, rules=GinRules(), knocker_melds=None, **kw):
    laid = None if knocker_melds is None else [cards(t) for t in knocker_melds]
    return settle_hand(cards(knocker), cards(opponent), rules, knocker_melds=laid, names=("A", "B"), **kw)


# --- the worked examples of 000 ---------------------------------------------------------


def test_section_9_knocker_wins_the_difference():
    """000 §9: A knocks with five points, B has 17: A scores 12."""
    result = settle(A_HAND, "QS QH QD QC 4H 5H 6H 8S 6C 3C", knocker_melds=A_MELDS)
    assert (result.knocker_deadwood, result.opponent_deadwood) == (5, 17)
    assert (result.winner, result.points, result.undercut, result.gin) == ("knocker", 12, False, False)
    assert result.explanation.endswith("B 17 > A 5: A wins 17 - 5 = 12.")


def test_section_10_undercut_after_layoffs():
    """000 §10: A knocks with 5, B has 12 but lays off 8 (8D onto 9D-10D-JD), keeps 4: 1 + 10 bonus."""
    result = settle(A_HAND, "KS KH KD KC 3H 4H 5H 6H 8D 4C", knocker_melds=A_MELDS)
    assert result.opponent_deadwood_without_layoffs == 12
    assert [str(c) for c in result.laid_off] == ["8D"]
    assert (result.knocker_deadwood, result.opponent_deadwood) == (5, 4)
    assert (result.winner, result.points, result.undercut) == ("opponent", 11, True)
    assert "B 4 < A 5: undercut, B wins 5 - 4 = 1 + 10 bonus = 11." in result.explanation


def test_undercut_bonus_is_configurable():
    result = settle(A_HAND, "KS KH KD KC 3H 4H 5H 6H 8D 4C", rules=preset("gra"), knocker_melds=A_MELDS)
    assert result.points == 1 + 25


def test_equal_deadwood_is_an_undercut_in_the_rulebook_and_nothing_for_openspiel():
    opponent = "KS KH KD KC 3H 4H 5H 6H 8D 5S"  # 5S: 5 left after laying off 8D, equal to A's 5
    rulebook = settle(A_HAND, opponent, knocker_melds=A_MELDS)
    assert (rulebook.winner, rulebook.points, rulebook.undercut) == ("opponent", 10, True)
    assert "B 5 <= A 5: undercut" in rulebook.explanation
    openspiel = settle(A_HAND, opponent, rules=GinRules(tie_is_undercut=False), knocker_melds=A_MELDS)
    assert (openspiel.winner, openspiel.points, openspiel.undercut) == ("none", 0, False)


# --- gin and big gin (000 §11) --------------------------------------------------------------


GIN_HAND = "AS 2S 3S 7H 7D 7C 9D 10D JD QD"


def test_gin_scores_bonus_plus_opponent_deadwood_without_layoffs():
    result = settle(GIN_HAND, "KS KH KC 8D 4H 5C 6C 2H 3D 8C")
    # 8D would fit 9D-10D-JD-QD, but nothing may be laid off on gin.
    assert result.gin and not result.layoffs
    assert result.opponent_deadwood == 8 + 4 + 5 + 6 + 2 + 3 + 8
    assert (result.winner, result.points) == ("knocker", 20 + 36)
    assert result.explanation.endswith("A wins 20 gin bonus + B 36 = 56.")


def test_layoffs_on_gin_as_an_option():
    result = settle(GIN_HAND, "KS KH KC 8D 4H 5C 6C 2H 3D 8C", rules=GinRules(layoffs_on_gin=True))
    assert [str(c) for c in result.laid_off] == ["8D"]
    assert result.points == 20 + 28


def test_gin_cannot_be_undercut():
    result = settle(GIN_HAND, "KS KH KC 4H 5H 6H 8C 9C 10C JC")
    assert (result.winner, result.points, result.opponent_deadwood) == ("knocker", 20, 0)


def test_big_gin_when_played():
    eleven = "AS 2S 3S 7H 7D 7C 9D 10D JD QD KD"
    result = settle(eleven, "KS KH KC 8D 4H 5C 6C 2H 3D 8C", rules=GinRules(big_gin_bonus=31))
    assert result.big_gin and result.gin
    assert result.points == 31 + 36
    with pytest.raises(GinError, match="big gin, 11 melded cards, is not played"):
        settle(eleven, "KS KH KC 8D 4H 5C 6C 2H 3D 8C")
    with pytest.raises(GinError, match="only big gin is settled with 11"):
        settle("AS 2S 3S 7H 7D 7C 9D 10D JD QD 2C", "KS KH KC 8D 4H 5C 6C 2H 3D 8C", rules=GinRules(big_gin_bonus=31))


# --- knock limit (000 §7, Oklahoma of 004) ----------------------------------------------------


def test_knock_above_the_limit_is_illegal():
    with pytest.raises(IllegalKnockError, match="deadwood 11 is above the knock limit 10"):
        settle("AS 2S 3S 4S 7H 7D 7C 2C 4C 5H", OPPONENT)
    tight = GinRules(knock_limit=4)
    with pytest.raises(IllegalKnockError, match="limit 4"):
        settle(A_HAND, OPPONENT, rules=tight)


def test_oklahoma_upcard_sets_the_limit():
    oklahoma = preset("oklahoma")
    assert knock_limit(oklahoma, Card(7, "H")) == 7
    assert knock_limit(oklahoma, Card(12, "H")) == 10
    assert knock_limit(oklahoma, Card(1, "S")) == 0
    assert knock_limit(oklahoma.replace(oklahoma_ace_gin_only=False), Card(1, "S")) == 1
    assert knock_limit(GinRules(knock_limit=8), Card(2, "S")) == 8  # upcard ignored without Oklahoma
    with pytest.raises(GinError, match="first upcard"):
        knock_limit(oklahoma)
    with pytest.raises(IllegalKnockError, match="limit 4"):
        settle(A_HAND, OPPONENT, rules=oklahoma, upcard=Card(4, "H"))
    with pytest.raises(IllegalKnockError, match=r"limit 0 \(gin only\)"):
        settle(A_HAND, OPPONENT, rules=oklahoma, upcard=Card(1, "H"))


def test_oklahoma_spade_upcard_doubles():
    rules = preset("oklahoma").replace(oklahoma_spade_doubles=True)
    plain = settle(A_HAND, "QS QH QD QC 4H 5H 6H 8S 6C 3C", rules=rules, knocker_melds=A_MELDS, upcard=Card(6, "H"))
    spade = settle(A_HAND, "QS QH QD QC 4H 5H 6H 8S 6C 3C", rules=rules, knocker_melds=A_MELDS, upcard=Card(6, "S"))
    assert (plain.points, plain.doubled) == (12, False)
    assert (spade.points, spade.doubled) == (24, True)
    assert spade.explanation.endswith("Spade upcard doubles: 24.")


# --- layoffs (000 §8) ----------------------------------------------------------------------


def test_runs_take_chains_at_both_ends():
    run = Meld.of(cards("5H 6H 7H"))
    outcome = best_layoffs([run], cards("3H 4H 8H 9H KS KD QC 2C 2D 5S"), MeldRules())
    assert [str(layoff) for layoff in outcome.layoffs] == ["4H 8H 3H 9H onto 5H 6H 7H"]  # card by card
    assert str(outcome.layoffs[0].result) == "3H 4H 5H 6H 7H 8H 9H"
    assert outcome.opponent.deadwood == 10 + 10 + 10 + 2 + 2 + 5


def test_sets_take_a_fourth_card_only():
    three = Meld.of(cards("QS QD QC"))
    assert [str(c) for c in best_layoffs([three], cards("QH 2C 3D 4S 5S 6D 7C 8H 9S 10D"), MeldRules()).laid_off] == ["QH"]
    four = Meld.of(cards("QS QH QD QC"))
    assert best_layoffs([four], cards("KH 2C 3D 4S 5S 6D 7C 8H 9S 10D"), MeldRules()).laid_off == ()


def test_joint_choice_keeps_own_set_and_lays_off_the_rest():
    # 8H fits the knocker's run or the knocker's eights, 9H the run only after 8H;
    # the best is the own set 9H-9S-9D and 8H laid off, not the chain 8H-9H.
    knocker = melds(["5H 6H 7H", "8S 8D 8C"])
    outcome = best_layoffs(knocker, cards("8H 9H 9S 9D KC KD QS QC JS 2C"), MeldRules())
    assert outcome.opponent.deadwood == 10 + 10 + 10 + 10 + 10 + 2
    assert [m.kind for m in outcome.opponent.melds] == ["set"]
    assert outcome.laid_off == (Card(8, "H"),)


def test_layoffs_respect_ace_rules_and_run_length():
    jqk = [Meld.of(cards("JH QH KH"))]
    hand = cards("AH 10H 2S 3S 4D 5D 6C 7C 8S 9D")
    assert set(best_layoffs(jqk, hand, MeldRules()).laid_off) == {Card(10, "H")}
    assert set(best_layoffs(jqk, hand, MeldRules(ace_high=True)).laid_off) == {Card(10, "H"), Card(1, "H")}
    assert len(best_layoffs(jqk, hand, MeldRules(ace_high=True, max_run_length=4)).laid_off) == 1


def test_layoff_validation_names_the_problem():
    run = Meld.of(cards("5H 6H 7H"))
    with pytest.raises(MeldError, match="cannot lay 9H onto 5H 6H 7H"):
        Layoff.of(run, cards("9H"), MeldRules())
    with pytest.raises(MeldError, match="not one of the knocker's melds"):
        check_layoffs([run], [Layoff.of(Meld.of(cards("AS 2S 3S")), cards("4S"), MeldRules())], MeldRules())


# --- bad input --------------------------------------------------------------------------------


def test_bad_hands_are_clear_errors():
    with pytest.raises(GinError, match="opponent hand has 9 cards"):
        settle(A_HAND, "KS KH KC 8D 4H 5C 6C 2H 3D")
    with pytest.raises(GinError, match="knocker hand has 9 cards"):
        settle("AS 2S 3S 7H 7D 7C 9D 10D JD", "KS KH KC 8D 4H 5C 6C 2H 3D 8C")
    with pytest.raises(GinError, match="7H is in both hands"):
        settle(A_HAND, "7H KH KC 8D 4H 6C 2H 3D 8C 9S")
    with pytest.raises(MeldError, match="ace high"):
        settle("QS KS AS 7H 7D 7C 9D 10D JD 5C", "KH KD KC 8D 4H 6C 2H 3D 8C 9S", knocker_melds=["QS KS AS"])
    with pytest.raises(MeldError, match="uses 4S, which is not in the hand"):
        settle(A_HAND, OPPONENT, knocker_melds=["2S 3S 4S"])
    with pytest.raises(Exception, match="duplicate card"):
        settle_hand(cards("AS 2S 3S 7H 7D 7C 9D 10D JD") + cards("AS"), cards("KS KH KC 8D 4H 5C 6C 2H 3D 8C"))


# --- the knocker's best arrangement ----------------------------------------------------------


def test_without_melds_the_knocker_lays_out_the_best_arrangement():
    """Golden case pub-score-00248: two minimum arrangements, worth 4 and 5 to the knocker."""
    knocker, opponent = "3S 4S AH 2H 3H AD 2D 2C 3C 4C", "2S 5S 3D 4D 8D 9D 10D JD AC 5C"
    result = settle(knocker, opponent, rules=preset("gra").replace(tie_is_undercut=False))
    assert (result.winner, result.points) == ("knocker", 5)
    worse = settle(knocker, opponent, rules=preset("gra"), knocker_melds=["AH 2H 3H", "2C 3C 4C"])
    assert worse.knocker_deadwood == result.knocker_deadwood == 10
    assert (worse.winner, worse.points) == ("knocker", 4)


# --- properties ----------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(deal=deals(), rules=meld_rules_strategy)
def test_layoffs_match_brute_force_and_are_legal(deal, rules):
    knocker_hand, opponent_hand = deal
    knocker_melds = arrange(knocker_hand, rules).melds
    fast = best_layoffs(knocker_melds, opponent_hand, rules)
    slow = reference_layoffs(knocker_melds, opponent_hand, rules)
    assert fast.opponent.deadwood == slow.opponent.deadwood
    assert fast.deadwood_without_layoffs == solver(rules).min_deadwood(opponent_hand)
    check_layoffs(knocker_melds, fast.layoffs, rules)
    own = fast.opponent.melded_cards()
    everything = own + list(fast.laid_off) + list(fast.opponent.deadwood_cards)
    assert sorted(everything) == sorted(opponent_hand)
    assert fast.opponent.deadwood == sum(rules.value(c) for c in fast.opponent.deadwood_cards)


@settings(max_examples=80, deadline=None)
@given(deal=deals())
def test_settlement_arithmetic(deal):
    knocker_hand, opponent_hand = deal
    rules = GinRules(knock_limit=100)
    result = settle_hand(knocker_hand, opponent_hand, rules, knocker_melds=arrange(knocker_hand).melds)
    k, o = result.knocker_deadwood, result.opponent_deadwood
    if k == 0:
        assert (result.winner, result.points) == ("knocker", 20 + o)
    elif o <= k:
        assert (result.winner, result.points, result.undercut) == ("opponent", k - o + 10, True)
    else:
        assert (result.winner, result.points) == ("knocker", o - k)
    assert meld_rules(rules) == MeldRules()
