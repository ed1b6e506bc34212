"""Per-deck adaptation: the classifier's last layers fitted to one player's deck.

A :class:`DeckProfile` replaces the classifier's final linear layer (over the
pooled-feature embedding the ONNX model also returns) or, with ``blocks``, its last
convolution blocks too (over the ``features`` map the model returns, see
:mod:`vision.deck_head`). Profiles are ``.npz`` files in ``<data dir>/decks/NAME.npz``;
the data dir is ``$RUMMYREF_DATA`` or ``~/.local/share/rummyref``. A profile saved
before the blocks existed (a last layer only) still loads and reads as before. A profile
names the classifier file it was fitted to (:func:`classifier_digest`): fitted to another
classifier its layers would read that one's features wrongly, so it is refused
(:meth:`DeckProfile.check_classifier`) rather than read silently wrong after a model update.

>>> import numpy as np, tempfile
>>> profile = DeckProfile("home", np.eye(3, 2, dtype=np.float32), np.zeros(3, np.float32))
>>> with tempfile.TemporaryDirectory() as d:
...     path = profile.save(Path(d))
...     DeckProfile.load("home", Path(d)).logits(np.array([[1.0, 0.0]], np.float32)).tolist()
[[1.0, 0.0, 0.0]]
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.deck_head import ConvBlock, ConvHead

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
BEFORE_DIGESTS = frozenset({"12db4bcfc79111cc", "803b8a5a60db6e22"})
"""The classifiers a profile that names none was fitted to: profiles saved before profiles named their
classifier (2026-11-22) were learned with the card and tile classifiers shipped then."""


def classifier_digest(path: Path) -> str:
    """A short digest of a classifier file's bytes: which classifier a profile was fitted to."""
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=8).hexdigest()


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
    classifier: str = ""
    """The :func:`classifier_digest` of the classifier the profile was fitted to ("" for a profile saved
    before profiles named theirs: fitted to one of :data:`BEFORE_DIGESTS`)."""

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

    def check_classifier(self, digest: str) -> None:
        """Raise ValueError unless the profile was fitted to the classifier whose file has this digest.

        >>> DeckProfile("home", np.zeros((3, 2)), np.zeros(3), classifier="0123").check_classifier("4567")
        Traceback (most recent call last):
        ...
        ValueError: the learned deck or tile set 'home' was fitted to another classifier than the one installed (a model update): learn it again (`rummyref learn-deck` / `rummyref learn-tiles`)
        """
        if digest not in ({self.classifier} if self.classifier else BEFORE_DIGESTS):
            raise ValueError(f"the learned deck or tile set {self.name!r} was fitted to another classifier than the one "
                             f"installed (a model update): learn it again (`rummyref learn-deck` / `rummyref learn-tiles`)")

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
            np.savez(handle, weight=self.weight.astype(np.float32), bias=self.bias.astype(np.float32),
                     classifier=np.array(self.classifier), **blocks)
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
            classifier = str(data["classifier"]) if "classifier" in data.files else ""
            return cls(name, data["weight"], data["bias"], blocks, classifier)
