"""The tracker when the discard pile's cards go unread: it waits, it does not fail."""

from engine.tracker import GinTracker, Sighting, TrackerOptions
from engine.zones import default_zones

ZONES = default_zones("gin", 2)
DISCARD = ZONES.named("discard").centre


def pile(code: str | None) -> list[Sighting]:
    return [] if code is None else [Sighting(code, 0.95, *DISCARD, zone="discard")]


def test_a_pile_of_two_read_as_empty_commits_nothing_and_reading_it_again_goes_on():
    tracker = GinTracker(("Anna", "Ben"), dealer="Anna", zones=ZONES, options=TrackerOptions(window=1, quorum=1))
    assert [e.kind for e in tracker.update(1, pile("7H"), still=True)] == ["discard"]
    assert [e.kind for e in tracker.update(2, pile("9C"), still=True)] == ["stock_draw", "discard"]
    assert tracker.pile == ["7H", "9C"]
    # The recognizer misses the top card (a glare): the pile looks empty, though two cards lie there.
    assert tracker.update(3, pile(None), still=True) == []
    assert tracker.pile == ["7H", "9C"]
    assert tracker.update(4, pile("9C"), still=True) == []
    assert [e.kind for e in tracker.update(5, pile("KS"), still=True)] == ["stock_draw", "discard"]
