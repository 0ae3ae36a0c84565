"""How the Chinese a learner reads flows: sentence length, short sentences, colons, semicolons, 它.

Issue 32 measured the edition against d2l-zh and cut colons, semicolons and 它; issue 37 found the
cut went too far (sentences chopped into fragments, bold lead-ins such as **观察。**) and that the
texts a learner reads while answering — exercise texts, hints, verdicts, model answers, check_stage
and grade output, errors — were never measured. This script measures every one of them, by group,
against d2l-zh's shape (140 chapters: average sentence 30.9 characters, 4 % of sentences ≤ 10,
colons 3.2, semicolons 0.7, 它 3.0 per 1,000):

    average sentence 26–36 characters, sentences ≤ 10 characters ≤ 8 %,
    colons ≤ 4, semicolons ≤ 1.5, 它 ≤ 4 per 1,000 Chinese characters

How it counts (the review's way, zh-2026-12-03 §6):

- A sentence ends at 。！or ？. Text after the last of them that ends a paragraph, a list item or a
  table string without one (a label such as 参考答案：, an option of a multiple-choice question)
  is a fragment: it counts for the colons, semicolons and 它, not as a sentence.
- A sentence's length is its CJK characters plus one for each inline code span, each English
  word (a run of Latin letters, digits and _.-/') and each {placeholder} of a template.
  Punctuation and spaces do not count.
- Colons (：), semicolons (；) and 它 are counted per 1,000 CJK characters (code spans,
  English words and placeholders not included), as issue 32 did. A label's colon is not
  counted (the review: 错误：, 规则：, # 断言： are right): the first colon of a paragraph when
  what comes before it is a placeholder alone or at most LABEL characters with no punctuation.
  A second colon in the same paragraph always counts, so a chain of them still shows.
- Markdown loses fenced code, headings, table rules, HTML tags, link targets and URLs first;
  each heading, table cell and list item is its own paragraph (a heading is not a sentence).

Where the strings come from. The notebooks and pages are read as files; everything the package
prints is collected by importing the modules that hold its keyed tables and walking their
module-level values (dicts, lists, tuples, dataclasses) for strings with Chinese in them, so a
table is measured wherever it lives (`MODULES`; a module that does not exist is skipped, and
tests/test_zh_rhythm.py fails when a module with Chinese strings is in no group). A table is
measured in the module whose source assigns it, not again in a module that imports it. A
request's messages and content blocks (a mapping with "role", or with a content block's "type") are
the data a function is tried on, not prose, and are not measured, as the examples are not. The
exercise bank is read through its registry (`all_exercises()`), the model answers through `RECALL`.

    .venv/bin/python scripts/zh_rhythm.py                # one row per group, then per chapter
    .venv/bin/python scripts/zh_rhythm.py --check        # exit 1 when a group or a row below is outside a range
    .venv/bin/python scripts/zh_rhythm.py --show GROUP   # the group's short and longest sentences
    .venv/bin/python scripts/zh_rhythm.py FILE ...       # measure these files only
"""

from __future__ import annotations

import argparse
import dataclasses
import html
import importlib
import json
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any, Iterable, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# d2l-zh's shape, as ranges: (lowest, highest); None where there is no bound.
RANGES = {
    "sentence": (26.0, 36.0),  # average sentence length, characters
    "short": (None, 8.0),  # % of sentences of ≤ SHORT characters
    "colons": (None, 4.0),  # per 1,000 CJK characters
    "semicolons": (None, 1.5),
    "it": (None, 4.0),
}
SHORT = 10
LABEL = 8  # characters before a label's colon, at most
SMALL = 300  # a group with fewer CJK characters is reported but not held to the ranges: a few
#              sentences are no rhythm
FEW = 20  # a group of fewer sentences (most of its strings are fragments) is not held to the sentence ranges

_HANZI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_UNIT = re.compile(r"\x00|\{[^{}\s]*\}|[A-Za-z0-9_][A-Za-z0-9_.\-/']*|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FENCE = re.compile(r"```.*?```|~~~.*?~~~", re.S)
_SPAN = re.compile(r"`[^`\n]+`")
_LINK = re.compile(r"\]\([^)]*\)|https?://\S+")
_TAG = re.compile(r"<[^>]+>")
_END = re.compile(r"(?<=[。！？])[”’」』）)]*")

# The groups a learner reads, and the modules whose tables hold each (first that exist wins
# nothing: every module listed is measured). tutorial.words.* modules not named here land in
# "words (other)".
MODULES: dict[str, tuple[str, ...]] = {
    "verdicts": ("tutorial.notebook.exercises", "tutorial.notebook.exercises.understanding",
                 "tutorial.notebook.exercises.giveaways", "tutorial.notebook.selfcheck", "tutorial.notebook.show",
                 "tutorial.words.exercises", "tutorial.words.verdicts"),
    "check_stage": ("tutorial.notebook.build_it.texts", "tutorial.notebook.build_it.guard",
                    "tutorial.notebook.build_it.replay", "tutorial.words.build_it", "tutorial.words.check_stage"),
    "grade": ("tutorial.notebook.build_it.learner", "tutorial.cli.grade", "tutorial.words.grade"),
    "errors": ("tutorial.cli.words", "tutorial.serve.words", "tutorial.serve.cli",
               "tutorial.words", "tutorial.words.errors", "tutorial.words.cli", "tutorial.words.serve",
               "tutorial.words.watch"),
    "labels": ("tutorial.notebook.catalogue", "tutorial.notebook.walk", "tutorial.watch.rendering_words",
               "tutorial.notebook.playground", "tutorial.notebook.minutes", "tutorial.cli.doctor",
               "tutorial.words.rendering", "tutorial.words.captions", "tutorial.words.playground",
               "tutorial.notebook.playground.labels", "tutorial.notebook.playground.presets", "tutorial.pictures.captions",
               "tutorial.peers.deviations", "tutorial.peers.outcomes", "tutorial.peers.tables", "tutorial.peers.views",
               "tutorial.watch.drift", "tutorial.watch.drift_scenarios", "tutorial.cli.drift", "tutorial.cli.trajectory",
               "tutorial.watch.template_budget",
               "tutorial.watch.tokenizer", "tutorial.watch.families", "tutorial.watch.conventions", "tutorial.watch.jsondiff",
               "tutorial.wrong_python", "tutorial.pictures.render"),
    "cheat sheet": ("tutorial.notebook.cheat_sheet",),
}
# Modules whose Chinese strings no learner reads as prose: the term table names the variants to
# avoid; inputs.py and the examples are data the functions are tried on.
NOT_PROSE = ("tutorial.watch.terms", "tutorial.notebook.build_it.inputs", "tutorial.examples")
# Tables read through their own group (the model answers through RECALL), and private tables
# (a leading _: the exercise registry) are not walked again as a module's strings.
MEASURED_ELSEWHERE = {("tutorial.notebook.exercises.understanding", "RECALL")}


class Rhythm(NamedTuple):
    name: str
    characters: int  # CJK characters
    sentences: int
    sentence: float  # average sentence length, characters (code spans and English words count one)
    short: float  # % of sentences of ≤ SHORT characters
    colons: float  # per 1,000 CJK characters
    semicolons: float
    it: float

    def outside(self) -> list[str]:
        """The measures outside their range, as "colons 14.6 > 4"."""
        if self.characters < SMALL:
            return []
        found = []
        for key, (low, high) in RANGES.items():
            value = getattr(self, key)
            if key in ("sentence", "short") and self.sentences < FEW:
                continue
            if low is not None and value < low:
                found.append(f"{key} {value:.1f} < {low:g}")
            if high is not None and value > high:
                found.append(f"{key} {value:.1f} > {high:g}")
        return found


# --- cutting text into paragraphs and sentences ------------------------------------------

def markdown_paragraphs(text: str) -> list[str]:
    """Markdown as paragraphs of prose: no fenced code, headings, table rules, tags or link
    targets; each list item and table cell its own paragraph; code spans kept (they count one)."""
    text = _FENCE.sub("\n\n", text)
    text = _LINK.sub("]", _TAG.sub(" ", text))
    paragraphs, current = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or re.fullmatch(r"[|:\-\s]+", stripped):
            paragraphs.append(" ".join(current))
            current = []
        elif stripped.startswith("|"):
            paragraphs.append(" ".join(current))
            current = []
            paragraphs += [cell for cell in stripped.strip("|").split("|")]
        elif re.match(r"([-*+]|\d+\.)\s", stripped):
            paragraphs.append(" ".join(current))
            current = [re.sub(r"^([-*+]|\d+\.)\s+", "", stripped)]
        else:
            current.append(stripped)
    paragraphs.append(" ".join(current))
    return [html.unescape(p) for p in paragraphs if _HANZI.search(p)]


def units(text: str) -> int:
    """A sentence's length: CJK characters, plus one per code span, English word or placeholder."""
    return len(_UNIT.findall(_SPAN.sub("\x00", text)))


def labelled(paragraph: str) -> bool:
    """Whether a paragraph opens with a label and its colon (错误：…, {place}：…, 规则：…)."""
    head = paragraph.split("：", 1)[0] if "：" in paragraph else None
    if head is None:
        return False
    head = head.strip().lstrip("#>*- ").strip("*")
    if re.fullmatch(r"\{[^{}]*\}", head):
        return True
    return units(head) <= LABEL and not re.search(r"[，。；！？、（）()]", head)


def sentences(paragraph: str) -> tuple[list[str], str]:
    """A paragraph's sentences (each ending at 。！？, closing quotes kept) and its fragment."""
    pieces = _END.split(paragraph)
    done = [piece.strip() for piece in pieces[:-1] if _HANZI.search(piece)]
    return done, pieces[-1].strip()


def measure(paragraphs: Iterable[str], name: str = "") -> Rhythm:
    characters = colons = semicolons = it = 0
    lengths: list[int] = []
    for paragraph in paragraphs:
        plain = _SPAN.sub(" ", paragraph)
        characters += len(_HANZI.findall(plain))
        colons += plain.count("：") - (1 if labelled(paragraph) else 0)
        semicolons, it = semicolons + plain.count("；"), it + plain.count("它")
        lengths += [units(sentence) for sentence in sentences(paragraph)[0]]
    per = 1000 / characters if characters else 0.0
    count = len(lengths)
    return Rhythm(name, characters, count, sum(lengths) / count if count else 0.0,
                  100 * sum(1 for n in lengths if n <= SHORT) / count if count else 0.0,
                  colons * per, semicolons * per, it * per)


# --- where the Chinese is -----------------------------------------------------------------

_COMMENT = re.compile(r"#\s*(.*)$")


def notebook_prose(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [p for cell in cells if cell["cell_type"] == "markdown" for p in markdown_paragraphs("".join(cell["source"]))]


def notebook_comments(path: Path) -> list[str]:
    """The Chinese comments and docstrings of a notebook's code cells, one paragraph each."""
    import ast
    import io
    import tokenize

    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
        try:
            for token in tokenize.generate_tokens(io.StringIO(code).readline):
                if token.type == tokenize.COMMENT and _HANZI.search(token.string):
                    found.append(token.string.lstrip("#").strip())
            for node in ast.walk(ast.parse(code)):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node)
                    if doc and _HANZI.search(doc):
                        found += [p for p in re.split(r"\n\s*\n", doc)]
        except (SyntaxError, tokenize.TokenError):
            continue
    return found


# The type of an Anthropic content block: a mapping with one of these as its "type" is part of a
# request, like a mapping with a "role" (a message).
BLOCK_TYPES = {"text", "image", "document", "thinking", "redacted_thinking", "tool_use", "tool_result",
               "server_tool_use", "tool_reference", "search_result"}


def request_data(value: Any) -> bool:
    """Whether a value is part of a request: a message (a mapping with "role") or a content block (a
    mapping whose "type" is a block's). Its text is the conversation a function is tried on, such as
    the drift sessions' "你是代码助手。", data rather than prose, as tutorial.examples is."""
    return isinstance(value, dict) and ("role" in value or value.get("type") in BLOCK_TYPES)


def chinese_strings(value: Any, seen: Optional[set] = None) -> list[str]:
    """Every string with Chinese in it inside a table: dict keys and values, list and tuple
    items, dataclass and named-tuple fields; not inside request data (`request_data`)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, str):
        return [value] if _HANZI.search(value) else []
    if request_data(value):
        return []
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        return []
    return [s for item in items for s in chinese_strings(item, seen)]


def assigned_names(module: Any) -> Optional[set[str]]:
    """The names a module's own source assigns at its top level (inside a top-level if or try
    too): its tables, as opposed to the ones it imported, which are measured where they are
    assigned. None when there is no source to read."""
    import ast

    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return None
    names: set[str] = set()

    def visit(statements: list) -> None:
        for statement in statements:
            if isinstance(statement, ast.Assign):
                targets = statement.targets
            elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
                targets = [statement.target]
            elif isinstance(statement, (ast.If, ast.Try)):
                visit(statement.body + statement.orelse + getattr(statement, "finalbody", []))
                for handler in getattr(statement, "handlers", []):
                    visit(handler.body)
                continue
            else:
                continue
            for target in targets:
                names.update(node.id for node in ast.walk(target) if isinstance(node, ast.Name))

    visit(ast.parse(Path(path).read_text(encoding="utf-8")).body)
    return names


def _own_items(name: str) -> Optional[list[tuple[str, Any]]]:
    """A module's public module-level values that its own source assigns; None when there is no
    such module."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    own = assigned_names(module)
    return [(key, value) for key, value in vars(module).items()
            if not key.startswith("_") and (own is None or key in own)]


def own_tables(name: str) -> list[Any]:
    """A module's module-level tables, for the coverage test: dicts, lists, tuples, sets, dataclasses."""
    return [value for key, value in _own_items(name) or []
            if isinstance(value, (dict, list, tuple, set, frozenset))
            or dataclasses.is_dataclass(value) and not isinstance(value, type)]


def module_strings(name: str) -> Optional[list[str]]:
    """The Chinese strings in a module's own tables (not in what it imported); None when
    there is no such module."""
    items = _own_items(name)
    if items is None:
        return None
    found, seen = [], set()
    for key, value in items:
        if (name, key) in MEASURED_ELSEWHERE or isinstance(value, type) \
                or callable(value) and not isinstance(value, (dict, list)):
            continue
        found += chinese_strings(value, seen)
    return found


def table_paragraphs(strings: Iterable[str]) -> list[str]:
    """Strings of a table as paragraphs: each string, split at its line breaks."""
    return [line.strip() for s in strings for line in s.splitlines() if _HANZI.search(line)]


def exercise_texts() -> dict[str, list[str]]:
    """The exercise bank's Chinese texts, per chapter: question, options, feedback, hint,
    explanation, form, and every named mistake's hint."""
    from tutorial.notebook.exercises import all_exercises

    chapters: dict[str, list[str]] = {}
    for key, exercise in all_exercises().items():
        texts = chinese_strings(exercise.zh) + [m.zh for m in exercise.mistakes if m.zh]
        chapters.setdefault(key.split(".")[0], []).extend(table_paragraphs(texts))
    return chapters


def model_answers() -> dict[str, list[str]]:
    from tutorial.notebook.exercises.understanding import RECALL

    return {chapter: table_paragraphs([item.zh_question for item in items] + [item.zh_answer for item in items])
            for chapter, items in RECALL.items()}


def html_paragraphs(path: Path) -> list[str]:
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"<code>(.*?)</code>", lambda m: "`" + m.group(1).replace("`", "") + "`", text, flags=re.S)
    text = re.sub(r"</?(p|li|td|th|tr|h\d|div|br|caption|dt|dd)\b[^>]*>", "\n\n", text)
    return [html.unescape(p) for p in markdown_paragraphs(_TAG.sub(" ", text))]


def pages() -> list[Path]:
    zh = ROOT / "notebooks" / "zh"
    return [ROOT / "README.zh.md", zh / "README.md", zh / "glossary.md"]


def chapters() -> list[Path]:
    return sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))


def files() -> list[Path]:
    """Every file read as a file: the chapters, then the Markdown pages (kept for callers of
    the first version of this script)."""
    return [*chapters(), *pages()]


def claimed_modules() -> set[str]:
    return {name for names in MODULES.values() for name in names}


def words_room() -> list[str]:
    """tutorial.words' modules, when the room exists."""
    try:
        package = importlib.import_module("tutorial.words")
    except ImportError:
        return []
    return ["tutorial.words", *(f"tutorial.words.{m.name}" for m in pkgutil.walk_packages(package.__path__))]


def groups() -> dict[str, list[str]]:
    """Every group a learner reads -> its paragraphs."""
    found: dict[str, list[str]] = {
        "prose": [p for path in chapters() for p in notebook_prose(path)],
        "code comments": [p for path in chapters() for p in notebook_comments(path)],
        "pages": [p for path in pages() for p in (markdown_paragraphs(path.read_text(encoding="utf-8")))],
        "exercises": [p for texts in exercise_texts().values() for p in texts],
        "model answers": [p for texts in model_answers().values() for p in texts],
    }
    for group, names in MODULES.items():
        strings = [s for name in names for s in (module_strings(name) or [])]
        found[group] = table_paragraphs(strings)
    other = [name for name in words_room() if name not in claimed_modules()]
    if other:
        found["words (other)"] = table_paragraphs(s for name in other for s in (module_strings(name) or []))
    found["cheat sheet"] += [p for p in html_paragraphs(ROOT / "docs" / "cheat_sheet.zh.html")]
    return found


def details() -> dict[str, list[str]]:
    """Rows below the groups: each chapter's prose, each page, each chapter's exercises."""
    rows = {f"prose {path.stem[:3].rstrip('_')}": notebook_prose(path) for path in chapters()}
    rows.update({f"page {path.relative_to(ROOT)}": markdown_paragraphs(path.read_text(encoding="utf-8")) for path in pages()})
    rows.update({f"exercises {chapter}": texts for chapter, texts in exercise_texts().items()})
    rows.update({f"answers {chapter}": texts for chapter, texts in model_answers().items()})
    return rows


def file_paragraphs(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        return notebook_prose(path)
    if path.suffix == ".html":
        return html_paragraphs(path)
    return markdown_paragraphs(path.read_text(encoding="utf-8"))


# --- report -------------------------------------------------------------------------------

def _range(key: str) -> str:
    low, high = RANGES[key]
    return f"{low:g}–{high:g}" if low is not None else f"≤{high:g}"


def table(rows: list[Rhythm]) -> str:
    head = f"{'group':<34} {'chars':>6} {'sent':>5} {'avg':>5} {'≤10%':>5} {'：':>5} {'；':>5} {'它':>5}  outside range"
    target = (f"{'range (d2l-zh shape)':<34} {'':>6} {'':>5} {_range('sentence'):>5} {_range('short'):>5} "
              f"{_range('colons'):>5} {_range('semicolons'):>5} {_range('it'):>5}")
    lines = [head, target]
    for row in rows:
        flag = "; ".join(row.outside()) or ("ok" if row.characters >= SMALL else "(too small to hold)")
        lines.append(f"{row.name:<34} {row.characters:>6} {row.sentences:>5} {row.sentence:>5.1f} {row.short:>5.1f} "
                     f"{row.colons:>5.1f} {row.semicolons:>5.1f} {row.it:>5.1f}  {flag}")
    return "\n".join(lines)


def report() -> tuple[list[Rhythm], list[Rhythm]]:
    found = groups()
    rows = [measure(paragraphs, name) for name, paragraphs in found.items()]
    rows.append(measure([p for paragraphs in found.values() for p in paragraphs], "all"))
    return rows, [measure(paragraphs, name) for name, paragraphs in details().items()]


def show(paragraphs: list[str]) -> str:
    """The short sentences and the ten longest, and the strings with 它, semicolons or two colons."""
    lines = []
    all_sentences = [s for p in paragraphs for s in sentences(p)[0]]
    lines.append(f"-- sentences of ≤ {SHORT} characters")
    lines += [f"  {units(s):>3}  {s}" for s in all_sentences if units(s) <= SHORT]
    lines.append("-- the ten longest")
    lines += [f"  {units(s):>3}  {s}" for s in sorted(all_sentences, key=units, reverse=True)[:10]]
    lines.append("-- paragraphs with 它, ； or more than one ：")
    lines += [f"  {p}" for p in paragraphs if "它" in _SPAN.sub(" ", p) or "；" in p or p.count("：") > 1]
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="files to measure (default: every group)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a group, or a row below the groups (a chapter's prose, exercises, "
                             "answers; a page), is outside a range")
    parser.add_argument("--show", metavar="GROUP", help="print a group's (or a detail row's) short and long sentences")
    arguments = parser.parse_args(argv)
    if arguments.files:
        rows = [measure(file_paragraphs(path.resolve()), str(path)) for path in arguments.files]
        print(table(rows))
        return 1 if arguments.check and any(row.outside() for row in rows) else 0
    if arguments.show:
        everything = {**groups(), **details()}
        if arguments.show not in everything:
            parser.error(f"no group {arguments.show!r}; groups: {', '.join(everything)}")
        print(show(everything[arguments.show]))
        return 0
    rows, below = report()
    print(table(rows))
    print()
    print(table(below))
    return 1 if arguments.check and any(row.outside() for row in rows + below) else 0


if __name__ == "__main__":
    sys.exit(main())
