"""Wiener Rummy refereed live (``rummyref run --game wiener``): a round's readings through the
Wiener pipeline's session into the record, the players answering its questions there, the round
settled from the layouts and the next round seated and dealt as the record says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.simulate_wiener import simulate_wiener
from rummyref.pipeline import PipelineConfig, Recorder
from rummyref.simulated_replay import referee_simulated_round
from rummyref.wiener_pipeline import TABLE_CM, WienerPipeline
from tests.webui.support import PIN
from tests.webui.test_browser import http_post
from webui.events import create_match, score_hand, standing
from webui.state import replay
from webui.store import EventStore

SEED = 3


@pytest.fixture
def store(app) -> EventStore:
    return EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])


def test_a_round_is_settled_into_the_record_and_the_next_round_is_dealt_as_the_record_says(store) -> None:
    game = simulate_wiener(SEED, players=3)
    assert game.penalties is not None
    pipeline, figures = referee_simulated_round(store, game)
    assert figures["agree"] and not figures["wrong"] and figures["discards_equal"]
    events = store.events(pipeline.match_id)
    state = replay(events)
    (hand,) = state.counted_hands
    assert hand.result["penalties"] == list(game.penalties)
    assert hand.input["knocker"] == next(e.player for e in game.truth if e.kind == "knock")
    assert sorted(e.payload["player"] for e in events if e.kind == "play" and e.payload["kind"] == "layout") == \
        sorted(game.players)
    assert not [e.payload for e in events if e.kind == "play" and e.payload["flagged"]]
    # The next round: tracked once the table is cleared, dealt by the player the record names.
    now = standing(state)
    assert pipeline.session.hand == 2 and pipeline.session.clearing
    assert pipeline.session.tracker.dealer == now.tables[0].dealer != game.dealer
    assert pipeline.session.tracker.players == now.tables[0].players


def test_a_round_the_players_record_by_hand_moves_the_referee_to_the_next_round(store) -> None:
    game = simulate_wiener(SEED, players=3)
    pipeline, _ = referee_simulated_round(store, replace(game, frames=game.frames[:40]))  # the first turns only
    assert pipeline.session.hand == 1
    hands = {"Ann": "AS AH AD 2S 3S 4S 5C 6C 7C 2D".split(), "Ben": "KS KH KD QS QH QD JS JH JD 2C".split(),
             "Cleo": "3D 4D 5D 6D 7D 8D 9S 10S JC QC".split()}
    score_hand(store, pipeline.match_id, {"hands": hands, "knocker": "Ann", "dealer": game.dealer}, "Ann")
    pipeline._take_record(pipeline.recorder.inbox())
    now = standing(replay(store.events(pipeline.match_id)))
    assert now.rounds_played == 1 and pipeline.session.hand == 2
    assert pipeline.session.tracker.dealer == now.tables[0].dealer


@pytest.fixture(scope="module")
def round_frames(tmp_path_factory):
    """The first 40 frames of a rendered three-player round (a training deck design, read surely):
    Ann discards AH, Ben takes it."""
    import cv2

    from rummyref.render_game import GameRenderer, rendered_frames

    game = simulate_wiener(SEED, players=3)
    renderer = GameRenderer(1280, 720, (game.zones.width, game.zones.height), design="kde/standard", seed=SEED)
    folder = tmp_path_factory.mktemp("wiener-frames")
    for frame, image in zip(game.frames[:40], rendered_frames(game.frames[:40], renderer)):
        cv2.imwrite(str(folder / f"f{frame.frame_id:03d}.png"), image)
    return game, folder


def test_the_threaded_referee_reads_a_rendered_round_into_the_record_with_its_photos(store, round_frames) -> None:
    game, folder = round_frames
    match_id = create_match(store, {"game": "wiener", "players": list(game.players), "first_dealer": game.dealer},
                            "test").match_id
    config = PipelineConfig(camera=f"dir:{folder}?fps=2", players=game.players, first_dealer=game.dealer,
                            table_cm=TABLE_CM)
    pipeline = WienerPipeline(config, lambda: EventStore(store.path, store.snapshot_dir), match_id).start()
    assert pipeline.wait(timeout=120)
    assert not pipeline.stats.errors and pipeline.stats.read >= 10
    events = store.events(match_id)
    discards = [(e.payload["player"], e.payload["card"]) for e in events if e.kind == "discard"]
    assert discards[:1] == [("Ann", "AH")]
    plays = [e.payload for e in events if e.kind == "play"]
    assert ("Ben", ["AH"]) in [(p["player"], p["cards"]) for p in plays if p["kind"] == "pickup"]
    assert all(p["evidence"] and store.snapshot_path(p["evidence"]).is_file() for p in plays)
    assert not [p for p in plays if p["flagged"]]


def test_run_referees_wiener_rummy_for_three_players(round_frames, tmp_path) -> None:
    from tests.test_pipeline import run_until_sigterm

    _, folder = round_frames
    data = tmp_path / "data"
    output = run_until_sigterm(["--game", "wiener", "--camera", f"dir:{folder}?fps=2", "--players", "Ann,Ben,Cleo"],
                               data, "Cleo")
    assert "loading the recognizer" in output and "no deck learned" in output and "less than 0.98 sure" in output and "settled from the layouts" in output
    store = EventStore(data / "record.sqlite3")
    (match_id,) = store.match_ids()
    state = replay(store.events(match_id))
    assert (state.game, state.players, state.first_dealer) == ("wiener", ["Ann", "Ben", "Cleo"], "Ann")
    assert state.camera is not None
    store.close()


@pytest.mark.parametrize("arguments, complaint", [
    (["--game", "wiener", "--players", "A,B,C,D,E,F,G"], "needs two to 6 different names"),
    (["--game", "wiener", "--players", "Ann,Ben", "--dealer", "Cy"], "is not one of the players"),
])
def test_run_refuses_what_wiener_rummy_does_not_take(arguments, complaint, tmp_path, capsys) -> None:
    from rummyref.cli import main

    assert main(["run", "--camera", "dir:frames", "--data", str(tmp_path), *arguments]) == 2
    assert complaint in capsys.readouterr().err


def test_a_move_question_is_tapped_in_chromium_and_the_referee_commits_the_move(app, server, phone, store) -> None:
    """Two decks: two aces of spades may lie on the pile, so the referee asks which move was made;
    the answer, words not a card, is a button on the hand page, and the move it names is committed."""
    game = simulate_wiener(12, players=3)
    match_id = http_post(server, "/api/matches", {"game": "wiener", "players": list(game.players),
                                                  "first_dealer": game.dealer})["match_id"]
    # the simulator's readings are no deck's: the tracker's own bar, not an untaught deck's
    config = PipelineConfig(camera="dir:none", players=game.players, first_dealer=game.dealer, table_cm=TABLE_CM,
                            play_confidence=0.0)
    pipeline = WienerPipeline(config, lambda: store, match_id)
    pipeline.recorder = Recorder(store, match_id)
    for frame in game.frames:
        pipeline._commit(pipeline.session.update(frame.frame_id, frame.sightings, frame.still), None)
        if replay(store.events(match_id)).pending_readings:
            break
    (question,) = replay(store.events(match_id)).pending_readings
    assert question.choices == ["Cleo discarded AS", "nothing moved"]
    before = [(e.payload["player"], e.payload["card"]) for e in store.events(match_id) if e.kind == "discard"]
    assert before[-1] == ("Ben", "AS")     # the other deck's ace of spades lies under it

    phone.goto(f"{server}/m/{match_id}/hand")
    assert "Cleo discarded AS or nothing moved?" in phone.locator(".confirm .prompt").inner_text()
    phone.fill('.confirm input[name="pin"]', PIN)
    phone.click('.confirm button[value="Cleo discarded AS"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    pipeline._take_record(pipeline.recorder.inbox())
    discards = [(e.payload["player"], e.payload["card"]) for e in store.events(match_id) if e.kind == "discard"]
    assert discards == before + [("Cleo", "AS")]



def test_without_a_learned_deck_the_referee_asks_about_readings_below_0_98(store) -> None:
    """``run --game wiener`` without ``--deck``: an untaught deck's small indices are misread surely, so
    the layouts' readings and the discard pile's are asked below 0.98 (0.9 and 0.8 with a learned deck);
    a harness may set the bars."""
    game = simulate_wiener(SEED, players=3)
    match_id = create_match(store, {"game": "wiener", "players": list(game.players)}, "test").match_id
    config = PipelineConfig(camera="dir:none", players=game.players, table_cm=TABLE_CM)
    untaught = WienerPipeline(config, lambda: store, match_id)
    bars = lambda pipeline: (pipeline.session.tracker._play_options.min_confidence,        # noqa: E731
                             pipeline.session.tracker._layout_options.min_confidence)
    assert bars(untaught) == (0.98, 0.98)
    untaught.session.start_round(game.players[:2], game.players[0], untaught.session.tracker.rules, number=2)
    assert bars(untaught) == (0.98, 0.98)      # every round of the match
    chosen = WienerPipeline(replace(config, layout_confidence=0.9, play_confidence=0.0), lambda: store, match_id)
    assert bars(chosen) == (0.8, 0.9)
