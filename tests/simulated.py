"""Runs a simulated hand through the tracker, answering its questions as a player would."""

from engine.simulate import SimulatedHand
from engine.tracker import Event, GinTracker, TrackerOptions


def track(hand: SimulatedHand, options: TrackerOptions = TrackerOptions()) -> tuple[list[Event], list[tuple[Event, str]]]:
    """The committed events, and each question with the true card the players answered."""
    tracker = GinTracker(hand.players, hand.dealer, options=options)
    committed, asked = [], []
    for frame in hand.frames:
        pending = tracker.update(frame.frame_id, frame.sightings, frame.still)
        while pending:
            event = pending.pop(0)
            if event.needs_confirmation and event.kind == "reading":
                answer = frame.card_at(event.zone, *event.position)  # a player looks at the table
                asked.append((event, answer))
                assert len(asked) < 200, f"seed {hand.seed}: the tracker keeps asking ({event.describe()})"
                pending += tracker.confirm(event.seq, answer)
            else:
                committed.append(event)
    return committed, asked
