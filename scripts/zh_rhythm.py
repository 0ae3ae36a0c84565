"""How the Chinese edition's prose reads: colons, semicolons and 它 per 1,000 Chinese characters.

Sentences that follow English structure chain clauses with full-width colons and semicolons
and lean on 它 where Chinese repeats the noun or leaves it out. Issue 32 measured the edition
against d2l-zh (colons 3.2, semicolons 0.8, 它 3.0 per 1,000 characters) and set targets:

    colons ≤ 6, semicolons ≤ 2, 它 ≤ 5 per 1,000 Chinese characters of prose

Prose is the Markdown cells of each Chinese chapter, README.zh.md, the run-sheet
(notebooks/zh/README.md) and the glossary, with fenced code, code spans, link targets and URLs
removed. A Chinese character is a CJK ideograph (punctuation does not count).

    .venv/bin/python scripts/zh_rhythm.py                 # the table, every file
    .venv/bin/python scripts/zh_rhythm.py --check         # exit 1 when a file is over a target
    .venv/bin/python scripts/zh_rhythm.py FILE ... [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"colons": 6.0, "semicolons": 2.0, "it": 5.0}  # per 1,000 Chinese characters

_CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`|\]\([^)]*\)|https?://\S+|<[^>]+>", re.S)
_HANZI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class Rhythm(NamedTuple):
    name: str
    characters: int  # Chinese characters of prose
    colons: float  # per 1,000 characters
    semicolons: float
    it: float

    def over(self) -> list[str]:
        """The measures over their target, as "colons 14.6 > 6"."""
        return [f"{key} {getattr(self, key):.1f} > {limit:g}" for key, limit in TARGETS.items() if getattr(self, key) > limit]


def files() -> list[Path]:
    """Every file measured by default: the chapters, then the Markdown a Chinese reader reads."""
    zh = ROOT / "notebooks" / "zh"
    return [*sorted(zh.glob("*.ipynb")), ROOT / "README.zh.md", zh / "README.md", zh / "glossary.md"]


def prose(path: Path) -> str:
    """A file's prose: a notebook's Markdown cells, or a Markdown file, without code and URLs."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        text = "\n\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    return _CODE.sub(" ", text)


def measure(text: str, name: str = "") -> Rhythm:
    characters = len(_HANZI.findall(text))
    per = 1000 / characters if characters else 0.0
    return Rhythm(name, characters, text.count("：") * per, text.count("；") * per, text.count("它") * per)


def rhythm(path: Path) -> Rhythm:
    return measure(prose(path), str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path))


def table(rows: list[Rhythm]) -> str:
    lines = [f"{'file':<46} {'chars':>6} {'：':>5} {'；':>5} {'它':>5}  over target",
             f"{'target (per 1,000 characters)':<46} {'':>6} {TARGETS['colons']:>6g} {TARGETS['semicolons']:>6g} {TARGETS['it']:>6g}"]
    for row in rows:
        lines.append(f"{row.name:<46} {row.characters:>6} {row.colons:>6.1f} {row.semicolons:>6.1f} {row.it:>6.1f}  "
                     + ("; ".join(row.over()) or "ok"))
    total = measure("\n".join(prose(ROOT / row.name) for row in rows if (ROOT / row.name).exists()), "all")
    lines.append(f"{'all':<46} {total.characters:>6} {total.colons:>6.1f} {total.semicolons:>6.1f} {total.it:>6.1f}")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="files to measure (default: every Chinese chapter and page)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a file is over a target")
    arguments = parser.parse_args(argv)
    rows = [rhythm(path.resolve()) for path in (arguments.files or files())]
    print(table(rows))
    return 1 if arguments.check and any(row.over() for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
