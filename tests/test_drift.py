"""The drift table (tutorial/watch/drift.py), held against transformers, and `python -m tutorial drift`.

Every cell, 11 families × 9 scenarios: the same translated messages are rendered by transformers'
own chat-template code from the same template text (`render_jinja_template`; for ids, the
vocabulary's `PreTrainedTokenizerFast.apply_chat_template(tokenize=True)` and `encode`), the answer
is cut by the rule the table documents (`drift.answer_text`), and the table's verdict must be what
those renders give: extends or not, the turn and offset where the two sides part (characters, and
tokens where the sdist ships the vocabulary), or the same refusal in the same render.

Without the fetched sdist or the `real` extra the tests skip saying why; under CI they fail.
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # transformers must never reach a hub from here

import tutorial
from tutorial.llama_cpp import sdist
from tutorial.watch import families

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = tutorial.template_families()


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI must check the drift table")
    pytest.skip(what)


@pytest.fixture(scope="module", autouse=True)
def real_parts():
    if not sdist.is_fetched():
        _missing(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}")
    try:
        import jinja2  # noqa: F401
        import tokenizers  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as error:
        if sys.version_info >= (3, 15) and error.name == "transformers":
            pytest.skip("transformers is not part of the real extra on Python 3.15 (tests/test_real_templates.py)")
        _missing(f"the real extra is not installed ({error.name}): pip install -e '.[real]'")


# ---------------------------------------------------------------------------
# transformers, the reference


@lru_cache(maxsize=None)
def _tokenizer(vocabulary: str):
    from tutorial.watch.tokenizer import fast_tokenizer

    return fast_tokenizer(vocabulary)


class _Refused(Exception):
    def __init__(self, where, words):
        self.where, self.words = where, words


def _theirs(name: str, messages, tools, generation_prompt: bool, where) -> str:
    from jinja2.exceptions import TemplateError
    from transformers.utils.chat_template_utils import render_jinja_template

    chosen = families.family(name)
    try:
        rendered, _ = render_jinja_template([messages], tools=tools, chat_template=chosen.template_text,
                                            add_generation_prompt=generation_prompt, **chosen.special_tokens)  # fmt: skip
    except TemplateError as error:
        raise _Refused(where, str(error)) from None
    return rendered[0]


def _their_ids(name: str, messages, tools) -> list[int]:
    chosen = families.family(name)
    return _tokenizer(chosen.vocabulary).apply_chat_template(
        messages, tools=tools, chat_template=chosen.template_text, add_generation_prompt=True, tokenize=True,
        return_dict=False, **chosen.special_tokens,
    )  # fmt: skip


def _parted(held: list, new: list):
    """None when `new` starts with `held`, else how many items they share first."""
    if new[: len(held)] == held:
        return None
    return next(i for i, (a, b) in enumerate(zip(held + [object()], new + [object()])) if a != b)


def reference(name: str, scenario: str) -> dict:
    """The verdicts transformers' renders give, in the order a session meets them."""
    from tutorial.watch import drift
    from tutorial.watch.drift_scenarios import SCENARIOS, requests

    vocabulary = families.family(name).vocabulary
    found = {"text": None, "tokens": None, "refused": None}
    previous = None
    try:
        for number, (body, blocks) in enumerate(requests(SCENARIOS[scenario]), start=1):
            messages, tools = tutorial.translate(body)
            prompt = _theirs(name, messages, tools, True, ("prompt", number))
            ids = _their_ids(name, messages, tools) if vocabulary else None
            if previous is not None:
                held_text, held_ids, prompt_length = previous
                at = _parted(list(held_text), list(prompt))
                if at is not None and found["text"] is None:
                    found["text"] = (number - 1, at, "prompt" if at < prompt_length[0] else "answer")
                if vocabulary:
                    at = _parted(held_ids, ids)
                    if at is not None and found["tokens"] is None:
                        found["tokens"] = (number - 1, at, "prompt" if at < prompt_length[1] else "answer")
                if found["text"] and (not vocabulary or found["tokens"]):
                    break
            if blocks is not None:
                answer = tutorial.translate_messages([{"role": "assistant", "content": blocks}])[0]
                rendered = _theirs(name, messages + [answer], tools, False, ("answer", number))
                text, _ = drift.answer_text(name, prompt, rendered, answer)
                answer_ids = _tokenizer(vocabulary).encode(text, add_special_tokens=False) if vocabulary else []
                previous = (prompt + text, (ids or []) + answer_ids, (len(prompt), len(ids or [])))
    except _Refused as refused:
        found["refused"] = (refused.where, refused.words)
    return found


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch):
    """transformers' strftime_now reads datetime.now(); the table renders on drift.DATE."""
    from transformers.utils import chat_template_utils

    from tutorial.watch import drift

    class Fixed(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return drift.DATE

    monkeypatch.setattr(chat_template_utils, "datetime", Fixed)


def _cases():
    from tutorial.watch.drift_scenarios import scenario_names

    return [(name, scenario) for name in FAMILIES for scenario in scenario_names()]


@pytest.mark.parametrize("name,scenario", _cases())
def test_every_verdict_is_what_transformers_renders_give(name, scenario):
    from tutorial.watch import drift

    cell = drift.cell(name, scenario)
    theirs = reference(name, scenario)
    if theirs["text"] is None and theirs["refused"] is not None:
        assert cell.text == drift.REFUSED
        assert (cell.refused_in, cell.refusal) == theirs["refused"]
    elif theirs["text"] is None:
        assert cell.text == drift.EXTENDS, cell.text_part
    else:
        assert cell.text == drift.PARTS
        part = cell.text_part
        assert (part.turn, part.offset, part.within) == theirs["text"]
    if families.family(name).vocabulary is None:
        assert cell.tokens is None
    elif theirs["tokens"] is not None:
        assert cell.tokens == drift.PARTS
        part = cell.token_part
        assert (part.turn, part.offset, part.within) == theirs["tokens"]
    else:
        assert cell.tokens == (drift.REFUSED if cell.text == drift.REFUSED else drift.EXTENDS)


def test_the_readme_example_extends_in_seven_of_eleven_families():
    """The count the issue states, measured: Qwen3 and Qwen3.5 drop the empty think block the model
    wrote, GLM-4.7's generation prompt opens a think block history does not keep, Mistral refuses."""
    from tutorial.watch import drift

    found = drift.summary("readme")
    assert found["families"] == 11
    assert len(found["text_extends"]) == 7
    assert sorted(found["text_parts"]) == ["glm-4.7", "qwen3", "qwen3.5"]
    assert found["refused"] == ["mistral-small-3.2"]
    assert sorted(found["tokens_extend"]) == ["llama-3.3", "qwen2.5", "qwen3-coder"]
    assert "7 of 11 families" in drift.summary_line("readme")
    rows = drift.rows(scenarios=["readme"])
    assert {(row["family"], row["text"]) for row in rows} >= {("qwen3", "parts"), ("mistral-small-3.2", "refused")}
    assert all(value is None or isinstance(value, (str, int)) for row in rows for value in row.values())


def test_the_lines_named_are_the_lines_that_wrote_the_characters():
    """Qwen3: history writes the answer without its think block (the line that prints content
    alone), the answer had it (the line that prints <think>); GLM-4.7: the generation prompt's line."""
    from tutorial.watch import drift

    qwen3 = drift.cell("qwen3", "readme")
    assert "message.role + '\\n' + content }}" in qwen3.new_line.source
    assert "<think>" in qwen3.held_line.source and qwen3.text_part.within == "answer"
    glm = drift.cell("glm-4.7", "readme")
    assert glm.held_line.source.startswith("<|assistant|>") and "'<think>'" in glm.held_line.source
    assert glm.text_part.within == "prompt"
    source = families.family("glm-4.7").template_text.splitlines()
    assert source[glm.held_line.number - 1].strip() == glm.held_line.source


@pytest.mark.parametrize("name", FAMILIES)
def test_the_line_finder_renders_what_render_renders(name):
    """The instrumented compile (template_lines.py) yields, piece by piece, exactly the text `render` gives."""
    from tutorial.watch import drift, template_lines
    from tutorial.watch.drift_scenarios import SCENARIOS, requests
    from tutorial.watch.rendering import RenderError, frozen_today

    body, _ = requests(SCENARIOS["tool-loop"])[-1]
    messages, tools = tutorial.translate(body)
    try:
        with frozen_today(drift.DATE):
            expected = tutorial.render(messages, tools, template=name)
    except RenderError:
        pytest.skip(f"{name} refuses the tool loop")
    pieces = template_lines.pieces(name, messages, tools, True)
    assert pieces[-1][0] == len(expected)
    assert all(number >= 1 for _, number in pieces)


# ---------------------------------------------------------------------------
# The command line


def run(*arguments: str):
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    environment.pop("TUTORIAL_LANG", None)
    return subprocess.run([sys.executable, "-m", "tutorial", *arguments], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=600, env=environment)  # fmt: skip


def test_json_holds_every_cell():
    from tutorial.watch import drift

    done = run("drift", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert len(found["cells"]) == 99
    assert [s["letter"] for s in found["scenarios"]] == list("abcdefghi")
    assert found["cells"] == json.loads(json.dumps(drift.cells_json()))
    assert len(found["readme"]["text_extends"]) == 7


def test_the_table_in_a_terminal():
    done = run("drift", "--family", "qwen3", "--family", "mistral-small-3.2", "--scenario", "b")
    assert done.returncode == 0, done.stderr
    assert "qwen3              ✗ ✗" in done.stdout
    assert "mistral-small-3.2  refused" in done.stdout
    assert "Tool call IDs should be alphanumeric strings with length 9!" in done.stdout
    assert "template line 46 (turn 2's prompt)" in done.stdout


@pytest.mark.parametrize("arguments,start", [
    (("drift", "--family", "qwen4"), "error: --family: no family 'qwen4'; families: deepseek-v3.1"),
    (("drift", "--scenario", "z"), "error: --scenario: no scenario 'z'; scenarios: a plain"),
    (("--lang", "zh", "drift", "--family", "qwen4"), "错误：--family 不能取 'qwen4'，没有这个模型家族，可选的有 deepseek-v3.1、glm-4.6、"),
])  # fmt: skip
def test_a_bad_option_is_one_line(arguments, start):
    done = run(*arguments)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(start), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_chinese_table_says_jiexu_and_the_glossary_terms():
    """The glossary's word for a prompt that extends the last one is 接续 (chapter 13 says it too),
    and a system prompt is a 系统提示词 (zh sweep M4, M5)."""
    command = importlib.import_module("tutorial.cli.drift")  # tutorial.cli.drift is also the command function
    from tutorial.watch import drift
    from tutorial.watch.drift_scenarios import SCENARIOS

    chinese = json.dumps([drift.WORDS["zh"], command.WORDS["zh"], [s.words["zh"] for s in SCENARIOS.values()]], ensure_ascii=False)
    assert "延续" not in chinese and "system 提示" not in chinese
    assert drift.WORDS["zh"]["key"].startswith("✓ 接续 ") and "的第 2 轮 prompt " in drift.WORDS["zh"]["summary"] and "接续了" in drift.WORDS["zh"]["summary"]
    assert SCENARIOS["system-edit"].words["zh"] == "两轮之间系统提示词被改动"
    # a scenario is a 情形, as chapter 13 and README.zh.md say (zh review M9)
    assert "场景" not in chinese and command.WORDS["zh"]["scenario metavar"] == "情形"
    # a 0-based offset is a 下标, never an ordinal 第 N 个 (第 157 个 would be the 157th; zh review H1)
    assert "第 {offset}" not in chinese
    assert drift.WORDS["zh"]["token part"].startswith("从 token 下标 {offset} 起分开（前 {offset} 个 token 相同）")
