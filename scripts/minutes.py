#!/usr/bin/env python3
"""Write every chapter's minutes, from their one source, into the tables that show them.

    python scripts/minutes.py           rewrite the tables
    python scripts/minutes.py --check   exit 1, naming each file, when a table is out of date

The source is tutorial/notebook/minutes.py. The tables sit between two HTML comments
(`<!-- minutes:NAME -->` ... `<!-- /minutes:NAME -->`), which neither GitHub nor JupyterLab shows:

- notebooks/00_index.ipynb, "chapters": chapter, what you do there, self-study minutes, total;
- notebooks/README.md (the run-sheet), "chapters": self-study and in-class minutes, totals;
  "agenda 90 minutes" and "agenda half a day": the two agendas, their clock times computed;
- notebooks/zh/00_index.ipynb and notebooks/zh/README.md, "chapters": the same minutes and
  totals. Their words are the translator's: each row keeps its Chinese cells, and only a chapter
  the Chinese table does not list yet gets a row in English, for the translator to translate.

A chapter appears once its notebook exists under notebooks/; totals count the chapters shown.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutorial.notebook import minutes  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
TOTAL = {"en": "**total**", "zh": "**合计**"}
MARKED = re.compile(r"(<!-- minutes:(?P<name>[^>]+?) -->\n)(?P<body>.*?)\n?(<!-- /minutes:(?P=name) -->)", re.S)


def shown_chapters(folder: Path = NOTEBOOKS) -> list:
    """The chapters of the source whose notebook exists, in the source's order."""
    return [chapter for chapter in minutes.CHAPTERS if (folder / chapter.notebook).is_file()]


def hours(total: int, language: str) -> str:
    """What follows a bold total: its hours and minutes in brackets, full-width ones right after
    the number in Chinese (**455**（7 小时 35 分）), half-width ones after a space in English."""
    if language == "zh":
        return f"（{total // 60} 小时 {total % 60:02d} 分）"
    return f" ({minutes.hours(total)})"


def link(chapter) -> str:
    return f"[{chapter.title}]({chapter.notebook})"


# ---------------------------------------------------------------------------
# The tables


def index_table(kept: dict, language: str) -> str:
    """00_index's table: chapter | what you do there | minutes."""
    chapters = shown_chapters()
    header = kept.get("header") or ["| chapter | what you do there | minutes |", "|---|---|---|"]
    rows = list(header)
    for chapter in chapters:
        cells = kept.get(chapter.notebook) or [link(chapter), chapter.does]
        rows.append(f"| {cells[0]} | {cells[1]} | {chapter.self_study} |")
    label = kept.get("total label") or TOTAL[language]
    total = minutes.total(chapters, "self_study")
    rows.append(f"| {label} | | **{total}**{hours(total, language)} |")
    return "\n".join(rows)


def run_sheet_table(kept: dict, language: str) -> str:
    """The run-sheet's table: chapter | self-study | in class | what it is for."""
    chapters = shown_chapters()
    header = kept.get("header") or ["| chapter | self-study | in class | what it is for |", "|---|---|---|---|"]
    rows = list(header)
    for chapter in chapters:
        cells = kept.get(chapter.notebook) or [link(chapter), chapter.for_instructors]
        rows.append(f"| {cells[0]} | {chapter.self_study} | {chapter.in_class} | {cells[-1]} |")
    label = kept.get("total label") or TOTAL[language]
    study, taught = minutes.total(chapters, "self_study"), minutes.total(chapters, "in_class")
    rows.append(f"| {label} | **{study}**{hours(study, language)} | **{taught}**{hours(taught, language)} | |")
    return "\n".join(rows)


def agenda_table(name: str) -> str:
    slots, length = minutes.AGENDAS[name]
    rows = ["| time | chapter | what to do |", "|---|---|---|"]
    for start, slot in zip(minutes.starts(slots), slots):
        rows.append(f"| {minutes.clock(start)} | {slot.chapters} | {slot.what} |")
    rows.append(f"| {minutes.clock(sum(slot.minutes for slot in slots))} | | end |")
    return "\n".join(rows)


def kept_cells(table: str) -> dict:
    """What a translated table says in its own words: its header, its total's label, and each
    chapter row's cells other than the minutes, keyed by the notebook the row links."""
    lines = [line for line in table.splitlines() if line.startswith("|")]
    kept: dict = {"header": lines[:2]} if len(lines) >= 2 else {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        linked = re.search(r"\]\(([^)]+\.ipynb)\)", cells[0])
        if linked:
            kept[linked.group(1)] = [cell for cell in cells if not re.fullmatch(r"\**\d*\**", cell)]
        elif cells[0].startswith("**"):
            kept["total label"] = cells[0]
    return kept


# ---------------------------------------------------------------------------
# The files


def rewrite(text: str, tables: dict) -> str:
    """`text` with each marked table replaced by `tables[name](old body)`."""

    def replace(match: re.Match) -> str:
        make = tables.get(match.group("name"))
        if make is None:
            return match.group(0)
        return match.group(1) + make(match.group("body")) + "\n" + match.group(4)

    return MARKED.sub(replace, text)


def markdown_files() -> dict:
    """{path: {table name: function of the old table -> the new one}}."""
    return {
        NOTEBOOKS / "README.md": {
            "chapters": lambda old: run_sheet_table({}, "en"),
            "agenda 90 minutes": lambda old: agenda_table("90 minutes"),
            "agenda half a day": lambda old: agenda_table("half a day"),
        },
        NOTEBOOKS / "zh" / "README.md": {"chapters": lambda old: run_sheet_table(kept_cells(old), "zh")},
    }


def notebook_files() -> dict:
    return {
        NOTEBOOKS / "00_index.ipynb": {"chapters": lambda old: index_table({}, "en")},
        NOTEBOOKS / "zh" / "00_index.ipynb": {"chapters": lambda old: index_table(kept_cells(old), "zh")},
    }


def english_sha(source: str) -> str:
    """The hash scripts/zh_edition.py records in a Chinese cell for the English text it translates."""
    import hashlib

    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def updated() -> dict:
    """{path: new text} for every file whose tables are out of date."""
    changed = {}
    rehashed: dict = {}  # English cell id -> (hash before, hash after) of the cells rewritten here
    for path, tables in markdown_files().items():
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, tables)
        _require_markers(path, text, tables)
        if new != text:
            changed[path] = new
    for path, tables in notebook_files().items():
        text = path.read_text(encoding="utf-8")
        notebook = json.loads(text)
        sources = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
        _require_markers(path, "\n".join(sources), tables)
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                source = "".join(cell["source"])
                new = rewrite(source, tables)
                if new != source:
                    cell["source"] = new.splitlines(keepends=True)
                    if path.parent == NOTEBOOKS:
                        rehashed[(path.name, cell.get("id"))] = (english_sha(source), english_sha(new))
                # The minutes are written into both editions, so a translation that was current
                # before stays current: its record moves to the English cell's new text.
                translation = cell.get("metadata", {}).get("translation")
                before_after = rehashed.get((path.name, cell.get("id")))
                if path.parent != NOTEBOOKS and translation and before_after and translation.get("en_sha") == before_after[0]:
                    translation["en_sha"] = before_after[1]
        new_text = json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"
        if new_text != text:
            changed[path] = new_text
    return changed


def _require_markers(path: Path, text: str, tables: dict) -> None:
    found = {match.group("name") for match in MARKED.finditer(text)}
    missing = sorted(set(tables) - found)
    if missing:
        raise SystemExit(f"{path.relative_to(ROOT)}: no <!-- minutes:NAME --> ... <!-- /minutes:NAME --> around: {', '.join(missing)}")


def _sign(path: Path) -> None:
    """Keep a notebook trusted for this user (its stored diagrams show) after changing its text."""
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        return
    NotebookNotary().sign(nbformat.read(path, as_version=4))


def main(arguments: list[str]) -> int:
    changed = updated()
    if "--check" in arguments:
        for path in changed:
            print(f"{path.relative_to(ROOT)}: minutes out of date; run python scripts/minutes.py", file=sys.stderr)
        return 1 if changed else 0
    for path, text in changed.items():
        path.write_text(text, encoding="utf-8")
        if path.suffix == ".ipynb":
            _sign(path)
        print(f"wrote {path.relative_to(ROOT)}")
    if not changed:
        print("every table already agrees with tutorial/notebook/minutes.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
