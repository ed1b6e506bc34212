"""Fine-tuning starts from the exported models exactly (vision.train.warmstart)."""

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the [train] extra (torch)")
ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from vision.train.ensemble import member  # noqa: E402
from vision.train.nets import IndexClassifier, IndexDetector  # noqa: E402
from vision.train.warmstart import freeze_norm_statistics, load_onnx_weights  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "models"


def tile_classifier() -> IndexClassifier:
    """The tile reader's network (``python -m vision.train.tiles --init DIR`` fine-tunes it)."""
    from vision.tiles.labels import NUM_CLASSES
    from vision.train.tiles import CLASSIFIER_WIDTHS

    return IndexClassifier(NUM_CLASSES, CLASSIFIER_WIDTHS)


@pytest.mark.parametrize("network, file, shape", [
    (IndexClassifier, "cards-classifier.onnx", (3, 3, 40, 40)),
    (IndexDetector, "cards-detector.onnx", (1, 3, 64, 96)),
    (tile_classifier, "tiles-classifier.onnx", (3, 3, 40, 32)),
])
def test_loaded_network_computes_what_the_onnx_model_computes(network, file, shape, tmp_path):
    path = tmp_path / file          # one network: the shipped tile classifier joins two (vision.train.ensemble)
    onnx.save(member(onnx.load(str(MODELS / file)), 0), str(path))
    model = network()
    example = torch.rand(*shape, generator=torch.Generator().manual_seed(0))
    load_onnx_weights(model, path, example)
    model.train()
    freeze_norm_statistics(model)
    model.eval()          # dropout off; the batch norms were frozen anyway
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    expected = session.run(None, {session.get_inputs()[0].name: example.numpy()})[0]
    got = model(example)
    got = (got[0] if isinstance(got, tuple) else got).detach().numpy()
    assert np.abs(got - expected).max() < 1e-4


def test_another_architecture_is_refused():
    with pytest.raises(ValueError, match="not the same architecture|layer 0"):
        load_onnx_weights(IndexDetector(), MODELS / "cards-classifier.onnx", torch.zeros(1, 3, 64, 64))
