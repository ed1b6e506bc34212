"""The draw, the deal variants, the upcard first refusal and the end of the stock (000 §3, §12; 003; 004)."""

import pytest

from engine.cards import parse_card
from engine.dealing import (
    DealError, DrawTie, Opening, StockEnd, deal_plan, first_deal, may_draw_from_stock, rank_draw, stock_end,
)
from engine.rules import GinRules


def test_higher_card_is_forehand_lower_card_deals():
    assert first_deal({"A": parse_card("2C"), "B": parse_card("3C")}) == ("A", "B")
    # king high, ace low (000 §1)
    assert first_deal({"A": parse_card("KC"), "B": parse_card("AS")}) == ("B", "A")


def test_equal_ranks_draw_again():
    with pytest.raises(DrawTie) as tie:
        rank_draw({"A": parse_card("9C"), "B": parse_card("KD"), "C": parse_card("9H")})
    assert tie.value.players == ("A", "C")


def test_draw_errors():
    with pytest.raises(DealError, match="two draws"):
        first_deal({"A": parse_card("9C"), "B": parse_card("KD"), "C": parse_card("2H")})
    with pytest.raises(DealError, match="must draw a playing card"):
        rank_draw({"A": "9C", "B": parse_card("KD")})


def test_rulebook_deal_eleven_cards_to_forehand():
    plan = deal_plan(GinRules(), dealer="D", forehand="F")
    assert (plan.forehand_cards, plan.dealer_cards, plan.upcard, plan.stock) == (11, 10, False, 31)
    opening = plan.opening()
    assert opening.expected().player == "F" and opening.expected().actions == ("discard", "knock")
    opening = opening.apply("F", "discard")
    assert opening.done and opening.next_player == "D"


def test_upcard_deal_forehand_takes():
    opening = deal_plan(GinRules(deal="upcard"), "D", "F").opening()
    opening = opening.apply("F", "take_upcard")
    assert opening.expected().player == "F" and opening.expected().actions == ("discard", "knock")
    assert opening.apply("F", "discard").next_player == "D"


def test_upcard_deal_forehand_passes_dealer_takes():
    opening = Opening("upcard", "D", "F").apply("F", "pass").apply("D", "take_upcard").apply("D", "discard")
    assert opening.done and opening.next_player == "F"


def test_upcard_deal_both_pass_forehand_draws_from_stock():
    opening = Opening("upcard", "D", "F").apply("F", "pass").apply("D", "pass")
    assert opening.expected().player == "F" and opening.expected().actions == ("draw_stock",)
    with pytest.raises(DealError, match="may now draw_stock"):
        opening.apply("F", "take_upcard")
    opening = opening.apply("F", "draw_stock").apply("F", "discard")
    assert opening.next_player == "D"


def test_knock_on_the_first_turn_ends_the_opening():
    opening = Opening("upcard", "D", "F").apply("F", "take_upcard").apply("F", "knock")
    assert opening.done and opening.knocked and opening.next_player is None


def test_opening_errors():
    with pytest.raises(DealError, match="F is to act"):
        Opening("eleven", "D", "F").apply("D", "discard")
    with pytest.raises(DealError, match="the opening is over"):
        Opening("eleven", "D", "F").apply("F", "discard").apply("D", "discard")
    with pytest.raises(DealError, match="two players"):
        deal_plan(GinRules(), "D", "D")


def test_no_game_when_only_the_two_reserved_cards_are_left():
    rules = GinRules()
    assert not may_draw_from_stock(rules, 2) and may_draw_from_stock(rules, 3)
    assert stock_end(rules, 3, "discard") is StockEnd.PLAY_ON
    assert stock_end(rules, 2, "discard") is StockEnd.NO_GAME
    assert stock_end(rules, 2, "knock") is StockEnd.HAND_OVER
    with pytest.raises(DealError, match="never drawn"):
        stock_end(rules, 1, "discard")


def test_variant_stock_may_run_out():
    rules = GinRules(last_two_cards_reserved=False)
    assert stock_end(rules, 2, "discard") is StockEnd.PLAY_ON
    assert stock_end(rules, 0, "discard") is StockEnd.NO_GAME


def test_variant_last_discard_may_still_be_taken():
    rules = GinRules(last_discard_may_be_taken=True)
    assert stock_end(rules, 2, "discard") is StockEnd.FINAL_CHANCE
    assert stock_end(rules, 2, "knock", final_chance=True) is StockEnd.HAND_OVER
    assert stock_end(rules, 2, "discard", final_chance=True) is StockEnd.NO_GAME
    with pytest.raises(DealError, match="only taken with 2"):
        stock_end(rules, 5, "discard", final_chance=True)
    with pytest.raises(DealError, match="variant off"):
        stock_end(GinRules(), 2, "knock", final_chance=True)
    with pytest.raises(DealError, match="'discard' or 'knock'"):
        stock_end(rules, 5, "draw")
