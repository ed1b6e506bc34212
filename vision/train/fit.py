"""Training loops and ONNX export for the detector and the classifier."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from torch.nn import functional as F

from vision.labels import NUM_CLASSES
from vision.patches import PATCH_SIZE
from vision.train.data import DetectorScene, detector_batch
from vision.train.ensemble import BATCH
from vision.train.nets import IndexClassifier, IndexDetector
from vision.train.expose import expose_file
from vision.train.warmstart import freeze_norm_statistics, load_onnx_weights

Progress = Callable[[str], None]

FINE_TUNE_LR = 1 / 3
"""Peak learning rate of fine-tuning (training started from exported models), relative to training from scratch."""


def require_device(device: str) -> None:
    """Refuse a ``--device`` that torch cannot train on here (SystemExit with what to do instead)."""
    if device != "cpu" and not torch.cuda.is_available():
        raise SystemExit(f"--device {device}: torch sees no GPU here; train with --device cpu")


def timed_progress(started: float) -> Progress:
    """A progress printer that stamps each line with the seconds since ``started``."""
    def progress(line: str) -> None:
        print(f"[{time.monotonic() - started:6.0f} s] {line}", flush=True)
    return progress


def focal_loss(logits: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, normalised by the number of peaks."""
    prob = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = (target >= 0.999).float()
    pos_loss = -torch.log(prob) * (1 - prob) ** 2 * positive
    neg_loss = -torch.log(1 - prob) * prob ** 2 * (1 - target) ** 4 * (1 - positive)
    return ((pos_loss + neg_loss) * weight).sum() / positive.sum().clamp(min=1.0)


def detector_loss(raw: torch.Tensor, heat, weight, reg, mask) -> torch.Tensor:
    loss = focal_loss(raw[:, :2], heat, weight)
    index_mask = mask[:, :1]
    n_index = index_mask.sum().clamp(min=1.0)
    angle = (F.l1_loss(raw[:, 2:4], reg[:, 0:2], reduction="none") * index_mask).sum() / n_index
    size = (F.l1_loss(raw[:, 4:5], reg[:, 2:3], reduction="none") * index_mask).sum() / n_index
    back_mask = mask[:, 1:2]
    back_size = (F.l1_loss(raw[:, 5:6], reg[:, 3:4], reduction="none") * back_mask).sum() / back_mask.sum().clamp(min=1.0)
    return loss + angle + 0.5 * size + 0.2 * back_size


def colour_jitter(images: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Per-sample gain, offset and channel balance on 0..1 images (white balance, exposure)."""
    n = images.shape[0]
    # Drawn on the CPU generator, then moved: the same draws whichever device trains.
    gain = torch.exp(torch.randn(n, 1, 1, 1, generator=generator) * 0.25).to(images.device)
    balance = torch.exp(torch.randn(n, 3, 1, 1, generator=generator) * 0.08).to(images.device)
    offset = (torch.randn(n, 1, 1, 1, generator=generator) * 0.06).to(images.device)
    return ((images - 0.5) * gain * balance + 0.5 + offset).clamp(0, 1)


def cosine_lr(step: int, steps: int, peak: float, warmup: int = 100) -> float:
    if step < warmup:
        return peak * (step + 1) / warmup
    return peak * 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, steps - warmup)))


def _optimise(model: torch.nn.Module, name: str, steps: int, peak_lr: float, weight_decay: float,
              batch_loss: Callable[[int], torch.Tensor], progress: Progress, every: int,
              fine_tune: bool = False) -> None:
    """AdamW with warm-up and cosine decay; ``batch_loss(step)`` draws a batch and returns its loss.

    ``fine_tune``: the model was loaded from an exported one (:mod:`vision.train.warmstart`):
    a lower peak learning rate and frozen batch-norm statistics.
    """
    if fine_tune:
        peak_lr *= FINE_TUNE_LR
    optimiser = torch.optim.AdamW(model.parameters(), lr=peak_lr, weight_decay=weight_decay)
    model.train()
    if fine_tune:
        freeze_norm_statistics(model)
    started = time.monotonic()
    running = 0.0
    for step in range(steps):
        for group in optimiser.param_groups:
            group["lr"] = cosine_lr(step, steps, peak_lr)
        loss = batch_loss(step)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        running = 0.98 * running + 0.02 * loss.item() if step else loss.item()
        if step % every == 0 or step == steps - 1:
            elapsed = time.monotonic() - started
            progress(f"{name} step {step + 1}/{steps} loss {running:.3f} ({elapsed:.0f} s, "
                     f"{elapsed / (step + 1) * (steps - step - 1):.0f} s left)")
    model.eval()


def train_detector(scenes: list[DetectorScene], steps: int, batch: int, seed: int, progress: Progress,
                   init: Path | None = None, device: str = "cpu") -> IndexDetector:
    """Train the detector from scratch, or fine-tune the exported one at ``init``; ``device`` as
    for :func:`train_classifier`."""
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = IndexDetector()
    if init is not None:
        load_onnx_weights(model, init, torch.zeros(1, 3, 64, 64))
    model.to(device)

    def batch_loss(step: int) -> torch.Tensor:
        images, heat, weight, reg, mask = (torch.from_numpy(a).to(device) for a in detector_batch(scenes, rng, batch))
        return detector_loss(model.raw(colour_jitter(images, generator)), heat, weight, reg, mask)

    _optimise(model, "detector", steps, 3e-3, 1e-4, batch_loss, progress, every=50, fine_tune=init is not None)
    return model.cpu()


def far_camera_view(images: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """A batch of square patches (N, C, S, S) as a camera far above the table sees them: shrunk
    (area mean) to 0.4-0.7 of their side, one draw for the batch, and cut up again to S (bilinear),
    their fine detail lost.

    >>> board = torch.zeros(1, 1, 40, 40); board[..., ::2, ::2] = board[..., 1::2, 1::2] = 1.0
    >>> far = far_camera_view(board, torch.Generator().manual_seed(0))
    >>> tuple(far.shape), round(float(board.std()), 2), float(far.std()) < 0.1
    ((1, 1, 40, 40), 0.5, True)
    """
    side = int(images.shape[-1] * (0.4 + 0.3 * torch.rand(1, generator=generator).item()))
    return F.interpolate(F.interpolate(images, size=(side, side), mode="area"), size=images.shape[-2:],
                         mode="bilinear", align_corners=False)


LABEL_SMOOTHING = 0.05
"""The label smoothing every shipped classifier was trained with."""


def train_classifier(patches: np.ndarray, classes: np.ndarray, steps: int, batch: int, seed: int,
                     progress: Progress, num_classes: int = NUM_CLASSES,
                     widths: tuple[int, int, int, int] | None = None, init: Path | None = None,
                     device: str = "cpu", far_camera: bool = False,
                     label_smoothing: float = LABEL_SMOOTHING) -> IndexClassifier:
    """Train the classifier from scratch, or fine-tune the exported one at ``init``.

    ``device`` ("cpu", "cuda") only moves the arithmetic: batches and augmentation are drawn on
    the CPU from the same seeded generators, and the model comes back on the CPU, ready to export.
    ``far_camera``: one batch in six (none of the blurred ones) is shrunk to 0.4-0.7 of its side
    and cut up again, the 9-15 px indices of a camera far above the table (real photos hold 10 px
    indices, rendered tables seldom do). ``label_smoothing``: the share of each target spread over
    all classes (a classifier trained to the end reads a patch it knows at about 1 minus it).
    """
    rng = np.random.default_rng(seed)
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = IndexClassifier(num_classes, widths) if widths else IndexClassifier(num_classes)
    if init is not None:
        load_onnx_weights(model, init, torch.zeros(1, 3, PATCH_SIZE, PATCH_SIZE))
    model.to(device)

    def batch_loss(step: int) -> torch.Tensor:
        chosen = rng.integers(len(patches), size=batch)
        images = torch.from_numpy(patches[chosen]).to(device).permute(0, 3, 1, 2).float() * (1.0 / 255.0)
        images = colour_jitter(images, generator)
        if step % 3 == 0:     # blur as a camera out of focus adds it
            images = F.avg_pool2d(images, 3, stride=1, padding=1, count_include_pad=False)
        elif far_camera and step % 6 == 4:
            images = far_camera_view(images, generator)
        noise = torch.randn(images.shape, generator=generator).to(device)
        images = (images + noise * 0.03).clamp(0, 1)
        logits, _ = model(images)
        return F.cross_entropy(logits, torch.from_numpy(classes[chosen]).to(device), label_smoothing=label_smoothing)

    _optimise(model, "classifier", steps, 3e-3, 5e-4, batch_loss, progress, every=100, fine_tune=init is not None)
    return model.cpu()


def export_detector(model: IndexDetector, path: Path) -> None:
    torch.onnx.export(model, torch.zeros(1, 3, 256, 256), str(path), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {0: "n", 2: "height", 3: "width"}, "maps": {0: "n", 2: "h4", 3: "w4"}},
                      opset_version=17, external_data=False, dynamo=False)


def export_classifier(model: IndexClassifier, path: Path, height: int = PATCH_SIZE, width: int = PATCH_SIZE,
                      expose: bool = True) -> None:
    """Export to ONNX; ``expose`` adds the outputs deck learning refits from (:mod:`vision.train.expose`)."""
    torch.onnx.export(model, torch.zeros(1, 3, height, width), str(path), input_names=["patch"],
                      output_names=["logits", "embedding"],
                      dynamic_axes={"patch": {0: BATCH}, "logits": {0: BATCH}, "embedding": {0: BATCH}},
                      opset_version=17, external_data=False, dynamo=False)
    if expose:
        expose_file(path)
