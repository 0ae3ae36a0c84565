"""tutorial.trajectory (the lesson) and watch/trajectory_strategies (three strategies, measured).

The lesson's rules are checked on small hand-made strips; the strategies on the recorded
sessions (tutorial/peers/data/trajectory) and on the README example rendered here with Qwen3's
real template and vocabulary. Slime's own samples are tests/test_trajectory_conformance.py.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutorial.errors import RequestError
from tutorial.trajectory import (
    CLEAN,
    DEVIATIONS,
    FORK,
    REALIGN,
    SampleBuilder,
    TrajectoryManager,
    TurnRecord,
    common_prefix,
    drift_kind,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tutorial" / "peers" / "data" / "trajectory" / "slime_cases.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


# ---------------------------------------------------------------------------
# The lesson, by hand


def test_drift_kinds_on_small_strips():
    held = [1, 2, 3, 10, 11]  # prompt 1 2 3, response 10 11 (starts at 3)
    assert common_prefix(held, [1, 2, 3, 10, 11, 7]) == 5
    assert drift_kind(held, 3, TurnRecord([1, 2, 3, 10, 11, 7], [5], "stop"), 1024) == CLEAN
    assert drift_kind(held, 3, TurnRecord([1, 2, 3, 12, 7], [5], "stop"), 1024) == REALIGN  # parts inside the response
    assert drift_kind(held, 3, TurnRecord([1, 2, 3, 12, 7], [5] * 4, "stop"), 4) == FORK  # new output too long
    assert drift_kind(held, 3, TurnRecord([1, 9, 3, 10, 11], [5], "stop"), 1024) == FORK  # parts before the response
    assert drift_kind([], None, TurnRecord([1], [5], "stop"), 1024) == CLEAN


def test_realign_overwrites_the_last_response_at_mask_zero():
    strip = SampleBuilder(1024)
    strip.append(TurnRecord([1, 2, 3], [10, 11], "stop", [-0.1, -0.2]), CLEAN)
    turn = TurnRecord([1, 2, 3, 12, 7], [20], "stop", [-0.3])
    assert strip.classify(turn) == REALIGN
    strip.append(turn, REALIGN)
    assert strip.tokens == [1, 2, 3, 12, 7, 20]
    assert strip.loss_mask == [0, 0, 0, 0, 0, 1]
    assert strip.log_probs == [0.0, 0.0, 0.0, 0.0, 0.0, -0.3]
    sample = strip.to_sample({"x": 1})
    assert (sample.response_length, sample.loss_mask, sample.rollout_log_probs) == (3, [0, 0, 1], [0.0, 0.0, -0.3])
    with pytest.raises(ValueError, match="fork starts a new one"):
        strip.append(turn, FORK)


def test_a_shared_turn_is_trained_once_and_the_session_is_consumed():
    manager = TrajectoryManager()
    system, user = {"role": "system", "content": "s"}, {"role": "user", "content": "q"}
    answer = {"role": "assistant", "content": "a"}
    manager.record_turn("x", turn=TurnRecord([1, 2], [3, 4], "stop"), prompt_messages=[system, user],
                        response_message=answer)  # fmt: skip
    for last, ids in (("r1", [1, 2, 3, 4, 5]), ("r2", [1, 2, 3, 4, 6])):  # two continuations of the same answer
        messages = [system, user, answer, {"role": "user", "content": last}]
        manager.record_turn("x", turn=TurnRecord(ids, [7], "length"), prompt_messages=messages, response_message=answer)
    assert manager.turn_count("x") == 3
    first, second = manager.get_trajectory("x", reward=1.5)
    assert first.loss_mask == [1, 1, 0, 1] and second.loss_mask == [0, 0, 0, 1]  # turn 1 trained on the first leaf only
    assert first.reward == second.reward == 1.5 and first.metadata["truncated"] is True
    assert manager.get_trajectory("x") == [] and not manager.has_session("x")


def test_base_sample_fields_are_carried_and_a_budget_cuts_the_tail():
    class Base:  # any object with Slime's Sample fields will do
        index, group_index, rollout_id, prompt, label = 7, 2, None, "p", "l"

    manager = TrajectoryManager()
    manager.record_turn("x", turn=TurnRecord([1, 2, 3], [4, 5, 6], "stop"),
                        prompt_messages=[{"role": "user", "content": "q"}],
                        response_message={"role": "assistant", "content": "a"})  # fmt: skip
    [sample] = manager.get_trajectory("x", Base(), max_sample_tokens=5, extra_metadata={"run": "r"})
    assert (sample.index, sample.group_index, sample.rollout_id, sample.prompt, sample.label) == (7, 2, 7, "p", "l")
    assert sample.tokens == [1, 2, 3, 4, 5] and sample.response_length == 2 and sample.loss_mask == [1, 1]
    assert sample.metadata == {"run": "r", "truncated": False, "use_tool": False, "ill_formed": False}


def test_deviations_hold():
    assert [name for name, _ in DEVIATIONS] == ["Sample", "base_sample", "bad input", "drift_log"]
    manager = TrajectoryManager()
    assert manager.fork_threshold == 1024 and TrajectoryManager(fork_threshold_tokens=None).fork_threshold == 1024
    # bad input: located errors, where Slime asserts
    with pytest.raises(RequestError) as error:
        manager.record_turn("x", turn=TurnRecord([1], [2, 3], "stop", [-0.5]), prompt_messages=[{"role": "user"}],
                            response_message=None)  # fmt: skip
    assert str(error.value) == "turn.output_log_probs: has 1 values for 2 output ids"
    with pytest.raises(RequestError, match=r"^prompt_messages\[1\]: must be a chat message"):
        manager.record_turn("x", turn=TurnRecord([1], [2], "stop"), prompt_messages=[{"role": "user"}, "hi"],
                            response_message=None)  # fmt: skip
    with pytest.raises(RequestError, match=r"^turn\.prompt_ids: must be a list of integer token ids"):
        manager.record_turn("x", turn=TurnRecord("12", [2], "stop"), prompt_messages=[], response_message=None)
    assert not manager.has_session("x")
    # base_sample optional: shown above; drift_log: the conformance test compares it with Slime's decisions


def test_an_empty_prompt_is_skipped_with_a_warning(caplog):
    manager = TrajectoryManager()
    with caplog.at_level(logging.WARNING, logger="tutorial.trajectory"):
        manager.record_turn("x", turn=TurnRecord([1], [2], "stop"), prompt_messages=[], response_message=None)
    assert "not recorded" in caplog.text and not manager.has_session("x")


def test_the_lesson_needs_nothing_but_the_standard_library():
    heavy = ("jinja2", "tokenizers", "transformers", "tutorial.watch")
    code = f"import sys, tutorial.trajectory; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------------------
# With Qwen3's real template and vocabulary


@pytest.fixture(scope="module")
def ts():
    from tutorial.llama_cpp import sdist

    if not sdist.is_fetched():
        if os.environ.get("CI"):
            pytest.fail(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}")
        pytest.skip(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}")
    from tutorial.watch import trajectory_strategies

    return trajectory_strategies


def test_the_recorded_ids_are_what_the_package_renders(ts):
    from tutorial import readme_request, translate

    tools = translate(readme_request())[1]
    for name, case in CASES.items():
        for i, turn in enumerate(case["turns"]):
            assert ts.canonical_ids(turn["prompt_messages"], tools) == turn["prompt_ids"], (name, i)
            assert ts.answer_ids(turn["response_message"]) == turn["output_ids"], (name, i)
            assert ts.tokenize(turn["output_text"]) == turn["output_ids"], (name, i)


def test_the_readme_example_is_built_as_recorded_and_loses_turn_one(ts):
    session = ts.readme_session()
    recorded = CASES["readme_two_turns"]["turns"]
    for built, kept in zip(session, recorded, strict=True):
        for key in ("prompt_messages", "response_message", "prompt_ids", "output_ids", "output_log_probs"):
            assert built[key] == kept[key], key
    [sample] = ts.slime_trajectory(session)
    assert (len(sample.tokens), sample.response_length, sum(sample.loss_mask)) == (223, 66, 10)
    # Turn 1's 31 generated tokens held positions 157..187; after the realign, those positions
    # hold the re-rendered answer (4 tokens shorter: no think block) at mask 0.
    assert len(session[0]["output_ids"]) == 31 and sample.loss_mask == [0] * 56 + [1] * 10
    assert sample.tokens[157:188] != session[0]["output_ids"]


PINNED = {  # case: {strategy: (samples, trained of generated, recomputed, canonical prompts of turns)}
    "readme_two_turns": {"slime": (1, 10, 0, 2), "never_realign": (2, 41, 157, 2), "token_in_token_out": (1, 41, 0, 1)},
    "thinking_then_new_user_text": {"slime": (1, 10, 0, 2), "never_realign": (2, 49, 157, 2), "token_in_token_out": (1, 49, 0, 1)},
    "thinking_in_tool_loop": {"slime": (1, 49, 0, 2), "never_realign": (1, 49, 0, 2), "token_in_token_out": (1, 49, 0, 2)},
    "system_edited": {"slime": (2, 41, 6, 2), "never_realign": (2, 41, 6, 2), "token_in_token_out": (2, 41, 6, 2)},
    "thinking_long_output_forks": {"slime": (2, 49, 157, 2), "never_realign": (2, 49, 157, 2), "token_in_token_out": (1, 49, 0, 1)},
    "two_branches": {"slime": (2, 20, 205, 3), "never_realign": (3, 51, 362, 3), "token_in_token_out": (2, 51, 157, 2)},
    "assistant_rewritten": {"slime": (1, 10, 0, 2), "never_realign": (2, 41, 157, 2), "token_in_token_out": (2, 41, 157, 2)},
    "tool_loop_three_turns": {"slime": (1, 10, 0, 3), "never_realign": (3, 68, 360, 3), "token_in_token_out": (1, 68, 0, 1)},
    "tool_result_with_reminder": {"slime": (1, 10, 0, 2), "never_realign": (2, 41, 157, 2), "token_in_token_out": (1, 41, 0, 1)},
}  # fmt: skip


def test_the_strategy_table(ts):
    rows = ts.strategy_table()
    assert [(row["case"], row["strategy"]) for row in rows] == [(c, s) for c in CASES for s in ts.STRATEGIES]
    for row in rows:
        assert row["generated"] == sum(len(t["output_ids"]) for t in CASES[row["case"]]["turns"])
        got = (row["samples"], row["trained"], row["recomputed"], row["canonical_prompts"])
        assert got == PINNED[row["case"]][row["strategy"]], row
        if row["strategy"] != "slime":  # the other two train every generated token
            assert row["trained"] == row["generated"]
    slime = {row["case"]: row for row in rows if row["strategy"] == "slime"}
    assert all(row["canonical_prompts"] == row["turns"] for row in slime.values())
    # Slime's samples here are the conformance test's, counted
    for name, row in slime.items():
        assert row["trained"] == sum(sum(s["loss_mask"]) for s in CASES[name]["slime"]["samples"])


def test_token_in_token_out_keeps_what_the_model_wrote(ts):
    session = ts.readme_session()
    samples, prompts = ts.run_token_in_token_out(session)
    tokenizer = ts._tokenizer("qwen3")
    text = tokenizer.decode(prompts[1], skip_special_tokens=False)
    canonical = tokenizer.decode(session[1]["prompt_ids"], skip_special_tokens=False)
    # The same prompt the template writes, except that turn 1's empty think block stays.
    opened = "<|im_start|>assistant\n"
    assert text == canonical.replace(opened + "我先读取", opened + "<think>\n\n</think>\n\n我先读取")
    assert prompts[1][:188] == session[0]["prompt_ids"] + session[0]["output_ids"]


@pytest.mark.parametrize("reminder, parted", [(False, None), (True, 2)])
def test_incremental_prompts_equal_the_full_rendering_only_while_history_renders_as_written(ts, reminder, parted):
    session, tools = ts.tool_loop(6, reminder=reminder)
    renderer = ts.IncrementalRenderer(tools)
    equal = []
    for messages, answer in session:
        ids, line = renderer.prompt(messages)
        assert line == (None if not renderer.lines else len(renderer.lines) - 1)
        equal.append(ids == ts.canonical_ids(messages, tools))
        renderer.record(messages, ids, answer, ts.answer_ids(answer))
    first_parted = next((turn for turn, same in enumerate(equal, 1) if not same), None)
    assert first_parted == parted
    if reminder:
        assert equal == [True] + [False] * 5


def test_the_recorded_prompts_equal_transformers_apply_chat_template(ts):
    if sys.version_info >= (3, 15):
        pytest.skip("transformers is not part of the real extra on Python 3.15")
    from tutorial import readme_request, translate
    from tutorial.watch.families import family
    from tutorial.watch.tokenizer import fast_tokenizer

    tokenizer = fast_tokenizer("qwen3", chat_template=family("qwen3").template_text)
    tools = translate(readme_request())[1]
    for turn in CASES["readme_two_turns"]["turns"]:
        messages = turn["prompt_messages"]
        ids = tokenizer.apply_chat_template(messages, tools=tools, tokenize=True, add_generation_prompt=True)
        ids = ids["input_ids"] if isinstance(ids, dict) or hasattr(ids, "keys") else ids
        assert list(ids) == turn["prompt_ids"]


def test_a_long_session_is_one_sample_and_old_logs_are_let_go():
    # 700 clean turns: a tree 2,100 messages deep (past the recursion limit), one strip.
    manager = TrajectoryManager()
    messages, held = [{"role": "user", "content": "q"}], [1]
    for turn in range(700):
        answer = {"role": "assistant", "content": str(turn)}
        manager.record_turn("long", turn=TurnRecord(list(held), [2, 3], "stop"), prompt_messages=list(messages),
                            response_message=answer)  # fmt: skip
        messages += [answer, {"role": "tool", "content": "r"}, {"role": "user", "content": "go on"}]
        held += [2, 3, 4]
    [sample] = manager.get_trajectory("long")
    assert sum(sample.loss_mask) == 1400 and len(sample.tokens) == 1 + 700 * 3 - 1
    for sid in range(TrajectoryManager.KEPT_LOGS + 1):
        manager.get_trajectory(str(sid))
    assert manager.drift_log("long") == [] and manager.drift_log("0") == [] and len(manager._logs) == 256


def test_the_trajectory_command_speaks_chinese_when_asked(tmp_path):
    """`trajectory --lang zh`: its help (argparse's own words included) and its errors in Chinese,
    a missing file said as every other command says it."""

    def run(*arguments):
        return subprocess.run([sys.executable, "-m", "tutorial", *arguments], capture_output=True, text=True,
                              encoding="utf-8", env={"PATH": "", "TUTORIAL_LANG": "en"})

    shown = run("trajectory", "--lang", "zh", "--help")
    assert shown.returncode == 0 and shown.stdout.startswith("用法：") and "捕获文件" in shown.stdout, shown.stdout
    assert "positional arguments" not in shown.stdout and "show this help" not in shown.stdout
    missing = run("--lang", "zh", "trajectory", str(tmp_path / "nothing.jsonl"))
    assert missing.returncode == 2 and "无法读取" in missing.stderr and "没有这个文件或目录" in missing.stderr, missing.stderr
    assert "Errno" not in missing.stderr
    (tmp_path / "other.jsonl").write_text('{"id": "c1"}\n', encoding="utf-8")
    none = run("trajectory", str(tmp_path / "other.jsonl"), "--lang", "zh")
    assert none.returncode == 2 and "没有 token 路径" in none.stderr, none.stderr
    english = run("trajectory", str(tmp_path / "nothing.jsonl"))
    assert "No such file or directory" in english.stderr and "无法" not in english.stderr


def test_a_capture_file_that_is_not_json_is_said_as_translate_says_it(tmp_path):
    """Truncated JSON, bytes that are not UTF-8 and a JSON Lines line that is no object: the same
    sentences `translate` prints for such text (tutorial/cli/words.py), in either language; no
    Python English under Chinese, the path once, and the option's metavars and errors Chinese."""

    def run(*arguments):
        return subprocess.run([sys.executable, "-m", "tutorial", *arguments], capture_output=True, text=True,
                              encoding="utf-8", env={"PATH": "", "TUTORIAL_LANG": "en"}, cwd=tmp_path)  # fmt: skip

    (tmp_path / "cut.json").write_text('{"id": "c1", "tokens" {}}', encoding="utf-8")
    (tmp_path / "bytes.json").write_bytes(b"\xff{}")
    (tmp_path / "mixed.jsonl").write_text('{"id": "c1"}\n[1, 2]\n', encoding="utf-8")
    (tmp_path / "open.jsonl").write_text('{"id": "c1"}\n{"id": [1, 2}\n', encoding="utf-8")
    chinese = {
        "cut.json": "错误：cut.json 不是有效的 JSON（第 1 行第 23 列），这里缺少冒号“:”\n",
        "bytes.json": "错误：bytes.json 不是 UTF-8 文本（偏移 0 处无法解码）\n",
        "mixed.jsonl": "错误：mixed.jsonl 第 2 行不是 JSON 对象\n",
        "open.jsonl": "错误：open.jsonl 不是有效的 JSON Lines（第 2 行第 13 列），这个“}”不能闭合从第 2 行第 8 列开始的列表，前面缺少“]”\n",
    }
    english = {
        "cut.json": "error: cut.json is not valid JSON: Expecting ':' delimiter at line 1, column 23\n",
        "bytes.json": "error: bytes.json is not UTF-8: invalid start byte at byte 0\n",
        "mixed.jsonl": "error: mixed.jsonl, line 2: not a JSON object\n",
        "open.jsonl": "error: open.jsonl is not valid JSON Lines at line 2, column 13: this '}' cannot close the list"
                      " that begins at line 2, column 8: a ']' is missing before it\n",
    }  # fmt: skip
    for name in chinese:
        said = run("--lang", "zh", "trajectory", name)
        assert (said.returncode, said.stderr) == (2, chinese[name]), said.stderr
        said = run("trajectory", name)
        assert (said.returncode, said.stderr) == (2, english[name]), said.stderr
    from tutorial.cli.words import text_problem  # translate's own words for the same text
    from tutorial.words import using

    with using("zh"):
        assert "错误：" + text_problem((tmp_path / "cut.json").read_bytes(), "cut.json") + "\n" == chinese["cut.json"]
        assert "错误：" + text_problem(b"\xff{}", "bytes.json") + "\n" == chinese["bytes.json"]
    number = run("--lang", "zh", "trajectory", "cut.json", "--fork-threshold", "abc")
    assert number.stderr.endswith("错误：--fork-threshold 的值 'abc' 不是整数\n") and "token 数" in number.stderr, number.stderr
    assert "invalid int value: 'abc'" in run("trajectory", "cut.json", "--fork-threshold", "abc").stderr
    nothing = run("--lang", "zh", "trajectory")
    assert nothing.stderr.endswith("错误：缺少必需的参数 捕获文件\n") and "CAPTURES" not in nothing.stderr, nothing.stderr


def test_argparse_errors_under_chinese_name_the_option_once_and_list_with_the_enumeration_comma():
    def run(*arguments):
        return subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", *arguments], capture_output=True,
                              text=True, encoding="utf-8", env={"PATH": "", "TUTORIAL_LANG": "en"})  # fmt: skip

    target = run("translate", "--target", "foo")
    assert target.stderr.splitlines()[-1] == "错误：--target 不能取 'foo'，可选的值有 'chat_template'、'openai'"
    command = run("trnslate")
    assert command.stderr.splitlines()[-1] == (
        "错误：没有 'trnslate' 这个子命令，可选的有 walk、translate、grade、serve、trajectory、drift、doctor")
    assert "报错" not in target.stderr + command.stderr and "{walk," not in command.stderr.splitlines()[-1]
    assert run("serve", "--port", "abc").stderr.splitlines()[-1] == "错误：--port 的值 'abc' 不是整数"
    assert run("serve", "--timeout", "x").stderr.splitlines()[-1] == "错误：--timeout 的值 'x' 不是数字"
