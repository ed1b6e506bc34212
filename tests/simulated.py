"""Runs a simulated hand through the tracker, answering its questions as a player would."""

from engine.simulate import SimulatedHand, feed
from engine.tracker import Event, GinTracker, TrackerOptions


def track(hand: SimulatedHand, options: TrackerOptions = TrackerOptions()) -> tuple[list[Event], list[tuple[Event, str]]]:
    """The committed events, and each question with the true card the players answered."""
    tracker = GinTracker(hand.players, hand.dealer, options=options)
    committed, asked = feed(tracker, hand.frames)
    assert len(asked) < 200, f"seed {hand.seed}: the tracker keeps asking"
    return committed, asked
