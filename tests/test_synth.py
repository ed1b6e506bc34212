"""Synthetic scene generator: annotation geometry, visibility, splits, determinism."""

import json
import math

import cv2
import numpy as np
import pytest

from vision.geometry import crop_index
from vision.synth import dataset
from vision.synth.crops import NO_INDEX, index_crops
from vision.synth.decks import HELDOUT_DESIGNS, REAL_DESIGNS, TRAIN_DESIGNS, _load_real_deck, load_deck
from vision.synth.faces import CARD_CODES
from vision.synth.scenes import INDEX_VISIBLE, SceneParams, _polygon_visibility, pick_designs, render_scene

# Clean scenes: no camera effects, shadows, hands or clutter, so pixels can be compared with the card art.
CLEAN = dict(effects=0.0, shadows=0.0, hands=0.0, clutter=0.0, back_decoys=0.0, jokers=0.0, face_down=0.0, piles=0.0)


def art_patch(design: str, card: str, box_index: int, patch: int = 24) -> np.ndarray:
    """The index as printed on the card art, cut like the recognizer cuts it."""
    face = load_deck(design).faces[card]
    x0, y0, x1, y1 = face.indices[box_index].box
    angle = 0.0 if face.indices[box_index].rotation == 0 else math.pi
    return crop_index(face.image[:, :, :3], ((x0 + x1) / 2, (y0 + y1) / 2), angle, y1 - y0, patch, context=1.0)


def normalised(patch: np.ndarray) -> np.ndarray:
    """Zero mean, unit variance over all colour channels (red and black suits differ in colour)."""
    values = patch.astype(float)
    return (values - values.mean()) / (values.std() + 1e-6)


def likeness(scene, annotation, card: str, center=None, patch: int = 24) -> float:
    """Best correlation (-1..1) between the annotated index box in the scene
    (optionally moved to ``center``) and the index boxes of a card's art.
    Only the columns of the index box count: beside a narrow index the square
    crop may show the table, where the art shows paper."""
    a = annotation
    seen = crop_index(scene.image, center or a.center, a.angle, a.size, patch, context=1.0)
    half = max(2, int(round(patch * np.linalg.norm(a.polygon[1] - a.polygon[0]) / a.size / 2)))
    columns = slice(patch // 2 - half, patch // 2 + half)
    boxes = load_deck(a.design).faces[card].indices
    return max(float((normalised(seen[:, columns]) * normalised(art_patch(a.design, card, k, patch)[:, columns])).mean())
               for k in range(len(boxes)))


def test_annotated_index_of_a_single_card_matches_its_card_art():
    params = SceneParams(width=640, height=480, cards=(1, 1), card_height=(200, 200), max_tilt_deg=0.0,
                         designs=("proc/11",), **CLEAN)
    scenes = (render_scene(np.random.default_rng(seed), params) for seed in range(20))
    scene = next(s for s in scenes if s.cards[0].visible > 0.97)
    (card,) = scene.cards
    readable = [a for a in scene.indices if a.readable]
    assert len(readable) == len(load_deck("proc/11").faces[card.card].indices) >= 2
    for a in readable:
        assert a.card == card.card and a.card_number == 0
        assert a.visible == pytest.approx(1.0)
        assert likeness(scene, a, a.card) > 0.9
        # The same crop one index height away shows something else: the check can fail.
        up = np.array([math.sin(a.angle), -math.cos(a.angle)])
        assert likeness(scene, a, a.card, center=tuple(np.array(a.center) + up * a.size)) < 0.5


def separated(p: np.ndarray, q: np.ndarray, margin: float) -> bool:
    """Convex polygons p and q are at least ``margin`` apart along some edge normal."""
    for poly in (p, q):
        for k in range(len(poly)):
            edge = poly[(k + 1) % len(poly)] - poly[k]
            normal = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
            a, b = p @ normal, q @ normal
            if a.max() + margin < b.min() or b.max() + margin < a.min():
                return True
    return False


def inside(p: np.ndarray, outline: np.ndarray, margin: float) -> bool:
    return all(cv2.pointPolygonTest(outline.astype(np.float32), (float(x), float(y)), True) > margin for x, y in p)


def heavy_overlap_scene():
    params = SceneParams(width=800, height=600, cards=(14, 14), card_height=(200, 200), max_tilt_deg=20.0,
                         overlap=1.0, designs=("proc/3", "proc/4"), **CLEAN)
    return render_scene(np.random.default_rng(8), params)


def test_fully_visible_indices_in_heavy_overlap_look_most_like_their_own_card_art():
    scene = heavy_overlap_scene()
    whole = [a for a in scene.indices if a.visible > 0.99 and a.size > 20]
    assert len(whole) >= 5
    for a in whole:
        scores = {code: likeness(scene, a, code) for code in CARD_CODES}
        assert max(scores, key=scores.get) == a.card


def test_visibility_agrees_with_the_geometry_of_the_cards_on_top():
    scene = heavy_overlap_scene()
    h, w = scene.image.shape[:2]
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    later = lambda a: [c.outline for c in scene.cards[a.card_number + 1:]]
    # An index listed as visible is never entirely under a card laid later ...
    assert not any(inside(a.polygon, outline, 1.5) for a in scene.indices for outline in later(a))
    # ... and one clear of every later card and inside the image shows completely.
    clear = [a for a in scene.indices if inside(a.polygon, frame, 1.5) and all(separated(a.polygon, o, 1.5) for o in later(a))]
    assert clear and all(a.visible == pytest.approx(1.0) for a in clear)
    # Heavy overlap hides some indices altogether.
    total = sum(len(load_deck(c.design).faces[c.face].indices) for c in scene.cards)
    assert len(scene.indices) < total


def test_visibility_counts_covered_and_off_image_pixels():
    labels = np.zeros((100, 100), np.int32)
    labels[:, 50:] = 2
    square = lambda x, y: np.array([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]], float)
    assert _polygon_visibility(labels, square(10, 10), 0) == pytest.approx(1.0)
    assert _polygon_visibility(labels, square(60, 10), 0) == 0.0          # fully under card 2
    assert _polygon_visibility(labels, square(60, 10), 2) == pytest.approx(1.0)
    assert _polygon_visibility(labels, square(40, 10), 0) == pytest.approx(0.5, abs=0.06)
    assert _polygon_visibility(labels, square(-10, 10), 0) == pytest.approx(0.5, abs=0.06)  # half off-image


def test_held_out_designs_never_appear_in_training_scenes():
    assert not set(TRAIN_DESIGNS) & set(HELDOUT_DESIGNS)
    assert len(TRAIN_DESIGNS) >= 8 and len(HELDOUT_DESIGNS) >= 2
    assert set(TRAIN_DESIGNS) | set(HELDOUT_DESIGNS) == set(REAL_DESIGNS)
    rng = np.random.default_rng(0)
    train = [name for _ in range(2000) for name in pick_designs(rng, SceneParams())]
    assert not set(train) & set(HELDOUT_DESIGNS)
    assert any(name.startswith("proc/") for name in train) and set(TRAIN_DESIGNS) <= set(train)
    heldout = {name for _ in range(200) for name in pick_designs(rng, SceneParams(designs="heldout"))}
    assert heldout == set(HELDOUT_DESIGNS)


def test_scenes_are_deterministic_for_a_seed():
    params = SceneParams(width=480, height=360, cards=(6, 10), designs=("proc/1", "proc/2"))
    first = render_scene(np.random.default_rng(42), params)
    again = render_scene(np.random.default_rng(42), params)
    other = render_scene(np.random.default_rng(43), params)
    assert np.array_equal(first.image, again.image)
    assert first.annotations() == again.annotations()
    assert not np.array_equal(first.image, other.image)


def test_close_ups_and_small_photos_cover_the_scale_range_of_real_photos():
    close = render_scene(np.random.default_rng(1), SceneParams.closeup(designs=("proc/9",), **CLEAN))
    small = render_scene(np.random.default_rng(1), SceneParams.small_photo(designs=("proc/9",), **CLEAN))
    assert close.image.shape[:2] == (1200, 1600) and small.image.shape[:2] == (512, 384)
    height = lambda card: float(np.linalg.norm(card.outline[3] - card.outline[0]))
    assert max(height(c) for c in close.cards) > 500 and max(a.size for a in close.indices) > 80
    assert all(80 < height(c) < 0.8 * 512 for c in small.cards)
    assert small.indices and all(a.size < 80 for a in small.indices)


def test_a_real_deck_renders_with_two_indices_on_every_card(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMMYREF_CACHE", str(tmp_path))
    _load_real_deck.cache_clear()
    try:
        deck = load_deck("gnome/simplistic")
    finally:
        _load_real_deck.cache_clear()
    assert set(CARD_CODES) <= set(deck.faces) and "BACK" in deck.faces
    assert (tmp_path / "decks" / "gnome__simplistic" / "indices.json").exists()
    w, h = deck.card_size
    for code in CARD_CODES:
        top_left, bottom_right = sorted(deck.faces[code].indices, key=lambda b: b.rotation)
        assert top_left.rotation == 0 and bottom_right.rotation == 180
        assert top_left.box[0] < 0.1 * w and top_left.box[1] < 0.1 * h and top_left.box[2] < 0.4 * w
        assert bottom_right.box[2] > 0.9 * w and bottom_right.box[3] > 0.9 * h and bottom_right.box[0] > 0.6 * w
        assert 0.1 * h < top_left.height < 0.3 * h


def test_crops_are_labelled_patches_of_indices_and_of_elsewhere():
    rng = np.random.default_rng(3)
    scene = render_scene(rng, SceneParams(width=640, height=480, cards=(8, 8), designs=("proc/6",)))
    crops = index_crops(scene, rng, patch=32, negatives=1.0)
    labels = [label for _, label in crops]
    readable = [a.card for a in scene.indices if a.visible >= INDEX_VISIBLE]
    assert sorted(label for label in labels if label != NO_INDEX) == sorted(readable)
    assert labels.count(NO_INDEX) > 0
    assert all(p.shape == (32, 32, 3) and p.dtype == np.uint8 for p, _ in crops)


def test_dataset_command_writes_images_annotations_and_crops(tmp_path, capsys):
    out = tmp_path / "data"
    assert dataset.main(["--out", str(out), "--count", "4", "--designs", "proc/1,proc/2", "--crops", "32",
                         "--kind", "small", "--seed", "7"]) == 0
    records = [json.loads(line) for line in (out / "annotations.jsonl").read_text().splitlines()]
    assert [r["image"] for r in records] == [f"images/{i:06d}.jpg" for i in range(4)]
    for record in records:
        image = cv2.imread(str(out / record["image"]))
        assert image.shape[:2] == (record["height"], record["width"])
        assert set(record["designs"]) <= {"proc/1", "proc/2"}
    crops = np.load(out / "crops.npz")
    assert crops["patches"].shape[1:] == (32, 32, 3) and len(crops["labels"]) == len(crops["patches"]) > 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["count"] == 4 and set(meta["designs"]) <= {"proc/1", "proc/2"}
    assert "4/4 scenes" in capsys.readouterr().err


def test_dataset_command_rejects_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        dataset.main(["--out", "/tmp/never", "--count", "0"])
    assert "count must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        dataset.main(["--out", "/tmp/never", "--designs", "gnome/nosuchdeck"])
    assert "unknown deck design 'gnome/nosuchdeck'" in capsys.readouterr().err


def _squash(card) -> float:
    """How much the photo squashes a card: the smaller over the larger singular value of the map
    from the upright card's unit sides to its outline's sides (1: seen straight on)."""
    top_left, top_right, _, bottom_left = card.outline
    sides = np.stack([top_right - top_left, (bottom_left - top_left) / 1.4], axis=1)
    low, high = sorted(np.linalg.svd(sides, compute_uv=False))
    return float(low / high)


@pytest.mark.parametrize("portrait", [False, True])
def test_a_layout_scene_lays_whole_upright_rows_of_a_suits_run_apart(portrait):
    params = SceneParams.layout(designs=("proc/5",), **CLEAN)
    params = params.portrait() if portrait else params
    scene = render_scene(np.random.default_rng(4), params)
    cards = scene.cards
    assert len(cards) % 13 == 0 and 13 <= len(cards) <= 52
    height, width = scene.image.shape[:2]
    for row in range(len(cards) // 13):
        laid = cards[13 * row:13 * row + 13]
        centres = np.array([c.outline.mean(axis=0) for c in laid])
        assert np.all(np.diff(centres[:, 0]) > 0)                    # left to right
        assert np.ptp(centres[:, 1]) < 0.3 * np.linalg.norm(laid[0].outline[3] - laid[0].outline[0])
    for card in cards:
        up = card.outline[0] - card.outline[3]                           # bottom-left to top-left
        assert abs(math.degrees(math.atan2(up[0], -up[1]))) < 25          # upright, as learn-deck takes them (40)
        assert card.visible > 0.9 and _squash(card) > 0.8                 # apart (a turned card may touch), seen from above
        assert card.outline[:, 0].min() >= 0 and card.outline[:, 0].max() < width
    first_row = [c.card for c in cards[:13]]
    assert [code[:-1] for code in first_row] == ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert len({code[-1] for code in first_row}) == 1
    assert all(index.readable for index in scene.indices) and len(scene.indices) >= 2 * len(cards)


def test_grazing_scenes_squash_the_cards_as_a_camera_low_over_the_table_does():
    def squashes(params) -> list[float]:
        return [_squash(card) for seed in range(6) for card in render_scene(np.random.default_rng(seed), params).cards]

    grazing, table = squashes(SceneParams.grazing(designs=("proc/3",), **CLEAN)), squashes(SceneParams(designs=("proc/3",), **CLEAN))
    assert np.median(grazing) < 0.6 and min(grazing) < 0.4
    assert np.median(table) > 0.8


def test_scene_parameters_refuse_impossible_cameras_and_arrangements():
    with pytest.raises(ValueError, match="arrangement must be"):
        SceneParams(arrangement="spiral")
    with pytest.raises(ValueError, match="tilt must be a range"):
        SceneParams(min_tilt_deg=40.0, max_tilt_deg=30.0)
    with pytest.raises(ValueError, match="fov_deg"):
        SceneParams(fov_deg=(60.0, 20.0))
