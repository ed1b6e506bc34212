"""Per-deck adaptation: the classifier's last layers fitted to one player's deck.

A :class:`DeckProfile` replaces the classifier's final linear layer (over the
pooled-feature embedding the ONNX model also returns) or, with ``blocks``, its last
convolution blocks too (over the ``features`` map the model returns, see
:mod:`vision.deck_head`). Profiles are ``.npz`` files in ``<data dir>/decks/NAME.npz``;
the data dir is ``$RUMMYREF_DATA`` or ``~/.local/share/rummyref``. A profile saved
before the blocks existed (a last layer only) still loads and reads as before.

>>> import numpy as np, tempfile
>>> profile = DeckProfile("home", np.eye(3, 2, dtype=np.float32), np.zeros(3, np.float32))
>>> with tempfile.TemporaryDirectory() as d:
...     path = profile.save(Path(d))
...     DeckProfile.load("home", Path(d)).logits(np.array([[1.0, 0.0]], np.float32)).tolist()
[[1.0, 0.0, 0.0]]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.deck_head import ConvBlock, ConvHead

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def data_dir() -> Path:
    """Where rummyref keeps what it learns: ``$RUMMYREF_DATA`` or ``~/.local/share/rummyref``."""
    configured = os.environ.get("RUMMYREF_DATA")
    return Path(configured) if configured else Path.home() / ".local" / "share" / "rummyref"


def check_deck_name(name: str) -> str:
    """A deck name is a file name: letters, digits, ``_ . -``, at most 64 characters.

    >>> check_deck_name("../etc")
    Traceback (most recent call last):
    ...
    ValueError: deck name '../etc' is not allowed: use letters, digits, '_', '.' and '-' (at most 64, starting with a letter or digit)
    """
    if not _NAME.match(name):
        raise ValueError(f"deck name {name!r} is not allowed: use letters, digits, '_', '.' and '-' "
                         "(at most 64, starting with a letter or digit)")
    return name


@dataclass(frozen=True)
class DeckProfile:
    """``logits = embedding @ weight.T + bias`` for one deck; with ``blocks``, the embedding is the mean
    of what the blocks make of the classifier's ``features`` (a :class:`vision.deck_head.ConvHead`)."""

    name: str
    weight: np.ndarray
    bias: np.ndarray
    blocks: tuple[ConvBlock, ...] = ()

    @property
    def reads(self) -> str:
        """The classifier output :meth:`logits` takes: ``embedding`` or ``features``."""
        return "features" if self.blocks else "embedding"

    def check_width(self, width: int) -> None:
        """Raise ValueError unless the classifier output :meth:`logits` takes has ``width`` channels
        (a profile learned with another classifier, e.g. before the tile classifier became an ensemble)."""
        fitted = self.blocks[0].weight.shape[1] if self.blocks else self.weight.shape[1]
        if width != fitted:
            raise ValueError(f"the learned deck or tile set {self.name!r} was fitted to a classifier giving {fitted} "
                             f"features; this one gives {width}: learn it again (`rummyref learn-deck` / "
                             f"`rummyref learn-tiles`)")

    def logits(self, reads: np.ndarray) -> np.ndarray:
        self.check_width(reads.shape[1])
        if self.blocks:
            return ConvHead(self.blocks, self.weight, self.bias).logits(reads)
        return reads @ self.weight.T + self.bias

    @staticmethod
    def path(name: str, directory: Path | None = None) -> Path:
        return (directory or data_dir()) / "decks" / f"{check_deck_name(name)}.npz"

    def save(self, directory: Path | None = None) -> Path:
        path = self.path(self.name, directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            blocks = {f"block{k}_{part}": value for k, block in enumerate(self.blocks)
                      for part, value in (("weight", block.weight.astype(np.float32)),
                                          ("bias", block.bias.astype(np.float32)), ("stride", block.stride))}
            np.savez(handle, weight=self.weight.astype(np.float32), bias=self.bias.astype(np.float32), **blocks)
        return path

    @classmethod
    def load(cls, name: str, directory: Path | None = None) -> "DeckProfile":
        path = cls.path(name, directory)
        if not path.is_file():
            raise FileNotFoundError(f"no learned deck named {name!r} (looked for {path}); "
                                    f"teach it with `rummyref learn-deck PHOTOS... --name {name}`")
        with np.load(path) as data:
            blocks = tuple(ConvBlock(data[f"block{k}_weight"], data[f"block{k}_bias"], int(data[f"block{k}_stride"]))
                           for k in range(sum(1 for key in data.files if key.endswith("_stride"))))
            return cls(name, data["weight"], data["bias"], blocks)
