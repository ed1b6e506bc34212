"""Classifiers joined into one ONNX file (`python -m vision.train.ensemble`), each member with its own
input and outputs, read as the tile reader reads them (:class:`vision.recognizer.Networks`): the mean
of the members' logits, their embeddings side by side, any members alone, and a player's learned set
fitted over all of them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
import onnxruntime as ort  # noqa: E402
from onnx import numpy_helper  # noqa: E402

from vision.decks import DeckProfile, classifier_digest  # noqa: E402
from vision.learn_deck import shipped_head  # noqa: E402
from vision.recognizer import Networks  # noqa: E402
from vision.tiles.reader import CLASSIFIER_FILE, TileReader  # noqa: E402
from vision.train.ensemble import EnsembleError, average, join, join_files, main, member, members_of  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"


def _single_network():
    """One network of the shipped tile classifier."""
    return member(onnx.load(str(MODELS / CLASSIFIER_FILE)), 0)


def _scaled(model, factor: float):
    """A different network of the same shape: every weight scaled."""
    other = onnx.ModelProto()
    other.CopyFrom(model)
    for weight in other.graph.initializer:
        values = numpy_helper.to_array(weight)
        if values.dtype == np.float32:
            weight.CopyFrom(numpy_helper.from_array(values * np.float32(factor), weight.name))
    return other


def _networks(model) -> Networks:
    return Networks(ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]))


def _run(model, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The members' mean logits and their embeddings side by side."""
    logits, embeddings = _networks(model).read(patches)
    return sum(logits) / len(logits), np.hstack(embeddings)


def _patches(count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (count, 40, 32, 3), dtype=np.uint8)


@pytest.fixture(scope="module")
def patches() -> np.ndarray:
    return _patches(6, 3)


def test_joined_logits_are_the_members_mean_and_embeddings_lie_side_by_side(patches):
    first = _single_network()
    second = _scaled(first, 0.8)
    logits_a, embedding_a = _run(first, patches)
    logits_b, embedding_b = _run(second, patches)
    assert np.abs(logits_a - logits_b).max() > 0.1           # the members differ
    logits, embedding = _run(join([first, second]), patches)
    np.testing.assert_allclose(logits, (logits_a + logits_b) / 2, atol=1e-4)
    np.testing.assert_array_equal(embedding, np.hstack([embedding_a, embedding_b]))
    for k, alone in enumerate(((logits_a, embedding_a), (logits_b, embedding_b))):   # and taken apart again
        for got, want in zip(_run(member(join([first, second]), k), patches), alone):
            np.testing.assert_array_equal(got, want)


def test_members_of_a_joined_file_read_alone_give_what_each_gives_on_its_own(patches):
    """The tile reader's first network reads every patch, the others only the unsure ones: one
    session, the members not asked given no patches."""
    networks = [_single_network(), _scaled(_single_network(), 0.8), _scaled(_single_network(), 1.1)]
    joined = _networks(join(networks))
    assert (joined.count, joined.inputs, joined.embedding_width) == (3, ["patch", "patch_1", "patch_2"], 192)
    (first,), (embedding,) = joined.read(patches, range(1))
    np.testing.assert_array_equal(first, _run(networks[0], patches)[0])
    assert embedding.shape == (6, 64)
    others, _ = joined.read(patches[2:4], range(1, 3))
    for got, network in zip(others, networks[1:]):
        np.testing.assert_array_equal(got, _run(network, patches[2:4])[0])


def test_members_taken_out_of_a_joined_file_join_anew_in_any_order_and_with_a_new_network(patches):
    """A fourth network joined to the shipped three, or the three re-ordered, as models/TILES.md does:
    each member taken out is named as a single network again (its batch ``n``, not the file's ``n1``)."""
    shipped = onnx.load(str(MODELS / CLASSIFIER_FILE))
    members = [member(shipped, k) for k in (1, 0, 2)]
    assert {m.graph.input[0].type.tensor_type.shape.dim[0].dim_param for m in members} == {"n"}
    joined = _networks(join(members + [_scaled(members[0], 0.9)]))
    assert joined.count == 4
    (first,), _ = joined.read(patches, range(1))
    np.testing.assert_array_equal(first, _run(members[0], patches)[0])
    (fourth,), _ = joined.read(patches, range(3, 4))
    np.testing.assert_array_equal(fourth, _run(_scaled(members[0], 0.9), patches)[0])


def test_the_mean_logits_stay_an_affine_function_of_the_joined_embedding(patches):
    """What learn-tiles relies on: the last layer over all members is recovered from the outputs."""
    first = _single_network()
    joined = join([first, _scaled(first, 0.8), _scaled(first, 1.1)])
    many = _patches(260, 4)
    logits, embedding = _run(joined, many)
    weight, bias = shipped_head(embedding, logits)
    assert weight.shape == (logits.shape[1], embedding.shape[1]) == (81, 192)
    np.testing.assert_allclose(embedding @ weight.T + bias, logits, atol=2e-3)


def test_members_reading_other_patches_are_refused():
    cards = onnx.load(str(MODELS / "cards-classifier.onnx"))
    with pytest.raises(EnsembleError, match="member 1"):
        join([_single_network(), cards])
    with pytest.raises(EnsembleError, match="two members"):
        join([_single_network()])


def test_fine_tuning_an_ensemble_names_the_way_to_take_one_network_out(tmp_path):
    from vision.train.tiles import main as train

    (tmp_path / "joined").mkdir()
    join_files([_save(_single_network(), tmp_path / "a.onnx"), _save(_single_network(), tmp_path / "b.onnx")],
               tmp_path / "joined" / CLASSIFIER_FILE)
    with pytest.raises(SystemExit, match="joins 2 networks; --init fine-tunes one: .* --member 0"):
        train(["--init", str(tmp_path / "joined"), "--members", "1", "--out", str(tmp_path / "out")])


def test_a_set_learned_with_another_classifier_is_refused_with_a_clear_error(tmp_path):
    first = _single_network()
    join_files([_save(first, tmp_path / "a.onnx"), _save(_scaled(first, 0.9), tmp_path / "b.onnx")],
               tmp_path / CLASSIFIER_FILE)
    stale = DeckProfile("tiles-home", np.zeros((81, 64), np.float32), np.zeros(81, np.float32))
    with pytest.raises(ValueError, match="fitted to a classifier giving 64 features; this one gives 128: learn it again"):
        TileReader(tmp_path, profile=stale)
    fitting = DeckProfile("tiles-home", np.zeros((81, 128), np.float32), np.zeros(81, np.float32),
                          classifier=classifier_digest(tmp_path / CLASSIFIER_FILE))
    assert TileReader(tmp_path, profile=fitting).profile is fitting


def test_a_set_learned_with_another_classifier_of_the_same_width_is_refused_too(tmp_path):
    """A model update keeps the features' width: the profile names the classifier it was fitted to."""
    old, new = tmp_path / "old", tmp_path / "new"
    for directory, scale in ((old, 1.0), (new, 0.9)):
        directory.mkdir()
        _save(_scaled(_single_network(), scale), directory / CLASSIFIER_FILE)
    learned = DeckProfile("tiles-home", np.zeros((81, 64), np.float32), np.zeros(81, np.float32),
                          classifier=TileReader(old).classifier_digest)
    assert TileReader(old, profile=learned).profile is learned
    with pytest.raises(ValueError, match="fitted to another classifier than the one installed .*: learn it again"):
        TileReader(new, profile=learned)
    unnamed = DeckProfile("tiles-home", learned.weight, learned.bias)     # saved before profiles named theirs
    with pytest.raises(ValueError, match="learn it again"):
        TileReader(new, profile=unnamed)


def test_the_command_joins_files_takes_a_member_out_and_names_a_missing_one(tmp_path, capsys, patches):
    first = _save(_single_network(), tmp_path / "a.onnx")
    second = _save(_scaled(_single_network(), 0.9), tmp_path / "b.onnx")
    assert main([str(first), str(second), "--out", str(tmp_path / "joined.onnx")]) == 0
    assert "joined 2 classifiers" in capsys.readouterr().out
    assert (members_of(tmp_path / "joined.onnx"), members_of(first)) == (2, 1)
    assert main([str(tmp_path / "joined.onnx"), "--member", "1", "--out", str(tmp_path / "one.onnx")]) == 0
    for got, want in zip(_run(onnx.load(str(tmp_path / "one.onnx")), patches), _run(onnx.load(str(second)), patches)):
        np.testing.assert_array_equal(got, want)
    with pytest.raises(SystemExit):
        main([str(tmp_path / "joined.onnx"), "--member", "2", "--out", str(tmp_path / "x.onnx")])
    assert "no member 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(first), str(tmp_path / "nowhere.onnx"), "--out", str(tmp_path / "x.onnx")])
    assert "no such model file" in capsys.readouterr().err


def test_averaged_weights_make_one_network_between_the_members(patches):
    first = _single_network()
    averaged = average([first, _scaled(first, 0.8), _scaled(first, 0.6)])
    assert [t.name for t in averaged.graph.initializer] == [t.name for t in first.graph.initializer]
    for mine, theirs in zip(averaged.graph.initializer, first.graph.initializer):
        got, want = numpy_helper.to_array(mine), numpy_helper.to_array(theirs)
        np.testing.assert_allclose(got, want * 0.8 if want.dtype == np.float32 else want, rtol=1e-6)
    logits, embedding = _run(averaged, patches)
    assert logits.shape == (6, 81) and embedding.shape == (6, 64)     # one network's size, not three


def test_networks_of_other_shapes_are_not_averaged(tmp_path, capsys):
    with pytest.raises(EnsembleError, match="member 1 is not the same network"):
        average([_single_network(), member(onnx.load(str(MODELS / "cards-classifier.onnx")), 0)])
    with pytest.raises(EnsembleError, match="two members"):
        average([_single_network()])
    first = _save(_single_network(), tmp_path / "a.onnx")
    second = _save(_scaled(_single_network(), 0.5), tmp_path / "b.onnx")
    assert main(["--average", str(first), str(second), "--out", str(tmp_path / "mean.onnx")]) == 0
    assert "averaged the weights of 2 classifiers" in capsys.readouterr().out
    assert members_of(tmp_path / "mean.onnx") == 1


def _save(model, path: Path) -> Path:
    onnx.save(model, str(path))
    return path
