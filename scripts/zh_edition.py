#!/usr/bin/env python3
"""Keep the Chinese edition (notebooks/zh/) in step with the English chapters.

    python scripts/zh_edition.py sync [NN ...]   rebuild every zh chapter's cells from the English one:
                                                 code cells copied (choosing "zh", comments in Chinese from
                                                 scripts/zh_comments.py), translations kept by cell id
    python scripts/zh_edition.py todo [NN ...]   write the English prose that needs (re)translating,
                                                 as {cell id: text} JSON, to stdout
    python scripts/zh_edition.py put NN FILE     store translations ({cell id: Chinese text}) into chapter NN,
                                                 each marked with the hash of the English text it translates
    python scripts/zh_edition.py status          per chapter: cells translated, stale, missing
    python scripts/zh_edition.py reflow          join the lines of every Chinese paragraph (chapters,
                                                 notebooks/zh/*.md, README.zh.md): a line break inside a
                                                 Chinese sentence shows as a space in JupyterLab and on GitHub

A translated cell records `metadata.translation.en_sha`, the hash of the English cell it
translates; tests/test_zh_edition.py fails, naming the cell, when the English text changes
and the translation does not. Outputs are not copied: `python3 tasks.py notebooks` executes
the zh chapters in notebooks/zh/, where the package writes its own prose in Chinese.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import re
import sys
import tokenize
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
ZH = NOTEBOOKS / "zh"


def english_sha(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def chapters(prefixes: list[str] | None = None) -> list[Path]:
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb"))
    return [p for p in found if not prefixes or any(p.name.startswith(x) for x in prefixes)]


def zh_path(english: Path) -> Path:
    return ZH / english.name


class MissingComment(Exception):
    """An English comment that scripts/zh_comments.py does not translate."""


def comments(source: str) -> list[tuple[int, int, str]]:
    """Each comment of `source` as (start, end, text after "# "), offsets into `source`.
    Read with tokenize, so a "#" inside a string is no comment."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            start = starts[token.start[0] - 1] + token.start[1]
            found.append((start, start + len(token.string), token.string[1:].strip()))
    return found


def docstrings(source: str) -> list[tuple[int, int, str]]:
    """Each one-line docstring of a function in `source` as (start, end, its text), offsets of
    the text between the triple quotes: a learner reads these beside the comments."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell of IPython magic: no docstrings to find
        return []
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and ast.get_docstring(node, clean=False):
            literal = node.body[0].value

            def at(line: int, column: int) -> int:  # ast counts a line's columns in UTF-8 bytes
                return starts[line - 1] + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8"))

            start = at(literal.lineno, literal.col_offset) + 3
            end = at(literal.end_lineno, literal.end_col_offset) - 3
            if source[start - 3:start] == '"""' and "\n" not in literal.value:
                found.append((start, end, literal.value))
    return sorted(found)


def without_comments(source: str) -> str:
    """`source` with its comments (and the spaces before them) and its docstrings' text taken
    out: what must be equal in both editions."""
    for start, end, _ in reversed(docstrings(source)):
        source = source[:start] + source[end:]
    for start, end, _ in reversed(comments(source)):
        source = source[:start].rstrip(" ") + source[end:]
    return source


def zh_code(source: str, where: str = "") -> str:
    """The Chinese chapter's code: the English code, byte for byte, except the language it
    chooses, its comments and its functions' one-line docstrings, which scripts/zh_comments.py
    gives in Chinese. Raises
    MissingComment, naming `where`, for a comment the table lacks."""
    from zh_comments import COMMENTS

    source = source.replace('tutorial.use_language("en")', 'tutorial.use_language("zh")')
    # recall in a fresh kernel names the edition it answers for, as use_language does
    source = re.sub(r'recall\(("[0-9]+b?"), show=False\)', r'recall(\1, show=False, lang="zh")', source)
    for start, end, text in reversed(docstrings(source)):
        if text not in COMMENTS:
            raise MissingComment(f"{where}: no Chinese for the docstring {text!r}: add it to scripts/zh_comments.py")
        source = source[:start] + COMMENTS[text] + source[end:]
    for start, end, text in reversed(comments(source)):
        if text not in COMMENTS:
            raise MissingComment(f"{where}: no Chinese for the comment {text!r}: add it to scripts/zh_comments.py")
        source = source[:start] + "# " + COMMENTS[text] + source[end:]
    return source


def sync_one(english_path: Path) -> nbformat.NotebookNode:
    english = nbformat.read(english_path, as_version=4)
    target = zh_path(english_path)
    old = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells} if target.exists() else {}
    cells = []
    for cell in english.cells:
        if cell.cell_type != "markdown":
            new = copy.deepcopy(cell)  # code: byte for byte but the language; outputs come from executing it
            new.source = zh_code(cell.source, f"{english_path.name} cell {cell.get('id')}")
            previous = old.get(cell.get("id"))
            # Outputs stay when only the comments changed: they do not change what the code prints.
            same = (previous is not None and previous.cell_type == "code"
                    and without_comments(previous.source) == without_comments(new.source))
            new.outputs = previous.outputs if same else []
            if same:
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
        try:
            synced = sync_one(path)
        except MissingComment as error:
            print(f"not synced: {error}", file=sys.stderr)
            return 1
        nbformat.write(synced, zh_path(path))
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


CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
WIDE_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
BLOCK_START = re.compile(r"\s*(#|\||>|```|[-*+] |\d+[.)] |<|!\[|\$\$)")
LIST_ITEM = re.compile(r"\s*([-*+]|\d+[.)]) ")


def _joinable(previous: str, line: str, fenced: bool) -> bool:
    if fenced or not previous.strip() or not line.strip():
        return False
    if previous.lstrip().startswith(("#", "|", "```", "<", "$$")) or previous.endswith(("  ", "\\", "<br>", "<br/>")):
        return False
    if BLOCK_START.match(line):
        return False
    if line.startswith("    ") and not LIST_ITEM.match(previous) and not previous.startswith(" "):
        return False  # an indented code block
    return bool(CJK.search(previous) or CJK.search(line))


def _glue(previous: str, line: str) -> str:
    left, right = previous.rstrip(), line.strip()
    wide_left, wide_right = CJK.match(left[-1]), CJK.match(right[0])
    if WIDE_PUNCTUATION.match(left[-1]) or WIDE_PUNCTUATION.match(right[0]) or (wide_left and wide_right):
        return left + right
    return left + " " + right


def reflow_text(text: str) -> str:
    """`text` with each Chinese paragraph (or list item) on one line; code, tables and headings untouched."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if out and _joinable(out[-1], line, fenced):
            out[-1] = _glue(out[-1], line)
            continue
        if line.lstrip().startswith("```"):
            fenced = not fenced
        out.append(line)
    return "\n".join(out)


def chinese_markdown_files() -> list[Path]:
    return [ROOT / "README.zh.md", *sorted(ZH.glob("*.md"))]


def reflow(_arguments: list[str]) -> int:
    for path in sorted(ZH.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        changed = 0
        for cell in notebook.cells:
            if cell.cell_type == "markdown" and reflow_text(cell.source) != cell.source:
                cell.source = reflow_text(cell.source)
                changed += 1
        if changed:
            nbformat.write(notebook, path)
            print(f"{path.relative_to(ROOT)}: {changed} cells reflowed")
    for path in chinese_markdown_files():
        text = path.read_text(encoding="utf-8")
        if reflow_text(text) != text:
            path.write_text(reflow_text(text), encoding="utf-8")
            print(f"{path.relative_to(ROOT)}: reflowed")
    return 0


COMMANDS = {"sync": sync, "todo": todo, "put": put, "status": status, "reflow": reflow}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
