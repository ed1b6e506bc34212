"""Tile Rummy refereed live: rendered camera frames through the real tile reader and tracker into the
record, turns ended by taps on the dashboard's turn clock in a real Chromium, the calls shown there."""

from __future__ import annotations

import json
import urllib.request

import numpy as np
import pytest

from engine.tile_tracker import TileTrackerOptions
from engine.tiles import TileRules
from rummyref.pipeline import Recorder, make_calibrator
from rummyref.tile_pipeline import TilePipeline, TileReferee, TileRound, TileTableReader
from tests.webui.support import PIN
from tests.webui.test_browser import http_post
from vision.synth.tile_table import TableCamera, TableLook, render_table
from vision.tiles.reader import TileReader
from webui.state import replay
from webui.store import EventStore

CAMERA = TableCamera.overhead(1280, 960)
CORNERS = [tuple(map(float, p)) for p in CAMERA.to_image([(0, 0), (80, 0), (80, 60), (0, 60)])]
RUN = [("R10", 30.0, 20.0), ("R11", 33.0, 20.0), ("R12", 36.0, 20.0), ("R13", 39.0, 20.0)]
MISTAKE = [("B2", 30.0, 40.0), ("G9", 33.0, 40.0), ("R8", 36.0, 40.0)]
"""Three tiles that make no group: Ben's first laying out is illegal."""
OPTIONS = TileTrackerOptions(window=2, quorum=2)


def photo(table: list) -> np.ndarray:
    """The table as the camera above it sees it (the same photo each time: a still table)."""
    look = TableLook.random(np.random.default_rng(2), CAMERA, effects=0.0)
    return render_table(np.random.default_rng(3), CAMERA, look, table).image


@pytest.fixture(scope="module")
def photos() -> dict[str, np.ndarray]:
    return {"empty": photo([]), "run": photo(RUN), "both": photo(RUN + MISTAKE)}


@pytest.fixture(scope="module")
def tile_reader() -> TileReader:
    return TileReader(threads=1)


def new_referee(store: EventStore, match_id: str, tile_reader: TileReader, players: tuple[str, ...] = ("Ann", "Ben"),
                rules: TileRules = TileRules()) -> tuple[Recorder, TileReferee]:
    """The live referee of match ``match_id`` (``players``, the first begins) and its recorder, reading
    ``CAMERA``'s frames through the table's corners."""
    recorder = Recorder(store, match_id)
    reader = TileTableReader(tile_reader.with_palette(rules.palette), make_calibrator((80.0, 60.0), CORNERS, (1280, 960)),
                             (80.0, 60.0))
    return recorder, TileReferee(reader, TileRound(players, players[0], rules, OPTIONS), recorder)


def tap_turn(phone, server: str, match_id: str, player: str) -> None:
    """A player taps on the turn clock whose turn begins."""
    phone.goto(f"{server}/m/{match_id}/hand")
    pin = phone.locator('form.turns input[name="pin"]')
    if pin.count():
        pin.fill(PIN)
    phone.click(f'form.turns button[value="{player}"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")


def test_turns_are_judged_when_the_next_player_is_tapped_and_shown_as_the_referees_calls(
        app, server, phone, photos, tile_reader) -> None:
    match_id = http_post(server, "/api/matches", {"game": "tiles", "players": ["Ann", "Ben"]})["match_id"]
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    recorder, referee = new_referee(store, match_id, tile_reader)
    frames = iter(range(1, 100))

    def show(table: str, times: int = 3) -> None:
        for _ in range(times):
            referee.frame(next(frames), photos[table])

    show("empty")
    tap_turn(phone, server, match_id, "Ann")
    assert referee.inbox(recorder.inbox()) == []        # the first tap begins Ann's turn
    show("run")
    assert sorted(s.code for s in referee.last.sightings) == ["R10", "R11", "R12", "R13"]
    assert replay(store.events(match_id)).plays == []   # nothing is judged before the turn ends
    tap_turn(phone, server, match_id, "Ben")
    [turn] = referee.inbox(recorder.inbox())
    assert (turn.kind, turn.player, turn.played, turn.legal, turn.opening_points) == (
        "turn", "Ann", ("R10", "R11", "R12", "R13"), True, 46)
    show("both")
    tap_turn(phone, server, match_id, "Ann")
    [mistake] = referee.inbox(recorder.inbox())
    assert (mistake.player, sorted(mistake.played), mistake.legal) == ("Ben", ["B2", "G9", "R8"], False)

    plays = replay(store.events(match_id)).plays
    assert [(p["kind"], p["player"], p["flagged"]) for p in plays] == [("turn", "Ann", False), ("turn", "Ben", True)]
    assert plays[0]["cards"] == ["R10", "R11", "R12", "R13"] and plays[0]["melds"] == [["R10", "R11", "R12", "R13"]]
    assert all(store.has_snapshot(p["evidence"]) for p in plays)

    phone.goto(f"{server}/m/{match_id}/hand")
    calls = phone.locator("ol.calls li.call")
    assert calls.count() == 2
    newest, first = calls.nth(0).inner_text(), calls.nth(1).inner_text()
    assert "Ben" in newest and "ILLEGAL" in newest and "flagged" in calls.nth(0).get_attribute("class")
    assert "Ann" in first and "legal" in first and "46" in first
    calls.nth(1).locator("details.photo summary").click()
    assert calls.nth(1).locator("svg.overlay g.read").count() == 4     # the tiles the turn was judged on
    store.close()


def test_a_tap_on_the_player_whose_turn_runs_only_restarts_the_clock(photos, tile_reader, tmp_path) -> None:
    from webui.events import create_match, record

    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben", "Cy"]}, "test").match_id
    recorder, referee = new_referee(store, match_id, tile_reader, ("Ann", "Ben", "Cy"))
    record(store, match_id, "table", {"turn": "Ben"}, "phone")     # Ben begins this round, not Ann
    referee.inbox(recorder.inbox())
    for frame in range(1, 4):
        referee.frame(frame, photos["run"])
    record(store, match_id, "table", {"turn": "Ben"}, "phone")     # the clock restarted
    assert referee.inbox(recorder.inbox()) == []
    record(store, match_id, "table", {"turn": "Cy"}, "phone")
    [turn] = referee.inbox(recorder.inbox())
    assert (turn.player, turn.legal) == ("Ben", True)
    store.close()


def test_the_pipeline_reads_a_camera_and_judges_the_turn_the_dashboard_ends(
        photos, tile_reader, tmp_path) -> None:
    """``rummyref run --game tiles``'s pipeline on a folder camera: frames paced, threads, the record."""
    import cv2

    from rummyref.pipeline import PipelineConfig
    from webui.events import create_match, record

    folder = tmp_path / "frames"
    folder.mkdir()
    for number, table in enumerate(["empty"] * 3 + ["run"] * 4, start=1):
        cv2.imwrite(str(folder / f"f{number:03d}.png"), photos[table])
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben"], "first_dealer": "Ann"}, "test").match_id

    def tap(frame_id: int) -> None:     # Ann's turn is tapped on the empty table, Ben's once she has laid out
        if frame_id in (1, 7):
            other = EventStore(tmp_path / "record.sqlite3")
            record(other, match_id, "table", {"turn": "Ann" if frame_id == 1 else "Ben"}, "phone")
            other.close()

    config = PipelineConfig(camera=f"dir:{folder}?fps=2", players=("Ann", "Ben"), first_dealer="Ann",
                            corners=tuple(CORNERS), corners_size=(1280, 960))
    pipeline = TilePipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), match_id, reader=tile_reader,
                            tracker=OPTIONS, on_frame=tap).start()
    assert pipeline.wait(timeout=60), "the pipeline did not finish a 7-frame folder"
    pipeline.stop()
    assert not pipeline.stats.errors and pipeline.stats.frames == 7
    [play] = replay(store.events(match_id)).plays
    assert (play["kind"], play["player"], play["cards"], play["flagged"]) == ("turn", "Ann", ["R10", "R11", "R12", "R13"], False)
    store.close()


def test_the_camera_page_of_a_tile_referee_speaks_of_tiles(app, photos, tile_reader, tmp_path) -> None:
    import cv2

    from rummyref.pipeline import PipelineConfig

    cv2.imwrite(str(tmp_path / "f001.png"), photos["run"])
    config = PipelineConfig(camera=f"dir:{tmp_path}", players=("Ann", "Ben", "Cy"), corners=tuple(CORNERS),
                            corners_size=(1280, 960))
    from webui.events import create_match

    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben", "Cy"]}, "test").match_id
    store.close()
    pipeline = TilePipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), match_id, reader=tile_reader)
    app.config["CAMERA"] = pipeline
    client = app.test_client()
    page = client.get("/camera").text
    assert 'data-state="tiles"' in page and "No deck learned" not in page
    assert client.get("/camera/view.json").status_code == 503        # no frame yet
    assert pipeline.start().wait(timeout=30)
    pipeline.stop()
    view = client.get("/camera/view.json")       # through the corners the referee was given, as it reads
    assert view.status_code == 200 and view.json["state"] == "manual" and view.json["usable"]
    assert view.json["corners"] == [list(corner) for corner in CORNERS]


def test_tile_faces_as_skin_coloured_as_a_hand_do_not_keep_the_table_from_being_read(tile_reader) -> None:
    """Filmed games (benchmarks/eval_tile_referee.py): under some lights a row of tile faces is skin-coloured,
    and the card pipeline's motion detector took it for a resting hand, so no frame was ever still."""
    from vision.motion import MotionDetector

    table = [("Y10", 30.0, 20.0), ("Y11", 33.0, 20.0), ("Y12", 36.0, 20.0), ("Y13", 39.0, 20.0),
             ("B5", 30.0, 30.0), ("G5", 33.0, 30.0), ("R5", 36.0, 30.0)]
    look = TableLook.random(np.random.default_rng([10, 0]), CAMERA)
    image = render_table(np.random.default_rng([10, 1]), CAMERA, look, table).image
    cards = MotionDetector()
    assert [cards.update(image).still for _ in range(2)] == [False, False]     # a "hand" on the still table
    reader = TileTableReader(tile_reader, make_calibrator((80.0, 60.0), CORNERS, (1280, 960)), (80.0, 60.0))
    first, second = reader.read(image), reader.read(image)
    assert not first.still and second.still
    assert sorted(s.code for s in second.sightings) == sorted(code for code, _, _ in table)


def test_the_turn_button_ends_the_turn_like_a_chess_clock_and_restarts_the_dashboards(photos, tile_reader, tmp_path) -> None:
    from webui.events import create_match

    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben"]}, "test").match_id
    recorder, referee = new_referee(store, match_id, tile_reader)
    assert referee.next_turn() == [] and replay(store.events(match_id)).turn == "Ann"
    for frame in range(1, 4):
        referee.frame(frame, photos["run"])
    [turn] = referee.next_turn()
    assert (turn.player, turn.legal, turn.opening_points) == ("Ann", True, 46)
    assert replay(store.events(match_id)).turn == "Ben"
    assert referee.inbox(recorder.inbox()) == []        # the button's own turn events are not taken as taps
    store.close()


def test_after_a_round_is_recorded_the_next_player_begins_once_the_table_is_cleared() -> None:
    from engine.tile_tracker import TileSighting

    game = TileRound(("Ann", "Ben", "Cy"), "Ann", options=TileTrackerOptions(window=1, quorum=1))
    last_round = [TileSighting(code, 0.95, 10 + 3 * i, 20) for i, code in enumerate(["R10", "R11", "R12", "R13"])]
    game.round_recorded()
    assert (game.hand, game.tracker.players[0], game.current) == (2, "Ben", None)
    assert game.update(1, last_round, still=True) == [] and game.clearing      # the last round still lies there
    assert game.update(2, [], still=True) == [] and not game.clearing
    game.turn_begins("Ben", 3)
    game.update(4, [], still=False)                     # Ben's hands lay out his tiles
    game.update(5, last_round, still=True)
    [turn] = game.turn_begins("Cy", 6)
    assert (turn.player, turn.played, turn.legal) == ("Ben", ("R10", "R11", "R12", "R13"), True)


def test_a_rummikub_style_set_is_read_judged_and_shown_in_its_own_colours(app, client, tile_reader) -> None:
    from engine.cards import RUMMIKUB
    from webui.events import create_match

    run = [("K10", 30.0, 20.0), ("K11", 33.0, 20.0), ("K12", 36.0, 20.0), ("K13", 39.0, 20.0)]
    look = TableLook.random(np.random.default_rng(4), CAMERA, palette="rummikub", effects=0.0)
    image = render_table(np.random.default_rng(5), CAMERA, look, run).image
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben"], "options": {"set": "rummikub"}},
                            "test").match_id
    recorder, referee = new_referee(store, match_id, tile_reader, rules=TileRules(palette=RUMMIKUB))
    referee.next_turn()
    for frame in range(1, 4):
        referee.frame(frame, image)
    [turn] = referee.next_turn()
    assert (turn.player, turn.played, turn.legal) == ("Ann", ("K10", "K11", "K12", "K13"), True)
    assert replay(store.events(match_id)).plays[0]["cards"] == ["K10", "K11", "K12", "K13"]
    page = client.get(f"/m/{match_id}/hand").text
    assert page.count("tile tile-k") == 4 and "Rummikub" in client.get(f"/m/{match_id}").text
    store.close()


def test_run_referees_tile_rummy_for_three_players(photos, tmp_path, monkeypatch) -> None:
    import cv2

    from tests.test_pipeline import run_until_sigterm

    monkeypatch.setenv("RUMMYREF_DATA", str(tmp_path / "learned"))     # no set learned there

    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "f001.png"), photos["run"])
    data = tmp_path / "data"
    output = run_until_sigterm(["--game", "tiles", "--camera", f"dir:{folder}?fps=2", "--players", "Ann,Ben,Cy",
                                "--dealer", "Cy", "--tiles", "rummikub", "--corners", json.dumps(CORNERS)], data, "Cy")
    assert "loading the tile reader" in output and "tap whose turn begins" in output and "no deck learned" not in output
    assert "tile set rummikub: read with the shipped tile reader" in output
    store = EventStore(data / "record.sqlite3")
    (match_id,) = store.match_ids()
    state = replay(store.events(match_id))
    assert (state.game, state.players, state.first_dealer) == ("tiles", ["Ann", "Ben", "Cy"], "Cy")
    assert state.options["set"] == "rummikub" and state.camera is not None
    store.close()


@pytest.mark.parametrize("arguments, complaint", [
    (["--players", "Ann,Ben,Cy"], "needs two different names"),
    (["--game", "tiles", "--players", "Ann,Ben,Cy,Dan,Eve"], "needs two to 4 different names"),
    (["--game", "tiles", "--players", "Ann,Ben", "--deck", "mine"], "--deck is a learned card deck"),
])
def test_run_refuses_players_and_options_the_game_does_not_take(arguments, complaint, tmp_path, capsys) -> None:
    from rummyref.cli import main

    assert main(["run", "--camera", "dir:frames", "--data", str(tmp_path), *arguments]) == 2
    assert complaint in capsys.readouterr().err


def test_a_round_recorded_then_the_next_round_tapped_are_taken_in_that_order(photos, tile_reader, tmp_path) -> None:
    from webui.events import create_match, record, score_hand

    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"game": "tiles", "players": ["Ann", "Ben"]}, "test").match_id
    recorder, referee = new_referee(store, match_id, tile_reader)
    record(store, match_id, "table", {"turn": "Ann"}, "phone")
    referee.inbox(recorder.inbox())
    # between two looks of the worker the players score the round and tap who begins the next one
    score_hand(store, match_id, {"winner": "Ann", "hands": {"Ann": "", "Ben": "R5 JK"}}, "phone")
    record(store, match_id, "table", {"turn": "Ben"}, "phone")
    assert referee.inbox(recorder.inbox()) == []
    assert (referee.game.hand, referee.game.current, referee.game.tracker.players[0]) == (2, "Ben", "Ben")
    store.close()


def test_a_set_taught_with_learn_tiles_is_what_the_live_referee_reads_with(tmp_path, monkeypatch) -> None:
    import cv2

    from rummyref.cli import main
    from rummyref.pipeline import PipelineConfig
    from vision.tiles.learn import learned_profile
    from vision.synth.tiles import render_learning_layout

    monkeypatch.setenv("RUMMYREF_DATA", str(tmp_path / "learned"))
    assert learned_profile("rummikub") is None
    photo = tmp_path / "layout.png"
    cv2.imwrite(str(photo), render_learning_layout(np.random.default_rng(1), "rummikub").image)
    assert main(["learn-tiles", "--tiles", "rummikub", str(photo)]) == 0
    config = PipelineConfig(camera="dir:frames", players=("Ann", "Ben"), tiles="rummikub",
                            deck=learned_profile("rummikub"))
    pipeline = TilePipeline(config, lambda: EventStore(tmp_path / "record.sqlite3"), "m1")
    assert pipeline.deck_name == "tiles-rummikub" and pipeline.reader.reader.palette.name == "rummikub"
