"""Tile Rummy turns: simulated games with noisy table readings through the tile tracker."""

import pytest

from engine.simulate import Noise
from engine.simulate_tiles import simulate_tiles, track_tiles
from engine.tile_tracker import TileSighting, TileTracker, TileTrackerError, TileTrackerOptions


@pytest.fixture(scope="module")
def games():
    return [simulate_tiles(seed, players=4, turns=30) for seed in range(4)]


def test_turns_equal_the_truth_when_questions_are_answered(games):
    kinds = {"legal": 0, "illegal": 0, "draw": 0}
    for game in games:
        committed, asked = track_tiles(game)
        assert [e.key() for e in committed] == [e.key() for e in game.truth], f"seed {game.seed}"
        for e in game.truth:
            kinds["draw" if e.kind == "draw" else "legal" if e.legal else "illegal"] += 1
    assert kinds["legal"] >= 10 and kinds["illegal"] >= 3 and kinds["draw"] >= 10, kinds


def test_unanswered_questions_are_never_committed_as_turns(games):
    noise = Noise(doubt=0.05, flip=0.01, drop=0.04)
    for seed in range(3):
        game = simulate_tiles(100 + seed, turns=30, noise=noise)
        committed, asked = track_tiles(game, answer=False)
        assert asked > 0
        for event, truth in zip(committed, game.truth):
            assert event.needs_confirmation or event.key() == truth.key(), (seed, event.describe(), truth.describe())


def test_tiles_taken_from_the_table_make_an_illegal_turn():
    t = TileTracker(("Ann", "Ben"), options=TileTrackerOptions(window=1, quorum=1))
    run = [TileSighting(c, 0.95, 10 + 3 * i, 20) for i, c in enumerate(["B10", "B11", "B12", "B13"])]
    t.update(1, run, still=True)
    assert t.end_turn(1)[0].legal
    t.update(2, run[:3], still=True)  # Ben takes B13 back to his rack
    event = t.end_turn(2)[0]
    assert not event.legal and "B13 was on the table and is missing" in event.violations[0]


def test_a_turn_ending_on_a_moving_table_is_a_question():
    t = TileTracker(("Ann", "Ben"), options=TileTrackerOptions(window=2, quorum=2))
    t.update(1, [TileSighting("R5", 0.9, 5, 5)], still=False)
    event = t.end_turn(1)[0]
    assert event.needs_confirmation and "not still long enough" in event.detail and t.player == "Ben"
    assert t.end_turn(2)[0].needs_confirmation  # the table before Ben's turn is unknown: asked, not guessed
    with pytest.raises(TileTrackerError, match="2-4 players"):
        TileTracker(("Ann",))
