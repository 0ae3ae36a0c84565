"""Chapter 06 (check yourself): its exercises answer what the walk-through asks, accept every
right spelling, say where a wrong answer differs, and can be answered without typing Chinese.
`selfcheck`, the older entry point, gives the same verdicts."""

from __future__ import annotations

import pytest

from tutorial.notebook import exercises as ex
from tutorial.notebook import selfcheck
from tutorial.notebook.exercises.ch06 import REQUESTS

CHAPTER = {key: exercise for key, exercise in ex.all_exercises().items() if key.startswith("06.")}
PREDICTIONS = ["image", "string_system", "two_text_blocks", "two_tool_calls"]


def test_the_three_questions_and_four_predictions_are_there():
    assert sorted(CHAPTER) == sorted(
        ["06.paths", "06.why_apart", "06.why_split", "06.receiver", "06.http", *(f"06.{name}" for name in PREDICTIONS)]
    )
    assert sorted(selfcheck.exercises()) == PREDICTIONS


@pytest.mark.parametrize("key", [k for k, e in CHAPTER.items() if e.choices])
def test_multiple_choice_is_fair(key):
    exercise = CHAPTER[key]
    right = exercise.expected()
    lengths = {letter: len(text) for letter, text in exercise.choices.items()}
    assert max(lengths, key=lengths.get) != right, "the right option must not be the longest one"
    assert max(lengths.values()) - min(lengths.values()) < 20, "options of very different lengths give the answer away"
    verdicts = {letter: repr(ex.check(key, letter)) for letter in exercise.choices if letter != right}
    assert all(v.startswith("✗") for v in verdicts.values())
    assert len(set(verdicts.values())) == len(verdicts), "each wrong option needs its own feedback"


@pytest.mark.parametrize(
    "spelling", ["BaseAdapter._run_turn", "_run_turn", "run_turn", "AnthropicAdapter._run_turn", "self._run_turn()", " _run_turn() "]
)
def test_every_name_of_the_inherited_method_is_right(spelling):
    assert ex.check("06.receiver", spelling).ok


@pytest.mark.parametrize("wrong", ["_render_token_ids", "AnthropicAdapter._translate", "", 3])
def test_other_methods_are_not(wrong):
    assert not ex.check("06.receiver", wrong).ok


def test_function_names_with_or_without_the_underscore():
    for answer in [
        {"messages": "translate_messages", "tools": "tools_to_chat_tools"},
        {"messages": "_translate_messages", "tools": "_tools_to_chat_tools()"},
        {"messages": "chat_template_messages", "tools": "chat_template_tools"},
    ]:
        assert ex.check("06.paths", answer).ok, answer
    assert "tool_call_dict is called inside the messages path" in repr(ex.check("06.paths", {"messages": "translate_messages", "tools": "tool_call_dict"}))
    # A wrong answer no named mistake covers is told where it differs, never at the right half.
    verdict = repr(ex.check("06.paths", {"messages": "_translate_messages", "tools": "render"}))
    assert '["tools"]' in verdict and '["messages"]' not in verdict, verdict


def test_predictions_can_be_answered_by_reference():
    body = REQUESTS["image"]
    by_reference = [
        {"role": "user", "content": body["messages"][0]["content"][0]["text"]},
        {"role": "user", "content": "[image omitted]"},
    ]
    assert ex.check("06.image", by_reference).ok
    tools = REQUESTS["two_tool_calls"]["messages"][1]["content"]
    calls = [{"type": "function", "function": {"name": b["name"], "arguments": b["input"]}} for b in tools]
    answer = [{"role": "user", "content": REQUESTS["two_tool_calls"]["messages"][0]["content"]}, {"role": "assistant", "content": "", "tool_calls": calls}]
    assert ex.check("06.two_tool_calls", answer).ok


def test_a_wrong_prediction_names_the_place_that_differs():
    body = REQUESTS["image"]
    verdict = repr(ex.check("06.image", [{"role": "user", "content": body["messages"][0]["content"][0]["text"]}, {"role": "user", "content": "<image>"}]))
    assert verdict.startswith("✗") and '[1]["content"]' in verdict
    right = ex.get("06.image").expected()
    assert "count again" in repr(ex.check("06.image", [*right, {"role": "user", "content": "x"}]))


def test_selfcheck_gives_the_same_verdicts():
    for name in PREDICTIONS:
        right = ex.get(f"06.{name}").expected()
        assert selfcheck.predict(name, right).ok
        assert repr(selfcheck.predict(name, ex.get(f"06.{name}").wrong)) == repr(ex.check(f"06.{name}", ex.get(f"06.{name}").wrong))
    assert selfcheck.answer(1, {"messages": "_translate_messages", "tools": "_tools_to_chat_tools", "why": "C"}).ok
    assert "tool_call_dict" in repr(selfcheck.answer(1, {"messages": "translate_messages", "tools": "tool_call_dict", "why": "c"}))
    assert selfcheck.answer(2, "d").ok and not selfcheck.answer(2, "b").ok
    assert selfcheck.answer(3, {"receiver": "_run_turn", "http_request": False}).ok
    assert not selfcheck.answer(3, {"receiver": "BaseAdapter._run_turn", "http_request": True}).ok
    assert repr(selfcheck.answer(3, ...)).startswith("…")


def test_hints_and_solutions_exist_for_everything():
    for key in [1, 2, 3, *PREDICTIONS]:
        assert selfcheck.hint(key)
        assert selfcheck.solution(key).startswith("answer")
