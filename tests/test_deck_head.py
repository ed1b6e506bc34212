"""Deck learning's numpy head (vision.deck_head) and the classifier outputs it reads (vision.train.expose)."""

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from vision.deck_head import FEATURES, ConvBlock, ConvHead, block_outputs, fit_conv_head, shipped_blocks, softmax
from vision.decks import DeckProfile
from vision.learn_deck import classifier_outputs, shipped_head

MODELS = Path(__file__).resolve().parent.parent / "models"
SHIPPED = MODELS / "cards-classifier.onnx"


def small_head(rng: np.random.Generator) -> ConvHead:
    first = ConvBlock(rng.normal(size=(5, 3, 3, 3)), rng.normal(size=5), 2)
    second = ConvBlock(rng.normal(size=(4, 5, 3, 3)) * 0.5, rng.normal(size=4), 1)
    return ConvHead((first, second), rng.normal(size=(3, 4)), rng.normal(size=3))


def test_gradients_are_the_cross_entropys_slopes():
    rng = np.random.default_rng(1)
    head = small_head(rng)
    x = rng.normal(size=(6, 3, 8, 8))
    targets = np.eye(3)[[0, 1, 2, 0, 1, 2]]
    grads = head.gradients(x, targets)

    def loss(values: list[np.ndarray]) -> float:
        blocks = tuple(ConvBlock(values[2 * k], values[2 * k + 1], b.stride) for k, b in enumerate(head.blocks))
        logits = ConvHead(blocks, values[-2], values[-1]).logits(x)
        return float(-(targets * np.log(softmax(logits))).sum() / len(x))

    values = head.parameters()
    for number, grad in enumerate(grads):
        for flat in (1, 7):
            where = np.unravel_index(flat % grad.size, grad.shape)
            up, down = [v.copy() for v in values], [v.copy() for v in values]
            up[number][where] += 1e-6
            down[number][where] -= 1e-6
            assert (loss(up) - loss(down)) / 2e-6 == pytest.approx(grad[where], rel=1e-4, abs=1e-7), number


def test_a_strided_block_after_the_first_is_refused():
    rng = np.random.default_rng(0)
    block = ConvBlock(rng.normal(size=(4, 4, 3, 3)), np.zeros(4), 2)
    with pytest.raises(ValueError, match="only the first block may have a stride"):
        ConvHead((block, block), np.eye(3, 4), np.zeros(3))


def test_refitting_learns_classes_the_shipped_head_confuses():
    rng = np.random.default_rng(2)
    head = small_head(rng)
    # Three "decks" of feature maps: each class a pattern plus noise.
    patterns = rng.normal(size=(3, 3, 8, 8))
    classes = rng.integers(0, 3, 300)
    x = (patterns[classes] + rng.normal(scale=0.3, size=(300, 3, 8, 8))).astype(np.float32)
    before = (head.logits(x).argmax(axis=1) == classes).mean()
    fitted = fit_conv_head(head, x, classes, steps=150, batch=64, rate=1e-2, pull=0.0)
    after = (fitted.logits(x).argmax(axis=1) == classes).mean()
    assert after == 1.0 and before < 0.7, (before, after)


def exposed_session(path: Path) -> ort.InferenceSession:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def without_exposed_outputs(tmp_path: Path) -> Path:
    """The shipped classifier as the training exported it before this module: logits and embedding only."""
    import onnx

    model = onnx.load(str(SHIPPED))
    exposed = [o.name for o in model.graph.output if o.name not in ("logits", "embedding")]
    assert FEATURES in exposed, "the shipped classifier must expose its features (python -m vision.train.expose)"
    kept = [o for o in model.graph.output if o.name not in exposed]
    del model.graph.output[:]
    model.graph.output.extend(kept)
    nodes = [n for n in model.graph.node if not set(n.output) & set(exposed)]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    path = tmp_path / "plain.onnx"
    onnx.save(model, str(path))
    return path


def test_exposing_leaves_logits_and_embedding_bit_identical_and_the_numpy_head_continues_the_network(tmp_path):
    from vision.train.expose import main

    plain = without_exposed_outputs(tmp_path)
    assert main([str(plain), "--out", str(tmp_path / "exposed.onnx")]) == 0
    before, after = exposed_session(plain), exposed_session(tmp_path / "exposed.onnx")
    patches = np.random.default_rng(3).integers(0, 256, (64, 40, 40, 3), dtype=np.uint8)
    logits, embedding = classifier_outputs(before, patches, ["logits", "embedding"])
    logits2, embedding2, features = classifier_outputs(after, patches, ["logits", "embedding", FEATURES])
    assert np.array_equal(logits, logits2) and np.array_equal(embedding, embedding2)
    # The committed model is exactly what the function makes of the plain one.
    assert (tmp_path / "exposed.onnx").read_bytes() == SHIPPED.read_bytes()
    # The exposed blocks and the recovered last layer compute in numpy what the network computes.
    blocks = shipped_blocks(after)
    assert [b.stride for b in blocks] == [2, 1] and all(name in {o.name for o in after.get_outputs()}
                                                        for name in block_outputs(1))
    head = ConvHead(blocks, *shipped_head(embedding, logits))
    assert np.allclose(head.logits(features), logits, atol=1e-3)


def test_a_model_without_the_outputs_is_refused_by_name(tmp_path):
    plain = exposed_session(without_exposed_outputs(tmp_path))
    with pytest.raises(ValueError, match="python -m vision.train.expose"):
        shipped_blocks(plain)
    profile = DeckProfile("mine", np.zeros((54, 96), np.float32), np.zeros(54, np.float32),
                          shipped_blocks(exposed_session(SHIPPED)))
    from vision.recognizer import run_classifier

    with pytest.raises(ValueError, match="learned deck 'mine' needs the classifier's 'features' output"):
        run_classifier(plain, np.zeros((1, 40, 40, 3), np.uint8), 54, profile)


def test_profiles_with_blocks_and_last_layer_only_profiles_load(tmp_path):
    rng = np.random.default_rng(4)
    head = small_head(rng)
    DeckProfile("new", head.weight, head.bias, head.blocks).save(tmp_path)
    DeckProfile("old", head.weight, head.bias).save(tmp_path)     # as decks were saved before the blocks
    new, old = DeckProfile.load("new", tmp_path), DeckProfile.load("old", tmp_path)
    x = rng.normal(size=(2, 3, 8, 8)).astype(np.float32)
    assert new.reads == "features" and [b.stride for b in new.blocks] == [2, 1]
    assert np.allclose(new.logits(x), head.logits(x), atol=1e-5)
    assert old.reads == "embedding" and old.blocks == ()
    assert np.allclose(old.logits(np.ones((1, 4), np.float32)), head.weight.sum(axis=1) + head.bias, atol=1e-5)
