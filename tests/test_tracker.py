"""The Gin tracker on hand-made frame sequences: events, occlusion, rule checks, confirmations."""

import pytest

from engine.irregularities import Decision
from engine.tracker import GinTracker, Sighting, TrackerError, TrackerOptions
from engine.zones import default_zones

ZONES = default_zones("gin", 2)
DISCARD = ZONES.named("discard").centre
STOCK = ZONES.named("stock").centre


class Table:
    """Feeds a tracker frames of a table given as {code: (zone, x, y)}; Anna deals, Ben is forehand."""

    def __init__(self, **options):
        self.tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(**options))
        self.frame = 0
        self.cards = {"BACK@stock": ("stock", *STOCK)}

    def show(self, confidence=0.95, still_frames=6, moving_frames=3, hidden=(), overrides=None):
        events = []
        for _ in range(moving_frames):  # a hand over the table; cards under it are not read
            events += self._frame(still=False, confidence=confidence, hidden=hidden, overrides=overrides)
        for _ in range(still_frames):
            events += self._frame(still=True, confidence=confidence, hidden=(), overrides=overrides)
        return events

    def _frame(self, still, confidence, hidden, overrides):
        self.frame += 1
        sightings = []
        for code, (zone, x, y) in self.cards.items():
            if code in hidden:
                continue
            read, conf, candidates = (overrides or {}).get(code, (code.split("@")[0], confidence, ()))
            sightings.append(Sighting(read, conf, x, y, zone, candidates))
        return self.tracker.update(self.frame, sightings, still)

    def discard(self, code, **kw):
        self.cards = {c: p for c, p in self.cards.items() if p[0] != "discard"}
        self.cards[code] = ("discard", *DISCARD)
        return self.show(**kw)

    def take_discard(self, revealed, **kw):
        self.cards = {c: p for c, p in self.cards.items() if p[0] != "discard"}
        if revealed:
            self.cards[revealed] = ("discard", *DISCARD)
        return self.show(**kw)

    def lay(self, seat, melds=(), loose=(), **kw):
        """Melds fanned (2 cm apart) in a row, loose cards 8 cm apart in a second row."""
        zone = ZONES.seat_zone(seat)
        x0, y0, _, y1 = zone.rect
        x = x0 + 5
        for meld in melds:
            for i, code in enumerate(meld):
                self.cards[code] = (zone.name, x + 2 * i, y0 + 6)
            x += 2 * len(meld) + 12
        for i, code in enumerate(loose):
            self.cards[code] = (zone.name, x0 + 4 + 8 * i, y1 - 5)
        return self.show(**kw)

    def lay_off(self, seat, code, next_to, side=1):
        zone, x, y = self.cards[next_to]
        self.cards[code] = (zone, x + 2 * side, y)
        return self.show()


def described(events):
    return [e.describe() for e in events]


def test_turns_discards_pickup_and_inferred_stock_draws():
    t = Table()
    assert described(t.discard("KS")) == ["#1 discard Ben KS (stock 31)"]
    assert described(t.discard("9D")) == ["#2 stock_draw Anna (stock 30) (inferred)", "#3 discard Anna 9D (stock 30)"]
    assert described(t.take_discard("KS")) == ["#4 pickup Ben 9D (stock 30)"]
    assert described(t.discard("2C")) == ["#5 discard Ben 2C (stock 30)"]
    assert t.tracker.pile == ["KS", "2C"]


def test_nothing_is_committed_while_a_hand_moves_or_the_reading_wavers():
    t = Table()
    t.cards["KS"] = ("discard", *DISCARD)
    assert t.show(still_frames=0, moving_frames=30, hidden=("KS",)) == []  # hand over the pile
    assert t.show(still_frames=5) == []  # still, but not yet for the whole window
    assert described(t.show(still_frames=1, moving_frames=0)) == ["#1 discard Ben KS (stock 31)"]
    # The hand comes back and covers the pile: the top card disappearing is not a pickup.
    assert t.show(still_frames=0, moving_frames=20, hidden=("KS",)) == []
    assert t.show() == []
    assert t.tracker.pile == ["KS"]


def test_low_confidence_needs_confirmation_and_the_answer_commits():
    t = Table()
    events = t.discard("8H", overrides={"8H": ("6H", 0.55, ("8H",))})
    assert len(events) == 1 and events[0].needs_confirmation and events[0].kind == "reading"
    assert events[0].candidates == ("6H", "8H") and events[0].zone == "discard"
    assert t.tracker.pile == [] and t.tracker.events[-1] is events[0]
    assert t.show(overrides={"8H": ("6H", 0.55, ("8H",))}) == []  # asked once, not every frame
    assert described(t.tracker.confirm(events[0].seq, "8H")) == ["#2 discard Ben 8H (stock 31)"]
    with pytest.raises(TrackerError, match="not waiting for a confirmation"):
        t.tracker.confirm(events[0].seq, "8H")


def test_card_in_two_places_is_questioned_never_guessed():
    t = Table()
    t.discard("QS")
    t.cards["QS@seat1"] = ("seat1", 20, 6)  # read again in Anna's area
    events = t.show()
    assert events and all(e.needs_confirmation for e in events)
    assert "a one-deck game holds it once" in events[0].detail
    assert t.tracker.events[-1].needs_confirmation and t.tracker.pile == ["QS"]


def knock_and_lay_out(t, knocker_melds, knocker_loose, **kw):
    t.discard("KS")
    events = t.discard("BACK")
    assert [e.kind for e in events] == ["stock_draw", "knock"] and events[1].player == "Anna"
    return t.lay(0, knocker_melds, knocker_loose, **kw)


def test_knock_layouts_layoffs_and_engine_result():
    t = Table()
    events = knock_and_lay_out(t, [("5H", "6H", "7H"), ("QS", "QD", "QC")], ["AS"])
    assert events == []  # 7 cards: Anna is still laying out, nothing is committed
    events = t.lay(0, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS"])
    assert described(events) == ["#4 layout Anna 5H 6H 7H QS QD QC 9C 10C JC AS"]
    assert t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4C"]) == []  # 8 cards, layoffs to come
    t.lay_off(0, "8H", "7H")
    events = t.lay_off(0, "QH", "QC")
    assert [e.kind for e in events] == ["layout", "layoff", "layoff", "hand_end"]
    assert events[1].cards == ("8H",) and events[1].melds == (("5H", "6H", "7H"),)
    assert events[2].cards == ("QH",) and events[2].melds == (("QS", "QD", "QC"),)
    end = events[-1]
    assert not end.flagged and end.result.winner == "Anna" and end.result.kind == "knock"
    assert end.result.points == (9 + 8 + 10 + 10 + 4) - 1  # Ben's deadwood after his layoffs, less Anna's ace
    assert "Ben lays off" in end.detail


def test_knock_over_the_limit_carries_the_14_ruling():
    t = Table()
    events = knock_and_lay_out(t, [("5H", "6H", "7H"), ("QS", "QD", "QC")], ["AS", "2D", "3C", "KC"])
    events += t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4C", "AC", "2H"])
    flagged = [e for e in events if e.flagged and e.ruling]
    # Found before Ben laid down: Ben may accept or have Anna play on (not correctable: 16 is her best)
    assert flagged[0].ruling.rule == "000 §14.7" and flagged[0].ruling.decision is Decision.OPPONENT_CHOOSES
    assert "knocked with 16 deadwood" in flagged[0].detail
    # Ben laid down anyway: the knock counts as accepted and is scored, not a crash
    end = events[-1]
    assert end.kind == "hand_end" and end.ruling.rule.endswith("§14.8") and end.result.winner == "Anna"
    assert end.result.points == (9 + 8 + 10 + 10 + 4 + 1 + 2) - 16


def test_illegal_meld_and_eleven_cards_are_flagged():
    t = Table()
    events = knock_and_lay_out(t, [("5H", "6H", "8H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS", "2D"])
    # 7H in place of 5H or 8H would make a run: each is asked about (a sure misread?) before the meld is flagged
    asked = []
    while events and events[0].kind == "reading":
        asked.append(events[0].cards[0])
        assert "5H 6H 8H is no meld" in events[0].detail and "7H" in events[0].candidates
        events = t.tracker.confirm(events[0].seq, events[0].cards[0])
    assert sorted(asked) == ["5H", "8H"]
    illegal = [e for e in events if e.kind == "irregularity"]
    assert illegal and "8H" in illegal[0].detail and illegal[0].flagged
    t2 = Table()
    events = knock_and_lay_out(t2, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS", "2D"])
    wrong_count = [e for e in events if e.ruling is not None]
    assert wrong_count[0].ruling.rule == "000 §14.11, §14.7" and "11 cards" in wrong_count[0].detail


def test_knock_button_and_out_of_turn():
    t = Table()
    t.discard("KS")
    out_of_turn = t.tracker.press_knock("Ben", t.frame)
    assert out_of_turn[0].flagged and "out of turn" in out_of_turn[0].detail
    events = t.tracker.press_knock("Anna", t.frame)
    assert [e.kind for e in events] == ["stock_draw", "knock"]
    with pytest.raises(TrackerError, match="unknown player 'Cleo'"):
        t.tracker.press_knock("Cleo", t.frame)


def test_gin_no_layoffs():
    t = Table()
    knock_and_lay_out(t, [("5H", "6H", "7H", "8H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], [])
    events = t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4C", "AC", "2H"])
    end = events[-1]
    assert end.result.kind == "gin" and end.result.winner == "Anna"
    assert end.result.points == 20 + 9 + 8 + 10 + 10 + 4 + 1 + 2


def test_no_game_when_the_stock_is_down_to_two():
    t = Table()
    codes = [str(c) for c in __import__("engine.cards", fromlist=["ALL_CARDS"]).ALL_CARDS]
    events = []
    for code in codes[:30]:
        events += t.discard(code)
    assert events[-1].kind == "hand_end" and events[-1].result.kind == "no_game"
    assert events[-2].describe().endswith("(stock 2)")
    assert t.tracker.phase == "over" and t.discard(codes[40]) == []


def test_bad_setups_are_named():
    with pytest.raises(TrackerError, match="dealer 'Cleo'"):
        GinTracker(("Anna", "Ben"), dealer="Cleo")
    with pytest.raises(TrackerError, match="quorum must be more than half"):
        TrackerOptions(window=6, quorum=3)
    with pytest.raises(TrackerError, match="neither BACK nor a card"):
        Sighting("ZZ", 0.9, 0, 0, "discard")


def test_a_doubtful_discard_covered_before_the_answer_stops_the_hand_never_misplaces_a_turn():
    t = Table()
    asked = t.discard("8H", overrides={"8H": ("6H", 0.55, ("8H",))})
    assert [e.kind for e in asked] == ["reading"]
    events = t.discard("9D")  # Anna discards on top before anyone answered
    assert described(events)[0].startswith("#2 hand_end") and events[0].needs_confirmation and events[0].result is None
    assert not any(e.kind == "discard" for e in t.tracker.events)
    assert t.tracker.phase == "over" and t.discard("KS") == []


def test_needs_frames_until_the_still_table_is_settled():
    t = Table()
    assert t.tracker.needs_frames
    t.discard("KS")
    assert not t.tracker.needs_frames  # read to a settled state: more still frames change nothing
    t.show(still_frames=0, moving_frames=1)
    assert t.tracker.needs_frames


def test_a_stock_seen_face_down_only_weakly_is_no_question():
    table = Table()
    assert table.show(overrides={"BACK@stock": ("BACK", 0.55, ())}) == []
    events = table.discard("7H", overrides={"BACK@stock": ("BACK", 0.55, ())})
    assert described(events) == ["#1 discard Ben 7H (stock 31)"]


def test_no_card_here_drops_a_phantom_reading_while_the_camera_keeps_making_it():
    """The camera reads a 4C in Anna's area where no card lies (a shadow, the felt's pattern). Asked,
    the players tap "no card here": her ten cards are her layout, the phantom is not asked about
    again while it is read there, and only if it comes back after a still table without it."""
    t = Table()
    t.cards["4C@ghost"] = ("seat0", ZONES.seat_zone(0).rect[0] + 40, ZONES.seat_zone(0).rect[1] + 6)
    ghost = {"4C@ghost": ("4C", 0.5, ())}
    t.discard("KS")
    t.discard("BACK")
    [question] = t.lay(0, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("9C", "10C", "JC")], ["AS"], overrides=ghost)
    assert question.kind == "reading" and question.cards == ("4C",)
    with pytest.raises(TrackerError, match="neither BACK nor a card"):
        t.tracker.confirm(question.seq, "nothing")
    assert described(t.tracker.confirm(question.seq, "NONE")) == ["#5 layout Anna 5H 6H 7H QS QD QC 9C 10C JC AS"]
    events = t.lay(1, [("2S", "3S", "4S"), ("8D", "9D", "10D")], ["8S", "KH", "KD", "4D"], overrides=ghost)
    assert [e.kind for e in events] == ["layout", "hand_end"] and events[-1].result.winner == "Anna"
    assert not any(e.needs_confirmation for e in events)


def test_no_card_here_holds_only_while_the_reading_lasts():
    t = Table()
    place = ("seat0", ZONES.seat_zone(0).rect[0] + 40, ZONES.seat_zone(0).rect[1] + 6)
    t.cards["4C@ghost"] = place
    ghost = {"4C@ghost": ("4C", 0.5, ())}
    t.discard("KS")
    t.discard("BACK")
    [question] = t.lay(0, [("5H", "6H", "7H"), ("QS", "QD", "QC")], ["AS"], overrides=ghost)
    assert t.tracker.confirm(question.seq, "NONE") == []  # seven cards: Anna is still laying out
    assert t.show(overrides=ghost) == []
    del t.cards["4C@ghost"]
    assert t.show() == []  # a still table without the reading: the answer is spent
    t.cards["4C@ghost"] = place
    [again] = t.show(overrides=ghost)
    assert again.kind == "reading" and again.cards == ("4C",) and again.seq != question.seq


def test_a_run_read_with_a_rank_left_out_asks_for_the_card_between_however_close_its_neighbours_lie():
    """Anna's 4C 5C 6C fan is read as 4C and 6C one fan step apart (the hidden 5C pulled the 6C's
    reading onto it): her layout is a card short, so the tracker asks which card lies between them."""
    t = Table()
    t.discard("KS")
    t.discard("BACK")
    assert t.lay(0, [("5H", "6H", "7H"), ("QS", "QD", "QC"), ("4C", "6C")], ["AS"]) == []
    [question] = t.lay(1, [("2S", "3S", "4S")], ["9D", "8S", "KH", "KD", "4D", "AC", "2H"])
    assert question.kind == "reading" and question.candidates == ("5C",) and "4C and 6C" in question.detail
    events = t.tracker.confirm(question.seq, "5C")
    assert events[0].describe() == "#5 layout Anna 5H 6H 7H QS QD QC 4C 5C 6C AS"
    assert events[-1].kind == "hand_end" and not events[-1].flagged
