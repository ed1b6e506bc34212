"""The rulebook paragraph a ruling cites, quoted from the rules texts (``shared/rules``).

A reference is ``"<file number> §<paragraph>"`` such as ``"000 §10"``; the texts are plain
files named ``000_*.txt`` whose paragraphs start with a line ``§ 10`` and a title line.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "000_x.txt").write_text("Intro\\n§ 9\\nWin\\n\\nA wins.\\n§ 10\\nUndercut\\n\\nB wins.\\n", encoding="utf-8")
>>> paragraph("000 §10", folder)
('Undercut', 'B wins.')
>>> paragraph("000 §11", folder) is None, paragraph("nonsense", folder) is None
(True, True)
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_REFERENCE = re.compile(r"^(\d{3}) §(\d+)")


def default_rules_dir() -> Path | None:
    """``shared/rules`` inside or beside the checkout, where the project keeps the texts."""
    root = Path(__file__).resolve().parents[1]
    for candidate in (root / "shared" / "rules", root.parent / "shared" / "rules"):
        if candidate.is_dir():
            return candidate
    return None


def paragraph(reference: str, rules_dir: Path | None) -> tuple[str, str] | None:
    """(title, text) of the cited paragraph, or None when the text is not at hand."""
    match = _REFERENCE.match(reference or "")
    if not match or rules_dir is None:
        return None
    return _paragraphs(Path(rules_dir), match.group(1)).get(int(match.group(2)))


@lru_cache(maxsize=16)
def _paragraphs(rules_dir: Path, number: str) -> dict[int, tuple[str, str]]:
    files = sorted(rules_dir.glob(f"{number}_*.txt"))
    if not files:
        return {}
    text = files[0].read_text(encoding="utf-8")
    found = {}
    for section in re.split(r"^§ ?(?=\d+\s*$)", text, flags=re.M)[1:]:
        head, _, body = section.partition("\n")
        title, _, rest = body.strip().partition("\n")
        found[int(head.strip())] = (title.strip(), rest.strip())
    return found
