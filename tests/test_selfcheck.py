"""The self-check chapter: every stored solution gets a ✓ from the verdict the learner sees,
and wrong or missing answers get a helpful ✗."""

from __future__ import annotations

import json

import pytest

from tutorial.notebook import selfcheck

EXERCISES = sorted(selfcheck.exercises())


def test_the_material_exercises_are_all_there():
    assert EXERCISES == ["image", "string_system", "two_text_blocks", "two_tool_calls"]


@pytest.mark.parametrize("name", EXERCISES)
def test_each_solution_passes_its_verdict(name):
    verdict = selfcheck.predict(name, json.loads(selfcheck.solution(name)))
    assert verdict.ok, verdict
    assert repr(verdict).startswith("✓")


@pytest.mark.parametrize("number", [1, 2, 3])
def test_each_question_solution_passes(number):
    assert selfcheck.answer(number, json.loads(selfcheck.solution(number))).ok


def test_unanswered_and_wrong_answers_are_explained():
    assert repr(selfcheck.predict("image", ...)).startswith("✗ not answered yet")
    assert "2 messages" in repr(selfcheck.predict("image", [{"role": "user", "content": "这张图里有什么？"}]))
    assert "message 1 differs" in repr(selfcheck.predict("image", [{"role": "user", "content": "这张图里有什么？"}, {"role": "user", "content": "<image>"}]))
    assert not selfcheck.answer(2, "b")
    assert "'tools'" in repr(selfcheck.answer(1, {"messages": "translate_messages", "tools": "flatten_content", "why": "b"}))
    assert selfcheck.answer(1, {"messages": "_translate_messages", "tools": "_tools_to_chat_tools", "why": "B"}).ok
    assert "http_request" in repr(selfcheck.answer(3, {"receiver": "BaseAdapter._run_turn", "http_request": True}))


def test_hints_exist_for_everything():
    for key in [1, 2, 3, *EXERCISES]:
        assert selfcheck.hint(key)
