import pytest

from engine.cards import (
    ALL_CARDS, JOKER, RAVENSBURGER, RUMMIKUB, Card, CardParseError, DuplicateCardError, Tile,
    format_cards, parse_card, parse_cards, parse_tile, parse_tiles,
)


@pytest.mark.parametrize("token", ["10H", "TH", "th", "10h", "♥10", "10♥", "♡T", " 10H "])
def test_ten_of_hearts_in_every_notation(token):
    assert parse_card(token) == Card(10, "H")


@pytest.mark.parametrize("token,rank,suit", [("AS", 1, "S"), ("qc", 12, "C"), ("♦K", 13, "D"), ("2♣", 2, "C")])
def test_ranks_and_suits(token, rank, suit):
    assert parse_card(token) == Card(rank, suit)


def test_canonical_output_is_rank_then_suit():
    assert format_cards(parse_cards("th ♠a qc 7♦")) == "10H AS QC 7D"


@pytest.mark.parametrize("token", ["", "1S", "11H", "XS", "10", "H", "AX", "10HH", "JKR", "S10S"])
def test_malformed_codes_name_the_token(token):
    with pytest.raises(CardParseError) as excinfo:
        parse_card(token)
    assert repr(token) in str(excinfo.value)


def test_non_string_is_an_error():
    with pytest.raises(CardParseError):
        parse_card(10)


def test_duplicate_in_one_deck_names_the_token():
    with pytest.raises(DuplicateCardError, match="'qc'"):
        parse_cards(["QC", "AS", "qc"])


def test_two_decks_allow_two_copies_and_jokers():
    cards = parse_cards("AS AS JK JK", decks=2)
    assert cards.count(Card(1, "S")) == 2 and cards.count(JOKER) == 2
    with pytest.raises(DuplicateCardError):
        parse_cards("AS AS AS", decks=2)


def test_joker_not_allowed_in_one_deck_game():
    with pytest.raises(DuplicateCardError, match="without jokers"):
        parse_cards("AS JK")


def test_indices_are_dense_and_round_trip():
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert all(Card.from_index(c.index) is c for c in ALL_CARDS)
    assert len({str(c) for c in ALL_CARDS}) == 52


def test_every_canonical_code_parses_back():
    assert all(parse_card(str(c)) == c for c in ALL_CARDS)


def test_gin_values():
    assert [parse_card(t).gin_value for t in "AS 2S 9S 10S JS QS KS".split()] == [1, 2, 9, 10, 10, 10, 10]


def test_tiles_in_both_palettes():
    assert parse_tile("r7") == Tile("R", 7)
    assert parse_tile("K13", RUMMIKUB) == Tile("K", 13)
    assert parse_tile("JK") is JOKER
    with pytest.raises(CardParseError, match="'R14'"):
        parse_tile("R14")
    with pytest.raises(CardParseError, match="'K3'"):
        parse_tile("K3", RAVENSBURGER)


def test_tiles_exist_twice_jokers_as_agreed():
    assert len(parse_tiles("R7 R7 JK JK JK JK")) == 6
    with pytest.raises(DuplicateCardError, match="'R7'"):
        parse_tiles("R7 R7 R7")
    with pytest.raises(DuplicateCardError):
        parse_tiles("JK JK JK", jokers=2)


def test_cards_sort_by_rank_then_suit_and_jokers_sort_last():
    assert sorted(parse_cards("JK KD 2S AH AS", decks=2)) == parse_cards("AH AS 2S KD JK", decks=2)
