"""Three players, chouette and partnerships (000 §15, §16)."""

import pytest

from engine.cards import parse_card
from engine.dealing import DrawTie
from engine.match import HandScore, MatchError
from engine.multiplayer import Chouette, PartnershipMatch, PartnershipSeating, ThreePlayerMatch, score_three_player


def cards(**codes):
    return {name: parse_card(code) for name, code in codes.items()}


class TestThreePlayers:
    def test_seats_from_the_draw(self):
        match = ThreePlayerMatch.from_draw(cards(A="7S", B="QD", C="2H"))
        assert (match.forehand, match.dealer, match.sitter) == ("B", "A", "C")

    def test_loser_sits_out_and_winner_meets_the_sitter_who_deals(self):
        match = ThreePlayerMatch.start("A", "B", "C").record(HandScore("A", 20))
        assert (match.forehand, match.dealer, match.sitter) == ("A", "C", "B")
        match = match.record(HandScore("C", 15))
        assert (match.forehand, match.dealer, match.sitter) == ("C", "B", "A")

    def test_no_game_same_players_same_dealer(self):
        match = ThreePlayerMatch.start("A", "B", "C").record(HandScore.no_game())
        assert (match.forehand, match.dealer, match.sitter) == ("A", "B", "C")

    def test_section_15_1_example(self):
        # A: three wins, 102 points; B: one win of 17; C: nothing. A winner never leaves the
        # table and C never wins, so A must have sat out first and B beaten C.
        match = score_three_player(("B", "C", "A"), [HandScore("B", 17), HandScore("A", 30),
                                                     HandScore("A", 35), HandScore("A", 37)])
        assert match.finished
        settlement = match.settlement()
        totals = {a.party: a.total for a in settlement.accounts}
        assert totals == {"A": 262, "B": 37, "C": 0}
        assert [(p.payer, p.payee, p.amount) for p in settlement.payments] == [
            ("B", "A", 225), ("C", "A", 362), ("C", "B", 37)]
        assert [p.shutout for p in settlement.payments] == [0, 100, 0]  # only the first to 100 gets it

    def test_errors(self):
        match = ThreePlayerMatch.start("A", "B", "C")
        with pytest.raises(MatchError, match="winner 'C' is not at play"):
            match.record(HandScore("C", 10))
        with pytest.raises(MatchError, match="needs 3 different player names"):
            ThreePlayerMatch.start("A", "B", "B")
        with pytest.raises(MatchError, match="hand 1:"):
            score_three_player("ABC", [HandScore("C", 1)])
        finished = score_three_player("ABC", [HandScore("A", 100)])
        with pytest.raises(MatchError, match="the match is over"):
            finished.record(HandScore("A", 1))
        assert finished.undo() == match


class TestChouette:
    def test_declarer_and_first_partner_from_the_draw(self):
        chouette = Chouette.from_draw(cards(A="3C", B="9H", C="KS"))
        assert chouette.declarer == "C" and chouette.partners == ("B", "A")
        assert chouette.active == "B" and chouette.dealer == "B"  # the higher partner deals first

    def test_partner_plays_until_he_loses(self):
        chouette = Chouette.start("D", ("P", "Q"))
        chouette = chouette.record(HandScore("P", 10)).record(HandScore("P", 12))
        assert chouette.active == "P" and chouette.sheet.points(chouette.team) == 22
        chouette = chouette.record(HandScore.no_game())
        assert chouette.active == "P"
        chouette = chouette.record(HandScore("D", 30))
        assert chouette.active == "Q" and chouette.waiting == "P"
        with pytest.raises(MatchError, match="winner 'P' is not at play"):
            chouette.record(HandScore("P", 5))

    def test_declarer_collects_from_both_or_pays_both(self):
        chouette = Chouette.start("D", ("P", "Q"))
        chouette = chouette.record(HandScore("P", 10)).record(HandScore("D", 60)).record(HandScore("D", 45))
        assert chouette.finished
        settlement = chouette.settlement()
        assert settlement.account("D").total == 105 + 40 + 100 and settlement.account("P+Q").total == 10 + 20
        assert [(p.payer, p.payee, p.amount) for p in chouette.payments()] == [("P", "D", 215), ("Q", "D", 215)]
        lost = Chouette.start("D", ("P", "Q")).record(HandScore("D", 10)).record(HandScore("Q", 100))
        assert [(p.payer, p.payee, p.amount) for p in lost.payments()] == [("D", "P", 190), ("D", "Q", 190)]

    def test_next_match_declarer_won_the_last_hand(self):
        chouette = Chouette.start("D", ("P", "Q")).record(HandScore("D", 100))
        assert chouette.active == "Q"  # P lost, Q took over; P sat out last
        nxt = chouette.next_match()
        assert (nxt.declarer, nxt.active, nxt.dealer, nxt.waiting) == ("D", "P", "P", "Q")

    def test_next_match_declarer_lost_the_last_hand(self):
        chouette = Chouette.start("D", ("P", "Q")).record(HandScore("D", 10)).record(HandScore("Q", 100))
        nxt = chouette.next_match()
        # Q becomes declarer, meets his former partner P, who deals; D sits out
        assert (nxt.declarer, nxt.active, nxt.dealer, nxt.waiting) == ("Q", "P", "P", "D")

    def test_next_match_only_after_the_match(self):
        with pytest.raises(MatchError, match="not over"):
            Chouette.start("D", ("P", "Q")).next_match()

    def test_undo(self):
        chouette = Chouette.start("D", ("P", "Q")).record(HandScore("D", 10))
        assert chouette.record(HandScore("Q", 20)).undo() == chouette


class TestPartnerships:
    def test_four_player_seating(self):
        seating = PartnershipSeating.from_draw(cards(A="KS", B="QS", C="JS", D="2S"))
        assert seating.high == ("A", "B") and seating.low == ("C", "D")
        # A picks a seat, B opposite, C (third card) to A's left, D (lowest) to A's right
        assert seating.seats == ("A", "C", "B", "D")

    def test_lowest_deals_first_against_his_right_hand_opponent_and_opponents_rotate(self):
        seating = PartnershipSeating(("A", "B"), ("C", "D"))
        match = PartnershipMatch.start(seating)
        # D's right-hand neighbour (seats clockwise A, C, B, D) is B
        assert ("D", "B") in seating.opponents(0) and ("C", "A") in seating.opponents(0)
        assert {t.dealer for t in match.tables()} == {"C", "D"}
        match = match.record([HandScore("A", 10), HandScore.no_game()])
        assert set(seating.opponents(1)) == {("C", "B"), ("D", "A")}
        assert {(t.dealer, t.forehand) for t in match.tables()} == {("C", "B"), ("D", "A")}
        assert set(seating.opponents(2)) == set(seating.opponents(0))

    def test_section_16_example_18_lost_25_won(self):
        match = PartnershipMatch.start(PartnershipSeating(("C", "D"), ("A", "B")))
        tables = dict(match.seating.opponents(0))  # A meets C, B meets D
        assert tables == {"A": "C", "B": "D"}
        match = match.record([HandScore("C", 18), HandScore("B", 25)])
        assert match.sheet.points("A+B") == 7 and match.sheet.wins("A+B") == 1
        assert match.dealing_team == ("C", "D")
        assert {t.dealer for t in match.tables()} == {"C", "D"}

    def test_target_125_for_four_150_for_six(self):
        four = PartnershipMatch.start(PartnershipSeating(("A", "B"), ("C", "D")))
        six = PartnershipMatch.start(PartnershipSeating(("A", "B", "E"), ("C", "D", "F")))
        assert four.sheet.target == 125 and six.sheet.target == 150
        four = four.record([HandScore("A", 60), HandScore("B", 64)])
        assert not four.finished
        four = four.record([HandScore("B", 1), HandScore.no_game()])
        assert four.finished and four.settlement().account("A+B").total == 125 + 40 + 100

    def test_six_players_three_tables_everyone_meets_each_opponent_in_turn(self):
        seating = PartnershipSeating.from_draw(cards(A="KS", B="QS", C="JS", D="4S", E="3S", F="2S"))
        assert seating.high == ("A", "B", "C") and seating.seats == ("A", "D", "B", "E", "C", "F")
        met = {low: {seating.opponents(r)[j][1] for r in range(3)} for j, low in enumerate(seating.low)}
        assert met == {"D": {"A", "B", "C"}, "E": {"A", "B", "C"}, "F": {"A", "B", "C"}}
        match = PartnershipMatch.start(seating).record([HandScore("A", 5), HandScore("E", 9), HandScore.no_game()])
        assert match.sheet.points("D+E+F") == 4 and match.dealing_team == ("A", "B", "C")

    def test_results_that_cancel_out_score_nothing_and_the_same_team_deals(self):
        match = PartnershipMatch.start(PartnershipSeating(("A", "B"), ("C", "D")))
        match = match.record([HandScore("A", 18), HandScore("D", 18)])
        assert match.sheet.entries == () and match.dealing_team == ("C", "D")

    def test_errors(self):
        match = PartnershipMatch.start(PartnershipSeating(("A", "B"), ("C", "D")))
        with pytest.raises(MatchError, match="2 table results"):
            match.record([HandScore("A", 1)])
        with pytest.raises(MatchError, match="winner 'B' is not at play"):
            match.record([HandScore("B", 1), HandScore.no_game()])
        with pytest.raises(MatchError, match="two teams of 2 or 3"):
            PartnershipSeating(("A", "B"), ("C",))
        with pytest.raises(DrawTie):
            PartnershipSeating.from_draw(cards(A="KS", B="QS", C="QH", D="2S"))
        with pytest.raises(MatchError, match="nothing to undo"):
            match.undo()
