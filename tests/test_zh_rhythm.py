"""The Chinese a learner reads, measured (issue 37): scripts/zh_rhythm.py reports, for every group of
Chinese strings — chapter prose, code comments, the pages, the exercise bank, model answers,
verdicts, check_stage, grade, errors, labels, the cheat sheet — the average sentence, the share of
sentences of ≤ 10 characters, and colons, semicolons and 它 per 1,000 characters, against d2l-zh's
shape (26–36, ≤ 8 %, ≤ 4, ≤ 1.5, ≤ 4).

Every group is held to those ranges, except the measures listed in NOT_YET: the rewrite toward
d2l-zh's rhythm has not reached them. Each is held to the value measured when it was listed (a
ceiling, or a floor for the average sentence), so a group can only move toward the range; delete
an entry when its group is in range.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("zh_rhythm", ROOT / "scripts" / "zh_rhythm.py")
zh_rhythm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zh_rhythm)

# group -> {measure: the value it may not get worse than}. Empty: every group is in d2l-zh's range.
# Labels left it on 2026-12-04: the drift sessions' conversation ("你是代码助手。") is request data
# (scripts/zh_rhythm.py's request_data), a table imported into another module is measured once,
# where it is assigned, captions and status lines lost a 。 that made them sentences, and the
# chopped sentences (还没有翻译结果。, 图示模块不可用。, …) say what happened and what to do.
NOT_YET: dict[str, dict[str, float]] = {}


def test_the_measure_follows_the_docstring():
    # A sentence ends at 。！？; a code span, an English word and a placeholder count one each.
    paragraph = "`translate` 返回 two lists。它在这里：一个冒号；一个分号！没有句号的尾巴"
    done, fragment = zh_rhythm.sentences(paragraph)
    assert done == ["`translate` 返回 two lists。", "它在这里：一个冒号；一个分号！"] and fragment == "没有句号的尾巴"
    assert zh_rhythm.units(done[0]) == 1 + 2 + 2  # the code span, 返回, two, lists
    rhythm = zh_rhythm.measure([paragraph])
    characters = len("返回它在这里一个冒号一个分号没有句号的尾巴")
    assert rhythm.characters == characters and rhythm.sentences == 2
    assert rhythm.sentence == pytest.approx((5 + 12) / 2) and rhythm.short == 50.0
    assert rhythm.colons == pytest.approx(1000 / characters) and rhythm.it == pytest.approx(1000 / characters)
    # A label's colon is not a colon chain; the second colon of a paragraph is.
    assert zh_rhythm.measure(["错误：无法读取这个文件。"]).colons == 0
    assert zh_rhythm.measure(["{place}：必须是字符串：实际是整数。"]).colons > 0


def test_markdown_loses_code_headings_and_links():
    paragraphs = zh_rhythm.markdown_paragraphs("# 标题\n\n正文[链接](https://例子.com/：)。\n```\n它：；\n```\n- 一项\n| 格 | 子 |")
    assert paragraphs == ["正文[链接]。", "一项", " 格 ", " 子 "]


def test_request_data_and_imported_tables_are_not_measured_again():
    """A request's messages and content blocks are data (the drift sessions' "你是代码助手。"), and a
    table is measured in the module that assigns it, not again in each module that imports it."""
    table = {"label": "一个标签", "body": {"role": "user", "content": "你是代码助手。"},
             "block": {"type": "text", "text": "这是一个学习项目。"}}
    assert zh_rhythm.chinese_strings(table) == ["一个标签"]
    strings = zh_rhythm.module_strings("tutorial.watch.drift_scenarios")
    assert "普通回答，然后新的提问" in strings and not any("代码助手" in s for s in strings)
    assert zh_rhythm.module_strings("tutorial.watch.template_budget") == []  # rendering_words' WORDS, imported


def test_every_group_a_learner_reads_is_measured():
    groups = zh_rhythm.groups()
    for name in ("prose", "code comments", "pages", "exercises", "model answers", "verdicts", "check_stage", "grade",
                 "errors", "labels", "cheat sheet"):
        assert zh_rhythm.measure(groups[name]).characters > 100, name


def test_every_module_with_chinese_strings_is_in_a_group():
    """A new table of Chinese texts (wherever it lives: tutorial/words/ or a room of its own) is
    measured, or named in NOT_PROSE with a reason."""
    import tutorial

    claimed = zh_rhythm.claimed_modules() | set(zh_rhythm.words_room()) | set(zh_rhythm.NOT_PROSE)
    exercise_modules = {"tutorial.notebook.exercises"}
    measured = {id(table) for name in claimed for table in zh_rhythm.own_tables(name)}
    unmeasured = []
    for module in pkgutil.walk_packages(tutorial.__path__, "tutorial."):
        name = module.name
        if name in claimed or any(name.startswith(p + ".") for p in exercise_modules | set(zh_rhythm.NOT_PROSE)):
            continue
        if any(part in name for part in (".llama_cpp", ".hub", "__main__")):
            continue
        strings = [s for table in zh_rhythm.own_tables(name) if id(table) not in measured
                   for s in zh_rhythm.chinese_strings(table)]
        if strings:
            unmeasured.append(f"{name} ({len(strings)} strings)")
    assert not unmeasured, "Chinese tables in no group of scripts/zh_rhythm.py: " + ", ".join(unmeasured)


def _held(row) -> list[str]:
    problems = []
    for key, (low, high) in zh_rhythm.RANGES.items():
        value, allowed = getattr(row, key), NOT_YET.get(row.name, {}).get(key)
        if key in ("sentence", "short") and row.sentences < zh_rhythm.FEW or row.characters < zh_rhythm.SMALL:
            continue
        if allowed is not None:
            worse = value < allowed if key == "sentence" else value > allowed
            if worse:
                problems.append(f"{row.name}: {key} {value:.1f} is worse than the {allowed:g} it was listed at")
            continue
        if low is not None and value < low or high is not None and value > high:
            problems.append(f"{row.name}: {key} {value:.1f} outside {low}–{high}")
    return problems


def test_every_group_is_within_d2l_zh_shape_or_moving_toward_it():
    rows, _ = zh_rhythm.report()
    problems = [problem for row in rows for problem in _held(row)]
    assert not problems, "\n".join(problems) + "\n(.venv/bin/python scripts/zh_rhythm.py --show GROUP lists the sentences)"


def test_every_chapter_page_and_exercise_set_is_within_d2l_zh_shape():
    """The rows below the groups (each chapter's prose, exercises and model answers, each page) are
    held too, as --check holds them: a group in range can hide a chapter that is not."""
    _, below = zh_rhythm.report()
    problems = [f"{row.name}: {problem}" for row in below for problem in row.outside()]
    assert not problems, "\n".join(problems)


def test_the_script_runs_as_a_command():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "zh_rhythm.py")], capture_output=True, text=True)
    assert result.returncode == 0 and "model answers" in result.stdout, result.stderr
