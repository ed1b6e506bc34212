"""The rulebook paragraph a ruling cites, quoted from the rules texts (``shared/rules``).

A reference is ``"<file number> §<paragraph>"`` such as ``"000 §10"`` (the texts are plain
files named ``000_*.txt`` whose paragraphs start with a line ``§ 10`` and a title line), or
``"<file number> <heading>"`` such as ``"001 Abrechnung und Wertung"`` for the texts that have
headings instead (a heading line, a ``## heading`` or a ``**Heading:**`` paragraph).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "000_x.txt").write_text("Intro\\n§ 9\\nWin\\n\\nA wins.\\n§ 10\\nUndercut\\n\\nB wins.\\n", encoding="utf-8")
>>> paragraph("000 §10", folder)
('Undercut', 'B wins.')
>>> paragraph("000 §11", folder) is None, paragraph("nonsense", folder) is None
(True, True)
>>> _ = (folder / "001_y.txt").write_text("Spielablauf\\n\\nDraw.\\n\\nAbrechnung\\n\\nPay up.\\n\\nMore.\\nVarianten\\n\\nOther.\\n"
...                                    "**Zeit:** Two minutes.\\n", encoding="utf-8")
>>> paragraph("001 Abrechnung", folder), paragraph("001 Zeit", folder)
(('Abrechnung', 'Pay up.\\n\\nMore.'), ('Zeit', 'Two minutes.'))
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_REFERENCE = re.compile(r"^(\d{3}) §(\d+)")
_HEADING_REFERENCE = re.compile(r"^(\d{3}) (\D.*)$")
MAX_QUOTE = 2000


def default_rules_dir() -> Path | None:
    """``shared/rules`` inside or beside the checkout, where the project keeps the texts."""
    root = Path(__file__).resolve().parents[1]
    for candidate in (root / "shared" / "rules", root.parent / "shared" / "rules"):
        if candidate.is_dir():
            return candidate
    return None


def paragraph(reference: str, rules_dir: Path | None) -> tuple[str, str] | None:
    """(title, text) of the cited paragraph, or None when the text is not at hand."""
    if rules_dir is None:
        return None
    match = _REFERENCE.match(reference or "")
    if match:
        return _paragraphs(Path(rules_dir), match.group(1)).get(int(match.group(2)))
    match = _HEADING_REFERENCE.match(reference or "")
    return _section(Path(rules_dir), match.group(1), match.group(2).strip()) if match else None


def _text(rules_dir: Path, number: str) -> str | None:
    files = sorted(rules_dir.glob(f"{number}_*.txt"))
    return files[0].read_text(encoding="utf-8") if files else None


def _is_heading(line: str) -> bool:
    """A markdown heading, or a short line that ends without punctuation (the 001 text's titles)."""
    text = line.strip()
    return text.startswith("#") or (0 < len(text) < 60 and text[-1] not in ".:!?)" and text[0] not in "•-*")


@lru_cache(maxsize=32)
def _section(rules_dir: Path, number: str, heading: str) -> tuple[str, str] | None:
    text = _text(rules_dir, number)
    if text is None:
        return None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        bare = line.strip().lstrip("#").strip()
        if bare.startswith(f"**{heading}:**"):
            return heading, bare[len(heading) + 5:].strip()
        if bare == heading and _is_heading(line):
            body = []
            for following in lines[index + 1:]:
                if _is_heading(following):
                    break
                body.append(following.strip())
            quote = "\n".join(body).strip()
            # a long section is quoted up to the paragraph that passes the limit
            return heading, quote if len(quote) <= MAX_QUOTE else quote[:quote.rfind("\n\n", 0, MAX_QUOTE)]
    return None


@lru_cache(maxsize=16)
def _paragraphs(rules_dir: Path, number: str) -> dict[int, tuple[str, str]]:
    text = _text(rules_dir, number)
    if text is None:
        return {}
    found = {}
    for section in re.split(r"^§ ?(?=\d+\s*$)", text, flags=re.M)[1:]:
        head, _, body = section.partition("\n")
        title, _, rest = body.strip().partition("\n")
        found[int(head.strip())] = (title.strip(), rest.strip())
    return found
