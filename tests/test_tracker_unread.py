"""The tracker with cards the camera sees but cannot read (``UNREAD``) and answers about a card's picture."""

import pytest

from engine.tracker import LAID_OUT_FRAMES, UNREAD, GinTracker, Sighting, TrackerError, TrackerOptions
from engine.zones import default_zones

ZONES = default_zones("gin", 2)
DISCARD = ZONES.named("discard").centre


def still(tracker: GinTracker, frame: int, sightings: list[Sighting], frames: int = 2) -> list:
    events = []
    for k in range(frames):
        events += tracker.update(frame + k, sightings, still=True)
    return events


def test_a_discard_seen_but_not_read_is_asked_about_and_never_given_to_the_wrong_player():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    unread = [Sighting(UNREAD, 0.0, *DISCARD, "discard")]
    [question] = still(tracker, 1, unread)
    assert question.kind == "reading" and question.needs_confirmation and question.zone == "discard"
    assert question.cards == (UNREAD,) and question.candidates == () and question.position == tuple(round(v, 1) for v in DISCARD)
    assert still(tracker, 3, unread) == []  # it waits for the answer: no discard is committed meanwhile
    with pytest.raises(TrackerError, match="is no answer"):
        tracker.confirm(question.seq, UNREAD)
    events = tracker.confirm(question.seq, "QC")
    assert [e.describe() for e in events] == ["#2 discard Ben QC (stock 31)"]  # Ben is forehand: his opening discard
    # Ben's card stays unread under the camera; Anna's discard on top is read: it is hers.
    events = still(tracker, 5, [Sighting("9D", 0.95, *DISCARD, "discard")])
    assert [e.describe() for e in events] == ["#3 stock_draw Anna (stock 30) (inferred)", "#4 discard Anna 9D (stock 30)"]


def test_an_unread_discard_covered_before_the_answer_ends_the_hand_as_a_question():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    [question] = still(tracker, 1, [Sighting(UNREAD, 0.0, *DISCARD, "discard")])
    [end] = still(tracker, 3, [Sighting("9D", 0.95, *DISCARD, "discard")])
    assert end.kind == "hand_end" and end.needs_confirmation and end.result is None
    assert not any(e.kind == "discard" for e in tracker.events)


def test_two_unread_cards_in_one_area_are_two_questions():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    seat = ZONES.seat_zone(0)
    x, y = seat.rect[0] + 10, seat.rect[1] + 6
    events = still(tracker, 1, [Sighting(UNREAD, 0.0, x, y, seat.name), Sighting(UNREAD, 0.0, x + 2, y, seat.name)])
    assert sorted(e.position for e in events) == [(x, y), (x + 2, y)]


def test_an_answer_about_a_cards_picture_names_the_card_read_there_once_not_twice():
    """The recognizer reads a jack's figure as a weak 4C below the jack's index; the players, asked,
    say it is the jack. That is one card, not the jack twice (which would stop the hand)."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    x, y = DISCARD
    seen = [Sighting("JH", 0.98, x, y, "discard"), Sighting("4C", 0.33, x + 0.6, y + 6.6, "discard")]
    [question] = still(tracker, 1, seen)
    assert question.cards == ("4C",)
    events = tracker.confirm(question.seq, "JH")
    assert [e.describe() for e in events] == ["#2 discard Ben JH (stock 31)"]
    assert not any(e.kind == "irregularity" for e in tracker.events)


def moving(tracker: GinTracker, frame: int) -> list:
    return tracker.update(frame, [], still=False)


def test_two_unread_discards_in_a_row_are_two_questions_not_one_card_lying_on():
    """The answer about the pile's unread top holds until the table moves: the next card lands at the
    same place, unread too, and must not pass for the card named before (a missed discard)."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    unread = [Sighting(UNREAD, 0.0, *DISCARD, "discard")]
    [first] = still(tracker, 1, unread)
    assert [e.describe() for e in tracker.confirm(first.seq, "QC")] == ["#2 discard Ben QC (stock 31)"]
    assert moving(tracker, 3) == []
    [second] = still(tracker, 4, unread)
    assert second.kind == "reading" and second.cards == (UNREAD,)
    assert [e.describe() for e in tracker.confirm(second.seq, "QH")] == [
        "#4 stock_draw Anna (stock 30) (inferred)", "#5 discard Anna QH (stock 30)"]


def test_an_unread_discard_not_named_before_the_table_moves_ends_the_hand_as_a_question():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    [question] = still(tracker, 1, [Sighting(UNREAD, 0.0, *DISCARD, "discard")])
    assert tracker.awaits(question.seq)
    [end] = moving(tracker, 3)
    assert end.kind == "hand_end" and end.needs_confirmation and end.result is None and tracker.phase == "over"
    assert not tracker.awaits(question.seq)  # what the simulated players check before answering
    with pytest.raises(TrackerError, match="not waiting"):
        tracker.confirm(question.seq, "QC")


def test_a_card_named_once_stays_named_while_it_is_read_weakly_as_another_card_or_not_at_all():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    seat = ZONES.seat_zone(1)
    x, y = seat.rect[0] + 10, seat.rect[1] + 6
    [question] = still(tracker, 1, [Sighting(UNREAD, 0.0, x, y, seat.name)])
    tracker.confirm(question.seq, "QD")
    assert still(tracker, 3, [Sighting("10D", 0.44, x + 0.3, y, seat.name)]) == []  # no new question
    assert still(tracker, 5, [Sighting(UNREAD, 0.0, x, y - 0.3, seat.name)]) == []
    # a confident reading there is another card: the answer does not cover it
    [again] = still(tracker, 7, [Sighting("QD", 0.95, x, y, seat.name), Sighting("QD", 0.95, x + 30, y, seat.name)])
    assert again.kind == "reading" and "twice" in again.detail


def test_a_card_unread_in_a_fan_is_offered_as_the_cards_that_complete_its_meld():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    seat = ZONES.seat_zone(1)
    x, y = seat.rect[0] + 10, seat.rect[1] + 6
    run = [Sighting("JD", 0.95, x, y, seat.name), Sighting(UNREAD, 0.0, x + 2, y, seat.name), Sighting("KD", 0.95, x + 4, y, seat.name)]
    [question] = still(tracker, 1, run)
    assert question.position == (x + 2, y) and question.candidates == ("QD", "JD", "KD")  # then the cards beside it
    tracker.confirm(question.seq, "QD")
    sets = [Sighting("6S", 0.95, x + 30, y, seat.name), Sighting("6H", 0.95, x + 32, y, seat.name),
            Sighting(UNREAD, 0.0, x + 34, y, seat.name)]
    [question] = still(tracker, 3, run + sets)
    assert question.position == (x + 34, y) and question.candidates[:4] == ("6D", "6C", "6H", "6S")


def test_a_discard_pile_that_never_settles_before_the_table_moves_ends_the_hand_as_a_question():
    """Frames that waver between a new card and nothing commit nothing; when the table then moves,
    a discard may have gone unseen: the next card on the pile cannot be placed in the turn order."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=4, quorum=3))
    seen = [Sighting("QH", 0.9, *DISCARD, "discard")]
    assert [tracker.update(k, seen if k % 2 else [], still=True) for k in range(1, 7)] == [[]] * 6
    [end] = moving(tracker, 7)
    assert end.kind == "hand_end" and end.needs_confirmation and "QH" in end.detail and tracker.phase == "over"
    assert not any(e.kind == "discard" for e in tracker.events)


def test_a_pile_read_surely_in_some_frames_and_unread_in_others_is_one_doubtful_card_to_ask_about():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=4, quorum=3))
    sure, unsure = [Sighting("QH", 0.9, *DISCARD, "discard")], [Sighting(UNREAD, 0.0, *DISCARD, "discard", ("QH", "BACK"))]
    events = [e for k in range(1, 5) for e in tracker.update(k, sure if k % 2 else unsure, still=True)]
    [question] = events
    assert question.kind == "reading" and question.cards == ("QH",) and question.candidates[0] == "QH"
    assert [e.describe() for e in tracker.confirm(question.seq, "QH")] == ["#2 discard Ben QH (stock 31)"]


def test_a_card_read_doubtfully_on_the_stock_offers_its_back():
    """The stock's back read weakly as a king: the players must be able to tap "face down"."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    stock = ZONES.named("stock").centre
    [question] = still(tracker, 1, [Sighting("KD", 0.46, *stock, "stock")])
    assert question.zone == "stock" and question.candidates == ("KD", "BACK")
    assert tracker.confirm(question.seq, "BACK") == []
    assert still(tracker, 3, [Sighting("KD", 0.46, *stock, "stock")]) == []  # answered: not asked again


def test_the_rank_named_for_an_unread_card_is_offered_for_the_next_unread_card_in_suits_not_seen():
    """The recognizer cannot read this deck's queens: once the players named an unread discard QC,
    the next unread discard offers the queens nobody has seen, so they can answer by a tap."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    unread = [Sighting(UNREAD, 0.0, *DISCARD, "discard", ("BACK",))]
    [first] = still(tracker, 1, unread)
    assert first.candidates == ("BACK",)
    tracker.confirm(first.seq, "QC")
    moving(tracker, 3)
    seat = ZONES.seat_zone(1)
    shown = [Sighting("QS", 0.95, seat.rect[0] + 10, seat.rect[1] + 6, seat.name)]  # QS lies elsewhere: not offered
    [second] = still(tracker, 4, unread + shown)
    assert second.cards == (UNREAD,) and second.candidates[:2] == ("QH", "QD") and "BACK" in second.candidates
    assert "QC" not in second.candidates and "QS" not in second.candidates


def test_the_named_ranks_go_over_to_the_next_hand_of_the_session():
    from rummyref.pipeline import HandSession
    from engine.match import HandScore

    session = HandSession(("Anna", "Ben"), "Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    [question] = [e for k in (1, 2) for e in session.update(k, [Sighting(UNREAD, 0.0, *DISCARD, "discard")], True)]
    session.confirm(question.seq, "QC")
    session.hand_recorded(HandScore("Ben", 10, "knock"))
    assert session.hand == 2 and session.tracker.hard_ranks == [12]


def test_an_unread_place_in_a_fan_offers_the_card_read_next_to_it():
    """A card's picture seen apart from its index: the players say it is the card read beside it."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    seat = ZONES.seat_zone(1)
    x, y = seat.rect[0] + 10, seat.rect[1] + 6
    seen = [Sighting("7S", 0.95, x + 3.5, y, seat.name), Sighting("2C", 0.95, x + 20, y, seat.name),
            Sighting(UNREAD, 0.0, x, y, seat.name)]
    [question] = still(tracker, 1, seen)
    assert question.position == (x, y) and question.candidates == ("7S",)
    events = tracker.confirm(question.seq, "7S")
    assert not any(e.kind in ("irregularity", "reading") for e in events + tracker.events[question.seq:])


def test_a_card_of_a_committed_layout_seen_unread_later_is_offered_as_that_card_first():
    """Ben's 9S was read when he laid out; while Anna lays out, its place shows a card the camera no
    longer reads. It is the 9S, not the 9C that would complete the set: the 9S comes first."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    seat = ZONES.seat_zone(1)
    x, y = seat.rect[0] + 5, seat.rect[1] + 6
    melds = [("9S", "9H", "9D"), ("2C", "3C", "4C"), ("5D", "6D", "7D")]
    laid = [Sighting(code, 0.95, x + 20 * m + 2 * k, y, seat.name) for m, meld in enumerate(melds) for k, code in enumerate(meld)]
    laid.append(Sighting("KS", 0.95, x, y + 10, seat.name))
    events = still(tracker, 1, laid)
    assert [e.kind for e in events] == ["knock", "layout"] and events[1].player == "Ben"
    unread_nine = [Sighting(UNREAD, 0.0, x, y, seat.name)] + laid[1:]
    anna = ZONES.seat_zone(0)
    [question] = still(tracker, 3, unread_nine + [Sighting("AH", 0.95, anna.rect[0] + 5, anna.rect[1] + 6, anna.name)])
    assert question.position == (x, y) and question.candidates[0] == "9S"


@pytest.mark.parametrize("king", [48.4, 49.0], ids=["one group", "two groups"])
def test_a_knockers_layout_a_card_short_with_a_gap_in_a_run_asks_for_the_card_in_the_gap(king):
    """Seed 132: Ann's QC between JC and KC shows neither index nor a patch of its own. When Ben starts
    laying out, Ann's layout holds 9 cards: the tracker asks which card lies between JC and KC (the
    queen of clubs completes the run) instead of proposing the §14 ruling for 9 cards."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ben", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y = ann.rect[1] + 6.5
    laid = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("AS", 5), ("AD", 7), ("AC", 9), ("2S", 25), ("3S", 27), ("4S", 29), ("JC", 45), ("KC", king))]
    laid.append(Sighting("2D", 0.95, 4, y + 9.7, ann.name))
    events = still(tracker, 1, laid)
    assert [e.kind for e in events] == ["knock"]  # Ann is forehand: she went down; 9 cards, so she may not be done
    bens = [Sighting(code, 0.95, x, ben.rect[1] + 6.5, ben.name) for code, x in (("7H", 5), ("7D", 7), ("7C", 9))]
    [question] = still(tracker, 3, laid + bens)
    assert question.kind == "reading" and question.zone == ann.name and question.position == (round((45 + king) / 2, 1), y)
    assert question.cards == (UNREAD,) and question.candidates == ("QC",) and "between them" in question.detail
    events = tracker.confirm(question.seq, "QC")
    [layout] = [e for e in events if e.kind == "layout"]
    assert layout.player == "Ann" and ("JC", "QC", "KC") in layout.melds and layout.cards == ("2D",)
    assert not any(e.kind == "irregularity" for e in tracker.events)


def test_a_knockers_layout_a_card_short_asks_for_the_card_at_an_end_of_the_group_it_completes():
    """Seed 314: Ann's 6S, first of her fanned set 6S 6H 6C, is never read nor seen. When Ben lays out, her
    layout holds 9 cards with no gap: the tracker asks which card lies before 6H (6S or 6D would make the
    pair a set), and on "no card here" after 6C, rather than take her knock as a 9-card one (§14.11)."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ben", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y = ann.rect[1] + 6.5
    laid = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("2D", 5), ("3D", 7), ("4D", 9), ("AC", 21), ("2C", 23), ("3C", 25), ("4C", 27), ("6H", 41), ("6C", 43))]
    assert [e.kind for e in still(tracker, 1, laid)] == ["knock"]  # 9 cards: she may not be done
    bens = [Sighting(code, 0.95, x, ben.rect[1] + 6.5, ben.name) for code, x in (("7H", 5), ("7D", 7), ("7S", 9))]
    [first] = still(tracker, 3, laid + bens)
    assert first.kind == "reading" and first.zone == ann.name and first.cards == (UNREAD,)
    assert first.position == (39.0, y) and first.candidates == ("6S", "6D") and "before 6H" in first.detail
    [second] = tracker.confirm(first.seq, "NONE")  # the players see no card there: the other end is asked about
    assert second.position == (45.0, y) and second.candidates == ("6S", "6D") and "after 6C" in second.detail
    [layout] = tracker.confirm(second.seq, "6S")
    assert layout.player == "Ann" and ("6H", "6C", "6S") in layout.melds and layout.cards == ()
    assert not any(e.kind == "irregularity" for e in tracker.events)


def test_an_opponents_layout_a_card_short_asks_for_the_card_at_an_end_of_a_group_that_is_no_meld():
    """Fresh seed 319: Ben's 5C, last of his set 5S 5H 5C, is never read, so his layout stays a card short
    and the hand ended waiting for it. The tracker asks at the ends of the pair (not at his runs' ends: he
    may still be laying out), and his answer completes the layout and the hand."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ben", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y, by = ann.rect[1] + 6.5, ben.rect[1] + 6.5
    laid = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("AS", 5), ("AD", 7), ("AC", 9), ("4S", 25), ("4H", 27), ("4C", 29), ("6C", 45), ("7C", 47), ("8C", 49))]
    laid.append(Sighting("3S", 0.95, 4, y + 9.7, ann.name))
    assert [e.kind for e in still(tracker, 1, laid)] == ["knock", "layout"]
    bens = [Sighting(code, 0.95, x, by, ben.name) for code, x in
            (("5S", 5), ("5H", 7), ("5D", 25), ("6D", 27), ("7D", 29), ("8D", 31), ("9D", 33))]
    bens += [Sighting("2C", 0.95, 4, by + 9.7, ben.name), Sighting("KH", 0.95, 12, by + 9.7, ben.name)]
    [first] = still(tracker, 3, laid + bens)
    assert first.zone == ben.name and first.position == (3.0, by) and first.candidates == ("5C",)
    assert "Ben's layout shows 9 cards" in first.detail and "before 5S" in first.detail
    [second] = tracker.confirm(first.seq, "NONE")
    assert second.position == (9.0, by) and "after 5H" in second.detail
    layout, end = tracker.confirm(second.seq, "5C")
    assert layout.player == "Ben" and ("5S", "5H", "5C") in layout.melds and set(layout.cards) == {"2C", "KH"}
    assert end.kind == "hand_end" and end.result.winner == "Ann" and not end.needs_confirmation


def test_a_knockers_set_with_a_card_hidden_inside_the_fan_asks_between_the_wide_step_first():
    """Seed 3: Ann's 6H lies inside her fanned set 6S 6H 6D 6C and is never read; the set of three left is a
    meld (its cards read within a meld's reach: one group), so the gap question does not ask; the step from
    6S to 6D, wider than the fan's, is where the card hides. The tracker asks there before the ends, and the answer completes her layout."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ben", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y = ann.rect[1] + 6.5
    laid = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("6S", 5), ("6D", 8.4), ("6C", 10.4), ("QS", 25), ("QH", 27), ("QD", 29))]
    laid += [Sighting(code, 0.95, x, y + 9.7, ann.name) for code, x in (("AS", 4), ("2S", 12), ("2C", 20))]
    assert [e.kind for e in still(tracker, 1, laid)] == ["knock"]  # 9 cards: she may not be done
    bens = [Sighting(code, 0.95, x, ben.rect[1] + 6.5, ben.name) for code, x in (("7H", 5), ("7D", 7), ("7S", 9))]
    [question] = still(tracker, 3, laid + bens)
    assert question.position == (6.7, y) and "between 6S and 6D" in question.detail
    assert set(question.candidates) == {"6H"}
    [layout] = tracker.confirm(question.seq, "6H")
    assert layout.player == "Ann" and {"6S", "6H", "6D", "6C"} in [set(m) for m in layout.melds]
    assert layout.cards == ("AS", "2S", "2C") and not any(e.kind == "irregularity" for e in tracker.events)


def seed_5_laid_out() -> tuple[GinTracker, list[Sighting], list[Sighting], object, float]:
    """Seed 5: Ben knocked and laid 4S 4D 4C, 5H..10H and 2H; Ann's own melds QS QD QC, AC 2C 3C and her
    deadwood 2D 2S as read (her layoffs 3H 4H before his run are up to each test)."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ann", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y, by = ann.rect[1] + 6.5, ben.rect[1] + 6.5
    run = [Sighting(code, 0.95, x, by, ben.name) for code, x in
           (("5H", 25), ("6H", 27), ("7H", 29), ("8H", 31), ("9H", 33), ("10H", 35))]
    bens = run + [Sighting(code, 0.95, x, by, ben.name) for code, x in (("4S", 5), ("4D", 7), ("4C", 9))]
    bens.append(Sighting("2H", 0.95, 4, by + 9.7, ben.name))
    assert [e.kind for e in still(tracker, 1, bens)] == ["knock", "layout"]  # Ben is forehand: he went down
    anns = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("QS", 5), ("QD", 7), ("QC", 9), ("AC", 25), ("2C", 27), ("3C", 29))]
    anns += [Sighting("2D", 0.95, 4, y + 9.7, ann.name), Sighting("2S", 0.95, 12, y + 9.7, ann.name)]
    return tracker, bens, anns, ben, by


def test_an_opponent_a_card_short_asks_for_a_layoff_at_an_end_of_the_knockers_meld():
    """Seed 5: Ann lays off 3H and 4H before Ben's run 5H..10H; 3H is never read, so her layout and layoffs
    hold 9 cards and the hand ended waiting. Her own groups are melds; once her cards have lain a card short
    for longer than a pause between moves, the tracker asks at the ends of the knocker's melds that a card
    not seen anywhere would extend, and her answer ends the hand."""
    tracker, bens, anns, ben, by = seed_5_laid_out()
    layoff = [Sighting("4H", 0.95, 23, by, ben.name)]
    assert still(tracker, 3, bens + anns + layoff) == []  # she may lay off another card: a pause is no question
    asked = still(tracker, 5, bens + anns + layoff, frames=LAID_OUT_FRAMES)
    assert [q.kind for q in asked] == ["reading"] and "Ann's layout and layoffs show 9 cards" in asked[0].detail
    events, question = [], asked[0]
    while question.zone == ben.name and "before 4H" not in question.detail:  # the set's ends: no card there
        [question] = tracker.confirm(question.seq, "NONE")
    assert question.position == (21.0, by) and question.candidates == ("3H",)
    events = tracker.confirm(question.seq, "3H")
    layoffs = [e for e in events if e.kind == "layoff"]
    assert layoffs and set(layoffs[0].cards) | set(c for e in layoffs[1:] for c in e.cards) == {"3H", "4H"}
    [end] = [e for e in events if e.kind == "hand_end"]
    assert end.result.winner == "Ben" and end.result.points == 2 and not end.needs_confirmation


def test_a_layout_card_read_in_half_the_frames_and_seen_unread_in_the_others_is_asked_about_not_waited_on():
    """Anna's 7H is read in three still frames of six and seen unread at its place in the other three:
    one card, doubtful. The tracker asks about it instead of waiting for a window that never settles
    (the players would lay the next cards before it did, and the layout would go by unseen)."""
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES)
    stock = Sighting("BACK", 0.95, *ZONES.named("stock").centre, "stock")
    table = lambda *cards: [stock, *cards]
    assert [e.kind for e in still(tracker, 1, table(Sighting("KS", 0.95, *DISCARD, "discard")), frames=6)] == ["discard"]
    moving(tracker, 7)
    assert [e.kind for e in still(tracker, 8, table(Sighting("BACK", 0.95, *DISCARD, "discard")), frames=6)] == ["stock_draw", "knock"]
    moving(tracker, 14)
    seat = ZONES.seat_zone(0)
    x, y = seat.rect[0] + 5, seat.rect[1] + 6
    laid = [Sighting(code, 0.95, x + 2 * k, y, seat.name) for k, code in enumerate(("7S", "7D", "7C"))]
    frames = [table(*laid, Sighting("7H", 0.9, x + 6.1, y, seat.name) if k % 2 else Sighting(UNREAD, 0.0, x + 6.0, y, seat.name))
              for k in range(6)]
    events = [e for k, frame in enumerate(frames) for e in tracker.update(15 + k, frame, still=True)]
    [question] = events
    assert question.kind == "reading" and question.cards == ("7H",) and question.needs_confirmation


def test_an_opponent_a_card_short_asks_between_a_layoff_read_and_the_knockers_meld_it_extends():
    """Seed 5 through the camera: Ann lays off 3H and 4H before Ben's run 5H..10H. 3H is read, 4H is not, and
    9H, under her hand, is read no more; so Ben's area reads 3H 5H 6H 7H 8H 10H, no meld that one card would
    make. Once her cards have lain a card short for a while, the tracker puts the run's unread cards back
    where they were laid and asks between 3H and 5H, offering 4H."""
    tracker, bens, anns, ben, by = seed_5_laid_out()
    now = [s for s in bens if s.code != "9H"] + [Sighting("3H", 0.95, 21, by, ben.name)]
    asked = still(tracker, 3, now + anns, frames=LAID_OUT_FRAMES + 2)
    assert [q.kind for q in asked] == ["reading"]
    [question] = asked
    assert "Ann's layout and layoffs show 9 cards, and 3H and 5H lie a card apart" in question.detail
    assert question.position == (23.0, by) and question.candidates == ("4H",)
    events = tracker.confirm(question.seq, "4H")
    assert {c for e in events if e.kind == "layoff" for c in e.cards} == {"3H", "4H"}
    [end] = [e for e in events if e.kind == "hand_end"]
    assert end.result.winner == "Ben" and end.result.points == 2 and not end.needs_confirmation


def test_an_opponent_a_card_short_with_no_layoff_anywhere_is_asked_inside_his_own_meld_last():
    """Seed 51 through the camera: Ben's KH lies hidden in his fan KS KH KD KC, whose three indices read
    evenly spaced; he lays off nothing. Once his cards have lain a card short for a while and no layoff
    lies at the ends of Ann's melds, the tracker asks at the ends of his own melds, then between their
    cards, and his answer lays out his four kings and ends the hand."""
    tracker = GinTracker(("Ann", "Ben"), dealer="Ben", zones=ZONES, options=TrackerOptions(window=2, quorum=2))
    ann, ben = ZONES.seat_zone(0), ZONES.seat_zone(1)
    y, by = ann.rect[1] + 6.5, ben.rect[1] + 6.5
    anns = [Sighting(code, 0.95, x, y, ann.name) for code, x in
            (("7S", 5), ("7D", 7), ("7C", 9), ("AD", 25), ("2D", 27), ("3D", 29), ("4D", 31), ("5D", 33))]
    anns += [Sighting("3H", 0.95, 4, y + 9.7, ann.name), Sighting("2C", 0.95, 12, y + 9.7, ann.name)]
    assert [e.kind for e in still(tracker, 1, anns)] == ["knock", "layout"]  # Ann is forehand: she went down
    bens = [Sighting(code, 0.95, x, by, ben.name) for code, x in
            (("4S", 5), ("4H", 7), ("4C", 9), ("KS", 25.6), ("KD", 28.4), ("KC", 31.2))]
    bens += [Sighting(code, 0.95, x, by + 9.7, ben.name) for code, x in (("AH", 4), ("3S", 12), ("2H", 20))]
    [question] = still(tracker, 3, anns + bens, frames=LAID_OUT_FRAMES + 2)
    asked = []
    while "KS and KD" not in question.detail:
        asked.append(question.detail.split(": ")[-1])
        [question] = tracker.confirm(question.seq, "NONE")
    assert "which card lies before KS, if any?" in asked and "which card lies after KC, if any?" in asked
    assert question.zone == ben.name and question.candidates == ("KH",)
    events = tracker.confirm(question.seq, "KH")
    [layout] = [e for e in events if e.kind == "layout"]
    assert ("KS", "KH", "KD", "KC") in [tuple(m) for m in layout.melds]
    [end] = [e for e in events if e.kind == "hand_end"]
    assert end.result.winner == "Ann" and end.result.points == 1 and not end.needs_confirmation
