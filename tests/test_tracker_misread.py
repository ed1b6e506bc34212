"""The tracker when the reader misreads a card surely: the players' answers must hold, and a reading
they corrected once is not trusted again (rendered seed 124 lost its turn order so)."""

from engine.tracker import GinTracker, Sighting, TrackerOptions
from engine.zones import default_zones

ZONES = default_zones("gin", 2)
DISCARD = ZONES.named("discard").centre


def tracker(window: int = 2, quorum: int = 2) -> GinTracker:
    return GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=window, quorum=quorum))


def frames(t: GinTracker, first: int, readings: list[list[Sighting]]) -> list:
    """One still frame per reading; the table moved just before the first."""
    events = t.update(first - 1, [], still=False)
    for k, seen in enumerate(readings):
        events += t.update(first + k, seen, still=True)
    return events


def on_pile(code: str, confidence: float, *candidates: str) -> list[Sighting]:
    return [Sighting(code, confidence, *DISCARD, "discard", candidates)]


def described(events: list) -> list[str]:
    return [e.describe() for e in events if e.kind != "stock_draw"]


def test_an_answer_holds_for_the_sure_readings_of_the_card_asked_about_until_the_table_moves():
    """KC read surely as KS in half the window and unread in the other half settles as a doubtful KS;
    the players say KC. The sure KS readings of that still window are the same card: the discard is
    committed, not left wavering until the table moves (which lost it unseen)."""
    t = tracker(window=6, quorum=4)
    [question] = frames(t, 1, [on_pile("UNREAD", 0.0, "KS", "KC")] + [on_pile("KS", 0.95)] * 3 + [on_pile("UNREAD", 0.0, "KS", "KC")] * 2)
    assert question.kind == "reading" and question.cards == ("KS",) and question.needs_confirmation
    assert described(t.confirm(question.seq, "KC")) == ["#2 discard Ben KC (stock 31)"]
    assert not t.needs_frames


def test_a_reading_the_players_corrected_once_is_asked_about_when_it_shows_again_however_sure():
    """The reader took KC for KS, the players said KC. When Anna takes Ben's discard back off the pile,
    KC shows again, read surely as KS: that is not a new discard of Ben's but a question, offering KC
    too; the answer makes it the pickup it was."""
    t = tracker()
    [question] = frames(t, 1, [on_pile("KS", 0.6)] * 2)
    assert described(t.confirm(question.seq, "KC")) == ["#2 discard Ben KC (stock 31)"]
    assert described(frames(t, 10, [on_pile("9H", 0.97)] * 2)) == ["#4 discard Anna 9H (stock 30)"]
    [again] = frames(t, 20, [on_pile("KS", 0.96)] * 2)
    assert again.kind == "reading" and again.needs_confirmation and again.candidates == ("KS", "KC")
    assert "where KC may lie" in again.detail
    assert described(t.confirm(again.seq, "KC")) == ["#6 pickup Ben 9H (stock 30)"]


def test_a_reading_corrected_once_and_confirmed_at_its_place_is_not_asked_again():
    t = tracker()
    [question] = frames(t, 1, [on_pile("KS", 0.6)] * 2)
    t.confirm(question.seq, "KC")
    # after the table moved the answer covers a sure KS no more: Anna's KS on top is asked about, not made KC
    [again] = frames(t, 10, [on_pile("KS", 0.97)] * 2)
    assert again.candidates == ("KS", "KC")
    assert described(t.confirm(again.seq, "KS")) == ["#5 discard Anna KS (stock 30)"]
    assert frames(t, 20, [on_pile("KS", 0.97)] * 2) == []  # the table moved, nothing new: no question, no event


def test_a_card_read_surely_on_the_place_of_a_laid_card_read_no_more_is_asked_about_not_laid_off():
    """Rendered seed 132: the knocker's KC, committed in her layout, read surely as KS at the very same
    place while the opponent lays off. That is no layoff of KS onto her run but a question offering KC."""
    from tests.test_tracker import Table, knock_and_lay_out

    t = Table()
    knock_and_lay_out(t, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS"])
    [question] = [e for e in t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4C", "5D", "6C"],
                                   overrides={"QC": ("QH", 0.93, ())}) if e.needs_confirmation]  # QC read as QH now
    assert question.kind == "reading" and question.cards == ("QH",) and question.candidates == ("QH", "QC")
    assert "where QC may lie" in question.detail
    events = t.tracker.confirm(question.seq, "QC")
    assert [e.kind for e in events] == ["layout", "hand_end"] and not any(e.kind == "layoff" for e in t.tracker.events)
    assert events[-1].result is not None and not events[-1].needs_confirmation


def test_a_laid_card_misread_when_the_layout_was_committed_is_corrected_when_the_players_confirm_the_new_reading():
    """Rendered seed 33 (candidate model Q2): the knocker's AS, read surely as AC when her layout was
    committed, is read as AS at the same place while the opponent lays out. The players, asked "AS read
    where AC may lie", say AS: her layout is committed again with the AS, not the AS taken for a layoff
    of the opponent's next to none of her melds (counted as his deadwood, a knock scored 1 point high)."""
    from tests.test_tracker import Table, knock_and_lay_out

    t = Table()
    melds = [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")]
    [layout] = knock_and_lay_out(t, melds, ["AS"], overrides={"AS": ("AC", 0.95, ())})
    assert layout.cards == ("AC",)
    [question] = [e for e in t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4C", "5D", "6C"])
                  if e.needs_confirmation]
    assert question.cards == ("AS",) and question.candidates == ("AS", "AC") and "where AC may lie" in question.detail
    corrected, opponent, end = t.tracker.confirm(question.seq, "AS")
    assert corrected.describe() == "#6 layout Anna 5H 6H 7H QS QD QC 9C 10C JC AS"
    assert "AS where AC was read" in corrected.detail and opponent.player == "Ben"
    assert not any(e.kind in ("layoff", "irregularity") for e in t.tracker.events)
    assert not end.flagged and end.result.winner == "Anna" and end.result.points == (9 + 8 + 10 + 10 + 4 + 5 + 6) - 1


def test_an_answer_that_unsettles_the_window_reads_on_and_a_move_then_ends_the_hand_as_a_question():
    """The players' answer covers the readings at the place asked about; one reading of the card lay
    1.6 cm off, so the window no longer settles. The tracker asks for more frames (it had settled, so the
    camera side had stopped reading) and, if the table moves first, ends the hand as a question rather
    than let the discard go unseen."""
    t = tracker(window=6, quorum=4)
    x, y = DISCARD
    weak = [Sighting("KS", 0.5, x, y, "discard")]
    off = [Sighting("KS", 0.5, x + 1.6, y, "discard")]
    [question] = frames(t, 1, [weak] * 3 + [off] + [[]] * 2)
    assert not t.needs_frames
    assert t.confirm(question.seq, "KC") == [] and t.needs_frames
    [end] = t.update(20, [], still=False)
    assert end.kind == "hand_end" and end.needs_confirmation and end.result is None and "KC" in end.candidates


def test_a_card_read_surely_as_one_that_makes_its_group_no_meld_is_asked_about_before_the_meld_is_flagged():
    """Rendered seed 134: 3C read surely as 3S in a run of clubs made it an illegal meld, flagged under §14.7.
    The tracker asks about the card that spoils the group, offering the cards that would make it a meld."""
    from tests.test_tracker import Table, knock_and_lay_out

    t = Table()
    melds = [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("3C", "4C", "5C")]
    knock_and_lay_out(t, [], [])
    [question] = t.lay(0, melds, ["AS"], overrides={"3C": ("3S", 0.97, ())})
    assert question.kind == "reading" and question.cards == ("3S",) and question.needs_confirmation
    assert question.candidates[:2] == ("3S", "3C") and "6C" in question.candidates
    assert "3S 4C 5C is no meld" in question.detail
    [layout] = t.tracker.confirm(question.seq, "3C")
    assert layout.describe() == "#5 layout Anna 5H 6H 7H QS QD QC 3C 4C 5C AS"
    assert not any(e.kind == "irregularity" for e in t.tracker.events)


def test_two_cards_read_surely_as_others_in_one_run_are_asked_about_one_after_the_other():
    """Rendered seed 92: 9S and 10S read surely as 9C and 10C in a run of spades (7S 8S 9C 10C JS). No one
    card makes the group a meld, so it was flagged under §14.7 and the knock counted 49 deadwood. The
    tracker asks about the less sure of the pair, then about the other, and lays the run out as made."""
    from tests.test_tracker import Table, knock_and_lay_out

    t = Table()
    melds = [("6H", "6D", "6C"), ("7S", "8S", "9S", "10S", "JS")]
    knock_and_lay_out(t, [], [])
    [first] = t.lay(0, melds, ["2D", "3D"], overrides={"9S": ("9C", 0.95, ()), "10S": ("10C", 0.9, ())})
    assert first.kind == "reading" and first.cards == ("10C",) and first.candidates[:2] == ("10C", "10S")
    assert "7S 8S 9C 10C JS is no meld" in first.detail
    [second] = t.tracker.confirm(first.seq, "10S")
    assert second.cards == ("9C",) and second.candidates[:2] == ("9C", "9S")
    [layout] = t.tracker.confirm(second.seq, "9S")
    assert layout.describe() == "#6 layout Anna 6H 6D 6C 7S 8S 9S 10S JS 2D 3D"
    assert not any(e.kind == "irregularity" for e in t.tracker.events)


def test_an_answer_about_a_laid_card_holds_when_the_card_is_read_just_above_the_bar_after_the_table_moved():
    """Wiener rendered seed 3 (candidate model T): Dan's QC, read 6C just below the bar, was named QC by
    the players; once the next card was laid it read 6C just above the bar, the answer no longer applied
    and 6C went into his layout. Off the discard pile no card lands on another's index: the answer holds."""
    from tests.test_tracker import Table, knock_and_lay_out

    t = Table()
    knock_and_lay_out(t, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS"])
    loose = ["9D", "8S", "KH", "KD", "4C"]
    [question] = [e for e in t.lay(1, [("2S", "3S", "4S")], loose, overrides={"4C": ("4D", 0.7, ())})
                  if e.needs_confirmation]
    assert question.cards == ("4D",) and t.tracker.confirm(question.seq, "4C") == []  # eight cards: laying on
    events = t.lay(1, [("2S", "3S", "4S")], loose + ["5D", "6C"], overrides={"4C": ("4D", 0.85, ())})
    assert [e.kind for e in events] == ["layout", "hand_end"], described(events)
    assert events[0].describe() == "#6 layout Ben 2S 3S 4S 9D 8S KH KD 4C 5D 6C"
    assert events[1].result.points == 9 + 8 + 10 + 10 + 4 + 5 + 6 - 1


def test_a_card_read_at_two_places_in_one_window_lies_at_one_of_them():
    """A fan's last card shows both its indices; in half the frames the reader read only the lower
    one and placed the card a card's length down and right. The medians of its readings lay between
    the two places, a card away from its meld (a knocker's 8C of four eights went to the deadwood,
    seed 344 untaught): the card lies where it is read most often."""
    t = tracker(window=6, quorum=4)
    seat = ZONES.seat_zone(0)
    upper, lower = (seat.centre[0], seat.centre[1]), (seat.centre[0] + 5.3, seat.centre[1] + 6.1)
    readings = [[Sighting("8C", c, *place, seat.name)] for c, place in
                ((0.99, upper), (0.97, upper), (0.96, lower), (0.97, lower), (0.96, upper), (0.97, lower))]
    frames(t, 1, readings)
    card = t._settled()[seat.name]["8C"]
    assert (card.x, card.y) == upper
