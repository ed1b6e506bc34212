"""The two networks: a tiny CenterNet-style index detector and a patch classifier.

Detector: a frame (N, 3, H, W) in BGR scaled to 0..1, H and W multiples of 16,
to a map (N, 6, H/4, W/4) with channels ``[index heat, back heat, cos, sin,
log size, back log size]``; the heats are sigmoid probabilities (applied inside
the network so the exported ONNX graph returns them directly), the size
channels are log of pixels in the network's input frame.

Classifier: an upright patch (N, 3, 40, 40) to ``logits`` (N, classes) and a
``embedding`` (N, EMBED_DIM), the pooled features the last layer reads (deck
adaptation refits the last two blocks and that layer, :mod:`vision.train.expose`).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from vision.labels import NUM_CLASSES

DETECTOR_STRIDE = 4
DETECTOR_CHANNELS = 6
EMBED_DIM = 96


def conv_bn(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class IndexDetector(nn.Module):
    """Encoder to stride 16, a light feature pyramid back up to stride 4."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 24, 48, 64)) -> None:
        super().__init__()
        w1, w2, w3, w4 = widths
        self.stem = conv_bn(3, w1, 2)                                                  # /2
        self.down4 = nn.Sequential(conv_bn(w1, w2, 2), conv_bn(w2, w2))              # /4
        self.down8 = nn.Sequential(conv_bn(w2, w3, 2), conv_bn(w3, w3))              # /8
        self.down16 = nn.Sequential(conv_bn(w3, w4, 2), conv_bn(w4, w4), conv_bn(w4, w4, dilation=2))
        self.lat8 = nn.Conv2d(w3, w4, 1)
        self.fuse8 = conv_bn(w4, w3)
        self.lat4 = nn.Conv2d(w2, w3, 1)
        self.fuse4 = conv_bn(w3, w2)
        self.head = nn.Sequential(conv_bn(w2, w2), nn.Conv2d(w2, DETECTOR_CHANNELS, 1))
        nn.init.constant_(self.head[-1].bias[:2], -4.0)   # rare positives: start heat near 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.raw(x)
        return torch.cat([torch.sigmoid(out[:, :2]), out[:, 2:]], dim=1)

    def raw(self, x: torch.Tensor) -> torch.Tensor:
        """Logits instead of probabilities, for a numerically stable loss."""
        f4 = self.down4(self.stem(x))
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        p8 = self.fuse8(F.interpolate(f16, scale_factor=2.0, mode="nearest") + self.lat8(f8))
        p4 = self.fuse4(F.interpolate(p8, scale_factor=2.0, mode="nearest") + self.lat4(f4))
        return self.head(p4)


class IndexClassifier(nn.Module):
    """A small VGG-style net: 40 -> 20 -> 10 -> 5, global pooling, one linear layer."""

    def __init__(self, num_classes: int = NUM_CLASSES, widths: tuple[int, int, int, int] = (24, 32, 64, EMBED_DIM)) -> None:
        super().__init__()
        w1, w2, w3, w4 = widths
        self.features = nn.Sequential(
            conv_bn(3, w1, 2), conv_bn(w1, w2), conv_bn(w2, w3, 2), conv_bn(w3, w3),
            conv_bn(w3, w4, 2), conv_bn(w4, w4),
        )
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(w4, num_classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # The logits are a plain affine function of the embedding, so deck
        # adaptation can refit exactly this layer (vision.learn_deck).
        embedding = self.features(x).mean(dim=(2, 3))
        return self.fc(self.dropout(embedding)), embedding
