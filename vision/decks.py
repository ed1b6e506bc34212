"""Per-deck adaptation: a classifier last layer fitted to one player's deck.

A :class:`DeckProfile` replaces the classifier's final linear layer (over the
pooled-feature embedding the ONNX model also returns). Profiles are small ``.npz``
files in ``<data dir>/decks/NAME.npz``; the data dir is ``$RUMMYREF_DATA`` or
``~/.local/share/rummyref``.

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
    """``logits = embedding @ weight.T + bias`` for one deck."""

    name: str
    weight: np.ndarray
    bias: np.ndarray

    def logits(self, embedding: np.ndarray) -> np.ndarray:
        return embedding @ self.weight.T + self.bias

    @staticmethod
    def path(name: str, directory: Path | None = None) -> Path:
        return (directory or data_dir()) / "decks" / f"{check_deck_name(name)}.npz"

    def save(self, directory: Path | None = None) -> Path:
        path = self.path(self.name, directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            np.savez(handle, weight=self.weight.astype(np.float32), bias=self.bias.astype(np.float32))
        return path

    @classmethod
    def load(cls, name: str, directory: Path | None = None) -> "DeckProfile":
        path = cls.path(name, directory)
        if not path.is_file():
            raise FileNotFoundError(f"no learned deck named {name!r} (looked for {path}); "
                                    f"teach it with `rummyref learn-deck PHOTOS... --name {name}`")
        with np.load(path) as data:
            return cls(name, data["weight"], data["bias"])
