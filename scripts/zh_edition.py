#!/usr/bin/env python3
"""Keep the Chinese edition (notebooks/zh/) in step with the English chapters.

    python scripts/zh_edition.py sync [NN ...]   rebuild every zh chapter's cells from the English one:
                                                 code cells copied, translations kept by cell id
    python scripts/zh_edition.py todo [NN ...]   write the English prose that needs (re)translating,
                                                 as {cell id: text} JSON, to stdout
    python scripts/zh_edition.py put NN FILE     store translations ({cell id: Chinese text}) into chapter NN,
                                                 each marked with the hash of the English text it translates
    python scripts/zh_edition.py status          per chapter: cells translated, stale, missing

A translated cell records `metadata.translation.en_sha`, the hash of the English cell it
translates; tests/test_zh_edition.py fails, naming the cell, when the English text changes
and the translation does not. Outputs are not copied: `python3 tasks.py notebooks` executes
the zh chapters in notebooks/zh/, where the package writes its own prose in Chinese.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
ZH = NOTEBOOKS / "zh"


def english_sha(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def chapters(prefixes: list[str] | None = None) -> list[Path]:
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb"))
    return [p for p in found if not prefixes or any(p.name.startswith(x) for x in prefixes)]


def zh_path(english: Path) -> Path:
    return ZH / english.name


def sync_one(english_path: Path) -> nbformat.NotebookNode:
    english = nbformat.read(english_path, as_version=4)
    target = zh_path(english_path)
    old = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells} if target.exists() else {}
    cells = []
    for cell in english.cells:
        if cell.cell_type != "markdown":
            new = copy.deepcopy(cell)  # code: byte for byte; outputs come from executing it in zh/
            previous = old.get(cell.get("id"))
            new.outputs = previous.outputs if previous is not None and previous.cell_type == "code" and previous.source == cell.source else []
            if previous is not None and previous.cell_type == "code" and previous.source == cell.source:
                new.execution_count = previous.execution_count
            cells.append(new)
            continue
        previous = old.get(cell.get("id"))
        new = copy.deepcopy(cell)
        if previous is not None and previous.cell_type == "markdown" and "translation" in previous.metadata:
            new.source = previous.source
            new.metadata["translation"] = previous.metadata["translation"]
        else:
            new.metadata["translation"] = {"en_sha": None}  # not translated yet: the English text stands in
        cells.append(new)
    english.cells = cells
    return english


def sync(arguments: list[str]) -> int:
    ZH.mkdir(exist_ok=True)
    for path in chapters(arguments or None):
        nbformat.write(sync_one(path), zh_path(path))
        print(f"synced {zh_path(path).relative_to(NOTEBOOKS.parent)}")
    return 0


def needs_translation(english_path: Path) -> dict[str, str]:
    english = nbformat.read(english_path, as_version=4)
    target = zh_path(english_path)
    zh = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells} if target.exists() else {}
    wanted = {}
    for cell in english.cells:
        if cell.cell_type != "markdown":
            continue
        translated = zh.get(cell.get("id"))
        sha = (translated.metadata.get("translation") or {}).get("en_sha") if translated is not None else None
        if sha != english_sha(cell.source):
            wanted[cell.get("id")] = cell.source
    return wanted


def todo(arguments: list[str]) -> int:
    out = {path.name: needs_translation(path) for path in chapters(arguments or None)}
    json.dump({name: cells for name, cells in out.items() if cells}, sys.stdout, ensure_ascii=False, indent=1)
    print()
    return 0


def put(arguments: list[str]) -> int:
    prefix, file = arguments
    (english_path,) = chapters([prefix])
    english = {c.get("id"): c for c in nbformat.read(english_path, as_version=4).cells}
    translations = json.loads(Path(file).read_text(encoding="utf-8"))
    target = zh_path(english_path)
    if not target.exists():
        nbformat.write(sync_one(english_path), target)
    notebook = nbformat.read(target, as_version=4)
    by_id = {c.get("id"): c for c in notebook.cells}
    for cell_id, text in translations.items():
        if cell_id not in english or english[cell_id].cell_type != "markdown":
            print(f"{english_path.name}: no English markdown cell {cell_id!r}", file=sys.stderr)
            return 2
        by_id[cell_id].source = text
        by_id[cell_id].metadata["translation"] = {"en_sha": english_sha(english[cell_id].source)}
    nbformat.write(notebook, target)
    print(f"{target.name}: {len(translations)} cells translated")
    return 0


def status(_arguments: list[str]) -> int:
    for path in chapters():
        markdown = sum(c.cell_type == "markdown" for c in nbformat.read(path, as_version=4).cells)
        missing = needs_translation(path)
        print(f"{path.name}: {markdown - len(missing)}/{markdown} prose cells translated and current")
    return 0


COMMANDS = {"sync": sync, "todo": todo, "put": put, "status": status}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
