"""The classifier's last convolution blocks and layer in numpy, to refit them to a player's deck.

The shipped classifier (ONNX, run by onnxruntime) also returns ``features``, the map its last
convolution blocks read, and those blocks' weights (:mod:`vision.train.expose`). A
:class:`ConvHead` is those blocks (3x3 convolutions with padding 1, each followed by a ReLU),
the global mean pooling and the final linear layer: exactly the rest of the network, so a head
built from the shipped weights returns the shipped logits. :func:`fit_conv_head` refits all of
it by gradient descent (Adam) on a deck's patches; numpy only, no torch.

>>> rng = np.random.default_rng(0)
>>> block = ConvBlock(rng.normal(size=(4, 2, 3, 3)).astype(np.float32), np.zeros(4, np.float32), 2)
>>> head = ConvHead((block,), np.eye(3, 4, dtype=np.float32), np.zeros(3, np.float32))
>>> head.logits(rng.normal(size=(5, 2, 6, 6)).astype(np.float32)).shape
(5, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURES = "features"
"""The classifier output holding the input map of its exposed convolution blocks."""


def block_outputs(number: int) -> tuple[str, str, str]:
    """The classifier outputs holding exposed block ``number``'s weight, bias and stride (0 = the block
    ``features`` go into)."""
    return f"conv{number}_weight", f"conv{number}_bias", f"conv{number}_stride"


@dataclass(frozen=True)
class ConvBlock:
    """A 3x3 convolution (padding 1) with its bias and stride, then a ReLU; weight (out, in, 3, 3)."""

    weight: np.ndarray
    bias: np.ndarray
    stride: int


def im2col(x: np.ndarray, stride: int) -> np.ndarray:
    """(N, C, H, W) to the (N, positions, C * 9) windows a 3x3 convolution with padding 1 reads.

    >>> im2col(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2), 1)[0, 0].tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 3.0]
    """
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))[:, :, ::stride, ::stride]
    n, c, h, w = windows.shape[:4]
    return np.ascontiguousarray(windows.transpose(0, 2, 3, 1, 4, 5)).reshape(n, h * w, c * 9)


@dataclass(frozen=True)
class ConvHead:
    """``features`` -> conv blocks -> global mean -> ``embedding @ weight.T + bias``.

    Every block after the first has stride 1 (as in :class:`vision.train.nets.IndexClassifier`'s last
    blocks), which keeps the gradients one kind of convolution.
    """

    blocks: tuple[ConvBlock, ...]
    weight: np.ndarray
    bias: np.ndarray

    def __post_init__(self) -> None:
        if any(block.stride != 1 for block in self.blocks[1:]):
            raise ValueError(f"only the first block may have a stride other than 1, got strides "
                             f"{[block.stride for block in self.blocks]}")

    def logits(self, features: np.ndarray, batch: int = 512) -> np.ndarray:
        return np.concatenate([self._forward(features[i:i + batch])[-1] for i in range(0, len(features), batch)]) \
            if len(features) else np.zeros((0, len(self.bias)), np.float32)

    def _forward(self, x: np.ndarray) -> tuple[list, np.ndarray, np.ndarray]:
        steps = []
        for block in self.blocks:
            columns = im2col(x, block.stride)
            out = columns @ block.weight.reshape(len(block.weight), -1).T + block.bias     # (N, positions, out)
            steps.append((x.shape, columns, out))
            side_h = (x.shape[2] - 1) // block.stride + 1
            x = np.maximum(out, 0).transpose(0, 2, 1).reshape(len(x), len(block.weight), side_h, -1)
        embedding = x.mean(axis=(2, 3))
        return steps, embedding, embedding @ self.weight.T + self.bias

    def gradients(self, x: np.ndarray, targets: np.ndarray) -> list[np.ndarray]:
        """Gradients of the mean softmax cross entropy against ``targets`` (N, classes; rows of
        probabilities) for every parameter, in :meth:`parameters` order."""
        steps, embedding, logits = self._forward(x)
        dlogits = (softmax(logits) - targets) / len(x)
        grads = [dlogits.T @ embedding, dlogits.sum(axis=0)]
        positions = steps[-1][2].shape[1] if steps else 1
        dout = np.repeat((dlogits @ self.weight)[:, None, :] / positions, positions, axis=1)   # (N, positions, C)
        for number in range(len(self.blocks) - 1, -1, -1):
            block, (shape, columns, out) = self.blocks[number], steps[number]
            dout = dout * (out > 0)
            grads = [np.einsum("npo,npk->ok", dout, columns, optimize=True).reshape(block.weight.shape),
                     dout.sum(axis=(0, 1))] + grads
            if number:
                # The gradient of a stride-1 convolution's input is the same convolution of the output's
                # gradient with the kernel turned by 180 degrees and its in and out channels swapped.
                side = shape[2:]
                turned = block.weight[:, :, ::-1, ::-1].transpose(1, 0, 2, 3).reshape(shape[1], -1)
                dout = im2col(dout.transpose(0, 2, 1).reshape(len(x), -1, *side), 1) @ turned.T
        return grads

    def parameters(self) -> list[np.ndarray]:
        return [p for block in self.blocks for p in (block.weight, block.bias)] + [self.weight, self.bias]

    def with_parameters(self, values: list[np.ndarray]) -> "ConvHead":
        as32 = [v.astype(np.float32, copy=False) for v in values]
        blocks = tuple(ConvBlock(as32[2 * k], as32[2 * k + 1], b.stride) for k, b in enumerate(self.blocks))
        return ConvHead(blocks, as32[-2], as32[-1])


def shipped_blocks(session) -> tuple[ConvBlock, ...]:
    """The exposed convolution blocks of an onnxruntime classifier session, in the order they run; an error
    naming the fix when the model does not expose them."""
    names = {output.name for output in session.get_outputs()}
    if FEATURES not in names:
        raise ValueError("the classifier model has no 'features' output, which deck learning refits from: add it "
                         "with `python -m vision.train.expose MODEL.onnx` (models exported by `python -m vision.train` "
                         "have it)")
    count = next(k for k in range(len(names) + 1) if block_outputs(k)[0] not in names)
    wanted = [name for k in range(count) for name in block_outputs(k)]
    _, channels, height, width = session.get_inputs()[0].shape
    values = session.run(wanted, {session.get_inputs()[0].name: np.zeros((1, channels, height, width), np.float32)})
    return tuple(ConvBlock(values[3 * k], values[3 * k + 1], int(values[3 * k + 2])) for k in range(count))


class Adam:
    """Adam steps on a list of arrays, updated in place."""

    def __init__(self, parameters: list[np.ndarray], rate: float) -> None:
        self.parameters, self.rate, self.step_count = parameters, rate, 0
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in parameters]

    def step(self, grads: list[np.ndarray], rate: float | None = None) -> None:
        self.step_count += 1
        rate = self.rate if rate is None else rate
        first_fix, second_fix = 1 - 0.9 ** self.step_count, 1 - 0.999 ** self.step_count
        for p, g, (m, v) in zip(self.parameters, grads, self.moments):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= rate * (m / first_fix) / (np.sqrt(v / second_fix) + 1e-8)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def fit_conv_head(head: ConvHead, features: np.ndarray, classes: np.ndarray, steps: int = 200, batch: int = 128,
                  rate: float = 3e-3, pull: float = 1e-4, smoothing: float = 0.05, seed: int = 0) -> ConvHead:
    """Refit every parameter of ``head`` to (``features``, ``classes``): softmax cross entropy with label
    smoothing, Adam on random batches with a cosine-decaying rate, an L2 pull back towards ``head``'s
    own values (the shipped network, so that what the deck's patches do not show, such as the joker,
    keeps working)."""
    start = [p.astype(np.float32) for p in head.parameters()]
    values = [p.copy() for p in start]
    optimiser = Adam(values, rate)
    targets = np.full((len(head.bias), len(head.bias)), smoothing / len(head.bias), np.float32)
    targets += np.eye(len(head.bias), dtype=np.float32) * (1 - smoothing)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        chosen = rng.integers(0, len(features), batch)
        grads = head.with_parameters(values).gradients(features[chosen], targets[classes[chosen]])
        optimiser.step([g + pull * (v - s) for g, v, s in zip(grads, values, start)],
                       rate * 0.5 * (1 + np.cos(np.pi * step / steps)))
    return head.with_parameters(values)
