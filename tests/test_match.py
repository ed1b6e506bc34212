"""Two-player match scoring: 000 §3, §12, §13 and Hollywood scoring."""

import pytest
from hypothesis import given, strategies as st

from engine.cards import parse_card
from engine.match import (
    GameSheet, HandScore, MatchError, Transfer, hollywood_games, match_from_draw, new_match, score_match,
)
from engine.rules import GinRules

# 000 §13, "Beispiel einer Abrechnung": the hands in the order of the table.
SECTION_13 = [
    HandScore("A", 23), HandScore("A", 27), HandScore("B", 32),
    HandScore("A", 35), HandScore("B", 10), HandScore("A", 19),
]


def test_section_13_worked_example():
    match = score_match(("A", "B"), "B", SECTION_13)
    assert match.finished
    # running totals as printed: 50 after hand 2, 85 after hand 4, 42 after hand 5, 104 after hand 6
    running = [score_match(("A", "B"), "B", SECTION_13[:n]).score(p) for n, p in ((2, "A"), (4, "A"), (5, "B"), (6, "A"))]
    assert running == [50, 85, 42, 104]
    (settlement,) = match.settlements()
    a, b = settlement.account("A"), settlement.account("B")
    assert (a.box_bonus, b.box_bonus, a.game_bonus, b.game_bonus) == (80, 40, 100, 0)
    assert (a.total, b.total) == (284, 82)
    assert settlement.winner == "A"
    assert settlement.balance("A") == 202 and settlement.balance("B") == -202
    assert match.transfers() == (Transfer("B", "A", 202),)


def test_first_to_target_is_not_necessarily_the_winner():
    # 000 §13 note: boxes can outweigh the game bonus
    hands = [HandScore("B", 1)] * 12 + [HandScore("A", 100)]
    match = score_match(("A", "B"), "A", hands)
    (settlement,) = match.settlements()
    assert match.games[0].first_to_target == "A"
    assert settlement.account("A").total == 220 and settlement.account("B").total == 12 + 240
    assert settlement.winner == "B"
    assert match.transfers() == (Transfer("A", "B", 32),)


def test_shutout_bonus_and_doubling_option():
    hands = [HandScore("A", 60), HandScore("A", 50)]
    plain = score_match(("A", "B"), "B", hands)
    (payment,) = plain.settlements()[0].payments
    assert (payment.difference, payment.shutout, payment.amount) == (110 + 40 + 100, 100, 350)
    doubled = score_match(("A", "B"), "B", hands, GinRules(shutout_doubles=True))
    assert doubled.transfers() == (Transfer("B", "A", 2 * 250),)


def test_no_shutout_once_the_loser_won_a_hand():
    match = score_match(("A", "B"), "B", [HandScore("B", 5), HandScore("A", 100)])
    assert match.settlements()[0].payments[0].shutout == 0


def test_configurable_target_and_bonuses():
    rules = GinRules(match_target=50, box_bonus=25, game_bonus=50)
    match = score_match(("A", "B"), "B", [HandScore("A", 30), HandScore("B", 10), HandScore("A", 20)], rules)
    assert match.finished
    accounts = match.settlements()[0]
    assert accounts.account("A").total == 50 + 50 + 50 and accounts.account("B").total == 10 + 25


def test_equal_totals_pay_nothing():
    sheet = GameSheet(("A", "B"), 100, (("A", 100), ("B", 100)), "A")
    rules = GinRules(game_bonus=0)
    assert sheet.settle(rules).payments == () and sheet.settle(rules).winner is None


def test_dealer_sequence():
    match = new_match(("A", "B"), "B")
    assert (match.next_dealer, match.next_forehand) == ("B", "A")
    match = match.record(HandScore("A", 10))  # the loser deals the next hand (000 §3)
    assert match.next_dealer == "B"
    match = match.record(HandScore("B", 10))
    assert match.next_dealer == "A"
    match = match.record(HandScore.no_game())  # same dealer after no game (000 §12)
    assert match.next_dealer == "A"
    assert [line.dealer for line in match.lines] == ["B", "B", "A"]


def test_deal_out_of_turn_stands_and_the_rotation_follows_it():
    match = new_match(("A", "B"), "B").record(HandScore.no_game(dealer="A"))
    assert match.lines[0].dealer == "A" and match.next_dealer == "A"


def test_first_deal_from_the_draw():
    match = match_from_draw({"A": parse_card("KS"), "B": parse_card("AH")})
    assert (match.next_dealer, match.next_forehand) == ("B", "A")


def test_after_the_match_the_loser_of_the_last_hand_deals():
    match = score_match(("A", "B"), "B", SECTION_13)
    assert match.next_dealer == "B"


def test_undo_drops_the_last_hand():
    match = score_match(("A", "B"), "B", SECTION_13)
    undone = match.undo()
    assert not undone.finished and undone.score("A") == 85 and undone.outcomes == tuple(SECTION_13[:-1])
    assert undone.record(SECTION_13[-1]) == match
    with pytest.raises(MatchError, match="nothing to undo"):
        new_match(("A", "B"), "A").undo()


@given(st.lists(st.one_of(st.builds(HandScore, st.sampled_from("AB"), st.integers(0, 60)), st.just(HandScore.no_game()))))
def test_replay_equals_step_by_step(hands):
    step = new_match("AB", "A")
    recorded = []
    for hand in hands:
        if step.finished:
            break
        step = step.record(hand)
        recorded.append(hand)
    assert score_match("AB", "A", recorded) == step


def test_clear_errors():
    match = score_match(("A", "B"), "B", SECTION_13)
    with pytest.raises(MatchError, match="the match is over"):
        match.record(HandScore("A", 5))
    with pytest.raises(MatchError, match="unknown player 'C'"):
        new_match(("A", "B"), "A").record(HandScore("C", 5))
    with pytest.raises(MatchError, match="hand 2: unknown player 'C'"):
        score_match(("A", "B"), "A", [HandScore("A", 5), HandScore("C", 5)])
    with pytest.raises(MatchError, match="not over"):
        new_match(("A", "B"), "A").settlements()
    with pytest.raises(MatchError, match="unknown player 'Z'"):
        new_match(("A", "B"), "Z")
    with pytest.raises(MatchError, match="points must be a whole number"):
        HandScore("A", -3)
    with pytest.raises(MatchError, match="hand kind"):
        HandScore("A", 3, "schneider")
    with pytest.raises(MatchError, match="needs the winner"):
        HandScore(None, 3)


def test_hand_score_round_trips_through_the_event_log_form():
    hand = HandScore("A", 31, "gin", dealer="B")
    assert HandScore.from_dict(hand.to_dict()) == hand
    assert HandScore.from_dict(HandScore.no_game().to_dict()) == HandScore.no_game()


class TestHollywood:
    rules = GinRules(hollywood=True)

    def test_wins_spread_over_three_games(self):
        match = score_match("AB", "B", [HandScore("A", 18), HandScore("B", 12), HandScore("A", 25),
                                        HandScore("B", 30), HandScore("A", 15)], self.rules)
        assert [line.games for line in match.lines] == [(0,), (0,), (0, 1), (0, 1), (0, 1, 2)]
        assert [match.score("A", g) for g in range(3)] == [58, 40, 15]
        assert [match.score("B", g) for g in range(3)] == [42, 30, 0]

    def test_each_game_settles_separately_and_the_match_ends_with_the_third(self):
        hands = [HandScore("A", 40)] * 5  # A writes 200/160/120 ... games close one after another
        match = score_match("AB", "B", [HandScore("A", 40)] * 3, self.rules)
        assert [g.closed for g in match.games] == [True, False, False]  # 120 / 80 / 40
        match = score_match("AB", "B", hands, self.rules)
        assert match.finished
        # game 1: 3 hands (40*3 = 120), game 2: hands 2-4 (120), game 3: hands 3-5 (120); B shut out in all
        totals = [s.account("A").total for s in match.settlements()]
        assert totals == [120 + 60 + 100] * 3
        assert match.transfers() == (Transfer("B", "A", 3 * (280 + 100)),)
        with pytest.raises(MatchError, match="the match is over"):
            match.record(HandScore("B", 1))

    def test_a_closed_game_takes_no_more_scores_and_a_shut_out_player_starts_in_the_next_open_game(self):
        match = score_match("AB", "B", [HandScore("A", 60), HandScore("A", 60)], self.rules)
        assert match.games[0].closed and not match.games[1].closed
        assert hollywood_games(match.games, "B") == (1,)  # B shut out of game 1 starts in game 2
        assert hollywood_games(match.games, "A") == (1, 2)
        match = match.record(HandScore("B", 10))
        assert (match.score("B", 0), match.score("B", 1), match.score("B", 2)) == (0, 10, 0)
        assert match.games[0].settle(self.rules).payments[0].shutout == 100  # B wrote nothing in game 1
        with pytest.raises(MatchError, match="not over"):
            match.settlements()
