"""Irregularities (000 §14): one test per paragraph."""

import pytest

from engine.irregularities import (
    Decision, IrregularityError, drew_before_discard, drew_extra_cards, exposed_stock_card, illegal_knock,
    knock_with_wrong_count, opponent_over_at_knock, opponent_short_at_knock, wrong_card_count, wrong_dealer,
)
from engine.match import HandScore, new_match
from engine.rules import GinRules


def actions(ruling):
    return [(o.player, o.action) for o in ruling.options]


def test_14_1_wrong_dealer_before_play_no_redeal_right_forehand_plays_first():
    ruling = wrong_dealer(correct_dealer="Ben", actual_dealer="Anna", play_started=False)
    assert (ruling.rule, ruling.decision, ruling.player) == ("000 §14.1", Decision.NO_REDEAL, "Anna")


def test_14_2_wrong_dealer_during_play_goes_on_and_the_match_follows_the_actual_deal():
    ruling = wrong_dealer(correct_dealer="Ben", actual_dealer="Anna", play_started=True)
    assert (ruling.rule, ruling.decision) == ("000 §14.2", Decision.PLAY_ON)
    match = new_match(("Anna", "Ben"), "Ben").record(HandScore.no_game(dealer=ruling.player))
    assert match.next_dealer == "Anna"


def test_14_3_exposed_card_shown_and_replaced_opponent_may_take_it_or_reshuffle():
    ruling = exposed_stock_card("Anna", "Ben")
    assert (ruling.rule, ruling.decision) == ("000 §14.3", Decision.SHOW_AND_REPLACE)
    assert actions(ruling) == [("Ben", "take_exposed_card"), ("Ben", "reshuffle_stock")]


def test_14_4_drew_before_the_opponent_discarded_keeps_the_card():
    ruling = drew_before_discard("Anna", "Ben")
    assert (ruling.rule, ruling.decision, ruling.player, ruling.options) == (
        "000 §14.4", Decision.KEEP_DRAWN_CARD, "Anna", ())
    assert "may not take" in ruling.text


@pytest.mark.parametrize("extra", [1, 3])
def test_14_5_extra_cards_no_drawing_no_knocking_must_discard(extra):
    ruling = drew_extra_cards("Anna", extra)
    assert (ruling.rule, ruling.decision, ruling.turns, ruling.may_knock) == (
        "000 §14.5", Decision.DISCARD_WITHOUT_DRAWING, extra, False)
    with pytest.raises(IrregularityError, match="1 or more"):
        drew_extra_cards("Anna", 0)


def test_14_6_correction_allowed_if_possible():
    ruling = illegal_knock("Anna", "Ben", correctable=True, opponent_laid_down=False)
    assert ruling.rule == "000 §14.6, §14.7"
    assert actions(ruling)[0] == ("Anna", "correct_knock")
    uncorrectable = illegal_knock("Anna", "Ben", correctable=False, opponent_laid_down=False)
    assert ("Anna", "correct_knock") not in actions(uncorrectable)


def test_14_7_before_the_opponent_laid_down_he_accepts_or_demands_play_on():
    ruling = illegal_knock("Anna", "Ben", correctable=False, opponent_laid_down=False)
    assert (ruling.rule, ruling.decision) == ("000 §14.7", Decision.OPPONENT_CHOOSES)
    assert actions(ruling) == [("Ben", "accept_knock"), ("Ben", "play_on")]


def test_14_8_after_the_opponent_laid_down_the_knock_is_accepted():
    ruling = illegal_knock("Anna", "Ben", correctable=False, opponent_laid_down=True)
    assert (ruling.rule, ruling.decision, ruling.options) == ("000 §14.8", Decision.KNOCK_ACCEPTED, ())


def test_14_9_wrong_count_before_pickup_redeal():
    ruling = wrong_card_count("Anna", 9, "before_pickup")
    assert (ruling.rule, ruling.decision) == ("000 §14.9", Decision.REDEAL)
    # forehand of the rulebook deal should hold 11
    assert wrong_card_count("Anna", 10, "before_pickup", expected=11).decision is Decision.REDEAL
    with pytest.raises(IrregularityError, match="right number"):
        wrong_card_count("Anna", 11, "before_pickup", expected=11)


def test_14_10_wrong_count_during_play_corrected_and_no_knock():
    too_many = wrong_card_count("Anna", 12, "during_play")
    assert (too_many.rule, too_many.decision, too_many.turns, too_many.may_knock) == (
        "000 §14.10", Decision.DISCARD_WITHOUT_DRAWING, 2, False)
    too_few = wrong_card_count("Anna", 9, "during_play")
    assert (too_few.decision, too_few.turns, too_few.may_knock) == (Decision.DRAW_WITHOUT_DISCARDING, 1, False)
    with pytest.raises(IrregularityError, match="stage"):
        wrong_card_count("Anna", 9, "at_lunch")


def test_14_11_knocker_with_wrong_count_as_illegal_knock_missing_cards_count_10():
    ruling = knock_with_wrong_count("Anna", "Ben", held=8, opponent_laid_down=False)
    assert (ruling.rule, ruling.decision, ruling.penalty_points) == ("000 §14.11, §14.7", Decision.OPPONENT_CHOOSES, 20)
    assert actions(ruling) == [("Ben", "accept_knock"), ("Ben", "play_on")]
    assert "§14.10" in ruling.text
    accepted = knock_with_wrong_count("Anna", "Ben", held=11, opponent_laid_down=True)
    assert (accepted.rule, accepted.decision, accepted.penalty_points) == ("000 §14.11, §14.8", Decision.KNOCK_ACCEPTED, 0)


def test_14_12_opponent_short_missing_cards_count_10():
    ruling = opponent_short_at_knock("Ben", 9)
    assert (ruling.rule, ruling.decision, ruling.player, ruling.penalty_points) == (
        "000 §14.12", Decision.MISSING_CARDS_COUNT, "Ben", 10)
    with pytest.raises(IrregularityError, match="fewer than 10"):
        opponent_short_at_knock("Ben", 10)


def test_14_13_opponent_with_too_many_no_layoffs_knocker_scores_or_no_game():
    wins = opponent_over_at_knock("Anna", "Ben", 11, knocker_deadwood=6, opponent_deadwood=20)
    assert (wins.rule, wins.decision, wins.outcome) == ("000 §14.13", Decision.KNOCKER_SCORES, HandScore("Anna", 14))
    assert "may not lay off" in wins.text
    gin = opponent_over_at_knock("Anna", "Ben", 12, 0, 20, gin=True, rules=GinRules(gin_bonus=25))
    assert gin.outcome == HandScore("Anna", 45, "gin")
    less = opponent_over_at_knock("Anna", "Ben", 11, knocker_deadwood=6, opponent_deadwood=5)
    assert (less.decision, less.outcome) == (Decision.NO_GAME, HandScore.no_game())
    equal = opponent_over_at_knock("Anna", "Ben", 11, knocker_deadwood=6, opponent_deadwood=6)
    assert equal.decision is Decision.NO_GAME  # our reading: no undercut with too many cards
    with pytest.raises(IrregularityError, match="more than 10"):
        opponent_over_at_knock("Anna", "Ben", 10, 6, 20)


def test_same_player_twice_is_an_error():
    with pytest.raises(IrregularityError, match="different names"):
        illegal_knock("Anna", "Anna", correctable=False, opponent_laid_down=False)
