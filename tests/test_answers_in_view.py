"""No chapter shows a prediction's answer before the learner has answered it.

For every prediction (a code cell tagged `exercise` that calls `check("KEY", ...)`), in both
editions (notebooks/*.ipynb, notebooks/zh/*.ipynb) and in a class copy written by
scripts/workshop.py, the answer is computed from the exercise bank and looked for in
everything a reader sees from the top of the chapter down to the next prediction:

- prose: markdown cells, except what is folded inside `<details>…</details>`;
- code: the source of every code cell whose input is not collapsed (`metadata.jupyter.source_hidden`),
  and the first line of one that is (JupyterLab shows it as the fold's label);
- stored outputs whose output area is not collapsed (`metadata.jupyter.outputs_hidden`):
  printed text, `text/plain`, `text/markdown`, `text/html` (tags removed, entities read) and
  the words a stored SVG picture draws (its `<text>` elements).

The prediction's own cell, and the cell that asks its question (`ask("KEY")`, which prints
every option of a multiple choice), are left out. Below the last prediction of a chapter the search stops at the first prose the
chapter shows after it (the chapter has moved on): a chapter may store its whole-flow picture
there.

What is looked for, with all whitespace removed from both sides (stored JSON is indented):
- the answer as JSON (`ensure_ascii` False and True, keys as given and sorted) and as a Python
  literal; a list of one item also as that item, unless the item is trivial;
- a string answer of 8 characters or more as it is, unquoted;
- for multiple choice, the text of the right option (the letter alone says nothing);
- the giveaway words of the exercise, in the chapter's language
  (`tutorial/notebook/exercises/giveaways.py`): the few words that name the answer in prose or
  in a picture ("text taken directly", "a list of 5 messages").

Trivial answers are not looked for as values, because they are everywhere and say nothing
alone: True, False and None, integers below 1000, strings shorter than 8 characters, and the
letters of multiple choice; such exercises are covered by their giveaway words. A failure
names the edition and chapter, the question's key, the cell index (0-based, as nbformat
counts) and what was found.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tutorial.notebook import exercises
from tutorial.notebook.exercises import giveaways, python_literal
from tutorial.words import using
from in_language import hint_in, text_in


def giveaway_words(key: str, lang: str) -> list:
    """The giveaway words of exercise `key` in `lang`."""
    with using(lang):
        return giveaways.words(key)


ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
CHECK = re.compile(r"""check\(\s*["']([0-9a-z]+\.[A-Za-z0-9_]+)["']""")
DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
SHORTEST_STRING = 8
SMALLEST_INT = 1000


def chapters(folder: Path) -> list[Path]:
    return sorted(folder.glob("[0-9]*.ipynb")) + sorted((folder / "zh").glob("[0-9]*.ipynb"))


def compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def language_of(path: Path) -> str:
    return "zh" if path.parent.name == "zh" else "en"


# --- what is in view --------------------------------------------------------------------


def jupyter(cell: dict) -> dict:
    return cell.get("metadata", {}).get("jupyter", {})


def svg_words(svg: str) -> str:
    """The words a picture draws: the text of each <text> element, one per line."""
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError:
        return TAG.sub(" ", svg)
    return "\n".join("".join(node.itertext()) for node in root.iter() if node.tag.rsplit("}", 1)[-1] == "text")


def html_words(page: str) -> str:
    return html.unescape(TAG.sub(" ", page))


def output_views(output: dict) -> list[str]:
    views = []
    if output.get("output_type") == "stream":
        views.append("".join(output.get("text", "")))
    data = output.get("data", {})
    for kind in ("text/plain", "text/markdown"):
        if kind in data:
            views.append("".join(data[kind]))
    if "text/html" in data:
        views.append(html_words("".join(data["text/html"])))
    if "image/svg+xml" in data:
        views.append(svg_words("".join(data["image/svg+xml"])))
    return views


def prose(markdown: str) -> str:
    """What a markdown cell shows unfolded: <details> removed; `code` and **bold** marks dropped too."""
    shown = DETAILS.sub(" ", markdown)
    return shown + "\n" + shown.replace("`", "").replace("**", "")


def in_view(cell: dict) -> list[tuple[str, str]]:
    """(what, text) for each thing a reader sees of `cell` without unfolding anything."""
    source = "".join(cell.get("source", ""))
    if cell["cell_type"] == "markdown":
        return [("prose", prose(source))]
    if cell["cell_type"] != "code":
        return []
    # A collapsed input still shows its first line in JupyterLab, as the fold's label.
    hidden = jupyter(cell).get("source_hidden")
    seen = [("collapsed code's first line", source.split("\n", 1)[0])] if hidden else [("code", source)]
    if not jupyter(cell).get("outputs_hidden"):
        seen += [("stored output", view) for output in cell.get("outputs", []) for view in output_views(output)]
    return seen


def predictions(notebook: dict) -> list[tuple[int, str]]:
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code" and "exercise" in cell.get("metadata", {}).get("tags", []):
            match = CHECK.search("".join(cell["source"]))
            if match:
                found.append((index, match.group(1)))
    return found


def asks(cell: dict, key: str) -> bool:
    """Whether `cell` prints the question `key` (and its options): `ask("KEY")`."""
    return cell["cell_type"] == "code" and bool(re.search(r"""\bask\(\s*["']""" + re.escape(key) + "[\"']", "".join(cell["source"])))


def region(notebook: dict, at: int, following: int | None) -> list[int]:
    """The cells in view for the prediction at `at`: all above it, and below it up to the next
    prediction; below the last one, up to and including the first prose still shown."""
    cells = notebook["cells"]
    above = list(range(at))
    if following is not None:
        return above + list(range(at + 1, following))
    below = []
    for index in range(at + 1, len(cells)):
        below.append(index)
        if cells[index]["cell_type"] == "markdown" and DETAILS.sub("", "".join(cells[index]["source"])).strip():
            break
    return above + below


# --- what would give the answer away ----------------------------------------------------


def trivial(value) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) < SMALLEST_INT
    if isinstance(value, str):
        return len(value) < SHORTEST_STRING
    return False


def needles(key: str, lang: str) -> list[tuple[str, str]]:
    """(how, text) for each form of the answer to `key` that would give it away."""
    exercise = exercises.get(key)
    expected = exercise.expected()
    found: list[tuple[str, str]] = []
    if exercise.choices:
        option = text_in(lang, exercise, "choices")[expected]
        found.append(("the right option's text", option))
    elif not trivial(expected):
        single = isinstance(expected, list) and len(expected) == 1 and not trivial(expected[0])
        values = [expected] + ([expected[0]] if single else [])
        for value in values:  # a list of one is also given away by its one item shown alone
            for ascii_only in (False, True):
                for sort in (False, True):
                    found.append(("JSON", json.dumps(value, ensure_ascii=ascii_only, sort_keys=sort)))
            found.append(("a Python literal", python_literal(value)))
            found.append(("a Python literal", repr(value)))
        if isinstance(expected, str):
            found.append(("the string", expected))
    found += [("giveaway words", words) for words in giveaway_words(key, lang)]
    return [(how, text) for how, text in dict.fromkeys(found) if compact(text)]


def problems(path: Path, label: str) -> tuple[int, list[str]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    lang = language_of(path)
    asked = predictions(notebook)
    views = [in_view(cell) for cell in notebook["cells"]]
    found = []
    for number, (at, key) in enumerate(asked):
        following = asked[number + 1][0] if number + 1 < len(asked) else None
        forms = [(how, text, compact(text)) for how, text in needles(key, lang)]
        own = {at} | {i for i, cell in enumerate(notebook["cells"]) if asks(cell, key)}
        for index in region(notebook, at, following):
            if index in own:
                continue
            for what, text in views[index]:
                seen = compact(text)
                for how, needle, small in forms:
                    if small in seen:
                        found.append(f"{label} · {key} (prediction in cell {at}): cell {index} shows the answer in its "
                                     f"{what}, as {how}: {needle[:80]!r}")
    return len(asked), found


# --- the tests --------------------------------------------------------------------------


def check_folder(folder: Path, prefix: str) -> int:
    total, found = 0, []
    for path in chapters(folder):
        label = f"{prefix}{path.relative_to(folder).as_posix()}"
        count, trouble = problems(path, label)
        total += count
        found += trouble
    assert not found, f"{len(found)} answers in view before the learner answers:\n" + "\n".join(found)
    return total


def test_every_prediction_has_an_answer_to_look_for():
    keys = {key for path in chapters(NOTEBOOK_DIR) for _, key in predictions(json.loads(path.read_text(encoding="utf-8")))}
    for key in sorted(keys):
        for lang in ("en", "zh"):
            assert needles(key, lang) or trivial(exercises.get(key).expected()), key
    unknown = set(giveaways.GIVEAWAYS) - set(exercises.all_exercises())
    assert not unknown, f"giveaway words for exercises that do not exist: {sorted(unknown)}"


def test_the_search_finds_an_answer_put_in_view(tmp_path):
    """The check can fail: a chapter 02 with the answer of 2.1 printed above it, or its words in
    prose, or drawn in a picture, is caught; folding the prose in <details> passes."""
    source = json.loads((NOTEBOOK_DIR / "02_messages_path.ipynb").read_text(encoding="utf-8"))
    at, key = predictions(source)[0]
    answer = exercises.get(key).expected()
    planted = [
        {"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1, "outputs": [
            {"output_type": "execute_result", "metadata": {}, "execution_count": 1,
             "data": {"text/plain": json.dumps(answer, ensure_ascii=False, indent=2)}}]},
        {"cell_type": "markdown", "metadata": {}, "source": "It becomes " + json.dumps(answer, ensure_ascii=True)},
        {"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1, "outputs": [
            {"output_type": "display_data", "metadata": {}, "data": {"image/svg+xml": (
                '<svg xmlns="http://www.w3.org/2000/svg"><text>' + html.escape(giveaway_words("02.first_user_flatten", "en")[0])
                + "</text></svg>")}}]},
    ]
    for cell in planted:
        notebook = json.loads(json.dumps(source))
        notebook["cells"].insert(at, cell)
        path = tmp_path / "02_messages_path.ipynb"
        path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
        count, found = problems(path, "planted")
        assert found and f"cell {at}" in found[0], cell
    folded = {"cell_type": "markdown", "metadata": {}, "source": "<details><summary>Why</summary>\n\nIt becomes "
              + json.dumps(answer, ensure_ascii=False) + "\n\n</details>"}
    notebook = json.loads(json.dumps(source))
    notebook["cells"].insert(at, folded)
    path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    assert not problems(path, "folded")[1]


def test_no_chapter_shows_an_answer_before_the_learner_answers():
    total = check_folder(NOTEBOOK_DIR, "notebooks/")
    print(f"{total} predictions checked in both editions")
    assert total > 100


def test_the_class_copy_shows_no_answer_before_the_learner_answers(tmp_path):
    target = tmp_path / "class"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(target), "--no-trust"],
                            capture_output=True, text=True, env={**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    assert result.returncode == 0, result.stderr
    copied = target / "notebooks"
    assert chapters(copied), "the class copy holds no chapter"
    assert check_folder(copied, "class copy: ") == sum(
        len(predictions(json.loads(p.read_text(encoding="utf-8")))) for p in chapters(NOTEBOOK_DIR))
