"""The card classifier's training options (vision.train.fit.train_classifier, python -m vision.train)."""

import numpy as np
import pytest

from vision.train.__main__ import parse_args


def test_label_smoothing_is_an_option_of_the_training_command(capsys):
    assert parse_args([]).label_smoothing is None          # the fit's default, as the shipped models were trained
    assert parse_args(["--label-smoothing", "0.01"]).label_smoothing == 0.01
    with pytest.raises(SystemExit):
        parse_args(["--label-smoothing", "1"])
    assert "--label-smoothing must lie within 0..1" in capsys.readouterr().err


def test_label_smoothing_caps_how_sure_the_classifier_learns_to_be():
    """Two kinds of patch told apart at once; trained to the end, a classifier reads them at about
    1 - smoothing (plus its share of the spread), the most smoothing allows."""
    torch = pytest.importorskip("torch", reason="training needs the [train] extra (torch)")
    from vision.patches import PATCH_SIZE
    from vision.train.fit import train_classifier

    rng = np.random.default_rng(0)
    patches = np.zeros((64, PATCH_SIZE, PATCH_SIZE, 3), np.uint8)
    classes = np.arange(64) % 2
    patches[classes == 1, :, :PATCH_SIZE // 2] = 255              # the left half white: class 1
    patches = np.clip(patches + rng.integers(0, 40, patches.shape), 0, 255).astype(np.uint8)
    sure = {}
    for smoothing in (0.0, 0.3):
        model = train_classifier(patches, classes, 120, 16, 0, lambda line: None, label_smoothing=smoothing).eval()
        with torch.no_grad():
            logits, _ = model(torch.from_numpy(patches[:8]).permute(0, 3, 1, 2).float() / 255.0)
        sure[smoothing] = float(torch.softmax(logits, 1).max(1).values.mean())
    assert sure[0.0] > 0.9 and sure[0.3] < 0.8
