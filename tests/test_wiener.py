"""Knock/Wiener Rummy (rules text 001): every worked example and rule statement."""

import pytest

from engine.cards import JOKER, Card, parse_cards
from engine.wiener import (
    WIENER_MELDS, Game, Round, RoundResult, WienerError, WienerRules, arrange, best_discard, deck, is_rummy,
    knock_legal, layoff_options, min_deadwood, settle_round, value,
)
from engine.wildmelds import WildMeld


def cards(text):
    return parse_cards(text, decks=2)


# --- cards, values, melds ------------------------------------------------------------------


def test_106_cards_every_card_twice_two_jokers():
    cards_ = deck()
    assert len(cards_) == 106 and cards_.count(JOKER) == 2
    assert all(cards_.count(Card(r, s)) == 2 for r in range(1, 14) for s in "SHDC")


@pytest.mark.parametrize("code,points", [("JK", 20), ("AS", 11), ("KH", 10), ("QD", 10), ("JC", 10), ("10S", 10), ("9H", 9), ("2C", 2)])
def test_card_values(code, points):
    assert value(cards(code)[0]) == points


@pytest.mark.parametrize("text", ["4S 5S 6S", "9H 10H JH QH", "8S 8H 8C", "KS KH KD KC", "AS 2S 3S", "QH KH AH"])
def test_melds_of_the_rules_text(text):
    assert min_deadwood(cards(text)) == 0


def test_no_run_round_the_corner():
    assert min_deadwood(cards("KD AD 2D")) == 10 + 11 + 2


def test_knock_limit_5_and_variation_10():
    hand = cards("AS 2S 3S 7H 7D 7C 9C 9S 9D 6H QC")     # discard QC -> deadwood 6
    assert best_discard(hand).deadwood == 6
    assert not knock_legal(hand) and knock_legal(hand, WienerRules(knock_limit=10))


def test_rummy_is_deadwood_zero_after_the_discard():
    hand = cards("AS 2S 3S 7H 7D JK 9C 9S 9D 10D KC")
    assert is_rummy(hand) is False
    assert is_rummy(cards("AS 2S 3S 7H 7D JK 9C 9S 9D QD KC")) is False
    assert is_rummy(cards("AS 2S 3S 7H 7D JK 9C 9S 9D 4H 4H")) is False
    assert is_rummy(cards("AS 2S 3S 4S 7H 7D JK 9C 9S 9D KC")) is True


def test_best_arrangement_places_jokers_with_duplicates():
    # The joker earns more in 9C 9D JK (saves 38) than in 5H 6H JK (saves 31); 9C twice is no set.
    best = arrange(cards("5H 5H 6H 6H JK 9C 9C 9D 2S 3D"))
    assert best.deadwood == 5 + 5 + 6 + 6 + 9 + 2 + 3
    assert ["9C", "9D", "JK"] in [sorted(m.codes()) for m in best.melds]


# --- turns ----------------------------------------------------------------------------------


def test_deal_dealer_has_11_and_opens_by_discarding():
    r = Round.deal(4, dealer=2, seed=3)
    assert [len(h) for h in r.hands] == [10, 10, 11, 10] and len(r.stock) == 106 - 41
    assert r.current == 2 and r.phase == "discard"
    with pytest.raises(WienerError, match="not time to draw"):
        r.draw_stock()


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players):
    with pytest.raises(WienerError, match="2-6 players"):
        Round.deal(players)


def test_card_from_discard_pile_not_discarded_same_turn():
    r = Round.deal(2, dealer=0, seed=5)
    r.discard(r.hands[0][0])
    taken = r.draw_discard()
    if r.hands[1].count(taken) == 1:
        with pytest.raises(WienerError, match="just taken from the discard pile"):
            r.discard(taken)
    r.discard(r.hands[1][0] if r.hands[1][0] != taken else r.hands[1][1])


def test_card_from_stock_may_be_discarded_at_once():
    r = Round.deal(2, dealer=0, seed=5)
    r.discard(r.hands[0][0])
    card = r.draw_stock()
    r.discard(card)
    assert r.discard_pile[-1] == card


def test_stock_exhausted_discard_pile_but_top_becomes_stock():
    r = Round.deal(2, dealer=0, seed=7)
    r.discard(r.hands[0][0])
    r.discard_pile = r.discard_pile + r.stock[:-0 or None]
    r.stock = []
    top = r.discard_pile[-1]
    before = len(r.discard_pile)
    r.draw_stock()
    assert r.discard_pile == [top] and len(r.stock) == before - 2 and r.reshuffles == 1


def test_knock_needs_deadwood_within_limit():
    r = Round.deal(2, dealer=0, seed=1)
    r.hands[0] = cards("AS 2S 3S 7H 7D 7C 9C 9S 9D 2C KH")
    r.knock(cards("KH")[0])
    assert r.phase == "over" and r.knocker == 0 and r.face_down == cards("KH")[0]
    r2 = Round.deal(2, dealer=0, seed=1)
    r2.hands[0] = cards("AS 2S 3S 7H 7D 7C 9C 9S 8D 2C KH")
    with pytest.raises(WienerError, match="above the knock limit 5"):
        r2.knock(cards("KH")[0])


# --- round result -------------------------------------------------------------------------

HANDS = ["AS 2S 3S 7H 7D 7C 9C 9S 9D 2C",     # knocker: deadwood 2
         "KH KD KS 5C 6C 7C 8D 9H 4S 3D",     # 24
         "QH JH 10H 2D 2H 2S AH AD JK 6S"]    # 6


def test_everyone_writes_deadwood_knocker_too_and_knocker_wins_even_if_others_lower():
    result = settle_round([cards(h) for h in HANDS], knocker=0)
    assert result.penalties == (2, 24, 6) and result.winner == 0 and not result.undercut
    assert result.payments == (2, -1, -1)


def test_rummy_others_write_10_more_and_pay_2():
    hands = [cards("AS 2S 3S 7H 7D 7C 9C 9S 9D JK"), cards(HANDS[1]), cards(HANDS[2])]
    result = settle_round(hands, knocker=0)
    assert result.rummy and result.penalties == (0, 34, 16) and result.payments == (4, -2, -2)


def test_rummy_with_kitty_no_extra_points():
    hands = [cards("AS 2S 3S 7H 7D 7C 9C 9S 9D JK"), cards(HANDS[1]), cards(HANDS[2])]
    assert settle_round(hands, 0, WienerRules(rummy_kitty=True)).penalties == (0, 24, 6)


def test_undercut_lower_deadwood_wins_tie_goes_to_knocker():
    hands = [cards("AS 2S 3S 7H 7D 7C 9C 9S 9D 4C"), cards(HANDS[1]), cards("QH JH 10H 2D 2H 2S AH AD JK 3S")]
    result = settle_round(hands, 0, WienerRules(undercut=True))
    assert result.undercut and result.winner == 2 and result.payments == (-1, -1, 2)
    tie = [cards("AS 2S 3S 7H 7D 7C 9C 9S 9D 3C"), cards(HANDS[1]), cards("QH JH 10H 2D 2H 2S AH AD JK 3S")]
    assert settle_round(tie, 0, WienerRules(undercut=True)).winner == 0


def test_undercut_several_equal_lowest_losers_pay_into_pot():
    hands = [cards("AS 2S 3S 7H 7D 7C 9C 9S 9D 4C"), cards("KH KD KS 5C 6C 7C 8D 9H 10H 2D"),
             cards("QH JH 10H 5D 5H 5S AH AD JK 2C"), cards("3H 4H 5H 6D 6H 6C 8S 8H 8C 2D")]
    result = settle_round(hands, 0, WienerRules(undercut=True))
    assert result.winner is None and result.to_pot == 2 and result.payments == (-1, -1, 0, 0)


def test_layoff_way_1_one_card_per_run_end_not_onto_a_layoff():
    knocker_run = WildMeld.of(cards("5H 6H 7H"), ace_high=True)
    options = {tuple(map(str, c)) for c, _ in layoff_options(knocker_run, cards("4H 3H 8H 9H"), 1)}
    assert ("4H", "8H") in options and ("3H",) not in options and ("8H", "9H") not in options
    # text example: 8 8 8 + 8, 5 6 7 + 4 or 8 or 4 + 8
    sets = WildMeld.of(cards("8S 8H 8D"), ace_high=True)
    assert {tuple(map(str, c)) for c, _ in layoff_options(sets, cards("8C"), 1)} == {(), ("8C",)}


def test_layoff_way_1_in_settlement():
    hands = [cards("5H 6H 7H 9C 9S 9D QS KS AS 2C"), cards("4H 8H KD KH 2D 3D 5S 9H 10C 4S"),
             cards("3H 9H JH 10D 10S 6C 7C 8S 2S 3S")]
    result = settle_round(hands, 0, WienerRules(layoffs="knocker"))
    laid = [(l.player, tuple(map(str, l.cards))) for l in result.layoffs]
    assert (1, ("4H", "8H")) in laid or (1, ("8H", "4H")) in laid
    assert all(p != 2 or "3H" not in c for p, c in laid)   # 3H would go onto 4H, a layoff


def test_layoff_way_2_onto_player_to_the_right_knocker_never():
    hands = [cards("5H 6H 7H 9C 9S 9D QS KS AS 2C"), cards("8H 9H KD KH 2D 3D 5S 10C 4S JC"),
             cards("3H 4H 10H 10D 10S 6C 7C 8S 2S AD")]
    result = settle_round(hands, 0, WienerRules(layoffs="right"))
    assert all(l.player != 0 for l in result.layoffs)
    assert {str(c) for l in result.layoffs if l.player == 1 and l.onto_player == 0 for c in l.cards} == {"8H", "9H"}
    assert result.penalties[1] == 71 - 17


# --- the game -------------------------------------------------------------------------------


def test_rebuy_example_of_the_rules_text():
    g = Game(["A", "B", "C", "D"])
    g.scores = {"A": 89, "B": 84, "C": 74, "D": 56}
    g.rebuy("A")
    g.rebuy("B")
    assert g.scores == {"A": 74, "B": 74, "C": 74, "D": 56}
    assert g.pot == 30 and g.money["A"] == -10
    with pytest.raises(WienerError, match="already re-bought"):
        g.rebuy("A")


def test_no_rebuy_with_two_players_left_or_outside_81_100():
    g = Game(["A", "B"])
    g.scores = {"A": 85, "B": 20}
    assert "two players left" in g.may_rebuy("A")
    g3 = Game(["A", "B", "C"])
    g3.scores = {"A": 80, "B": 101, "C": 20}
    assert "81-100" in g3.may_rebuy("A") and "81-100" in g3.may_rebuy("B")


def _result(penalties, winner=0, rummy=False):
    n = len(penalties)
    payments = tuple((n - 1) if p == winner else -1 for p in range(n))
    return RoundResult(winner, winner, rummy, False, (), (), tuple(penalties), tuple(penalties), payments, 0, "")


def test_elimination_over_100_last_player_wins_pot():
    g = Game(["A", "B", "C"])
    seated = g.start_round()
    g.record(seated, _result([3, 101, 40]))
    assert g.out == ["B"] and g.winner is None
    g.record(g.start_round(), _result([5, 70]))
    assert g.out == ["B", "C"] and g.winner == "A"
    assert g.money["A"] == -5 + 2 + 1 + 15


def test_all_remaining_over_100_play_one_more_round():
    g = Game(["A", "B", "C"])
    g.scores = {"A": 95, "B": 99, "C": 30}
    g.out = ["C"]
    g.record(["A", "B"], _result([10, 10], winner=0))
    assert g.decider == ["A", "B"] and g.winner is None
    g.record(g.start_round(), _result([30, 0], winner=1))
    assert g.winner == "B"


def test_pot_split_70_30_with_five_players():
    g = Game(["A", "B", "C", "D", "E"])
    g.scores = {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0}
    g.out = ["C", "D", "E"]
    g.record(["A", "B"], _result([0, 120], winner=0))
    assert g.winner == "A" and g.money["A"] == pytest.approx(-5 + 1 + 25 * 0.7)
    assert g.money["B"] == pytest.approx(-5 - 1 + 25 * 0.3)


def test_rummy_kitty_fed_each_round_taken_by_rummy():
    g = Game(["A", "B", "C"], WienerRules(rummy_kitty=True))
    seated = g.start_round()
    assert g.kitty == 3
    g.record(seated, _result([0, 20, 20], rummy=True))
    assert g.kitty == 0 and g.money["A"] == -5 - 1 + 2 + 3
