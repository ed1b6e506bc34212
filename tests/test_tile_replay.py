"""Simulated tile games photographed, read by the real tile reader, tracked and scored."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from engine.simulate_tiles import simulate_tiles
from rummyref.cli import main
from rummyref.simulated_replay import replay_tiles
from rummyref.tile_replay import TileFilm, doubts, sightings
from vision.synth.tile_table import TableCamera, TableLook, render_table
from vision.tiles.reader import Doubt, TableReading, TileReader


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader(threads=1)


def test_the_tiles_read_lie_where_the_simulator_put_them(reader):
    camera = TableCamera.overhead(1280, 960)
    table = [("R7", 10.0, 10.0), ("R8", 13.0, 10.0), ("R9", 16.0, 10.0), ("B4", 40.0, 30.0), ("G4", 43.0, 30.0)]
    look = TableLook.random(np.random.default_rng(2), camera, effects=0.0)
    seen = sightings(reader.read(render_table(np.random.default_rng(3), camera, look, table).image), camera)
    assert sorted(s.code for s in seen) == sorted(code for code, _, _ in table)
    for code, x, y in table:
        assert any(s.code == code and abs(s.x - x) < 0.5 and abs(s.y - y) < 0.5 for s in seen), (code, seen)


def test_a_short_rendered_game_commits_the_true_turns(reader):
    film = TileFilm(reader, effects=0.0)
    turns = list(replay_tiles([4], turns=3, players=4, answer=True, track=film.track))
    assert [(t["result"], t["agree"]) for t in turns] == [(t["truth"], True) for t in turns]
    assert [len(t["truth"]["played"]) for t in turns] == [6, 6, 6]     # tiles played, by identity, not just counted
    assert film.counts.frames == 9 and film.counts.incomplete == 0 and film.counts.complete_turns == 3


class SmudgedReader:
    """The real reader on frames where the number of the tile at ``spot`` (table cm) is wiped off:
    a tile seen but unreadable."""

    def __init__(self, reader: TileReader, camera: TableCamera, spot: tuple[float, float]) -> None:
        self.reader, self.camera, self.spot = reader, camera, spot

    def read(self, image: np.ndarray):
        return self.reader.read(self.wiped(image))

    def wiped(self, image: np.ndarray) -> np.ndarray:
        x, y = self.spot
        number = self.camera.to_image([(x - 1.0, y - 1.5), (x + 1.0, y - 1.5), (x + 1.0, y + 0.6), (x - 1.0, y + 0.6)])
        fx, fy = self.camera.to_image([(x, y + 1.5)])[0]          # the face below the number
        image = image.copy()
        cv2.fillConvexPoly(image, np.int32(number.round()), [int(v) for v in image[int(fy), int(fx)]])
        return image


@pytest.mark.parametrize("answer", [True, False])
def test_a_turn_with_an_unreadable_tile_asks_about_its_place_instead_of_guessing(reader, answer):
    game = simulate_tiles(4, turns=3)
    code, x, y = game.frames[-1].table[-1]          # a tile the third turn lays
    assert code not in {c for c, _, _ in game.frames[0].table}
    film = TileFilm(SmudgedReader(reader, TableCamera.overhead(1280, 960), (x, y)), effects=0.0)
    questions = []
    turns = list(replay_tiles([4], turns=3, players=4, answer=answer, track=lambda g, answer: _kept(film, g, answer, questions)))
    assert [t["agree"] for t in turns[:2]] == [True, True] and not any(t["wrong"] for t in turns)
    assert film.counts.incomplete >= 1
    if not answer:      # unanswered: the turn is a question, never a guess
        assert turns[2]["needs_confirmation"] and turns[2]["result"] is None
        return
    # Answered: one question about the smudged tile's place, the true tile among its answers, and the
    # turn then equals the truth.
    [(question, reply)] = questions
    assert question.kind == "doubt" and "cannot be read" in question.detail and reply == code
    assert abs(question.position[0] - x) < 0.5 and abs(question.position[1] - y) < 0.5 and code in question.candidates
    assert turns[2]["agree"] and turns[2]["questions"] == 1 and turns[2]["answered"] == 1


def _kept(film: TileFilm, game, answer: bool, questions: list):
    committed, asked = film.track(game, answer)
    questions.extend(asked)
    return committed, asked


def test_replay_render_prints_a_line_per_turn_and_a_summary(capsys):
    assert main(["replay", "--simulate", "1", "--seed", "4", "--game", "tiles", "--turns", "2", "--render",
                 "--answer", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("turn") for line in lines[:2]] == [1, 2]
    summary = lines[-1]
    assert summary["turns"] == 2 and summary["frames_read"] == 6 and summary["rendered"] == "1280x960"
    assert summary["agree"] + summary["needs_confirmation"] + summary["wrong_committed"] == 2


def test_render_is_refused_for_other_games(capsys):
    assert main(["replay", "--simulate", "1", "--game", "gin", "--render"]) == 2
    assert "--render is for --simulate N --game tiles" in capsys.readouterr().err


def test_the_readers_doubts_about_one_place_are_asked_there_the_others_about_the_table():
    """The place is the reader's data, not parsed from its words (a doubt's words may name no point)."""
    camera = TableCamera.overhead(1280, 960)
    (x, y), = camera.to_image([(30.0, 20.0)])
    placed = [Doubt("one tile's room between two tiles in one line", (x, y)),
              Doubt("a tile-sized patch of face colour is no tile found", (x, y))]
    whole = [Doubt(f"the blob at ({x:.0f}, {y:.0f}) cut into 3 tile(s) of unusual width"),
             Doubt("a hand covers part of the table"), "a row is a combination but for one tile's colour"]
    found = doubts(TableReading((), tuple(placed + whole + [Doubt("no tile found")])), camera)
    assert [d.why for d in found] == placed + whole
    assert all(abs(d.x - 30.0) < 0.1 and abs(d.y - 20.0) < 0.1 for d in found[:len(placed)])
    assert all(d.place is None for d in found[len(placed):])
    assert doubts(TableReading((), ("no tile found",)), camera) == ()        # the empty table


def test_the_reader_gives_the_place_of_a_tile_it_cannot_read(reader):
    camera = TableCamera.overhead(1280, 960)
    table = [("R10", 10.0, 12.0), ("R11", 13.0, 12.0), ("R12", 16.0, 12.0), ("R13", 19.0, 12.0)]
    look = TableLook.random(np.random.default_rng(2), camera, effects=0.0)
    image = render_table(np.random.default_rng(3), camera, look, table).image
    reading = SmudgedReader(reader, camera, (16.0, 12.0)).read(image)
    [unread] = [d for d in reading.doubts if "cannot be read" in d]
    (x, y), = camera.to_image([(16.0, 12.0)])
    assert abs(unread.at[0] - x) < 5 and abs(unread.at[1] - y) < 5, (unread.at, x, y)
    assert all(d.at is None for d in reading.doubts if "not one between tiles" in d)