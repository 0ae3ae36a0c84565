"""preprocess (mid-list system messages) and trace (steps, losses, what produced what)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutorial import preprocess, trace, translate
from tutorial.watch import losses
from tutorial.words import using

REMINDER = "<system-reminder>\n{}\n</system-reminder>\n"


def reminder(text):
    return {"type": "text", "text": REMINDER.format(text)}


def test_readme_example_is_unchanged_by_preprocess(readme):
    folded = preprocess(readme)
    assert folded == readme and folded is not readme


def test_mid_list_system_joins_the_nearest_user_message_before_it():
    body = {"messages": [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi"},
        {"role": "system", "content": "skills changed"},
        {"role": "user", "content": [{"type": "text", "text": "next"}]},
    ]}  # fmt: skip
    assert preprocess(body)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "hello"}, reminder("skills changed")]},
        {"role": "assistant", "content": "hi"},
        {"role": "user", "content": [{"type": "text", "text": "next"}]},
    ]


def test_two_reminders_keep_their_order():
    body = {"messages": [{"role": "user", "content": "u"}, {"role": "system", "content": "one"}, {"role": "system", "content": [{"type": "text", "text": "two"}]}]}
    assert preprocess(body)["messages"] == [{"role": "user", "content": [{"type": "text", "text": "u"}, reminder("one"), reminder("two")]}]


def test_without_a_user_before_it_goes_to_the_next_user_message():
    body = {"messages": [{"role": "assistant", "content": "a"}, {"role": "system", "content": "r"}, {"role": "user", "content": "u"}]}
    assert preprocess(body)["messages"] == [
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": [reminder("r"), {"type": "text", "text": "u"}]},
    ]


def test_without_any_user_message_it_becomes_one():
    body = {"messages": [{"role": "assistant", "content": "a"}, {"role": "system", "content": "r"}]}
    assert preprocess(body)["messages"] == [{"role": "assistant", "content": "a"}, {"role": "user", "content": [reminder("r")]}]


def test_without_any_user_message_each_reminder_stays_in_its_place():
    body = {"messages": [{"role": "assistant", "content": "x"}, {"role": "system", "content": "r1"},
                         {"role": "assistant", "content": "y"}, {"role": "system", "content": "r2"}]}  # fmt: skip
    assert preprocess(body)["messages"] == [
        {"role": "assistant", "content": "x"},
        {"role": "user", "content": [reminder("r1")]},
        {"role": "assistant", "content": "y"},
        {"role": "user", "content": [reminder("r2")]},
    ]


def test_reminders_before_the_first_user_message_keep_their_order():
    body = {"messages": [{"role": "assistant", "content": "a"}, {"role": "system", "content": "one"},
                         {"role": "system", "content": "two"}, {"role": "user", "content": "u"}]}  # fmt: skip
    assert preprocess(body)["messages"] == [
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": [reminder("one"), reminder("two"), {"type": "text", "text": "u"}]},
    ]


def test_a_leading_system_message_is_not_folded():
    body = {"messages": [{"role": "system", "content": "first"}, {"role": "user", "content": "u"}]}
    assert preprocess(body) == body
    assert translate(body)[0] == [{"role": "system", "content": "first"}, {"role": "user", "content": "u"}]


def test_readme_trace_steps_are_the_brief_stages(readme, brief_translated, brief_tools_schema):
    t = trace(readme)
    assert [(s.name, s.path) for s in t.steps] == [
        ("flatten_content", "system"),
        ("tool_call_dict", "messages[1].content[1]"),
        ("flatten_content", "messages[2].content[0].content"),
        ("translate_messages", "body"),
        ("tools_to_chat_tools", "tools"),
    ]
    system, call, result, messages, tools = t.steps
    assert system.input == readme["system"] and system.output == "你是代码助手。"
    assert call.input == {"name": "read_file", "arguments": {"path": "README.md"}}
    assert call.output == {"type": "function", "function": {"name": "read_file", "arguments": {"path": "README.md"}}}
    assert result.input == readme["messages"][2]["content"][0]["content"] and result.output == "# Demo\n这是一个学习项目。"
    assert messages.output == brief_translated and tools.output == brief_tools_schema
    assert t.translated == brief_translated and t.tools_schema == brief_tools_schema


def test_readme_losses_for_each_target(readme):
    chat = trace(readme).losses
    assert [(loss.path, loss.value) for loss in chat] == [
        ("messages[1].content[1].id", "toolu_demo"),
        ("messages[2].content[0].tool_use_id", "toolu_demo"),
        ("max_tokens", 128),
    ]
    assert all(loss.reason for loss in chat)
    assert [(loss.path, loss.value) for loss in trace(readme, target="openai").losses] == [("max_tokens", 128)]


def test_readme_produced_shows_the_split(readme):
    produced = [(p.source, p.outputs, p.via) for p in trace(readme).produced]
    assert produced == [
        ("system", (0,), ("flatten_content",)),
        ("messages[0].content[0]", (1,), ()),
        ("messages[1]", (2,), ("tool_call_dict",)),
        ("messages[2].content[0]", (3,), ("flatten_content",)),
        ("messages[2].content[1]", (4,), ()),
    ]


LOSSY = {
    "model": "m",
    "temperature": 0.2,
    "system": [{"type": "text", "text": "S", "cache_control": {"type": "ephemeral"}}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "look", "cache_control": {"type": "ephemeral"}},
                                     {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "SIG"},
                                          {"type": "redacted_thinking", "data": "secret"},
                                          {"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                      "content": [{"type": "text", "text": "boom"},
                                                  {"type": "image", "source": {"type": "url", "url": "https://x/z.png"}}]}]},
    ],
    "tools": [{"name": "f", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}},
              {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}],
}  # fmt: skip


def test_every_kind_of_loss_is_reported_for_the_default_target():
    paths = [loss.path for loss in trace(LOSSY).losses]
    assert paths == [
        "model",
        "temperature",
        "system[0].cache_control",
        "messages[0].content[0].cache_control",
        "messages[0].content[1]",  # image -> placeholder
        "messages[1].content[0].signature",
        "messages[1].content[1]",  # redacted thinking dropped
        "messages[1].content[2].id",
        "messages[2].content[0].tool_use_id",
        "messages[2].content[0].is_error",
        "messages[2].content[0].content[1]",  # image inside the result
        "tools[0].cache_control",
        "tools[1].type",  # server tool kept, cannot run here
        "tools[1].max_uses",
    ]
    reasons = {loss.path: loss.reason for loss in trace(LOSSY).losses}
    assert "Anthropic's servers" in reasons["tools[1].type"]
    assert "[image omitted]" in reasons["messages[0].content[1]"]


def test_openai_target_losses():
    body = {key: value for key, value in LOSSY.items()}
    body["messages"] = [LOSSY["messages"][0], {"role": "assistant", "content": [LOSSY["messages"][1]["content"][0], LOSSY["messages"][1]["content"][2]]}, LOSSY["messages"][2]]
    paths = [loss.path for loss in trace(body, target="openai").losses]
    assert paths == [
        "model",
        "temperature",
        "system[0].cache_control",
        "messages[0].content[0].cache_control",
        "messages[1].content[0].signature",
        "messages[2].content[0].is_error",
        "tools[0].cache_control",
        "tools[1]",  # server tool left out
    ]


@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_trace_paths_refer_to_the_preprocessed_body(target):
    body = {"messages": [{"role": "user", "content": "u"}, {"role": "system", "content": "r"}, {"role": "user", "content": "v"}]}
    t = trace(body, target=target)
    assert t.body is body and len(t.preprocessed["messages"]) == 2
    assert t.translated == translate(preprocess(body), target=target)[0]
    assert {p.source for p in t.produced} <= {"messages[0]", "messages[0].content[0]", "messages[0].content[1]", "messages[1]"}
    for p in t.produced:
        assert t.at(p.location) is not None


# ---------------------------------------------------------------------------
# Loss reasons in Chinese: every reason a learner sees under use_language("zh")

CJK = re.compile(r"[\u3400-\u9fff]")
ROOT = Path(__file__).resolve().parents[1]

# One body that gives every reason the report knows, on one target or the other.
EVERY_REASON = {
    "model": "m", "max_tokens": 8, "stream": False, "tool_choice": {"type": "auto"}, "metadata": {"user_id": "u"},
    "thinking": {"type": "enabled", "budget_tokens": 1024}, "temperature": 0.2,
    "system": [{"type": "text", "text": "S", "cache_control": {"type": "ephemeral"}, "citations": []}],
    "messages": [
        {"role": "user", "content": [
            {"type": "image", "source": {"type": "file", "file_id": "file_1"}},
            {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
            {"type": "text", "text": "t", "citations": []},
            {"type": "search_result", "title": "t", "source": "s", "content": [{"type": "text", "text": "r"}], "extra": 1},
            {"type": "future_block", "payload": 1},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "doc"}, "title": "t"},
        ]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hm", "signature": "SIG"},
            {"type": "redacted_thinking", "data": "x"},
            {"type": "tool_use", "id": "t1", "name": "f", "input": {}, "cache_control": {"type": "ephemeral"}},
        ]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": [
            {"type": "text", "text": "boom"}, {"type": "future_part"},
            {"type": "image", "source": {"type": "file", "file_id": "file_2"}}]}]},
    ],
    "tools": [
        {"name": "f", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}, "strict": True},
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
        {"type": "bash_20250124", "name": "bash", "cache_control": {"type": "ephemeral"}},
        {"type": "bash_20991231", "name": "bash2", "defer_loading": True},
        {"type": "mcp_toolset", "mcp_server_name": "x"},
    ],
}  # fmt: skip


def _every_body():
    """The README example, the brief's request, the hostile corpus, the SDK's bodies, the
    recorded peer cases and a long agent session: every request the tests know."""
    import hostile

    from tutorial import readme_request
    from tutorial.examples import agent_request

    yield readme_request()
    yield json.loads((ROOT / "tests" / "data" / "brief" / "request.json").read_text(encoding="utf-8"))
    yield LOSSY
    yield EVERY_REASON
    yield {"messages": [{"role": "system", "content": [{"type": "text", "text": "S"}, {"type": "future", "x": 1}]},
                        {"role": "user", "content": "hi"}]}  # a leading system message keeps its text only (openai)
    yield hostile.rich_body()
    yield hostile.openai_body()
    yield agent_request(40)
    sdk = json.loads((ROOT / "tutorial" / "examples" / "sdk" / "bodies.json").read_text(encoding="utf-8"))
    yield from (entry["body"] if isinstance(entry, dict) and "body" in entry else entry for entry in sdk.values())
    cases = ROOT / "tutorial" / "peers" / "data" / "cases.json"
    if cases.is_file():
        yield from (case["request"] for case in json.loads(cases.read_text(encoding="utf-8")))
    for _label, body in hostile.body_mutations():
        yield body


def _every_loss():
    for body in _every_body():
        for target in ("chat_template", "openai"):
            try:
                yield from trace(body, target=target).losses
            except Exception:  # a RequestError (the contract) or the renderer's own: no losses to show
                continue


def test_every_loss_reason_reads_in_chinese(monkeypatch):
    """Chapters 03 and 07 print `loss.reason` itself; under use_language("zh") it is Chinese,
    wherever it is printed (print, repr, an f-string, JSON), with the English at hand."""
    monkeypatch.setattr("tutorial.words._chosen", "zh")
    seen, names = 0, set()
    for loss in _every_loss():
        seen += 1
        reason = loss.reason
        assert isinstance(reason, losses.Reason) and reason == reason.zh, (loss.path, reason)
        assert CJK.search(reason) and CJK.search(repr(reason)) and CJK.search(json.dumps(reason, ensure_ascii=False)), (loss.path, reason)
        with using("en"):
            assert not CJK.search(reason.en) and losses.reason_in(reason) == reason.en
        names.add(reason.key)  # which reason
    assert seen > 1000
    assert names - {None} == set(losses._WHY), f"reasons no body here gives: {sorted(set(losses._WHY) - names)}"


def test_reasons_are_english_by_default_and_either_language_on_request(readme):
    reason = trace(readme).losses[0].reason
    assert reason == reason.en and reason.startswith("tool-call ids are minted anew")
    with using("zh"):
        assert losses.reason_in(reason) == reason.zh and CJK.search(reason.zh)
    # a reason read back as a plain string (a capture's JSON) is given back as it is: no text
    # is parsed back into its key (issue 37)
    with using("zh"):
        assert losses.reason_in(str(reason)) == reason.en
        assert losses.reason_in("something else") == "something else"
        assert losses.report(preprocess(readme), "chat_template")[0].reason == reason.zh
    with using("zh"):  # two sentences, no semicolon (zh sweep M16); a parameter's reason says both cases (L15)
        assert reason.zh == ("工具调用 id 在每次回复时都重新生成，而适配器用 == 比较字典，在对话历史里找回这一轮，所以不保留 id。"
                             "ChatML/Qwen 风格的模板按位置配对调用和结果，需要 id 的 Mistral 风格模板请改用 openai 目标格式")
        assert "；" not in reason.zh
        assert losses._WHY["parameter"][1] == "这个顶层字段既不进消息，也不进工具。如果它是采样参数，由采样阶段从请求体读取，否则没有谁读取它"


def test_a_reason_survives_copy_and_pickle(readme):
    import copy
    import pickle

    with using("zh"):
        reason = losses.report(preprocess(readme), "chat_template")[0].reason
    for again in (copy.deepcopy(reason), pickle.loads(pickle.dumps(reason))):
        assert again == reason and (again.en, again.zh) == (reason.en, reason.zh)
