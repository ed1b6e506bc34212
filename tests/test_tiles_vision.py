"""Reading number tiles: the renderer's truth, the outline finder, grouping, the reader on
rendered tables, `rummyref recognize --tiles` and `rummyref learn-tiles`."""

import json
from dataclasses import replace
import math

import cv2
import numpy as np
import pytest

from engine.cards import PALETTES, RUMMIKUB, parse_tile
from engine.tiles import TileRules, group_of
from rummyref.cli import main
from vision.synth.tiles import (HELDOUT_FONT, TileSceneParams, TileStyle, deal_rows, render_learning_layout,
                                render_tile_scene, render_tile_turn, tile_fonts, turn_params)
from vision.tiles.evaluation import match, score_scene
from vision.tiles.grouping import Placed, rows
import vision.tiles.reader as reader_module
from vision.recognizer import _softmax
import vision.tiles.outlines as outlines
from vision.tiles.outlines import Blob, Layout, TileCandidate, find_layout, find_tiles, row_pitch
from vision.tiles.patches import balance, cut_patch
from vision.tiles.reader import JITTERS, WIDER, TileReader, TileReaderOptions

CLEAN = dict(effects=0.0, tilt=0.0, hands=0.0, light_tables=False)


def test_rendered_tiles_are_codes_of_their_palette_and_the_held_out_font_is_never_trained_on():
    assert HELDOUT_FONT not in tile_fonts("train")
    for seed, palette in enumerate(PALETTES):
        scene = render_tile_scene(np.random.default_rng(seed), TileSceneParams(palette=palette, width=800, height=500))
        assert scene.palette == palette and scene.tiles
        for tile in scene.tiles:
            parse_tile(tile.code, PALETTES[palette])
            assert tile.outline.shape == (4, 2) and 0.0 <= tile.visible <= 1.0
        assert sorted(i for row in scene.rows for i in row) == [i for i, t in enumerate(scene.tiles) if t.row >= 0]


def test_no_face_of_the_held_out_family_is_trained_on_and_only_training_sets_reshape_their_digits():
    family = HELDOUT_FONT.split("-")[0]
    assert not [font for font in tile_fonts("train") if font.startswith(family)]
    trained = [TileStyle.random(np.random.default_rng(seed), "rummikub", tile_fonts("train"), vary_glyphs=True)
               for seed in range(100)]
    assert {s.stretch != 1.0 for s in trained} == {True, False} and any(s.slant for s in trained)
    assert any(s.thin for s in trained)
    # the evaluation's sets draw the same numbers as before glyph shapes were added: same tables
    for seed in range(10):
        plain = TileStyle.random(np.random.default_rng(seed), "rummikub", (HELDOUT_FONT,))
        varied = TileStyle.random(np.random.default_rng(seed), "rummikub", (HELDOUT_FONT,), vary_glyphs=True)
        assert (plain.stretch, plain.slant, plain.thin) == (1.0, 0.0, 0)
        assert plain.face == varied.face and plain.bold == varied.bold and plain.cue == varied.cue


def test_dealt_rows_without_mixing_are_combinations_the_engine_accepts():
    rules = TileRules(palette=RUMMIKUB)
    for seed in range(20):
        for row in deal_rows(np.random.default_rng(seed), RUMMIKUB, 6, jokers=0.3, mixed=0.0):
            group_of([parse_tile(code, RUMMIKUB) for code in row], rules)   # raises if not valid


def test_grouping_the_true_positions_gives_back_the_rendered_rows_at_any_turn():
    for seed in range(8):
        scene = render_tile_scene(np.random.default_rng(seed), TileSceneParams(any_angle=0.5, **CLEAN))
        placed = [Placed(*t.center, t.angle, t.width, t.height) for t in scene.tiles]
        found = rows(placed)
        for row in scene.rows:
            assert row in found, f"seed {seed}: row {row} not among {found}"
        assert all(len(r) == 1 for r in found if scene.tiles[r[0]].row < 0)


def test_outlines_of_drawn_touching_tiles_are_cut_at_the_seams():
    frame = np.full((300, 400, 3), (40, 70, 30), np.uint8)
    for k in range(5):                                   # five touching 30x40 tiles, seams 1 px
        cv2.rectangle(frame, (60 + 31 * k, 100), (60 + 31 * k + 29, 140), (225, 235, 240), -1)
    cv2.rectangle(frame, (300, 200), (329, 240), (225, 235, 240), -1)     # and a lone one
    found = sorted(find_tiles(frame), key=lambda c: c.x)
    assert len(found) == 6
    assert [round(c.x) for c in found[:5]] == pytest.approx([75 + 31 * k for k in range(5)], abs=2)
    assert all(abs(c.height - 41) <= 3 and abs(c.width - 30) <= 3 for c in found)


def test_a_row_of_narrow_tiles_with_wide_bold_digits_is_counted_at_its_faint_seams():
    # Digit strokes covering most of the tile's height dip the row's lightness profile deeper
    # than faint seams; the count of seven tiles must still be the likeliest one.
    frame = np.full((720, 1280, 3), (40, 60, 120), np.uint8)
    cv2.rectangle(frame, (400, 300), (400 + 7 * 34 - 1, 351), (225, 235, 240), -1)
    for k in range(7):
        frame[300:352, 400 + 34 * k:402 + 34 * k] = (195, 205, 210)
        cv2.putText(frame, str(k + 3), (406 + 34 * k, 341), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (120, 60, 20), 6)
    blobs = find_layout(frame).blobs
    assert len(blobs) == 1 and blobs[0].counts[0] == 7


def test_outlines_find_the_tiles_of_clean_rendered_tables():
    found = total = 0
    for seed in range(6):
        scene = render_tile_scene(np.random.default_rng(seed), TileSceneParams(**CLEAN))
        candidates = find_tiles(scene.image)
        for tile in scene.tiles:
            total += 1
            x, y = tile.center
            found += any(math.hypot(c.x - x, c.y - y) < 0.3 * tile.height for c in candidates)
    assert found >= 0.97 * total, f"{found} of {total} tiles found"     # measured: 182 of 182


def test_outlines_leave_dots_out_and_report_a_face_coloured_patch_they_cannot_explain():
    frame = np.full((300, 400, 3), (40, 70, 30), np.uint8)
    for k in range(3):                                   # three touching 30x40 tiles
        cv2.rectangle(frame, (60 + 31 * k, 100), (60 + 31 * k + 29, 140), (225, 235, 240), -1)
    for x in (60, 200, 300):                             # tablecloth dots of the face colour
        cv2.circle(frame, (x, 240), 14, (225, 235, 240), -1)
    cv2.rectangle(frame, (270, 82), (330, 98), (225, 235, 240), -1)   # a cross: a face-coloured patch
    cv2.rectangle(frame, (292, 60), (308, 120), (225, 235, 240), -1)  # that no tile explains,
    cv2.rectangle(frame, (297, 86), (303, 95), (40, 40, 200), -1)     # with ink in it
    layout = find_layout(frame)
    assert sorted(round(c.x) for c in find_tiles(frame)) == pytest.approx([75, 106, 137], abs=2)
    assert any(math.hypot(x - 300, y - 90) < 10 for x, y in layout.unexplained)
    assert not any(abs(y - 100) < 30 and x < 200 for x, y in layout.unexplained)
    cv2.rectangle(frame, (297, 86), (303, 95), (225, 235, 240), -1)   # the same cross, blank: no tile can be there
    assert not any(math.hypot(x - 300, y - 90) < 10 for x, y in find_layout(frame).unexplained)


@pytest.fixture(scope="module")
def reader():
    return TileReader()


def _row_read(scene, reading, codes: list[str]) -> bool:
    """Whether the scene's row of ``codes`` is read as one group, tile by tile, in its order."""
    row = next(r for r in scene.rows if [scene.tiles[i].code for i in r] == codes)
    matched = match(scene, reading)
    return (all(i in matched for i in row)
            and [reading.tiles[matched[i]].tile for i in row] == codes
            and len({reading.tiles[matched[i]].row for i in row}) == 1)


def _held_out_scene(seed: int):
    return render_tile_scene(np.random.default_rng(seed), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                          light_tables=False, hands=0.0))


def test_the_contrast_look_reads_a_row_the_face_colour_misses(reader):
    """A rendered table (held-out font) where the face colour found no outline for a row; the
    contrast look (faces lighter than their surroundings, tile-shaped) finds it and the row is
    read tile by tile."""
    scene = _held_out_scene(149)
    layout = find_layout(scene.image)
    row = next(r for r in scene.rows if [scene.tiles[i].code for i in r] == ["Y7", "B7", "R7"])
    x, y = np.mean([scene.tiles[i].center for i in row], axis=0)
    assert [b.second_look for b in layout.blobs if math.hypot(b.x - x, b.y - y) < 30] == [True]
    read = reader.with_palette(PALETTES["ravensburger"])
    assert _row_read(scene, read.read(scene.image), ["Y7", "B7", "R7"])


def test_faces_the_colour_of_the_cloth_are_told_by_their_lightness(reader):
    """Pink faces on a pink cloth (seed 45), cream faces on an olive one (a turn of the benchmark,
    seed 22's 19th): the faces' colour covers most of the frame, so only what is nearly as light
    as the faces is taken for one (``outlines.STRICT_DARKEST``), and every row is read by it. The
    olive table was read as no tile at all before."""
    scene = _held_out_scene(45)
    layout = find_layout(scene.image)
    assert layout.face is not None and layout.blobs and not any(b.second_look for b in layout.blobs)
    reading = reader.with_palette(PALETTES["ravensburger"]).read(scene.image)
    for codes in (["Y10", "B10", "G10", "R10"], ["G4", "G5", "G6"]):
        assert _row_read(scene, reading, codes), reading.groups
    before = [["B9", "O9", "K9", "R9"], ["O7", "O8", "O9", "O10"], ["JK", "R4", "O4", "K4"]]
    scene, _ = render_tile_turn(np.random.default_rng(701023561), turn_params("rummikub"), before,
                                before[:1] + [["O8", "O9", "O10"], before[2], ["B2", "R2", "O2"]])
    reading = reader.with_palette(RUMMIKUB).read(scene.image)
    assert sorted(reading.groups) == sorted(before) and not reading.doubts


def test_faces_of_another_colour_guess_where_the_likeliest_reads_no_tile(reader):
    """A striped cloth (a turn of the benchmark, seed 22's 147th): the face colour that explains the
    most tile-shaped blobs is that of the stripes' lit edges, and its blobs read as no tile; the
    reader tries the frame's other guesses and reads every row by the cream faces'."""
    before = [["K9", "O9", "B9", "R9"], ["R6", "R7", "JK", "R9", "R10"], ["O6", "JK", "R6"],
              ["B8", "B9", "B10", "B11", "B12", "B13"], ["O8", "K8", "JK"]]
    after = before[:3] + [before[3][1:], before[4], ["K5", "K6", "K7", "K8", "K9", "K10"]]
    scenes = render_tile_turn(np.random.default_rng(1489470253), turn_params("rummikub"), before, after)
    read = reader.with_palette(RUMMIKUB)
    for scene, rows in zip(scenes, (before, after)):
        layout = find_layout(scene.image)
        reading = read.read(scene.image)
        assert reading.face != layout.face and reading.face in layout.other_faces
        assert sorted(reading.groups) == sorted(rows) and not reading.doubts


def test_reader_reads_rendered_tables_of_both_palettes_in_the_held_out_font(reader):
    for number, palette in enumerate(PALETTES):
        correct = tiles = rows_right = rows_total = 0
        for seed in range(4):
            scene = render_tile_scene(np.random.default_rng(100 + seed),
                                      TileSceneParams(palette=palette, fonts="heldout", **CLEAN))
            score = score_scene(scene, reader.with_palette(PALETTES[palette]).read(scene.image))
            correct, tiles = correct + score.correct, tiles + score.tiles
            rows_right, rows_total = rows_right + score.rows_correct, rows_total + score.rows
        # Floors under the figures measured on these clean tables with the shipped model (tiles
        # 0.99 and 1.00, rows 0.95 and 1.00): they catch a broken reader, not a slightly worse one.
        assert correct >= 0.95 * tiles, f"{palette}: {correct} of {tiles} tiles read right"
        assert rows_right >= 0.85 * rows_total, f"{palette}: {rows_right} of {rows_total} rows grouped right"


def test_a_tile_taken_out_of_a_row_leaves_a_doubt_and_missed_tiles_are_never_trusted(reader):
    scene = render_tile_scene(np.random.default_rng(11), TileSceneParams(palette="ravensburger", scattered=(0, 0), **CLEAN))
    row = next(r for r in scene.rows if len(r) >= 4)
    gone = scene.tiles[row[len(row) // 2]]
    table = np.median(np.concatenate([scene.image[:4].reshape(-1, 3), scene.image[-4:].reshape(-1, 3)]), axis=0)
    image = scene.image.copy()
    cv2.fillPoly(image, [np.round(gone.outline * [[1.15, 1.15]] - np.mean(gone.outline, axis=0) * 0.15).astype(np.int32)],
                 tuple(int(v) for v in table))
    reading = reader.read(image)
    assert not reading.complete
    assert any("one tile's room" in doubt for doubt in reading.doubts), reading.doubts
    # On rendered tables with hands, glare and shadows: a reading that misses a tile is doubted
    # or holds a tile read below the confirmation bar, never trusted as it stands.
    for seed in range(6):
        scene = render_tile_scene(np.random.default_rng(200 + seed), TileSceneParams(fonts="heldout", light_tables=False))
        score = score_scene(scene, reader.read(scene.image))
        assert score.silent == 0, f"seed {200 + seed}: {score.summary()}"


def test_glare_on_a_hand_free_table_is_no_hand_but_a_hand_hiding_a_tile_is(reader):
    """Validation seeds of the turn benchmark's kind of table. Seed 670: no hand, two pools of
    pink glare on a dark wood, skin-coloured and reaching the frame's edge; the table's grain
    shows through them behind a soft rim, so they raise no hand doubt. Seed 604 (with a hand):
    the hand hides a tile and its doubt is all that stops the reading being trusted."""
    turn_table = dict(palette="ravensburger", fonts="heldout", scattered=(0, 0), light_tables=False,
                      tile_height=(40.0, 64.0))
    glared = render_tile_scene(np.random.default_rng(670), TileSceneParams(hands=0.0, **turn_table))
    reading = reader.read(glared.image)
    assert not any("hand" in doubt for doubt in reading.doubts), reading.doubts
    handed = render_tile_scene(np.random.default_rng(604), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                           light_tables=False, hands=1.0))
    reading = reader.read(handed.image)
    matched = match(handed, reading)
    assert any(tile.visible < 0.95 and t not in matched for t, tile in enumerate(handed.tiles))   # a tile is hidden
    assert "a hand covers part of the table" in reading.doubts, reading.doubts
    # The doubt names the pixels the hand covers (a still table's unchanged parts are judged without it).
    hand = next(d for d in reading.doubts if d == "a hand covers part of the table")
    hidden = [tile for t, tile in enumerate(handed.tiles) if tile.visible < 0.95 and t not in matched]
    assert all(min(math.dist(point, tile.center) for point in hand.near) < tile.height for tile in hidden)


def test_a_tile_in_a_dark_spot_is_found_by_the_contrast_look_and_read(reader):
    """A lone tile in a deep shadow falls out of the face mask (before the contrast look, only
    the looser look's doubt was left of it); it is still lighter than its dark surroundings."""
    scene = render_tile_scene(np.random.default_rng(1), TileSceneParams(palette="rummikub", scattered=(3, 3),
                                                                         fonts="heldout", **CLEAN))
    tile = next(t for t in scene.tiles if t.row < 0)
    x, y = tile.center
    shade = np.ones(scene.image.shape[:2], np.float32)
    cv2.circle(shade, (int(x), int(y)), int(tile.height), 0.3, -1)
    image = (scene.image * cv2.GaussianBlur(shade, (0, 0), tile.height * 0.3)[:, :, None]).astype(np.uint8)
    assert [b.second_look for b in find_layout(image).blobs if math.hypot(b.x - x, b.y - y) < tile.height / 2] == [True]
    reading = reader.with_palette(RUMMIKUB).read(image)
    assert [o.tile for o in reading.tiles if math.hypot(o.center[0] - x, o.center[1] - y) < tile.height / 2] == [tile.code]


def test_a_tile_joined_to_a_face_coloured_patch_of_the_table_is_found_at_any_turn():
    """A blob that does not fill its rectangle is opened and looked at again; a square kernel
    cut the corners of a tile turned 30-45 degrees until it no longer looked like one (a lone
    joker under warm light on validation table 7 of seed 610 was missed so, silently); a round
    kernel opens a turned tile as it opens an upright one."""
    for angle in (0, -30, -45, -55):
        mask = np.zeros((120, 160), np.uint8)
        cv2.fillPoly(mask, [np.round(cv2.boxPoints(((50, 60), (20, 28), angle))).astype(np.int32)], 255)
        cv2.circle(mask, (115, 60), 22, 255, -1)       # a face-coloured patch of the table ...
        mask[58:62, 55:100] = 255                       # ... joined to the tile by a thin bridge
        assert [(round(r[0][0]), round(r[0][1])) for r in outlines._rect_blobs(mask, 18, 16.0)] in (
            [(50, 60)], [(51, 60)], [(51, 61)]), angle


def test_the_contrast_look_keeps_a_tile_as_coloured_as_the_frames_faces():
    """Under a warm lamp the faces themselves are coloured (chroma about 30, over the 25 a face
    may have anywhere): a tile the face colour's outlines lost is still found by the contrast
    look where its face has the colour of the frame's other faces."""
    lab = np.full((200, 300, 3), (110, 128, 132), np.uint8)          # a grey table
    lab[80:120, 130:158] = (205, 140, 156)                             # a warm face, chroma 30
    lab[92:108, 140:148] = (90, 175, 160)                              # its red ink
    frame = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    lighter = outlines.lighter_mask(cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)[:, :, 0], 40)
    assert outlines.contrast_rects(frame, lighter, [], 40, 0.72, 50) == []
    found = outlines.contrast_rects(frame, lighter, [], 40, 0.72, 50, face=(11.0, 27.0))
    assert [(round(c[0]), round(c[1])) for c, _, _ in found] == [(144, 100)]
    assert outlines.contrast_rects(frame, lighter, [], 40, 0.72, 50, face=(-20.0, -10.0)) == []   # bluish faces


def test_a_row_running_off_the_frame_is_a_doubt(reader):
    """A row cut by the frame's edge may hold more tiles beyond it: its reading is not complete."""
    scene = render_tile_scene(np.random.default_rng(11), TileSceneParams(palette="ravensburger", scattered=(0, 0), **CLEAN))
    reading = reader.read(scene.image)
    assert not any("frame's edge" in d for d in reading.doubts), reading.doubts
    rightmost = max((scene.tiles[i] for row in scene.rows for i in row), key=lambda t: t.center[0])
    cut = int(round(rightmost.outline[:, 0].max() - rightmost.width / 3))     # through the rightmost tile of a row
    left = np.ascontiguousarray(scene.image[:, :cut])
    assert any("frame's edge" in d for d in reader.read(left).doubts)


def test_a_row_along_the_frames_edge_cut_alike_is_no_doubt(reader):
    """A row whose tiles the top edge cuts alike goes on sideways, not beyond the frame: read
    whole, it raises no frame-edge doubt (each of its tiles used to)."""
    scene = render_tile_scene(np.random.default_rng(12), TileSceneParams(palette="ravensburger", scattered=(0, 0), **CLEAN))
    top = [scene.tiles[i] for i in min(scene.rows, key=lambda row: min(scene.tiles[i].outline[:, 1].min() for i in row))]
    assert all(abs(math.sin(t.angle)) < 0.03 for t in top)         # an upright row, 6 tiles
    cut = int(round(max(t.outline[:, 1].min() for t in top) + 0.12 * top[0].height))
    reading = reader.read(np.ascontiguousarray(scene.image[cut:]))
    assert [t.code for t in top] in reading.groups
    assert not any("frame's edge" in d for d in reading.doubts), reading.doubts


TURN_LIKE = dict(palette="ravensburger", fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False,
                 tile_height=(40.0, 64.0))
"""A table as the turn benchmark renders one: camera tilt on, so the frame cuts some tiles."""


def test_an_end_tile_grazing_the_frame_with_table_beyond_is_no_doubt(reader):
    """The tilted camera cuts a corner off a row's end tile (B2 of B2 Y2 joker, at the top
    edge); beside it the frame shows the table where a next tile would lie, so the row ends
    there: read whole, no frame-edge doubt (one used to stop the table)."""
    scene = render_tile_scene(np.random.default_rng(1039), TileSceneParams(**TURN_LIKE))
    end = min((scene.tiles[i] for row in scene.rows for i in row), key=lambda t: t.outline[:, 1].min())
    assert end.code == "B2" and end.outline[:, 1].min() < 0 < end.center[1] and end.visible > 0.9
    reading = reader.read(scene.image)
    assert len(match(scene, reading)) == len(scene.tiles)
    assert not reading.doubts, reading.doubts


def test_a_row_the_tilt_runs_off_the_frame_stays_a_doubt(reader):
    """The tilted camera leaves half of a row's next tile beyond the right edge; the reader
    does not find it, so the row's end tile at the edge stays a doubt."""
    scene = render_tile_scene(np.random.default_rng(1452), TileSceneParams(**TURN_LIKE))
    cut = next(t for t, tile in enumerate(scene.tiles) if 0.3 < tile.visible < 0.7)
    assert scene.tiles[cut].row >= 0 and scene.tiles[cut].center[0] > scene.image.shape[1] - scene.tiles[cut].width
    reading = reader.read(scene.image)
    assert cut not in match(scene, reading)
    assert any("frame's edge" in d for d in reading.doubts), reading.doubts


def test_reading_is_only_in_the_sets_colours_and_groups_follow_the_tiles(reader):
    scene = render_tile_scene(np.random.default_rng(5), TileSceneParams(palette="rummikub", **CLEAN))
    reading = reader.with_palette(RUMMIKUB).read(scene.image)
    assert reading.tiles
    assert all(t.tile == "JK" or t.tile[0] in "KBOR" for t in reading.tiles)
    assert [code for group in reading.groups for code in group] == [t.tile for t in reading.tiles]


def test_recognize_tiles_json_and_a_corrupt_image_error_line(tmp_path, capsys):
    scene = render_tile_scene(np.random.default_rng(3), TileSceneParams(palette="ravensburger", **CLEAN))
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), scene.image)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(table.read_bytes()[:300])
    code = main(["recognize", "--tiles", "ravensburger", "--json", str(broken), str(table)])
    lines = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert code == 1
    assert lines[0]["image"] == str(broken) and "corrupt image" in lines[0]["error"]
    result = lines[1]
    assert result["image"] == str(table) and result["tiles"] and "error" not in result
    for tile in result["tiles"]:
        assert tile["tile"] == "JK" or tile["tile"][0] in "YGBR"
        assert 0.0 <= tile["confidence"] <= 1.0 and len(tile["outline"]) == 4
    assert [t["tile"] for t in result["tiles"]] == [code for group in result["groups"] for code in group]


def test_tiles_commands_have_help(capsys):
    for command in (["recognize", "--help"], ["learn-tiles", "--help"]):
        with pytest.raises(SystemExit) as exit_:
            main(command)
        assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--tiles SET" in out and "one per colour" in " ".join(out.split())


def test_learn_tiles_reads_the_layout_and_stores_the_set(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RUMMYREF_DATA", str(tmp_path / "data"))
    photo = tmp_path / "layout.png"
    cv2.imwrite(str(photo), render_learning_layout(np.random.default_rng(1), "rummikub").image)
    assert main(["learn-tiles", "--tiles", "rummikub", str(photo)]) == 0
    assert (tmp_path / "data" / "decks" / "tiles-rummikub.npz").is_file()
    assert "52 tiles, 4 row(s)" in capsys.readouterr().out
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), render_tile_scene(np.random.default_rng(4), TileSceneParams(palette="rummikub", **CLEAN)).image)
    assert main(["recognize", "--tiles", "rummikub", "--json", str(table)]) == 0
    captured = capsys.readouterr()
    assert "learned with learn-tiles" in captured.err and json.loads(captured.out)["tiles"]


def test_learn_tiles_rejects_a_photo_that_is_not_the_layout(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RUMMYREF_DATA", str(tmp_path / "data"))
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), render_tile_scene(np.random.default_rng(2), TileSceneParams(rows=(1, 1), scattered=(0, 0), **CLEAN)).image)
    assert main(["learn-tiles", str(photo)]) == 2
    assert "expected whole rows of 13" in capsys.readouterr().err


def test_an_empty_wooden_table_is_no_tile_found_and_nothing_else(reader):
    """An empty wooden table of the replay (seed 0, frame 11) whose grain the contrast look
    takes for tiles of one size when no face colour explains any; nothing is read there, so
    the reading is that of an empty table, without a doubt about patches of the grain."""
    from vision.synth.tile_table import TableCamera, TableLook, render_table

    camera = TableCamera.overhead(1280, 960)
    look = TableLook.random(np.random.default_rng([0, 0]), camera)
    image = render_table(np.random.default_rng([0, 1, 11]), camera, look, ()).image
    assert find_layout(image).contrast_only
    assert reader.read(image).doubts == ("no tile found",)


def _placed(observation) -> Placed:
    """An observation's place (centre, up angle, width, height) from its upright outline."""
    (x0, y0), (x1, y1), _, (x3, y3) = observation.outline
    return Placed(*observation.center, math.atan2(y1 - y0, x1 - x0), math.hypot(x1 - x0, y1 - y0),
                  math.hypot(x3 - x0, y3 - y0))


def test_the_reader_looks_beyond_a_rows_end_for_tiles_its_blob_lost(reader):
    """A row whose blob was cut short (its end tiles under glare, a seam the finder took for
    the row's end) gets its end tiles back: the places beyond each end are read, one tile on
    at a time; beyond the true ends the table reads as no tile."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                        scattered=(0, 0), **CLEAN),
                              [["R5", "R6", "R7", "R8", "R9"], ["B2", "G2", "Y2"]])
    read = reader.with_palette(PALETTES["ravensburger"])
    reading = read.read(scene.image)
    assert sorted(reading.groups) == [["B2", "G2", "Y2"], ["R5", "R6", "R7", "R8", "R9"]] and reading.complete
    rows_read = [[(_placed(o), o.tile, o.confidence) for o in reading.tiles if o.row == r] for r in range(2)]
    assert read._extend_rows(scene.image, [list(row) for row in rows_read]) == []     # nothing beyond the ends
    short = [row[1:-2] if len(row) == 5 else row for row in rows_read]                  # R6 R7 left of R5 ... R9
    found = read._extend_rows(scene.image, short)
    assert len(found) == 3
    assert [code for row in short for _, code, _ in row if len(row) == 5] == ["R5", "R6", "R7", "R8", "R9"]


def test_two_row_ends_reaching_into_one_gap_read_its_tile_once(reader):
    """A row the finder split, a tile lost between its parts: both parts' ends look into the
    same gap in the same round. The tile there is read once (before, each end took it: a tile
    read twice, a wrong verdict with a sure table)."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                        scattered=(0, 0), **CLEAN),
                              [["R5", "R6", "R7", "R8", "R9"], ["B2", "G2", "Y2"]])
    read = reader.with_palette(PALETTES["ravensburger"])
    reading = read.read(scene.image)
    run = [(_placed(o), o.tile, o.confidence) for o in reading.tiles if o.tile.startswith("R")]
    assert [code for _, code, _ in run] == ["R5", "R6", "R7", "R8", "R9"]
    split = [run[:2], run[3:]]                                          # R5 R6 | (R7 lost) | R8 R9
    found = read._extend_rows(scene.image, split)
    assert [code for row in split for _, code, _ in row].count("R7") == 1
    lost = run[2][0]
    assert len(found) == 1 and math.hypot(found[0].x - lost.x, found[0].y - lost.y) < 0.5 * lost.width


def test_the_reader_reads_a_tile_at_a_patch_no_outline_explains(reader):
    """A tile where the outline finder left only a patch of face colour (here the end tile of
    a row) is read there, as the nearest tile lies; the bare table nearby reads as no tile."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                        scattered=(0, 0), **CLEAN),
                              [["R5", "R6", "R7", "R8", "R9"], ["B2", "G2", "Y2"]])
    read = reader.with_palette(PALETTES["ravensburger"])
    reading = read.read(scene.image)
    end = next(t for t in scene.tiles if t.code == "R9")
    others = [_placed(o) for o in reading.tiles if o.tile != "R9"]
    assert len(others) == 7
    [(place, code, confidence)] = read._look_at_patches(scene.image, [end.center], others)
    assert code == "R9" and confidence >= 0.7
    assert math.hypot(place.x - end.center[0], place.y - end.center[1]) < 2
    table = [(x, y) for x in range(100, 1200, 150) for y in range(100, 700, 150)
             if all(math.hypot(x - t.center[0], y - t.center[1]) > 2 * t.height for t in scene.tiles)]
    assert len(table) >= 10 and read._look_at_patches(scene.image, table, others) == []


def test_a_tile_found_at_a_patch_is_looked_beyond_like_a_rows_end(reader, monkeypatch):
    """Where the outline finder lost a whole row but for a patch of face colour (a fresh-seed
    table lost G2-G6 of G2-G7 so, and a tile read at the patch was its only row), the tile read
    at the patch is a row's end too: the places beyond it are read and the row comes back,
    without reading the other rows' tiles twice."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="ravensburger", fonts="heldout",
                                                                        scattered=(0, 0), **CLEAN),
                              [["R5", "R6", "R7", "R8", "R9"], ["B2", "G2", "Y2"]])
    read = reader.with_palette(PALETTES["ravensburger"])
    layout = find_layout(scene.image)
    middle = next(t for t in scene.tiles if t.code == "R7")
    run = [blob for blob in layout.blobs if math.hypot(blob.x - middle.center[0], blob.y - middle.center[1]) < middle.height]
    assert len(run) == 1
    lost = Layout([blob for blob in layout.blobs if blob is not run[0]], layout.aspect, [middle.center])
    monkeypatch.setattr(reader_module, "find_layout", lambda frame, face=None: lost)
    reading = read.read(scene.image)
    assert sorted(reading.groups) == [["B2", "G2", "Y2"], ["R5", "R6", "R7", "R8", "R9"]], reading.groups
    assert len(reading.tiles) == 8


def test_a_row_that_is_a_combination_but_for_one_tiles_number_is_asked_about_where_a_misread_may_explain_it(reader):
    """A number misread (Y5 read as Y6 at 0.84, R8 as R6 at 0.73 on validation turns) turns a
    run of the table into no combination and the turn into a wrong verdict; but a run a tile was
    taken out of (R6 R7 R9) looks alike. So a run in one colour or a group that is one but for a
    single tile's number is a doubt where the classifier gives that tile the mending number a
    chance (``mend_chance``): with no bar, both odd rows here are doubts; with the default bar,
    only the run holding K9 twice (their tiles are printed as read, but no tile taken out of a run
    makes a twin, and a 5 read surely as 6 beside a 6 did: session 25), and a whole run never is."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="rummikub", **CLEAN, fonts="heldout",
                                                                        scattered=(0, 0)),
                              [["K6", "K7", "K9", "K9", "K10"], ["R3", "R4", "R5"], ["B11", "O11", "K1", "R11"]])
    groups = [["B11", "O11", "K1", "R11"], ["K6", "K7", "K9", "K9", "K10"], ["R3", "R4", "R5"]]
    any_chance = TileReader(palette=RUMMIKUB, options=TileReaderOptions(mend_chance=0.0)).read(scene.image)
    assert sorted(any_chance.groups) == groups
    odd = [doubt for doubt in any_chance.doubts if "but for one tile's number" in doubt]
    assert len(odd) == 2 and len(any_chance.doubts) == 2, any_chance.doubts
    printed = reader.with_palette(PALETTES["rummikub"]).read(scene.image)
    assert sorted(printed.groups) == groups and printed.missing_doubts == (), printed.doubts
    [twin] = printed.doubts
    assert "but for one tile's number" in twin and twin.misread
    assert [t.tile for t in printed.tiles if math.dist(t.center, twin.at) < 1.0] == ["K9"]


TURN_TABLE = dict(fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False, tile_height=(40.0, 64.0))
"""Tables like the benchmark's turns: rows only, no hands."""


def test_rows_as_wide_as_the_frames_other_rows_raise_no_width_doubt(reader, monkeypatch):
    """A table of rows only has no lone tiles to tell the set's aspect from; its rows, cut a
    little narrower than the default aspect, share one pitch and read as tiles: no doubt. Judged
    against the default aspect alone (the reader before), four of them were doubted."""
    scene = render_tile_scene(np.random.default_rng(7), TileSceneParams(palette="rummikub", **TURN_TABLE))
    read = reader.with_palette(PALETTES["rummikub"])
    reading = read.read(scene.image)
    assert reading.complete
    assert sorted(reading.groups) == sorted([scene.tiles[t].code for t in row] for row in scene.rows)
    monkeypatch.setattr(reader_module, "row_pitch", lambda blobs: None)
    assert sum("unusual width" in doubt for doubt in read.read(scene.image).doubts) == 4


def test_a_row_the_frames_edge_cuts_along_its_length_is_judged_by_the_frames_tile_height(reader):
    """A validation turn's table (seed 601, turn 60, after) whose bottom row lies along the
    frame's edge, cut off below: its blob is lower than its tiles, so by its own height they
    looked a third too wide. As wide as the frame's other tiles are high, read as tiles, the
    row is cut right: the reading is complete and right."""
    rows = [["G10", "R10", "Y10", "B10"], ["R9", "B9", "Y9"], ["R9", "R10", "R11", "R12"], ["G5", "G6", "G7", "G8", "G9"],
            ["B4", "B5", "B6", "B7", "B8", "B9", "B10"], ["R1", "R2", "R3", "R4", "R5"], ["B2", "B3", "B4", "B5", "B6"]]
    scene = render_tile_scene(np.random.default_rng([497696180, 1]), TileSceneParams(palette="ravensburger", **TURN_TABLE), rows)
    reading = reader.with_palette(PALETTES["ravensburger"]).read(scene.image)
    assert reading.complete, reading.doubts
    assert sorted(reading.groups) == sorted(rows)


def test_a_row_cut_into_too_few_wide_tiles_stays_a_width_doubt_though_its_cuts_read_as_tiles(reader, monkeypatch):
    """A validation turn's table (seed 600, turn 56, before) where the outline finder of session
    11 cut five tiles of a row of seven into three wide ones that each read as a tile and missed
    two (the finder now finds the whole row; the blobs it found then are put back here): they
    are too wide for the frame's tiles' height too, so the width doubt stays."""
    rows = [["G6", "G7", "G8", "G9", "G10", "G11", "G12"], ["R6", "JK", "R8"], ["G6", "G7", "G8", "G9", "G10", "G11", "G12"],
            ["R7", "R8", "R9", "R10", "R11", "R12", "R13"], ["R2", "R3", "R4"]]
    scene = render_tile_scene(np.random.default_rng([1341312078, 0]), TileSceneParams(palette="ravensburger", **TURN_TABLE), rows)
    found = reader_module.find_layout

    def five_of_seven_cut_into_three(frame, face=None):
        layout = found(frame, face=face)
        row = next(b for b in layout.blobs if b.counts[0] == 7 and abs(b.y - 156) < 20)
        # What session 11's finder made of that row: one tile alone, four tiles and a bit cut into three.
        at = layout.blobs.index(row)
        layout.blobs[at:at + 1] = [replace(row, x=450.0, y=162.0, length=48.0, across=40.0, counts=(1,)),
                                   replace(row, x=360.0, y=153.0, length=112.0, counts=(3,))]
        return layout

    monkeypatch.setattr(reader_module, "find_layout", five_of_seven_cut_into_three)
    reading = reader.with_palette(PALETTES["ravensburger"]).read(scene.image)
    assert len(match(scene, reading)) < len(scene.tiles)
    assert any("cut into 3 tile(s) of unusual width" in doubt for doubt in reading.doubts), reading.doubts


def test_a_row_is_also_cut_at_the_pitch_the_frames_rows_share():
    """A row's own seam counts, plus the count at the frame's shared pitch where that differs."""
    row = Blob(100.0, 50.0, 0.0, 200.0, 40.0, (5,), 0)
    assert [len(cut) for cut in (row.cut(n) for n in reader_module._counts(row, 0.7))] == [5, 7]
    assert row_pitch([row] * 3) == pytest.approx(row.cut(5)[0].width / row.cut(5)[0].height)
    assert row_pitch([row] * 2) is None and reader_module._counts(row, None) == (5,)


def test_only_tiles_read_unsurely_are_read_again_from_the_cuts_around_them(reader):
    """A tile read surely and a patch of table surely no tile keep their reading; a tile cut
    badly (a third too large, off its centre) is read from all :data:`JITTERS` cuts around it
    too, both ways up: the geometric mean of the cuts' probabilities. A tile cut 0.35 of its
    height off its centre and 1.3 times too large reads below the confirmation bar even so, and is
    cut the :data:`WIDER` ways as well, read from all 13 cuts. (With session 11's classifier a cut
    0.3 off read right and over the bar from the 13 cuts; the ensemble reads that cut over the bar
    from 9 already.)"""
    scene = render_tile_scene(np.random.default_rng(3), TileSceneParams(palette="rummikub", **TURN_TABLE))
    read = reader.with_palette(PALETTES["rummikub"])
    tile = max(scene.tiles, key=lambda t: t.visible)
    x, y = tile.center
    table = next((tx, ty) for tx in range(60, 1220, 40) for ty in range(60, 660, 40)
                 if all(math.hypot(tx - t.center[0], ty - t.center[1]) > 2 * t.height for t in scene.tiles))
    off = scene.tiles[1]
    cut = [TileCandidate(x, y, tile.angle, tile.height, tile.width, 0),
           TileCandidate(x + 0.25 * tile.height, y, tile.angle, 1.35 * tile.height, tile.width, 1),
           TileCandidate(*table, 0.0, tile.height, tile.width, 2),
           TileCandidate(off.center[0] + 0.35 * off.height * math.cos(off.angle),
                         off.center[1] + 0.35 * off.height * math.sin(off.angle), off.angle, 1.3 * off.height, off.width, 3)]

    def probabilities(place: TileCandidate) -> np.ndarray:
        patch = cut_patch(scene.image, (place.x, place.y), place.angle, place.height)
        return _softmax(read.logits(balance(np.stack([patch, patch[::-1, ::-1]])))[:, read._classes])

    def around(place: TileCandidate, jitters) -> np.ndarray:
        """The geometric mean of the probabilities of ``place``'s own cut and its ``jitters`` cuts."""
        right = np.array([math.cos(place.angle), math.sin(place.angle)])
        down = np.array([-math.sin(place.angle), math.cos(place.angle)])
        cuts = [probabilities(place)] + [probabilities(TileCandidate(
            *(np.array([place.x, place.y]) + place.height * (a * right + b * down)), place.angle + math.radians(turn),
            place.height * scale, place.width, place.row)) for a, b, turn, scale in jitters]
        mean = np.exp(np.log(np.clip(np.stack(cuts), 1e-9, 1.0)).mean(axis=0))
        return mean / mean.sum(axis=1, keepdims=True)

    first = np.concatenate([probabilities(c) for c in cut])
    again = first.copy()
    read._read_again(scene.image, cut, again)
    sure, badly, bare, shifted = first.reshape(4, 2, -1)
    assert sure[:, :-2].max() >= read.options.read_again and bare[:, -1].min() >= read.options.read_again
    assert badly[:, :-2].max() < read.options.read_again and badly[:, -1].min() < read.options.read_again
    assert np.array_equal(again[:2], first[:2]) and np.array_equal(again[4:6], first[4:6])
    assert np.allclose(again[2:4], around(cut[1], JITTERS), atol=1e-5)
    assert around(cut[3], JITTERS)[:, :-2].max() < read.options.sure_found
    assert np.allclose(again[6:], around(cut[3], JITTERS + WIDER), atol=1e-5)


def _one_tile_taken_out(reader, step: int):
    """A rendered Rummikub-style turn table read, its first tile taken out of the reading: the
    reader for its set, a copy of the photo, the tile taken out, the others (as placed) and
    points of bare table ``step`` pixels apart, two tile heights from every tile."""
    scene = render_tile_scene(np.random.default_rng(5), TileSceneParams(palette="rummikub", **TURN_TABLE))
    read = reader.with_palette(PALETTES["rummikub"])
    reading = read.read(scene.image)
    table = [(x, y) for x in range(60, 1220, step) for y in range(60, 660, step)
             if all(math.hypot(x - t.center[0], y - t.center[1]) > 2 * t.height for t in scene.tiles)]
    return read, scene.image.copy(), reading.tiles[0], [_placed(o) for o in reading.tiles[1:]], table


def test_a_patch_of_plain_table_is_no_doubt_but_a_missed_tile_and_a_washed_out_face_stay_doubts(reader):
    """Where the outline finder leaves a face-coloured patch unexplained, the reader drops the
    doubt only for plain table that every look reads as no tile: a tile it missed (here one
    taken out of the reading) shows its number, and a face washed out by glare (a spot as light
    as the faces, no number left) could be a tile too."""
    read, image, missed, others, table = _one_tile_taken_out(reader, step=60)
    glare = table[len(table) // 2]
    cv2.ellipse(image, (int(glare[0]), int(glare[1])), (30, 40), 0, 0, 360, (250, 252, 252), -1)
    bare = read._bare_table(image, [missed.center, *table], others)
    assert missed.center not in bare and glare not in bare
    assert len(bare) >= 0.8 * len(table)


def test_a_dark_grainy_patch_of_table_is_no_doubt_but_a_tile_in_a_shadow_stays_one(reader):
    """A dark cloth's grain is no plain table (its relative contrast is a number's), but a place far
    darker than the faces that every look reads as no tile is no face: no question to the players
    (the photographed replays asked about such places on dark cloths). A tile in a shadow (here
    the one taken out of the reading, dimmed to 0.6) still reads as a tile and stays a doubt."""
    read, image, missed, others, table = _one_tile_taken_out(reader, step=120)
    table = table[:6]
    grain = np.random.default_rng(0)
    for x, y in table:
        image[y - 30:y + 30, x - 25:x + 25] = (grain.normal(45, 20, (60, 50, 1)) * (1.1, 1.0, 0.9)).clip(0, 255)
    x0, y0 = np.min(missed.outline, axis=0).astype(int) - 2
    x1, y1 = np.max(missed.outline, axis=0).astype(int) + 3
    image[y0:y1, x0:x1] = (image[y0:y1, x0:x1] * 0.6).astype(np.uint8)
    height, width = float(np.median([t.height for t in others])), float(np.median([t.width for t in others]))
    around = reader_module._Surroundings.of(image, others)
    assert not any(around.plain(Placed(x, y, 0.0, width, height)) for x, y in table)     # grainy, not plain
    bare = read._bare_table(image, [missed.center, *table], others)
    assert missed.center not in bare and set(table) <= bare


def test_a_grainy_patch_of_another_colour_than_the_faces_is_no_doubt_but_a_tinted_tile_stays_one(reader):
    """A yellow cloth's grain beside white faces is neither plain nor dark, but its colour is no
    face's: where every look reads no tile there, no question (validation turns asked about such
    places on coloured cloths). The tile taken out of the reading, tinted towards the cloth by a
    third of the way, still reads as a tile and stays a doubt."""
    read, image, missed, others, table = _one_tile_taken_out(reader, step=120)
    table = table[:6]
    grain = np.random.default_rng(0)
    cloth = np.array((60, 200, 220), np.float64)     # BGR: a warm yellow, about as light as the faces
    for x, y in table:
        image[y - 30:y + 30, x - 25:x + 25] = (cloth * grain.normal(1.0, 0.12, (60, 50, 1))).clip(0, 255)
    x0, y0 = np.min(missed.outline, axis=0).astype(int) - 2
    x1, y1 = np.max(missed.outline, axis=0).astype(int) + 3
    image[y0:y1, x0:x1] = (image[y0:y1, x0:x1] * (2 / 3) + cloth / 3).astype(np.uint8)
    height, width = float(np.median([t.height for t in others])), float(np.median([t.width for t in others]))
    around = reader_module._Surroundings.of(image, others)
    places = [Placed(x, y, 0.0, width, height) for x, y in table]
    assert not any(around.plain(place) or around.dark(place) for place in places)    # grainy, as light as a face
    assert all(around.off_colour(place) for place in places)
    bare = read._bare_table(image, [missed.center, *table], others)
    assert missed.center not in bare and set(table) <= bare


def test_lone_blobs_of_no_tiles_shape_that_are_plain_table_raise_no_width_doubt(reader, monkeypatch):
    """Lone face-coloured blobs wider than the set's tiles that read surely as no tile either
    way up are patches of the table where they show no face (plain: no face as light as the tiles' near
    them, no ink): here four such blobs, doubted while every such blob was. (The 48-font model
    reads one of them, at (166, 221), less than 0.8 surely as no tile, so that one stays a doubt.)"""
    # The table as session 11's finder saw it: its square re-look (REOPEN_KERNEL) left the blobs looked at here.
    monkeypatch.setattr(outlines, "REOPEN_KERNEL", cv2.MORPH_RECT)
    scene = render_tile_scene(np.random.default_rng(33), TileSceneParams(palette="rummikub", **TURN_TABLE))
    read = reader.with_palette(PALETTES["rummikub"])
    reading = read.read(scene.image)
    assert sum("1 tile(s) of unusual width" in doubt for doubt in reading.doubts) <= 1, reading.doubts
    assert sorted(reading.groups) == sorted([scene.tiles[t].code for t in row] for row in scene.rows)
    monkeypatch.setattr(reader_module._Surroundings, "no_face", lambda self, place: False)
    assert sum("1 tile(s) of unusual width" in doubt for doubt in read.read(scene.image).doubts) == 4


def test_a_row_that_is_a_combination_but_for_one_tiles_colour_is_asked_about(reader):
    """A colour misread (K10 read as B10 at 0.81 on a fresh-seed turn) turns a run of the table
    into no combination and the turn into a wrong verdict: such a row is a doubt, whether the
    tile was misread or really lies there; a whole run and a group are not."""
    scene = render_tile_scene(np.random.default_rng(0), TileSceneParams(palette="rummikub", **CLEAN, fonts="heldout",
                                                                        scattered=(0, 0)),
                              [["K6", "K7", "K8", "B9", "K10"], ["R3", "R4", "R5"], ["B9", "O9", "K9"]])
    reading = reader.with_palette(PALETTES["rummikub"]).read(scene.image)
    assert sorted(reading.groups) == [["B9", "O9", "K9"], ["K6", "K7", "K8", "B9", "K10"], ["R3", "R4", "R5"]]
    odd = [doubt for doubt in reading.doubts if "but for one tile's colour" in doubt]
    assert len(odd) == 1 and len(reading.doubts) == 1


def test_a_blob_of_several_cuts_that_is_plain_table_raises_no_width_doubt(reader, monkeypatch):
    """A light patch of the table (benchmark turn 7 of seed 7, the photo before the turn, at
    (1237, 571)) that the outline finder cuts into more than one tile, every cut read surely as
    no tile either way up, is plain table like a lone such blob: no doubt of its width. Where its
    cuts were not plain, the doubt stays (as it did for every blob of more than one cut)."""
    # The table as session 11's finder saw it: its square re-look (REOPEN_KERNEL) left the blobs looked at here.
    monkeypatch.setattr(outlines, "REOPEN_KERNEL", cv2.MORPH_RECT)
    rows = [["O8", "B8", "R8"], ["B7", "B8", "B9", "B10"], ["O4", "O5", "JK", "O7", "O8", "O9", "O10"], ["R1", "R2", "R3"]]
    scene = render_tile_scene(np.random.default_rng([578197730, 0]), TileSceneParams(palette="rummikub", **TURN_TABLE),
                              rows)
    read = reader.with_palette(PALETTES["rummikub"])
    def width_doubts(doubts) -> list[str]:
        return [d for d in doubts if d.startswith("the blob at (1237, ") and d.endswith("tile(s) of unusual width")]

    reading = read.read(scene.image)
    assert width_doubts(reading.doubts) == []
    assert sorted(reading.groups) == sorted(rows)
    monkeypatch.setattr(reader_module._Surroundings, "plain", lambda self, place: False)
    assert len(width_doubts(read.read(scene.image).doubts)) == 1


def test_one_tiles_room_that_is_bare_table_is_no_doubt(reader, monkeypatch):
    """One tile's room in a line of candidates (a validation turn of seed 600, the photo after
    the turn: no tile between the two) is a doubt only where it may hold a face: where every
    look there reads surely no tile and it is plain table (:meth:`TileReader._bare_table`), it
    goes, as a patch of face colour no tile explains does."""
    # The table as session 11's finder saw it: its square re-look (REOPEN_KERNEL) left the blobs looked at here.
    monkeypatch.setattr(outlines, "REOPEN_KERNEL", cv2.MORPH_RECT)
    rows = [["K5", "K7", "K8"], ["K11", "K12", "K13"], ["K3", "K4", "K5"], ["O4", "O5", "O6", "O7", "O8", "O9", "O10"],
            ["R5", "JK", "O5"], ["R1", "R2", "R3", "R4", "R5"], ["K6", "K7", "K8", "K9", "K10", "K11", "K12"]]
    scene = render_tile_scene(np.random.default_rng([549269009, 1]), TileSceneParams(palette="rummikub", **TURN_TABLE),
                              rows)
    read = reader.with_palette(PALETTES["rummikub"])

    def rooms_there(doubts) -> list[str]:
        """The room doubts between the tiles at about (390, 62) and (454, 57)."""
        return [d for d in doubts if "room" in d and math.hypot(d.at[0] - 422, d.at[1] - 60) < 8]

    reading = read.read(scene.image)
    assert not [d for d in reading.doubts if "room" in d]
    monkeypatch.setattr(TileReader, "_bare_table", lambda self, frame, points, tiles, around=None: set())
    assert len(rooms_there(read.read(scene.image).doubts)) == 1


def test_the_other_networks_read_only_the_patches_the_first_reads_unsurely(reader):
    """The first network reads every patch; the other two only where it is below ``others_below``
    over the set's classes, and there the three's mean is taken, as :meth:`TileReader.classify` takes
    it for every patch (what ``learn-tiles`` and a learned set read with)."""
    import copy

    scene = render_tile_scene(np.random.default_rng(5), TileSceneParams(palette="rummikub", **TURN_TABLE))
    read = reader.with_palette(PALETTES["rummikub"])
    upright = [cut_patch(scene.image, t.center, t.angle, t.height) for t in scene.tiles]
    patches = balance(np.stack(upright + [p[::-1, ::-1] for p in upright]))   # tiles both ways up
    every, _ = read.classify(patches)
    (first,), _ = read.networks.read(patches, range(1))
    sure = _softmax(first[:, read._classes]).max(axis=1) >= read.options.others_below
    assert 0 < sure.sum() < len(patches)
    got = read.logits(patches)
    np.testing.assert_array_equal(got[sure], first[sure])
    np.testing.assert_allclose(got[~sure], every[~sure], atol=1e-4)
    always = copy.copy(read)
    always.options = replace(read.options, others_below=1.0)
    np.testing.assert_allclose(always.logits(patches), every, atol=1e-4)



def test_a_row_at_the_heart_of_a_glare_pool_is_found(reader):
    """Tiles whose faces glare whites out stand out from the pool's halo by far less than from a
    table, and at the pool's heart the halo itself is 40 lightness units above its surroundings, so
    the glare look at 40 saw one blob of row and halo, too tall for a row; the look at 60 finds the
    row. The photo is the benchmark's (``eval_tiles.py --seed 27``, turn 78, after the turn): the
    three tiles laid there were read as nothing, with no doubt, and the illegal turn as a draw."""
    rows = [["Y10", "Y11", "Y12"], ["G2", "R2", "B2"], ["G5", "JK", "G7", "G8", "G9", "G10", "G11"],
            ["B6", "B7", "B8", "B9", "B10", "B11", "B12"], ["G7", "JK", "G9"], ["R9", "JK", "R11"], ["G11", "B7", "R10"]]
    params = TileSceneParams(palette="ravensburger", fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False,
                             tile_height=(40.0, 64.0), in_view=True)
    scene = render_tile_scene(np.random.default_rng([1409758067, 1]), params, rows)
    reading = reader.with_palette(PALETTES["ravensburger"]).read(scene.image)
    assert ["G11", "B7", "R10"] in reading.groups or reading.doubts, (reading.groups, reading.doubts)


def test_a_patterned_cloth_lit_unevenly_is_no_hand(reader):
    """The cloth between a pattern's dots, lit more on one side, is skin-coloured there, reaches the
    frame's edge and has a sharp rim, but the dots show through it: no hand does. The photo is the
    benchmark's (``eval_tiles.py``, seed 7, turn 63, after the turn), whose false hand stopped the turn."""
    rows = [["O5", "O6", "O7", "O8", "O9", "O10"], ["O3", "B3", "R3"], ["JK", "B8", "R8", "O8"], ["R11", "B11", "K11"]]
    params = TileSceneParams(palette="rummikub", fonts="heldout", scattered=(0, 0), hands=0.0, light_tables=False,
                             tile_height=(40.0, 64.0), in_view=True)
    scene = render_tile_scene(np.random.default_rng([1407321265, 1]), params, rows)
    reading = reader.with_palette(PALETTES["rummikub"]).read(scene.image)
    assert sorted(map(sorted, reading.groups)) == sorted(map(sorted, rows))
    assert "a hand covers part of the table" not in reading.doubts, reading.doubts
