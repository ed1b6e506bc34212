"""Tournaments (000 §17)."""

import itertools
import random

import pytest

from engine.tournament import (
    Pairing, Result, Swiss, TournamentError, card_draw_order, pair_by_order, round_robin, standings,
    swiss_round_count,
)

NAMES = [f"P{i}" for i in range(1, 10)]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9])
def test_round_robin_every_pair_exactly_once(count):
    players = NAMES[:count]
    rounds = round_robin(players)
    pairs = [frozenset((p.first, p.second)) for rnd in rounds for p in rnd if p.second is not None]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(players, 2))))
    for rnd in rounds:
        seated = [x for p in rnd for x in (p.first, p.second) if x is not None]
        assert sorted(seated) == sorted(players)  # everybody once per round
    byes = [p.first for rnd in rounds for p in rnd if p.second is None]
    assert sorted(byes) == (sorted(players) if count % 2 else [])


def test_round_robin_standings_by_plus_and_minus_points():
    history = [[Result.of_match("A", "B", 202), Result.of_match("D", "C", 50)],
               [Result.of_match("C", "A", 100), Result.of_match("B", "D", 10)],
               [Result.of_match("A", "D", 30), Result.of_match("C", "B", 50)]]
    table = standings("ABCD", history)
    assert [(s.rank, s.player, s.points, s.matches) for s in table] == [
        (1, "A", 132, 3), (2, "C", 100, 3), (3, "D", 10, 3), (4, "B", -242, 3)]


def test_standings_errors():
    with pytest.raises(TournamentError, match="unknown player 'Z'"):
        standings("AB", [[Result("A", "Z", 5)]])
    with pytest.raises(TournamentError, match="A appears in two results"):
        standings("ABC", [[Result("A", "B", 5), Result("C", "A", 5)]])
    with pytest.raises(TournamentError, match="a bye scores 0"):
        Result("A", None, 5)


def test_swiss_round_counts():
    assert [swiss_round_count(n) for n in range(5, 34)] == [3] * 4 + [4] * 8 + [5] * 16 + [6]
    with pytest.raises(TournamentError, match="round robin"):
        swiss_round_count(4)


def test_first_round_drawn_by_lot_reproducibly():
    players = tuple(NAMES[:8])
    first = Swiss(players, seed="club night").next_round()
    assert first == Swiss(players, seed="club night").next_round()
    assert sorted(first.order) == sorted(players) and first.draws == ()
    assert [(p.first, p.second) for p in first.pairings] == list(zip(first.order[::2], first.order[1::2]))
    orders = {Swiss(players, seed=s).next_round().order for s in range(20)}
    assert len(orders) > 1  # the lot depends on the seed


def play(tournament, points):
    """Record a round in which the first player of pairing i wins points[i]."""
    pairings = tournament.next_round().pairings
    return tournament.record([Result(p.first, p.second, pts) for p, pts in zip(pairings, points)]), pairings


def test_leader_meets_best_placed_player_not_yet_met():
    tournament, (w3, w2, w1) = play(Swiss(tuple(NAMES[:6]), seed=3), [30, 20, 10])
    # standings: w3 +30, w2 +20, w1 +10, and their opponents -10 (l1), -20 (l2), -30 (l3)
    W3, L3, W2, L2, W1, L1 = w3.first, w3.second, w2.first, w2.second, w1.first, w1.second
    second = tournament.next_round()
    assert second.order == (W3, W2, W1, L1, L2, L3) and second.draws == ()
    # W1 has met L1 already: he meets the best-placed player he has not met, L2
    assert [(p.first, p.second) for p in second.pairings] == [(W3, W2), (W1, L2), (L1, L3)]
    tournament, _ = play(tournament, [5, 1, 1])
    third = tournament.next_round()
    # the same players lead: the first meets the third, the second the fourth (000 §17)
    assert third.order == (W3, W2, W1, L1, L2, L3)
    assert [(p.first, p.second) for p in third.pairings] == [(W3, W1), (W2, L1), (L2, L3)]
    tournament, _ = play(tournament, [1, 1, 1])
    assert tournament.finished
    with pytest.raises(TournamentError, match="all 3 rounds"):
        tournament.next_round()


def test_equal_points_are_ordered_by_a_seeded_card_draw():
    tournament, _ = play(Swiss(tuple(NAMES[:8]), seed=11), [10, 10, 10, 10])
    second = tournament.next_round()
    assert len(second.draws) == 8  # four players on +10, four on -10: two groups draw cards
    leaders = [p for p, _ in second.draws[:4]]
    assert set(leaders) == {p for p in second.order[:4]} and list(second.order[:4]) == leaders
    ranks = [cards[0].rank for _, cards in second.draws[:4]]
    assert ranks == sorted(ranks, reverse=True)
    assert tournament.next_round() == second  # reproducible
    other = play(Swiss(tuple(NAMES[:8]), seed=11), [10, 10, 10, 10])[0]
    assert other.next_round() == second


def test_card_draw_order_with_equal_ranks_redraws():
    players = [f"X{i}" for i in range(60)]  # more players than cards: equal ranks are certain
    order = card_draw_order(players, random.Random(5))
    assert sorted(p for p, _ in order) == sorted(players)
    assert any(len(cards) > 1 for _, cards in order)
    # higher first draw first; players with equal first draws ordered by their redraws, and so on
    keys = [tuple(card.rank for card in cards) for _, cards in order]
    assert keys == sorted(keys, reverse=True)
    for (_, a), (_, b) in zip(order, order[1:]):
        assert a != b and not (len(a) == len(b) and [c.rank for c in a] == [c.rank for c in b])


def test_odd_number_gets_a_bye_lowest_placed_without_a_bye():
    tournament = Swiss(tuple(NAMES[:5]), seed=2)
    byes = []
    for _ in range(3):
        rnd = tournament.next_round()
        (bye,) = [p.first for p in rnd.pairings if p.second is None]
        seated = [p.first for p in rnd.pairings if p.second is not None]
        if len(tournament.history) == 0:
            assert bye == rnd.order[-1]  # the last one drawn
        else:
            assert bye == [p for p in reversed(rnd.order) if p not in byes][0]
        byes.append(bye)
        assert len(seated) == 2
        tournament = tournament.record(
            [Result(p.first, p.second, 7 * i) if p.second else Result(p.first, None) for i, p in enumerate(rnd.pairings)])
    assert len(set(byes)) == 3  # nobody sits out twice


def test_no_rematch_even_when_the_written_order_would_force_one():
    met = {p: set() for p in "ABCDEF"}
    met["E"].add("F"), met["F"].add("E")
    # strictly by order: A-B, C-D, and E-F have met; the earliest choice that works is revised
    assert pair_by_order(list("ABCDEF"), met) == [Pairing("A", "B"), Pairing("C", "E"), Pairing("D", "F")]
    met = {p: set("ABCD") - {p} for p in "ABCD"}
    assert pair_by_order(list("ABCD"), met) is None


def test_record_must_match_the_pairings():
    tournament = Swiss(tuple(NAMES[:6]), seed=1)
    with pytest.raises(TournamentError, match="results do not match the pairings"):
        tournament.record([Result("P1", "P2", 5), Result("P3", "P4", 5), Result("P5", "P6", 5)]
                          if tournament.next_round().pairings[0] != Pairing("P1", "P2") else [])
