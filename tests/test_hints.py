"""Hints fire only for the mistake they describe (issue 28).

A table of wrong answers invented for the exercise bank, none of them written while the hints
were: for each, the kind of verdict it must get — a named mistake's own hint, a type slip, the
first place that really differs (in the learner's notation for a place), a count, an item of a
collection — checked in English and in Chinese. A verdict that is not a named mistake's must not
carry any named mistake's hint, and a Chinese verdict is Chinese sentences around the code.
"""

from __future__ import annotations

import re

import pytest

from tutorial.notebook.exercises import MESSAGES, _verdict, get, kind_text, python_literal
from in_language import hint_in, set_language, text_in


# (exercise, wrong answer, the verdict it must get):
#   ("mistake", i)            the i-th named mistake's hint
#   ("type", kind)            "answer with <kind>, not <what was given>" (and the form asked, for text, lists, dicts)
#   ("form",)                 "answer with <the exercise's form>": the answer is not written as asked
#   ("item_form", item)       an item of a collection not written as asked, and the form
#   ("differs", place, note)  the first place that differs ("" = the top) and how
#   ("count", place, n)       a list of n items where another count is right
#   ("place", written)        a place that parts from the right one at `written`, as the learner wrote it
#   ("past", written)         a place that goes on past the right one after `written`
#   ("extra_item",) ("missing_item",) ("close_item",)   a collection whose order does not matter
#   ("hint",)                 nothing to point at: the exercise's general hint only
#   ("right",)                another notation of the right answer
# What a Chinese verdict may hold in Latin letters: code in backticks and quoted values.
CODE_OR_QUOTED = re.compile("`[^`]*`" + "|'[^']*'" + '|"[^"]*"')

INVENTED = [
    ('01.error_place', 'messages[3].content[0].tool_use_id', ('place', 'messages[3]')),
    ('01.error_place', 'messages[2].content[1].tool_use_id', ('place', 'messages[2].content[1]')),
    ('01.error_place', '/messages/2/content/0/tool_use_id', ('right',)),
    ('01.error_place', '/messages/3/content/0/tool_use_id', ('place', '/messages/3')),
    ('01.error_place', 'messages[2].content[0].id', ('place', 'messages[2].content[0].id')),
    ('01.error_place', ('messages', 2, 'content', 0, 'tool_use_id'), ('right',)),
    ('01.error_place', 'messages.2.content.0.tool_use_id', ('right',)),
    ('01.error_place', 'content[0].tool_use_id', ('place', 'content')),
    ('01.error_place', 'messages[2].content[0].tool_use_id.value', ('past', 'messages[2].content[0].tool_use_id')),
    ('01.error_place', 2, ('type', 'str')),
    ('01.preprocess_readme', 'True', ('type', 'bool')),
    ('01.preprocess_readme', 1, ('type', 'bool')),
    ('01.preprocess_readme', 'yes', ('type', 'bool')),
    ('02.count', 4, ('mistake', 0)),
    ('02.count', 6, ('mistake', 2)),
    ('02.count', '5', ('type', 'int')),
    ('02.count', 5.0, ('type', 'int')),
    ('02.first_user_flatten', 'no', ('type', 'bool')),
    ('02.first_user_flatten', 0, ('type', 'bool')),
    ('02.split_roles', ['tool'], ('count', '', 1)),
    ('02.split_roles', ['user', 'tool', 'user'], ('differs', '[0]', 'value')),
    ('02.split_roles', ['Tool', 'user'], ('differs', '[0]', 'close')),
    ('02.split_roles', 'tool, user', ('type', 'list')),
    ('02.system_message', {'role': 'developer', 'content': '你是代码助手。'}, ('differs', '["role"]', 'value')),
    ('02.system_message', {'role': 'System', 'content': '你是代码助手。'}, ('differs', '["role"]', 'close')),
    ('02.system_message', {'role': 'system', 'content': '你是代码助手'}, ('differs', '["content"]', 'value')),
    ('02.system_message', {'role': 'system', 'content': ' 你是代码助手。'}, ('differs', '["content"]', 'close')),
    ('02.system_message', {'role': 'system'}, ('differs', '', 'missing_key', "'content'")),
    ('02.system_message', {'role': 'system', 'content': '你是代码助手。', 'name': 'system'}, ('differs', '["name"]', 'extra_key')),
    ('02.system_message', '你是代码助手。', ('type', 'dict')),
    ('02.tool_call', {'type': 'function', 'function': {'name': 'read_file', 'arguments': '{"path": "README.md"}'}}, ('mistake', 1)),
    ('02.tool_call', {'type': 'function', 'function': {'name': 'read_file', 'arguments': {'path': 'readme.md'}}}, ('differs', '["function"]["arguments"]["path"]', 'close')),
    ('02.tool_call', {'type': 'function', 'function': {'name': 'read_file'}}, ('differs', '["function"]', 'missing_key', "'arguments'")),
    ('02.tool_call', {'function': {'name': 'read_file', 'arguments': {'path': 'README.md'}}}, ('differs', '', 'missing_key', "'type'")),
    ('03.no_tools', 0, ('mistake', 3)),
    ('03.no_tools', '', ('mistake', 3)),
    ('03.no_tools', {}, ('mistake', 1)),
    ('03.no_tools', [None], ('hint',)),
    ('03.no_tools', 'nothing', ('hint',)),
    ('03.no_tools', 'null', ('mistake', 2)),
    ('03.schema', [], ('count', '', 0)),
    ('03.schema', None, ('type', 'list')),
    ('04.losses', ['max_tokens'], ('mistake', 1)),
    ('04.losses', ['messages[1].content[1].id', 'max_tokens'], ('missing_item',)),
    ('04.losses', ['messages[1].content[1].id', 'messages[2].content[0].tool_use_id', 'max_tokens', 'system'], ('mistake', 2)),
    ('04.losses', 'max_tokens', ('type', 'list')),
    ('04.losses', ['/messages/1/content/1/id', '/messages/2/content/0/tool_use_id', '/max_tokens'], ('right',)),
    ('04.losses', ['messages [1].content[1].id', 'body["max_tokens"]', 'messages[2].content[0].tool_use_id'], ('right',)),
    ('06.http', 'False', ('type', 'bool')),
    ('06.http', 0, ('type', 'bool')),
    ('06.image', [{'role': 'user', 'content': '这张图里有什么？'}], ('mistake', 0)),
    ('06.image', [{'role': 'user', 'content': '这张图里有什么？'}, {'role': 'user', 'content': '[image]'}], ('differs', '[1]["content"]', 'value')),
    ('06.paths', {'messages': 'translate_messages'}, ('differs', '', 'missing_key', "'tools'")),
    ('06.paths', {'messages': 'flatten_content', 'tools': 'tools_to_chat_tools'}, ('mistake', 1)),
    ('06.receiver', 'run_turn', ('right',)),
    ('06.receiver', 'adapter', ('hint',)),
    ('06.string_system', [{'role': 'user', 'content': '你好'}], ('mistake', 0)),
    ('06.string_system', [{'role': 'system', 'content': '回答要简短。'}, {'role': 'user', 'content': '你好'}, {'role': 'assistant', 'content': ''}], ('count', '', 3)),
    ('06.two_text_blocks', [{'role': 'user', 'content': '第一段第二段'}], ('mistake', 0)),
    ('06.two_text_blocks', [{'role': 'user', 'content': '第二段'}, {'role': 'user', 'content': '第一段'}], ('differs', '[0]["content"]', 'value')),
    ('07.rename', 1, ('mistake', 0)),
    ('07.rename', '2', ('type', 'int')),
    ('08.case_a', {'schema': False, 'text before': True}, ('differs', '', 'missing_key', "'text after'")),
    ('08.case_a', {'schema': 'no', 'text before': True, 'text after': True}, ('differs', '["schema"]', 'kind_there')),
    ('08.case_c', ['schema', 'text before', 'text after'], ('mistake', 0)),
    ('08.case_c', ['text before', 'text after'], ('mistake', 1)),
    ('08.extra_keys', ['id'], ('mistake', 0)),
    ('08.extra_keys', ['id', 'tool_call_id', 'name'], ('extra_item',)),
    ('08.extra_keys', ['ID', 'tool_call_id'], ('close_item',)),
    ('08.losses', {'chat_template': 2, 'openai': 1}, ('differs', '["chat_template"]', 'value')),
    ('08.losses', {'chat_template': 3}, ('differs', '', 'missing_key', "'openai'")),
    ('08.split', 1, ('mistake', 0)),
    ('08.split', 4, ('hint',)),
    ('09.events', 11, ('mistake', 1)),
    ('09.events', '12', ('type', 'int')),
    ('09.out_of_order', 'b.md', ('mistake', 0)),
    ('09.out_of_order', 'A.md', ('differs', '', 'close')),
    ('09.parts', ['text', 'image', 'document'], ('differs', '[2]', 'value')),
    ('09.parts', ['text'], ('count', '', 1)),
    ('09.reply', {'order': ['text', 'thinking', 'tool_use'], 'stop_reason': 'tool_use'}, ('mistake', 1)),
    ('09.reply', {'order': ['thinking', 'text', 'tool_use'], 'stop_reason': 'end_turn'}, ('mistake', 0)),
    ('10.is_error', None, ('type', 'bool')),
    ('10.reference', 2, ('mistake', 1)),
    ('10.rules', 4, ('hint',)),
    ('10.system_join', None, ('mistake', 2)),
    ('10.system_join', ' ', ('mistake', 1)),
    ('11.cc_reach', ['messages', 'tools'], ('mistake', 1)),
    ('11.cc_reach', ['messages', 'system', 'tools', 'model'], ('mistake', 2)),
    ('11.cc_roles', ['system', 'user', 'user'], ('mistake', 1)),
    ('11.cc_roles', ['system', 'user', 'system', 'user'], ('differs', '[2]', 'value')),
    # Issue 36: hints that said something was right when it was not, and notations turned away.
    ('09.reply', {'order': ['text', 'tool_use', 'thinking'], 'stop_reason': 'end_turn'}, ('differs', '["order"][0]', 'value')),
    ('09.reply', {'order': ['text', 'thinking', 'tool_use'], 'stop_reason': 'max_tokens'}, ('differs', '["order"][0]', 'value')),
    ('09.reply', {'order': ['thinking', 'tool_use', 'text'], 'stop_reason': 'end_turn'}, ('differs', '["order"][1]', 'value')),
    ('06.string_system', [{'role': 'user', 'content': '你好'}, {'role': 'system', 'content': '回答要详细。'}], ('differs', '[0]["role"]', 'value')),
    ('06.string_system', [{'role': 'user', 'content': '你好'}, {'role': 'system', 'content': '回答要简短。'}], ('mistake', 2)),
    ('06.two_text_blocks', [{'role': 'user', 'content': '第一段'}], ('count', '', 1)),
    ('06.two_text_blocks', [{'role': 'user', 'content': '第二段'}], ('differs', '[0]["content"]', 'value')),
    ('06.two_text_blocks', [{'role': 'user', 'content': '第一段 第二段'}], ('mistake', 0)),
    ('04.losses', [('messages', 1, 'content', 1, 'id'), ('messages', 2, 'content', 0, 'tool_use_id'), ('max_tokens',)], ('right',)),
    ('04.losses', ['messages.1.content.1.id', ('messages', 2, 'content', 0, 'tool_use_id'), 'body["max_tokens"]'], ('right',)),
    ('04.losses', [('messages', 1, 'content', 1, 'id'), ('messages', 2, 'content', 0, 'tool_use_id')], ('mistake', 0)),
    ('04.losses', ['messages 1 content 1 id', 'max_tokens', 'messages[2].content[0].tool_use_id'], ('item_form', 'messages 1 content 1 id')),
    ('09.out_of_order', 'a', ('form',)),
    ('09.out_of_order', 'A', ('form',)),
    ('07.rename', [1], ('type', 'int')),
    ('07.rename', True, ('type', 'int')),
    ('08.split', 2.0, ('type', 'int')),
    ('08.split', {'runs': 2}, ('type', 'int')),
    ('01.error_place', 'messages[2]content[0]tool_use_id', ('form',)),
]

# The kind of value a learner gave, as a verdict names it after "not".
GIVEN = {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "list", dict: "dict", type(None): "none"}


@pytest.fixture(autouse=True)
def _language_back():
    yield
    set_language(None)


def _expected(key: str, answer, kind: tuple, lang: str) -> str:
    """The verdict the table says `answer` must get, written in `lang`."""
    exercise, text = get(key), MESSAGES[lang]
    hint = text_in(lang, exercise, "hint")
    what = kind[0]
    if what == "right":
        return "✓ " + text["right"].format(explanation=text_in(lang, exercise, "explanation"))
    if what == "mistake":
        return "✗ " + text["mistake"].format(hint=hint_in(lang, exercise.mistakes[kind[1]]))
    if what == "type":
        form = text_in(lang, exercise, "form") if exercise.form and kind[1] in ("str", "list", "dict") else ""
        given = text["given"][GIVEN[type(answer)]]  # the form, when there is one, names the kind itself
        return "✗ " + text["type"].format(kind=form or kind_text(text, kind[1], exercise.expected()), given=given, hint=hint)
    if what == "form":
        return "✗ " + text["form_wanted"].format(form=text_in(lang, exercise, "form"), hint=hint)
    if what in ("place", "past"):
        return "✗ " + text["place_differs" if what == "place" else "place_long"].format(written=kind[1], hint=hint)
    if what in ("differs", "count"):
        item, key = re.fullmatch(r"\[(\d+)\]", kind[1] or ""), re.fullmatch(r'\["([^"]+)"\]', kind[1] or "")
        if item:  # one step in: the item counted from 1, the key by its name
            place = text["item_there"].format(place=kind[1], number=int(item[1]) + 1)
        elif key:
            place = text["key_there"].format(place=kind[1], key=repr(key[1]))
        else:
            place = text["where"].format(place=kind[1]) if kind[1] else text["at_top"]
        if what == "count":
            detail = text["count_one" if kind[2] == 1 else "count"].format(count=kind[2])
        else:
            detail = text[kind[2]] if kind[2] != "value" else text["value"]
            if kind[2] == "missing_key":  # zh review 4, finding 24: the missing key named
                detail = detail.format(keys=kind[3])
        return "✗ " + text["differs"].format(place=place, detail=detail, hint=hint)
    if what == "item_form":
        sentence = text["item_form"].format(item=python_literal(kind[1]), form=text_in(lang, exercise, "form"))
        return "✗ " + text["collection"].format(sentence=sentence, hint=hint)
    if what == "hint":
        return "✗ " + text["wrong"].format(hint=hint)
    return "✗ not yet"  # collections: checked by their sentence below


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key, answer, kind", INVENTED, ids=[f"{k}={a!r}"[:60] for k, a, _ in INVENTED])
def test_an_invented_wrong_answer_gets_the_verdict_meant_for_it(key, answer, kind, lang):
    set_language(lang)
    verdict = repr(_verdict(key, answer))
    exercise = get(key)
    if kind[0] in ("extra_item", "missing_item", "close_item"):
        sentence = MESSAGES[lang][kind[0]].split("{item}")[-1].strip()
        assert sentence in verdict and text_in(lang, exercise, "hint") in verdict, verdict
    else:
        assert verdict == _expected(key, answer, kind, lang), verdict
    if kind[0] != "mistake":  # no named mistake's hint on an answer it was not written for
        for mistake in exercise.mistakes:
            assert hint_in(lang, mistake) not in verdict, (mistake.hint, verdict)
    if lang == "zh":
        words = re.sub(CODE_OR_QUOTED, "", verdict)
        assert not re.search(r"\b(not yet|your|answer|the|with|differs|count)\b", words), verdict


def test_the_table_is_as_big_as_promised_and_spans_the_bank():
    assert len(INVENTED) >= 70
    assert len({key.split(".")[0] for key, _, _ in INVENTED}) >= 10


@pytest.mark.parametrize("answer, said", [
    ("messages[3].content[0].tool_use_id", "messages[3]"),
    ("/messages/2/content/1/tool_use_id", "/messages/2/content/1"),
    (("messages", 1, "content", 0, "tool_use_id"), "('messages', 1)"),
    ('body["messages"][4]', 'body["messages"][4]'),
])
def test_a_wrong_place_is_answered_in_the_learners_own_notation(answer, said):
    for lang in ("en", "zh"):
        set_language(lang)
        verdict = repr(_verdict("01.error_place", answer))
        assert said in verdict and "one step deeper" not in verdict and "再深一层" not in verdict, verdict


def test_the_issues_misfires_are_gone():
    set_language("en")
    said = {answer: repr(_verdict(key, answer)) for key, answer in [
        ("01.error_place", "/messages/2/content/0/tool_use_id"),
    ]}
    assert all(verdict.startswith("✓") for verdict in said.values()), said  # a JSON pointer names the same place
    for answer in (0, "", {}):
        verdict = repr(_verdict("03.no_tools", answer))
        assert "not with a container" not in verdict and "Not an empty list" not in verdict, verdict
    for role in ("developer", "System"):
        verdict = repr(_verdict("02.system_message", {"role": role, "content": "你是代码助手。"}))
        assert "user turn" not in verdict and '["role"]' in verdict, verdict
    assert "(1 item; count again)" in repr(_verdict("02.split_roles", ["tool"]))
    assert "(3 items; count again)" in repr(_verdict("02.split_roles", ["tool", "user", "user"]))


# What a hint may say the answer has right, in the words of the bank's hints.
PRAISE = re.compile(r"\b(is|are) right\b|^Right\b|\bare there\b|\bis one of them\b|对了|都对|都在|是对的")


def test_a_hint_that_praises_part_of_an_answer_checks_that_part():
    """A mistake recognised by a rule (`matches`) whose hint says something is right declares
    what (`Mistake.right`), so that a wrong answer the rule also catches never hears it praised;
    and the mistake's own example answer has those parts right."""
    from tutorial.notebook.exercises import all_exercises

    unchecked = []
    for key, exercise in all_exercises().items():
        for number, mistake in enumerate(exercise.mistakes):
            if mistake.matches and PRAISE.search(mistake.hint) and not mistake.right:
                unchecked.append(f"{key} mistake {number}: {mistake.hint[:50]}")
            if mistake.right:
                assert mistake.holds(mistake.answer, exercise.expected(), exercise.spelling), (key, number)
    assert not unchecked, unchecked


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_integer_answered_with_another_kind_is_told_what_it_was_given(lang):
    set_language(lang)
    for answer, given in (([1], ("a list", "列表")), (True, ("True or False", "布尔值")), (2.0, ("a decimal point", "小数点"))):
        verdict = repr(_verdict("07.rename", answer))
        assert "not text" not in verdict and "不是文本" not in verdict, verdict
        assert given[lang == "zh"] in verdict, verdict
