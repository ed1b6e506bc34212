"""Wiener Rummy rendered: the held-out deck with jokers photographed, read by the recognizer through
the table reader, tracked by the Wiener tracker, scored against the simulator's truth."""

from __future__ import annotations

import pytest

from engine.simulate_wiener import simulate_wiener, track_wiener
from engine.tracker import Sighting
from engine.zones import default_zones
from rummyref.pipeline import TableReader, make_calibrator
from rummyref.render_game import GameRenderer
from rummyref.wiener_replay import FilmCounts, FilmRecording, RecordedFrame, WienerFilm
from vision.calibration import Calibration
from vision.observation import CardObservation


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer(threads=1)


def test_the_start_of_a_rendered_round_commits_the_true_moves(recognizer, tmp_path) -> None:
    # The chain's mechanics, photographed with a deck the recognizer was trained on: how well it
    # reads decks it never saw is the benchmarks' business (on the held-out gnome/plastic the
    # recognizer reads this round's JC as JS with confidence, a recognizer error no tracker can catch).
    game = simulate_wiener(2, players=4)
    film = WienerFilm(recognizer, max_frames=70, design="gnome/anglo", record=tmp_path)
    committed, asked = film.track(game)
    plain = [e for e in committed if not e.needs_confirmation]
    discards = [e for e in plain if e.kind == "discard"]
    assert len(discards) >= 3, [e.describe() for e in committed]
    # every move committed is the true one, in order: the right player, the right card
    assert [e.key() for e in plain] == [e.key() for e in game.truth[:len(plain)]]
    assert 0 < film.counts.recognized < film.counts.frames == 70  # settled still frames are not recognized
    # Recorded, the round replays to the same events and questions with nothing photographed or recognized.
    again = WienerFilm(None, max_frames=70, design="gnome/anglo", record=tmp_path, deck_learned=False)
    replayed, asked_again = again.track(game)
    assert [e.describe() for e in replayed] == [e.describe() for e in committed]
    assert [(q.describe(), a) for q, a in asked_again] == [(q.describe(), a) for q, a in asked]
    assert (again.counts.frames, again.counts.recognized, again.counts.replayed, again.counts.borrowed) == \
        (70, film.counts.recognized, 70, 0)


def recording_of(game, start: int = 0) -> FilmRecording:
    """The simulator's readings of ``game`` from frame index ``start`` on as a reader's recording of every frame."""
    return FilmRecording([RecordedFrame(f.frame_id, f.still, f.still, f.sightings) for f in game.frames[start:]])


@pytest.mark.parametrize("start", [0, 300])
def test_a_recorded_round_replays_through_the_tracker_without_a_camera(tmp_path, start) -> None:
    """The whole round recorded, or (``start``) the frames before the simulator's readings as in a test
    that photographs only the layouts."""
    game = simulate_wiener(5, players=4)
    recording_of(game, start).save(FilmRecording.path(tmp_path, 5, 4, start=start))
    film = WienerFilm(None, record=tmp_path, read_from=start)  # no recognizer: nothing may be photographed
    committed, asked = film.track(game)
    expected, expected_asked = track_wiener(game)
    assert [e.key() for e in committed] == [e.key() for e in expected]
    assert [e.penalties for e in committed if e.kind == "hand_end"] == [game.penalties]
    assert len(asked) == len(expected_asked)
    assert film.counts.frames == film.counts.replayed == len(game.frames) - start and film.counts.borrowed == 0


def test_still_frames_the_recording_left_unread_borrow_the_periods_readings_in_turn() -> None:
    """The recording's tracker settled after two still frames; a tracker that wants more gets the
    period's readings in turn (one repeated would outvote the other), and none across a move."""
    first, second = (Sighting("7H", 0.9, 40.0, 30.0, "discard"),), (Sighting("7H", 0.7, 40.2, 30.0, "discard"),)
    recording = FilmRecording([RecordedFrame(1, True, True, first), RecordedFrame(2, True, True, second),
                               *(RecordedFrame(k, True, False) for k in (3, 4, 5)),
                               RecordedFrame(6, False, False), RecordedFrame(7, True, False)])

    class Wanting:
        needs_frames = True

    counts = FilmCounts()
    frames = list(recording.frames(Wanting(), counts))
    assert [f.sightings for f in frames if f.still] == [first, second, first, second, first]
    assert [f.frame_id for f in frames] == [1, 2, 3, 4, 5, 6]  # frame 7: nothing read since the move
    assert (counts.borrowed, counts.recognized, counts.replayed) == (3, 5, 7)

    class Settled:
        needs_frames = False

    assert [f.frame_id for f in recording.frames(Settled(), FilmCounts())] == [6]  # still frames not needed


def test_the_layouts_of_a_rendered_round_with_jokers_are_read_and_settled_as_laid(recognizer) -> None:
    """Seed 3: Ann and Cleo lay out a joker each; a joker the reader cannot read is asked about (the
    players answer JK). The play before the knock goes in as simulated readings; from the knock on the
    table is photographed and read. Photographed with a design the recognizer was trained on: the
    held-out gnome/plastic read by the shipped models misreads Ann's 4C and 5C as 4S and 5S with
    confidence, and only the deck learned first (``replay --learn-deck``) reads them right."""
    game = simulate_wiener(3, players=4)
    film = WienerFilm(recognizer, read_from=game.knock_action(), design="gnome/anglo")
    committed, asked = film.track(game)
    plain = [e for e in committed if not e.needs_confirmation and e.kind != "irregularity"]
    assert [e.key() for e in plain] == [e.key() for e in game.truth[:len(plain)]]
    assert any(e.kind == "knock" and e.player == "Cleo" for e in plain)
    assert any(reply == "JK" for _, reply in asked)
    end = [e for e in committed if e.kind == "hand_end"]
    assert [e.penalties for e in end] == [game.penalties]


def test_joker_readings_reach_a_tracker_of_a_game_with_jokers() -> None:
    zones = default_zones("wiener", 4, 100.0, 80.0)
    calibration = Calibration.from_corners([(0, 0), (1000, 0), (1000, 800), (0, 800)], 100.0, 80.0)
    joker = CardObservation("JK", 0.93, ((500.0, 700.0), (540.0, 760.0)), ((480, 690), (560, 690), (560, 770), (480, 770)))
    with_jokers = TableReader(None, zones, make_calibrator((100.0, 80.0)), jokers=True)
    gin_like = TableReader(None, zones, make_calibrator((100.0, 80.0)))
    assert [(s.code, s.zone) for s in with_jokers.sightings([joker], calibration)] == [("JK", "seat0")]
    assert [s.code for s in gin_like.sightings([joker], calibration)] == ["BACK"]


def test_the_renderer_draws_jokers_from_the_designs_joker_faces() -> None:
    from dataclasses import replace

    from engine.simulate import Placed

    renderer = GameRenderer(320, 240, (100.0, 80.0), seed=3, noise=0.0)
    bare = renderer.render((), still=True).astype(int)
    joker = renderer.render((Placed("JK", 50.0, 40.0, "seat0"),), still=True).astype(int)
    x, y = renderer._project([(50.0, 40.0)])[0].astype(int)
    assert abs(joker[y - 5:y + 5, x - 3:x + 3] - bare[y - 5:y + 5, x - 3:x + 3]).mean() > 40  # a white face on green felt
    no_jokers = GameRenderer(320, 240, (100.0, 80.0), seed=3, deck=replace(renderer.deck, jokers=()))
    with pytest.raises(ValueError, match="has no joker faces"):
        no_jokers.render((Placed("JK", 50.0, 40.0, "seat0"),), still=True)
