"""A tile Rummy turn judged from a photo before it and one after it: `rummyref check-turn` on
rendered photos, and the rule that a combination left broken is illegal whatever else is unsure."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.cards import RUMMIKUB
from engine.tiles import TileRules
from rummyref import turn_photos
from rummyref.cli import main
from rummyref.turn_photos import BROKEN_BEFORE, DESPITE_BROKEN, DOUBTS, UNSURE, by_change, judge_turn, read_turn
from vision.synth.tiles import render_tile_scene, render_tile_turn, turn_params
from vision.tiles.change import TableChange, table_change
import vision.tiles.reader as reader_module
from vision.tiles.reader import BEYOND_END, HAND, PATCH, ROOM, Doubt, TableReading, TileObservation, TileReader

BEFORE = [["R1", "R2", "R3"], ["B5", "G5", "Y5"]]


PARAMS = turn_params("ravensburger")
"""The benchmark's turns (held-out font)."""


def _photos(tmp_path, after: list[list[str]], seed: int, before: list[list[str]] = BEFORE,
            one_camera: bool = False) -> list[str]:
    """The table before and after the turn, photographed as the benchmark does: each on its own
    table in its own light, or (``one_camera``) by one still camera, alike but for the turn."""
    if one_camera:
        scenes = render_tile_turn(np.random.default_rng(seed), PARAMS, before, after)
    else:
        scenes = [render_tile_scene(np.random.default_rng([seed, photo]), PARAMS, rows)
                  for photo, rows in enumerate((before, after))]
    paths = []
    for photo, (scene, rows) in enumerate(zip(scenes, (before, after))):
        assert len(scene.rows) == len(rows)
        paths.append(str(tmp_path / f"{('before', 'after')[photo]}.png"))
        cv2.imwrite(paths[-1], scene.image)
    return paths


def test_check_turn_rules_a_new_run_legal_and_names_the_tiles_played(tmp_path, capsys) -> None:
    assert main(["check-turn", *_photos(tmp_path, BEFORE + [["G7", "G8", "G9"]], seed=0)]) == 0
    out = capsys.readouterr().out
    assert "played: G7 G8 G9" in out and "verdict: legal" in out


def test_check_turn_judges_a_first_laying_out_by_its_points(tmp_path, capsys) -> None:
    photos = _photos(tmp_path, BEFORE + [["G7", "G8", "G9"]], seed=0)
    assert main(["check-turn", "--json", "--first-laying-out", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["verdict"] == "illegal" and found["opening_points"] == 24
    assert main(["check-turn", "--json", "--first-laying-out", "--opening-points", "20", *photos]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "legal"


def test_check_turn_rules_a_broken_combination_illegal_despite_doubts_elsewhere(tmp_path, capsys) -> None:
    photos = _photos(tmp_path, BEFORE + [["G7", "B9", "Y11"]], seed=5)
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    # The photo before the turn doubts two of its tiles (read as others: "played" holds them too);
    # the three laid make no combination whatever those are.
    assert found["before"]["doubts"] and {"G7", "B9", "Y11"} <= set(found["played"])
    assert found["verdict"] == "illegal" and found["despite"] == DESPITE_BROKEN
    assert [v for v in found["violations"] if "(G7 B9 Y11) is not a valid group or run" in v]
    assert main(["check-turn", "--json", "--strict", *photos]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "needs confirmation"
    assert main(["check-turn", *photos]) == 0
    out = capsys.readouterr().out      # the doubts numbered as --annotate rings them, then the verdict and why
    assert "  doubt 1: " in out and "the verdict stands whatever the doubted tiles are" in out and "verdict: illegal" in out


def test_check_turn_draws_the_evidence_and_recognize_draws_the_tiles(tmp_path, capsys) -> None:
    photos = _photos(tmp_path, BEFORE + [["G7", "B9", "Y11"]], seed=1)
    out = tmp_path / "evidence.png"
    assert main(["check-turn", "--annotate", str(out), *photos]) == 0
    picture = cv2.imread(str(out))
    before = cv2.imread(photos[0])
    # both photos side by side under the verdict's band, each with the tiles outlined in green
    assert picture.shape[1] == 2 * before.shape[1] and picture.shape[0] > before.shape[0]
    band = picture[:picture.shape[0] - before.shape[0]]
    assert (band < 100).any() and (band.reshape(-1, 3) == 255).all(axis=1).mean() > 0.8
    green = (picture[..., 1] > 180) & (picture[..., 0] < 90) & (picture[..., 2] < 90)
    assert green.sum() > 200
    drawn = tmp_path / "after.png"
    assert main(["recognize", "--tiles", "ravensburger", "--annotate", str(drawn), photos[1]]) == 0
    assert cv2.imread(str(drawn)).shape == before.shape
    assert main(["check-turn", "--annotate", str(tmp_path / "evidence.gif"), *photos]) == 2
    assert ".png" in capsys.readouterr().err


def test_check_turn_says_which_photo_cannot_be_read(tmp_path, capsys) -> None:
    broken = tmp_path / "after.jpg"
    broken.write_bytes(b"\xff\xd8 not a JPEG")
    before = _photos(tmp_path, BEFORE, seed=0)[0]
    assert main(["check-turn", before, str(broken)]) == 1
    assert "after.jpg" in capsys.readouterr().err


def _reading(rows: list[str], doubts=(), unsure: str | tuple[int, int] = "", sure: float = 0.99) -> TableReading:
    """Rows of 40 px tiles 30 px apart, row r at y = 100 r; ``unsure``: a tile read at 0.5 (a code, or
    (row, column)), the others at ``sure``."""
    def square(x, y):
        return ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40))
    return TableReading(tuple(TileObservation(code, 0.5 if unsure in (code, (r, c)) else sure, square(30 * c, 100 * r), r)
                              for r, row in enumerate(rows) for c, code in enumerate(row.split())), tuple(doubts))


BEFORE_READ = _reading(["R1 R2 R3", "B5 G5 Y5"])
NO_COMBINATION = ["R1 R2 R3", "B5 G5 Y5", "G7 B9 Y11"]       # the new row at y = 200, x = 0..90


def patch(x: float, y: float) -> Doubt:
    return Doubt(f"a tile-sized patch of face colour at ({x:.0f}, {y:.0f}) is no tile found", (x, y))


def test_a_broken_combination_is_ruled_despite_a_missed_tile_away_from_it() -> None:
    ruling = judge_turn(BEFORE_READ, _reading(NO_COMBINATION, [patch(600, 20)]), TileRules())
    assert ruling.verdict == "illegal" and ruling.despite == DESPITE_BROKEN
    assert ruling.check.violations == ("group 3 (G7 B9 Y11) is not a valid group or run: "
                                       "neither a set (B9 has another rank) nor a run (two suits)",)


def test_a_broken_combination_is_ruled_despite_a_row_elsewhere_that_may_hold_more_tiles() -> None:
    odd = Doubt("the blob at (45, 20) cut into 3 tile(s) of unusual width", near=[(15, 20), (45, 20), (75, 20)])
    assert judge_turn(BEFORE_READ, _reading(NO_COMBINATION, [odd]), TileRules()).despite == DESPITE_BROKEN
    odd_row = Doubt("the blob at (45, 220) cut into 3 tile(s) of unusual width", near=[(15, 220), (45, 220), (75, 220)])
    assert judge_turn(BEFORE_READ, _reading(NO_COMBINATION, [odd_row]), TileRules()).asked == DOUBTS


@pytest.mark.parametrize("after, why", [
    (_reading(NO_COMBINATION, [patch(140, 220)]), DOUBTS),               # a tile may lie at the row's end
    (_reading(NO_COMBINATION, [Doubt("a hand covers part of the table")]), DOUBTS),   # may hide tiles anywhere
    (_reading(NO_COMBINATION, [patch(600, 20)], unsure="B9"), DOUBTS),   # B9 may be a G8
    (_reading(["R1 R2 R3", "B5 G5 Y5", "G7 B9"], [patch(600, 20)]), DOUBTS),   # a pair: likelier a row read apart
    # a tile twice (as seed 27, turn 1: the run K1-K7 cut into eight tiles, K4 read twice)
    (_reading(["R1 R2 R3", "B5 G5 Y5", "B8 B9 B10 B10 B11"], [patch(600, 20)]), DOUBTS),
])
def test_a_broken_combination_a_missed_or_misread_tile_may_mend_is_asked_about(after, why) -> None:
    ruling = judge_turn(BEFORE_READ, after, TileRules())
    assert ruling.verdict == "needs confirmation" and why in ruling.asked


def test_a_legal_turn_is_asked_about_where_a_tile_may_be_missed_or_misread() -> None:
    legal = ["R1 R2 R3", "B5 G5 Y5", "G7 G8 G9"]
    assert judge_turn(BEFORE_READ, _reading(legal), TileRules()).verdict == "legal"
    assert judge_turn(BEFORE_READ, _reading(legal, [patch(600, 20)]), TileRules()).asked == DOUBTS
    assert judge_turn(BEFORE_READ, _reading(legal, unsure="G8"), TileRules()).asked == UNSURE


def test_a_tile_read_unsurely_in_one_photo_is_taken_as_the_other_photo_reads_its_combination() -> None:
    """The same combination on both photos is the same tiles: B6 read at 0.5 before the turn is the B6
    read surely after it, in the same run or in that run extended. Read less surely after it too, it is asked about."""
    table = ["R1 R2 R3", "B4 B5 B6 B7"]
    laid = table + ["G5 G6 G7"]
    assert judge_turn(_reading(table, unsure="B6"), _reading(laid), TileRules()).verdict == "legal"
    assert judge_turn(_reading(table), _reading(laid, unsure="B6"), TileRules()).verdict == "legal"
    assert judge_turn(_reading(table, unsure="B6"), _reading(laid, sure=0.8), TileRules()).asked == UNSURE
    extended = ["R1 R2 R3", "B4 B5 B6 B7 B8"]
    assert judge_turn(_reading(table, unsure="B6"), _reading(extended), TileRules()).verdict == "legal"
    assert judge_turn(_reading(table, unsure="B6"), _reading(extended, sure=0.8), TileRules()).asked == UNSURE
    assert judge_turn(_reading(table, unsure="B6"), _reading(["R1 R2 R3", "B4 B5 B7", "G5 G6 G7"]),
                      TileRules()).verdict == "illegal"     # B4 B5 B7 is no combination, whatever B6 was


def test_a_table_before_the_turn_read_with_a_broken_combination_is_asked_about() -> None:
    """The benchmark's seed 24, turn 28: the run G1-G4 read apart before the turn as G1 G2 G3 and G3 G4,
    G3 twice, the first read unsurely. The run after the turn holds the first G3 read surely, so one G3
    seemed to leave the table, and a legal turn read as illegal. The table before a turn is valid."""
    before = _reading(["Y5 JK R5 B5", "G1 G2 G3", "G3 G4"], unsure=(1, 2))
    after = _reading(["Y5 JK R5 B5", "G1 G2 G3 G4", "G9 R9 Y9 B9"])
    assert judge_turn(before, after, TileRules()).asked == BROKEN_BEFORE


TABLE = [["R1", "R2", "R3"], ["B5", "G5", "Y5"], ["Y9", "Y10", "Y11", "Y12"]]


def test_check_turn_judges_by_what_changed_where_one_camera_took_both_photos(tmp_path, capsys) -> None:
    """Seed 43: in both photos the reader takes a patch of the table at the frame's edge for a hand.
    Nothing changed there, nor around the three rows that were on the table before; the run laid is
    all that changed, and the turn is legal. Judged without comparing the photos, the hand is asked about."""
    photos = _photos(tmp_path, TABLE + [["G7", "G8", "G9"]], seed=43, before=TABLE, one_camera=True)
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert "a hand covers part of the table" in found["before"]["doubts"] + found["after"]["doubts"]
    assert found["verdict"] == "legal" and found["played"] == ["G7", "G8", "G9"] and found["rows_unchanged"] == 3
    assert main(["check-turn", "--json", "--camera-moved", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["verdict"] == "needs confirmation" and found["why"] == DOUBTS and found["rows_unchanged"] is None
    assert main(["check-turn", "--annotate", str(tmp_path / "evidence.png"), *photos]) == 0
    assert "3 of the 3 rows before the turn lie where nothing changed" in capsys.readouterr().out
    assert cv2.imread(str(tmp_path / "evidence.png")) is not None


def test_a_tile_taken_back_is_illegal_by_what_changed(tmp_path, capsys) -> None:
    photos = _photos(tmp_path, [["R1", "R2", "R3"], ["B5", "G5", "Y5"], ["Y9", "Y10", "Y11"]], seed=0, before=TABLE,
                     one_camera=True)
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["verdict"] == "illegal" and found["rows_unchanged"] == 2
    assert [v for v in found["violations"] if "Y12" in v]


def test_a_tile_taken_from_a_row_and_its_twin_laid_elsewhere_is_taken_not_misread(tmp_path, capsys) -> None:
    """As seed 27's turn 71: R3 taken from R3 R4 R5, and a run R4-R7 laid elsewhere (the set's second R4
    and R5). The table's groups alone look as if R3 had turned into a tile of the new run (one photo's
    misread, ``replaced_in_place``), but one still camera took both photos and R3's place holds no tile
    after the turn: R3 was taken, and the broken R4 R5 is illegal."""
    before = [["R3", "R4", "R5"], ["B5", "G5", "Y5"]]
    photos = _photos(tmp_path, [["R4", "R5"], ["B5", "G5", "Y5"], ["R4", "R5", "R6", "R7"]], seed=3, before=before,
                     one_camera=True)
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["verdict"] == "illegal" and [v for v in found["violations"] if "R4 R5)" in v]


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


def test_a_change_no_tile_read_explains_is_asked_about(reader) -> None:
    """As if the reader had missed the run laid: the photo after the turn read as the one before.
    Nothing read explains the change where the run lies, so the turn is asked about, not ruled
    "no tile played"."""
    first, second = render_tile_turn(np.random.default_rng(0), PARAMS, TABLE, TABLE + [["G7", "G8", "G9"]])
    laid = np.mean([second.tiles[k].center for k in second.rows[3]], axis=0)
    reading = reader.read(first.image)
    change = table_change(first.image, second.image)
    ruling = judge_turn(reading, reading, TileRules(), change=change)
    assert ruling.verdict == "needs confirmation" and ruling.asked == DOUBTS
    left, right = by_change(reading, reading, change)
    assert left.groups == right.groups == []        # every row read lies where nothing changed
    unread = [d for d in right.doubts if d.startswith("a change on the table")]
    assert unread and all(np.linalg.norm(np.subtract(d.at, laid)) < 2 * second.tiles[0].height for d in unread)


def test_photos_that_differ_all_over_are_not_compared() -> None:
    """Another table, or the camera moved: nothing is known of what changed."""
    first, second = (render_tile_scene(np.random.default_rng([3, photo]), PARAMS, TABLE).image for photo in (0, 1))
    assert table_change(first, second) is None
    assert table_change(first, first[:-1]) is None
    assert table_change(first, first.copy()).changed.sum() == 0


def test_a_tile_taken_out_of_a_row_leaves_the_table_where_its_face_was(tmp_path, capsys) -> None:
    """Seed 0: Y10 taken out of the run Y9-Y12 leaves one tile's room in the line, which the
    reader cannot tell from a tile it missed. The photos can: where Y10 was read before the turn,
    its face turned into the table."""
    photos = _photos(tmp_path, [["R1", "R2", "R3"], ["B5", "G5", "Y5"], ["Y9", "Y11", "Y12"]], seed=0, before=TABLE,
                     one_camera=True)
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [d for d in found["after"]["doubts"] if d.startswith("one tile's room")]
    assert found["verdict"] == "illegal" and [v for v in found["violations"] if "Y10" in v]
    assert main(["check-turn", "--json", "--camera-moved", *photos]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "needs confirmation"


def test_a_place_whose_face_stayed_may_still_hold_a_missed_tile() -> None:
    """Where only a tile's number changed (another tile put in its place), the doubt stays."""
    before = _reading(["Y9 Y10 Y11"])
    room = Doubt("one tile's room between the tiles at (15, 20) and (75, 20) in one line", (45, 20))
    after = TableReading(tuple(t for t in before.tiles if t.tile != "Y10"), (room,))
    ink = np.zeros((30, 60), bool)            # the photos at half size: Y10 lay at x 15..30, y 0..20
    ink[6:12, 20:25] = True                   # a few pixels of the place changed: the number
    face = np.zeros((30, 60), bool)
    face[0:21, 15:31] = True                  # the whole place changed: the face is gone
    for changed, kept in ((ink, True), (face, False)):
        _, judged = by_change(before, after, TableChange(changed, 2.0))
        assert (room in judged.doubts) == kept


def test_a_tile_read_as_two_in_one_unchanged_place_is_one_tile() -> None:
    """As seed 21's turn 168: Y8 of the run Y4-Y9 read surely as Y5 before the turn, and as Y8 after
    it, in the same place, its face unchanged. Without the photos compared the table before reads
    with a combination that is none and is asked about; compared, the place holds one tile either way,
    and only Y8 (or a joker) makes the table before valid: the run extended by Y10 is legal."""
    before = _reading(["Y4 Y5 Y6 Y7 Y5 Y9"])
    after = _reading(["Y4 Y5 Y6 Y7 Y8 Y9 Y10"])
    assert judge_turn(before, after, TileRules()).asked == BROKEN_BEFORE
    changed = np.zeros((40, 120), bool)
    changed[0:20, 90:105] = True              # the photos at half size: Y10 laid at x 180..210
    assert judge_turn(before, after, TileRules(), change=TableChange(changed, 2.0)).verdict == "legal"
    wrong = _reading(["Y4 Y5 Y6 Y7 Y8 Y9 B10"])
    assert judge_turn(before, wrong, TileRules(), change=TableChange(changed, 2.0)).verdict == "illegal"


def test_a_row_near_a_change_in_one_photo_is_near_it_in_both() -> None:
    """A row read a little apart in the two photos, just clear of what changed in one and not in the
    other, is the same row: left out of neither reading (else it would seem laid, or taken back)."""
    def row(y: float) -> list[TileObservation]:
        return [TileObservation(code, 0.99, ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)), 0)
                for x, code in ((0, "R1"), (30, "R2"), (30 * 2, "R3"))]
    changed = np.zeros((100, 100), bool)
    changed[90:, :] = True                    # at y >= 180 (scale 2)
    # Tile centres at y 110 and 122: 70 and 58 px from the change; the tiles are 40 tall, clear at 60.
    first, second = by_change(TableReading(tuple(row(90))), TableReading(tuple(row(102))), TableChange(changed, 2.0))
    assert first.groups == second.groups == [["R1", "R2", "R3"]]


def test_the_photo_a_face_colour_lost_is_read_again_by_the_other_photos(reader, tmp_path, capsys,
                                                                        monkeypatch) -> None:
    """The benchmark's seed 22, turn 140: on orange wood, the photo after the turn (a run laid) goes
    by another face colour than the photo before it (one that fits the grain's light streaks better)
    and reads nothing; read by the colour the photo before went by, in the same light, it reads
    every tile, and the turn is legal. (The reader's own other guesses, which would find it too,
    are not tried: ``OTHER_FACES`` 0.)"""
    before = [["Y4", "R4", "G4"], ["R2", "R3", "R4", "R5"], ["G8", "G9", "G10"], ["G12", "R12", "Y12", "B12"]]
    after = before + [["Y10", "G10", "R10"]]
    photos = _photos(tmp_path, after, seed=1362300150, before=before, one_camera=True)
    first, second = (cv2.imread(photo) for photo in photos)
    with monkeypatch.context() as patched:
        patched.setattr(reader_module, "OTHER_FACES", 0)
        alone = reader.read(second)
        assert len(alone.tiles) < 10 and alone.face != reader.read(first).face
        read_before, read_after, change = read_turn(reader, first, second)
    assert sorted(t.tile for t in read_after.tiles) == sorted(code for row in after for code in row)
    read_before, read_after, change = read_turn(reader, first, second)
    assert sorted(t.tile for t in read_after.tiles) == sorted(code for row in after for code in row)
    assert not read_after.doubts and change is not None
    assert judge_turn(read_before, read_after, TileRules(), change=change).verdict == "legal"
    assert main(["check-turn", "--json", *photos]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "legal"


def test_a_tile_read_alike_in_one_unchanged_place_is_as_sure_as_its_surer_reading() -> None:
    """As seed 7's turn 21 (there K2-K4): R2 of the run R2-R4 read at 0.67 before the turn and at 0.72
    after it, in one place, its face unchanged; the run extended by R5. One photo reads that tile surely
    enough: the turn is legal. Where its face changed there (another tile in its place), or one photo cuts
    it otherwise, it is asked."""
    def reading(row: str, first: float) -> TableReading:
        plain = _reading([row])
        return replace(plain, tiles=(replace(plain.tiles[0], confidence=first),) + plain.tiles[1:])
    before, after = reading("R2 R3 R4", 0.67), reading("R2 R3 R4 R5", 0.72)
    changed = np.zeros((40, 120), bool)
    changed[0:20, 45:60] = True               # the photos at half size: R5 laid at x 90..120
    assert judge_turn(before, after, TileRules(), change=TableChange(changed, 2.0)).verdict == "legal"
    assert judge_turn(before, after, TileRules()).asked == UNSURE
    # Cut wider in one photo (as a row cut into too few tiles is), about the same centre: not one tile cut alike.
    wider = replace(after, tiles=(replace(after.tiles[0], outline=((-7, 0), (37, 0), (37, 40), (-7, 40))),) + after.tiles[1:])
    assert judge_turn(before, wider, TileRules(), change=TableChange(changed, 2.0)).asked == UNSURE
    changed[0:20, 0:15] = True                # R2's face changed too
    assert judge_turn(before, after, TileRules(), change=TableChange(changed, 2.0)).asked == UNSURE


def test_a_row_laid_in_a_light_of_another_colour_is_read_by_the_colour_of_what_changed(reader, tmp_path,
                                                                                       capsys) -> None:
    """The benchmark's seed 22, turn 128: R4 R5 R6 laid in a lavender pool of light on striped wood. Its
    faces are not of the white faces' colour the reader goes by, nor lighter than the wood there: read
    alone, the photo after the turn misses the row, and the turn was asked about ("a change on the table
    where no tile is read"). Read again by the colour of what changed, every tile is read: legal."""
    before = [["JK", "G7", "R7"], ["JK", "Y8", "B8"], ["R6", "G6", "B6", "Y6"]]
    after = before + [["R4", "R5", "R6"]]
    photos = _photos(tmp_path, after, seed=485814379, before=before, one_camera=True)
    first, second = (cv2.imread(photo) for photo in photos)
    assert sorted(reader.read(second).groups) == sorted(before)
    read_before, read_after, change = read_turn(reader, first, second)
    assert sorted(read_after.groups) == sorted(after) and not read_after.doubts
    assert main(["check-turn", "--json", *photos]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["verdict"] == "legal" and sorted(found["played"]) == ["R4", "R5", "R6"]


def test_a_row_laid_that_the_whole_photo_misses_is_read_where_it_changed(reader, monkeypatch) -> None:
    """The benchmark's seed 21, turn 43: B6 taken from B5-B10 (B5 left alone) and K13 B13 O13 R13 laid.
    The photo after the turn misses the row laid, and read whole again by the colour of what changed it
    loses other rows; the part that changed, read on its own, reads the row, and the turn is illegal.
    Without that look the change stays unread and the players are asked."""
    before = [["B5", "B6", "B7", "B8", "B9", "B10"], ["O9", "K9", "B9", "R9"], ["O5", "O6", "O7", "O8", "O9", "O10", "O11"],
              ["B5", "B6", "B7", "B8"], ["K11", "R11", "B11"], ["K5", "K6", "K7", "K8", "K9"]]
    after = [["B5", "B7", "B8", "B9", "B10"], *before[1:], ["K13", "B13", "O13", "R13"]]
    scenes = render_tile_turn(np.random.default_rng(714172723), turn_params("rummikub"), before, after)
    rummikub = reader.with_palette(RUMMIKUB)
    rules = TileRules(palette=RUMMIKUB)
    read_before, read_after, change = read_turn(rummikub, *(scene.image for scene in scenes))
    assert ["K13", "B13", "O13", "R13"] in read_after.groups
    ruling = judge_turn(read_before, read_after, rules, change=change)
    assert ruling.verdict == "illegal" and [v for v in ruling.check.violations if "(B5)" in v]
    monkeypatch.setattr(turn_photos, "_read_where_changed", lambda *args: None)
    read_before, read_after, change = read_turn(rummikub, *(scene.image for scene in scenes))
    assert ["K13", "B13", "O13", "R13"] not in read_after.groups
    assert judge_turn(read_before, read_after, rules, change=change).verdict == "needs confirmation"


def test_a_tile_read_alike_and_unsure_in_both_photos_is_one_tile_that_kept_the_table_before_valid() -> None:
    """As seed 26's turn 49 (there R8 of R7-R12, read so at 0.53 and 0.67): R3 of the run R2-R4 read
    unsurely in both photos, in one place, cut alike, its face unchanged; the run extended by R5. It
    is one tile, and the table before the turn was valid: R3 or a joker, and either way the turn is legal."""
    def reading(row: str, unsure: float) -> TableReading:
        plain = _reading([row])
        return replace(plain, tiles=plain.tiles[:1] + (replace(plain.tiles[1], confidence=unsure),) + plain.tiles[2:])
    before, after = reading("R2 R3 R4", 0.6), reading("R2 R3 R4 R5", 0.65)
    changed = np.zeros((40, 120), bool)
    changed[0:20, 45:60] = True               # the photos at half size: R5 laid at x 90..120
    assert judge_turn(before, after, TileRules(), change=TableChange(changed, 2.0)).verdict == "legal"
    assert judge_turn(before, after, TileRules()).asked == UNSURE
    wider = replace(after, tiles=after.tiles[:1] + (replace(after.tiles[1], outline=((23, 0), (67, 0), (67, 40), (23, 40))),)
                    + after.tiles[2:])
    assert judge_turn(before, wider, TileRules(), change=TableChange(changed, 2.0)).asked == UNSURE


def test_a_sign_of_a_missed_tile_before_the_turn_where_a_tile_was_laid_on_bare_table_is_no_tile() -> None:
    """As seed 601's turn 76: the photo before the turn doubts a blob where the run laid after it lies.
    Where that tile's face came there (its whole place changed), the place was bare table before the
    turn: no tile missed. Where only its number changed, a tile may have lain there: the doubt stays."""
    patch = Doubt("a tile-sized patch of face colour at (105, 20) is no tile found", (105, 20))
    before, after = _reading(["R1 R2 R3"], [patch]), _reading(["R1 R2 R3 R4"])
    face = np.zeros((40, 120), bool)
    face[0:21, 45:61] = True                  # the photos at half size: R4's place, x 90..120
    ink = np.zeros((40, 120), bool)
    ink[6:12, 50:55] = True
    for changed, kept in ((face, False), (ink, True)):
        judged, _ = by_change(before, after, TableChange(changed, 2.0))
        assert (patch in judged.doubts) == kept


def test_a_dim_table_no_face_colour_finds_is_read_by_the_colour_of_what_changed(reader) -> None:
    """The benchmark's seed 7, turn 91: a dim green cloth under three pools of glare, the faces darker
    than most of the cloth. No guess of the faces' colour finds a tile in either photo ("no tile
    found"). The run laid changed the table: read by that change's colour, the photo after the turn
    reads every tile, and the photo before it by the same colour: K9 taken from the table is illegal."""
    params = turn_params("rummikub")
    before = [["K9", "O9", "R9", "B9"], ["B7", "R7", "K7", "O7"], ["O5", "O6", "O7"]]
    after = [before[0][1:], before[1], before[2], ["K2", "K3", "K4", "K5"]]
    images = [scene.image for scene in render_tile_turn(np.random.default_rng(957665193), params, before, after)]
    read = reader.with_palette(RUMMIKUB)
    assert not any(read.read(image).tiles for image in images)
    *readings, change = read_turn(read, *images)
    assert [sorted(r.groups) for r in readings] == [sorted(before), sorted(after)]
    ruling = judge_turn(*readings, TileRules(palette=RUMMIKUB), change=change)
    assert ruling.verdict == "illegal" and "K9" in ruling.check.violations[0]


def _row_laid_below() -> tuple[TableReading, TableReading, TableChange]:
    """R1-R3 (y 0..40), and G5-G7 laid below it (y 100..140, x 0..90): the photos at half size."""
    changed = np.zeros((80, 120), bool)
    changed[50:71, 0:46] = True
    return _reading(["R1 R2 R3"]), _reading(["R1 R2 R3", "G5 G6 G7"]), TableChange(changed, 2.0)


def test_a_sign_in_one_photo_where_the_other_sees_bare_table_and_nothing_changed_is_no_tile() -> None:
    """As seed 601's turn 76: the photo before the turn doubts a blob of the gingham cloth beside where
    a run is laid. Nothing changed there, neither photo reads a tile there, and the photo after the turn
    shows no sign there: no tile is missed. A sign there in the other photo, or one nearer the change
    where the table changed (a tile that may continue the run laid, laid and missed), stays."""
    before, after, change = _row_laid_below()
    patch = Doubt("the blob at (140, 120) cut into 1 tile(s) of unusual width", (140, 120))
    judged, _ = by_change(replace(before, doubts=(patch,)), after, change)
    assert patch not in judged.doubts
    assert judge_turn(replace(before, doubts=(patch,)), after, TileRules(), change=change).verdict == "legal"
    seen = Doubt("a tile-sized patch of face colour at (150, 125) is no tile found", (150, 125))
    judged, _ = by_change(replace(before, doubts=(patch,)), replace(after, doubts=(seen,)), change)
    assert patch in judged.doubts
    nearer = Doubt("a tile-sized patch of face colour at (115, 120) is no tile found", (115, 120))
    longer = change.changed.copy()
    longer[50:71, 46:64] = True                       # the run laid is longer than read
    judged, _ = by_change(replace(before, doubts=(nearer,)), after, TableChange(longer, 2.0))
    assert nearer in judged.doubts


@pytest.mark.parametrize("place", [Doubt(f"{ROOM} at (75, 20) and (135, 20) in one line", (105, 20)),
                                   Doubt(f"{BEYOND_END} at (225, 20) looks like a tile's face, but no tile is read there",
                                         (225, 20)),
                                   Doubt(f"{PATCH} at (225, 45) is no tile found", (225, 45))])
def test_a_place_beside_a_row_laid_that_did_not_change_holds_no_tile(place) -> None:
    """As seed 601's turn 95, seed 24's turn 56 and seed 603's turn 39: a run laid in line with a row of the
    table, one tile's room between them; the photo after the turn doubts the room (a tile may lie there
    unread), the place beyond the run's end or a patch of face colour at its corner (a pool of light as light
    as a face). The place's middle did not change
    (a tile laid there would change it), neither photo reads a tile there and the photo before the turn,
    which had no row there to doubt, shows no sign there: the place is bare. A place whose middle changed
    (a tile laid there and missed), or one the other photo doubts too, stays a doubt."""
    before = _reading(["R1 R2 R3"])
    laid = tuple(TileObservation(code, 0.99, ((x, 0), (x + 30, 0), (x + 30, 40), (x, 40)), 1)
                 for code, x in (("G7", 120), ("G8", 150), ("G9", 180)))
    after = TableReading(before.tiles + laid, (place,))
    changed = np.zeros((80, 120), bool)
    changed[0:21, 60:106] = True                     # the run laid, photos at half size
    change = TableChange(changed, 2.0)
    assert by_change(before, after, change)[1].doubts == ()
    assert judge_turn(before, after, TileRules(), change=change).verdict == "legal"
    missed = changed.copy()
    x = round(place.at[0] / 2)
    missed[0:21, x - 8:x + 8] = True                  # a tile laid there too
    assert place in by_change(before, after, TableChange(missed, 2.0))[1].doubts
    seen = Doubt("a tile-sized patch of face colour at (100, 25) is no tile found", (place.at[0] - 5, 25))
    assert place in by_change(replace(before, doubts=(seen,)), after, change)[1].doubts


def test_a_patch_of_face_colour_beside_a_row_of_the_table_before_the_turn_stays_a_doubt() -> None:
    """A patch that did not change, but beside a row that lay on the table before the turn too: a tile of
    that row may lie there, missed in both photos (the rule above is for patches beside tiles laid only)."""
    before = _reading(["R1 R2 R3"])
    laid = tuple(TileObservation(code, 0.99, ((x, 0), (x + 30, 0), (x + 30, 40), (x, 40)), 1)
                 for code, x in (("G7", 120), ("G8", 150), ("G9", 180)))
    patch = Doubt(f"{PATCH} at (105, 45) is no tile found", (105, 45))
    changed = np.zeros((80, 120), bool)
    changed[0:21, 60:106] = True
    assert patch in by_change(before, TableReading(before.tiles + laid, (patch,)), TableChange(changed, 2.0))[1].doubts


def test_a_hand_whose_pixels_did_not_change_away_from_the_turn_is_the_table() -> None:
    """As seed 602's turn 55: a skin-coloured part of the cloth passes for a hand in one photo, near the
    change. A hand moves between two photos a turn apart; where none of its pixels changed, a tile height
    and more from every change and 1.5 from every row near one, it is the table. One whose pixels changed
    (its rim moved), or one nearer the run laid, stays a doubt."""
    before, after, change = _row_laid_below()
    hand = Doubt(HAND, near=[(x, y) for x in range(140, 181, 4) for y in range(120, 151, 4)])
    assert by_change(replace(before, doubts=(hand,)), after, change)[0].doubts == ()
    assert judge_turn(replace(before, doubts=(hand,)), after, TileRules(), change=change).verdict == "legal"
    moved = change.changed.copy()
    moved[70:72, 75:80] = True                       # its rim moved
    assert hand in by_change(replace(before, doubts=(hand,)), after, TableChange(moved, 2.0))[0].doubts
    nearer = Doubt(HAND, near=[(x, y) for x in range(120, 161, 4) for y in range(120, 151, 4)])
    assert nearer in by_change(replace(before, doubts=(nearer,)), after, change)[0].doubts


def test_a_blob_of_unusual_width_whose_tiles_the_other_photo_cut_alike_is_counted_right() -> None:
    """As seed 22's turn 111: a tile taken out of a row leaves K6 alone, and the photo after the turn
    doubts its blob's count; the photo before cut that tile alike (in its row, of the frame's width)
    and doubted nothing. Where the other photo doubts it too, or cut it otherwise, the doubt stays."""
    before, after = _reading(["R1 R2 R3"]), _reading(["R1 R2 R3 R4"])
    changed = np.zeros((40, 120), bool)
    changed[0:20, 45:60] = True               # the photos at half size: R4 laid at x 90..120
    change = TableChange(changed, 2.0)
    width = Doubt("the blob at (45, 20) cut into 3 tile(s) of unusual width", near=[t.center for t in before.tiles])
    _, judged = by_change(before, replace(after, doubts=(width,)), change)
    assert width not in judged.doubts
    assert judge_turn(before, replace(after, doubts=(width,)), TileRules(), change=change).verdict == "legal"
    _, judged = by_change(replace(before, doubts=(width,)), replace(after, doubts=(width,)), change)
    assert width in judged.doubts
    wider = replace(before, tiles=(replace(before.tiles[0], outline=((-7, 0), (37, 0), (37, 40), (-7, 40))),)
                    + before.tiles[1:])
    _, judged = by_change(wider, replace(after, doubts=(width,)), change)
    assert width in judged.doubts


def test_a_combination_read_broken_before_the_turn_too_is_not_ruled_broken_by_it() -> None:
    """As validation seed 601's turn 21 read by a candidate classifier: the run B6-B12 read as B7 B8 B10
    B11 B12 in both photos (B6 and B9 missed), B13 laid at its end, a patch of face colour far away. The
    run after the turn is no combination, but it was none before the turn either, and the table before a
    turn is valid: a tile of it was missed, not the run broken."""
    before = _reading(["R1 R2 R3", "B7 B8 B10 B11 B12"], [patch(600, 20)])
    after = _reading(["R1 R2 R3", "B7 B8 B10 B11 B12 B13"], [patch(600, 20)])
    assert judge_turn(before, after, TileRules()).asked == DOUBTS
    laid = _reading(["R1 R2 R3", "B7 B8 B9 B10 B11", "G7 B9 Y11"], [patch(600, 20)])
    assert judge_turn(_reading(["R1 R2 R3", "B7 B8 B9 B10 B11"], [patch(600, 20)]), laid,
                      TileRules()).despite == DESPITE_BROKEN    # a combination the turn laid broken is still ruled


def test_tiles_near_each_other_in_a_row_cut_at_another_pitch_are_not_one_tile() -> None:
    """As seed 7's turn 85 read by a candidate classifier: the run B6-B12 read in both photos, B11 unsurely,
    but the photo after the turn cut the row at a wider pitch, so its B10 and B11 lie near the B11 and B12
    of the photo before. Taken as one tile each, B10 would seem to have left the table; they are not cut
    alike, and the turn (K9 laid at the run K2-K8) is asked about for the unsure B11."""
    def row(codes: str, xs: list[int], y: int, unsure: str) -> list[TileObservation]:
        return [TileObservation(code, 0.5 if code == unsure else 0.99, ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)),
                                1 if y else 0) for code, x in zip(codes.split(), xs)]
    runs = "B6 B7 B8 B9 B10 B11 B12"
    before = TableReading(tuple(row("K2 K3 K4 K5 K6 K7 K8", [30 * c for c in range(7)], 0, "")
                                + row(runs, [30 * c for c in range(7)], 100, "B11")), ())
    after = TableReading(tuple(row("K2 K3 K4 K5 K6 K7 K8 K9", [30 * c for c in range(8)], 0, "")
                               + row(runs, [0, 30, 60, 90, 141, 170, 190], 100, "B11")), ())
    changed = np.zeros((80, 130), bool)
    changed[0:20, 105:120] = True             # the photos at half size: K9 laid at x 210..240
    ruling = judge_turn(before, after, TileRules(palette=RUMMIKUB), change=TableChange(changed, 2.0))
    assert ruling.asked == UNSURE


def test_a_tile_one_photo_cannot_read_is_the_tile_the_other_reads_in_its_unchanged_place() -> None:
    """As seed 7's turn 39: the photo before the turn found R3 of the run R1-R4 but could not read it;
    the photo after it reads R3 there, unsurely, its place unchanged. B8 was taken off the run B5-B8.
    The same pixels are the same tile: R3, unsure in both photos, is one tile, and whatever it is, a
    tile left the table (illegal). Where the photo after the turn reads no tile in that place, the
    doubt stays."""
    unread = Doubt(f"the tile at (75, 20) {reader_module.UNREADABLE}", (75.0, 20.0))
    between = Doubt(f"a row at (15, 20) {reader_module.NOT_BETWEEN}", near=[(15, 20), (45, 20), (75, 20), (105, 20)])
    read = _reading(["R1 R2 R3 R4", "B5 B6 B7 B8"])
    before = TableReading(tuple(t for t in read.tiles if t.tile != "R3"), (unread, between))
    after = _reading(["R1 R2 R3 R4", "B5 B6 B7"], unsure="R3")
    changed = np.zeros((80, 130), bool)
    changed[50:70, 45:60] = True              # the photos at half size: B8 taken from x 90..120, y 100..140
    change = TableChange(changed, 2.0)
    first, _ = by_change(before, after, change, TileRules())
    assert first.groups == [["B5", "B6", "B7", "B8"]] and first.doubts == ()
    ruling = judge_turn(before, after, TileRules(), change=change)
    assert ruling.verdict == "illegal" and ruling.check.violations[0].startswith("B8 was on the table and is missing")
    elsewhere = _reading(["R1 R2", "B5 B6 B7"])
    assert judge_turn(before, elsewhere, TileRules(), change=change).asked == DOUBTS


def test_a_row_one_photo_found_but_could_not_read_at_all_is_the_row_the_other_reads_there() -> None:
    """As seed 27's turn 64: the photo after the turn found the four tiles of R12 G12 B12 Y12 but read none,
    where the photo before it read them and nothing changed; B4 B5 B6 was laid below, and the photo before
    shows a patch of face colour far away. The same pixels are the same row, and the turn is legal. Where
    the row's place changed (a shadow across it), the doubts stay."""
    group, laid = "R12 G12 B12 Y12", "B4 B5 B6"
    before = _reading([group], [patch(600, 20)])
    unread = tuple(Doubt(f"the tile at ({15 + 30 * c}, 26) {reader_module.UNREADABLE}", (15.0 + 30 * c, 26.0))
                   for c in range(4))
    after = TableReading(_reading(["", laid]).tiles, unread)
    changed = np.zeros((80, 130), bool)
    changed[50:70, 0:45] = True               # the photos at half size: B4 B5 B6 laid at x 0..90, y 100..140
    change = TableChange(changed, 2.0)
    _, second = by_change(before, after, change, TileRules())
    assert second.groups == [["B4", "B5", "B6"]] and second.doubts == ()
    assert judge_turn(before, after, TileRules(), change=change).verdict == "legal"
    shadow = changed.copy()
    shadow[8:12, 0:60] = True
    assert judge_turn(before, after, TileRules(), change=TableChange(shadow, 2.0)).asked == DOUBTS


def test_a_tile_read_alike_in_both_photos_but_doubted_as_misread_is_one_tile_that_kept_the_table_before_valid() -> None:
    """As seed 25's turn 125: O5 of the run O2-O8 read surely as R5 in both photos, in one unchanged place,
    and doubted as misread there (its row is a run but for that tile's colour); O9 laid at the run's end.
    The table before the turn was valid, so that tile is O5 or a joker, and the run extended is legal
    either way. Read as two tiles in two places, the table before would be asked about."""
    misread = Doubt("the tile at (105, 20) may be misread: its row is a combination but for one tile's colour",
                    (105, 20), misread=True)
    before = _reading(["O2 O3 O4 R5 O6 O7 O8"], [misread])
    after = _reading(["O2 O3 O4 R5 O6 O7 O8 O9"], [misread])
    changed = np.zeros((40, 130), bool)
    changed[0:20, 105:120] = True             # the photos at half size: O9 laid at x 210..240
    rules = TileRules(palette=RUMMIKUB)
    assert judge_turn(before, after, rules).asked == BROKEN_BEFORE
    ruling = judge_turn(before, after, rules, change=TableChange(changed, 2.0))
    assert ruling.verdict == "legal" and ruling.check.legal
    wrong = _reading(["O2 O3 O4 R5 O6 O7 O8 B9"], [misread])
    assert judge_turn(before, wrong, rules, change=TableChange(changed, 2.0)).verdict == "illegal"
