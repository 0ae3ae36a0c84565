"""The way-back diagrams: golden DOT files for the README example's next turn, what each
picture must say, and that `dot` draws any text exactly as the label promises.

Golden files compare DOT text only (SVG embeds the Graphviz version). To rewrite them
after an intended change:  UPDATE_GOLDEN=1 python -m pytest tests/test_way_back_diagrams.py
Tests that run `dot` skip where it is missing, except on CI (CI set), where they fail.
"""

from __future__ import annotations

import html
import json
import os
import re
import unicodedata
from pathlib import Path

import pytest
from graphviz_dot import find_dot, run_dot
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tutorial import build_reply, counting_ids, readme_request, sse_events, translate
from tutorial.pictures import FONT, svg_size
from tutorial.pictures.way_back import differences, echo_flow, reply_flow, wire_flow
from tutorial.words import using

GOLDEN = Path(__file__).parent / "data" / "way_back_diagrams"

# The README example's next turn, as notebooks/09_way_back.ipynb builds it.
MODEL_OUTPUT = {
    "reasoning": "README 只有标题和一句介绍。用户要一句话概括，先看看 pyproject.toml 里的项目描述。",
    "text": "我再看一下项目配置。",
    "tool_uses": [{"name": "read_file", "input": {"path": "pyproject.toml"}}],
    "matched_stop": None,
}
TOOL_OUTPUT = '[project]\nname = "demo"\ndescription = "一个学习项目"'
STREAM = dict(message_id="msg_0", model="local-model", input_tokens=100, output_tokens=30)


def next_turn(parsed: dict = MODEL_OUTPUT, finish_reason: str = "stop"):
    """(reply, events, next_body): the reply to the README request and the request the
    CLI sends next, which carries that reply and the tool's result as history."""
    reply = build_reply(parsed, finish_reason, new_id=counting_ids())
    blocks, stop_reason, _ = reply
    events = sse_events(blocks, stop_reason, **STREAM)
    body = readme_request()
    body["messages"] += [{"role": "assistant", "content": blocks}]
    calls = [block for block in blocks if block["type"] == "tool_use"]
    results = [{"type": "tool_result", "tool_use_id": call["id"], "content": TOOL_OUTPUT} for call in calls]
    if results:
        body["messages"].append({"role": "user", "content": results})
    return reply, events, body


def sources() -> dict[str, str]:
    reply, events, body = next_turn()
    return {
        "reply_flow": reply_flow(MODEL_OUTPUT, "stop", reply, events),
        "echo_flow_chat_template": echo_flow(reply[2], body),
        "echo_flow_openai": echo_flow(reply[2], body, target="openai"),
        "wire_flow_chat_template": wire_flow(translate(body)[0]),
        "wire_flow_openai": wire_flow(translate(body, target="openai")[0]),
    }


@pytest.fixture(scope="module")
def dot_program() -> str:
    return find_dot()


def shown_lines(svg: str, node_id: str) -> list[str]:
    """The text lines Graphviz drew for one node, as a reader sees them. (Graphviz writes
    a run of spaces with no-break spaces so that SVG keeps them; both count as a space.)"""
    found = re.search(rf"<title>{re.escape(node_id)}</title>(.*?)</g>\n(?:<!--|</g>)", svg, re.DOTALL)
    assert found, f"no node {node_id} in the SVG"
    return [spaces(html.unescape(text)) for text in re.findall(r"<text[^>]*>(.*?)</text>", found.group(1))]


def spaces(text: str) -> str:
    return text.replace("\xa0", " ")


def node(source: str, node_id: str) -> str:
    found = re.search(rf"^\s*{re.escape(node_id)} \[(label=.*)\];$", source, re.MULTILINE)
    assert found, f"no node {node_id}"
    return found.group(1)


def text_of(source: str, node_id: str) -> str:
    """A node's label as the text it asks to draw, one line per line."""
    label = node(source, node_id)
    if label.startswith("label=<"):
        lines = re.split(r"<BR/>|</TD>", label)
        return "\n".join(html.unescape(re.sub(r"<[^>]+>", "", line)).replace("\\\\", "\\") for line in lines)
    return label.replace('\\"', '"').replace("\\n", "\n")


def edge(source: str, tail: str, head: str) -> str:
    found = re.search(rf"^\s*{re.escape(tail)} -> {re.escape(head)}(?: \[(.*)\])?;$", source, re.MULTILINE)
    assert found, f"no edge {tail} -> {head}"
    return found.group(1) or ""


# ---------------------------------------------------------------------------
# Golden files and determinism


def test_builders_produce_the_golden_dot_files():
    built = sources()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for stem, source in built.items():
            (GOLDEN / f"{stem}.dot").write_text(source, encoding="utf-8", newline="\n")
    assert sorted(p.stem for p in GOLDEN.glob("*.dot")) == sorted(built)
    for stem, source in built.items():
        assert (GOLDEN / f"{stem}.dot").read_text(encoding="utf-8") == source, (
            f"{stem}.dot is stale: UPDATE_GOLDEN=1 python -m pytest tests/test_way_back_diagrams.py"
        )


def test_the_same_values_always_give_the_same_text():
    first, second = sources(), sources()
    assert first == second
    for source in first.values():
        assert source.startswith("digraph ") and source.endswith("}\n")
        assert FONT in source  # a font with Chinese glyphs
        assert not re.search(r"0x[0-9a-fA-F]{6,}", source)  # no object addresses
        assert not re.search(r"^\s*[\w:]+ -> [\w:]+ -> ", source, re.MULTILINE)


def test_the_builders_change_nothing_they_are_given():
    reply, events, body = next_turn()
    before = json.dumps([MODEL_OUTPUT, reply, events, body], ensure_ascii=False)
    sources()
    reply_flow(MODEL_OUTPUT, "stop", reply, events), echo_flow(reply[2], body), wire_flow(translate(body)[0])
    assert json.dumps([MODEL_OUTPUT, reply, events, body], ensure_ascii=False) == before


# ---------------------------------------------------------------------------
# What each picture says (and what notebooks/09_way_back.ipynb checks in the DOT)


def test_reply_flow_shows_blocks_fresh_id_stop_reason_and_manager_message():
    source = sources()["reply_flow"]
    reply = text_of(source, "reply")
    assert "blocks[0]\nthinking · unsigned" in reply and "id toolu_0" in reply
    assert re.findall(r"fresh id (toolu_\d+)", source) == ["toolu_0"]
    assert source.count("content_block_delta") == 3  # one delta line per block
    edge(source, "parsed:vuse0:e", "reply:b2:w")
    assert 'stop_reason "tool_use"' in reply
    assert "no id" in text_of(source, "manager") and "toolu_0" not in text_of(source, "manager")
    stream = text_of(source, "stream")
    for name in ("message_start", "content_block_start", "input_json_delta", "message_delta", "message_stop"):
        assert name in stream
    assert " 0  message_start" in stream and "11  message_stop" in stream


def test_reply_flow_without_events_has_no_stream_and_an_empty_reply_has_its_block():
    reply = build_reply({"text": ""}, "length", new_id=counting_ids())
    source = reply_flow({"text": ""}, "length", reply)
    assert "stream" not in source
    edge(source, "parsed:vend:e", "reply:b0:w")
    assert 'stop_reason "max_tokens"' in text_of(source, "reply")


def test_echo_flow_finds_the_turn_again_only_without_ids():
    built = sources()
    chat, openai = built["echo_flow_chat_template"], built["echo_flow_openai"]
    assert re.search(r"translated\[5\] == manager_message", chat) and not re.search(r"translated\[5\] == manager_message", openai)
    assert '✂ content[2].id "toolu_0"' in text_of(chat, "history")  # the id stays on the wire
    verdict = text_of(openai, "verdict")
    assert "translated[5] ≠ manager_message" in verdict
    assert "tool_calls[0].id" in verdict and "tool_calls[0].function.arguments" in verdict
    assert "✂" not in text_of(openai, "history")  # the openai target keeps the id


def test_echo_flow_needs_an_assistant_message():
    with pytest.raises(ValueError, match="no assistant message"):
        echo_flow({"role": "assistant", "content": "x"}, {"messages": [{"role": "user", "content": "q"}]})


def test_wire_flow_lifts_system_merges_results_and_mints_ids():
    built = sources()
    chat, openai = built["wire_flow_chat_template"], built["wire_flow_openai"]
    assert re.findall(r"minted (toolu_\d+)", chat) == ["toolu_0", "toolu_1"]
    edge(chat, "c0:v:e", "w_system:p:w")
    assert "lifted to the\ntop-level system" in text_of(chat, "c0")
    assert "minted toolu_0" in text_of(chat, "c2") and "minted toolu_1" in text_of(chat, "c5")
    assert "paired by\nposition" in text_of(chat, "c3")
    edge(chat, "c4:v:e", "w2:p:w")
    assert "joins the results'" in text_of(chat, "c4")
    assert "ids kept" in text_of(openai, "c2") and "tool_call_id kept" in text_of(openai, "c3")
    assert "toolu_demo" in text_of(openai, "w1") and "toolu_demo" not in chat
    # the reply's thinking has no signature: no wire message carries it
    assert "not sent" in text_of(chat, "c5") and "not sent" in text_of(openai, "c5")


def test_wire_flow_replays_saved_blocks():
    blocks = [{"type": "thinking", "thinking": "想一想", "signature": "c2ln"}, {"type": "text", "text": "好"}]
    message = {"role": "assistant", "content": "好", "reasoning_content": "想一想",
               "blocks": {"format": "anthropic-content", "data": blocks}}  # fmt: skip
    source = wire_flow([{"role": "user", "content": "问"}, message])
    assert "blocks replayed\nword for word" in text_of(source, "c1")
    assert "thinking · signed" in text_of(source, "w1") and "not sent" not in source


def test_a_long_conversation_is_collapsed_and_names_every_message():
    history = [{"role": "system", "content": "s"}]
    for n in range(300):
        history += [
            {"role": "user", "content": f"q{n}"},
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {}}}]},
            {"role": "tool", "content": f"r{n}"},
        ]
    source = wire_flow(history)
    assert [(run.where, run.first, run.last) for run in source.collapsed] == [("messages", 3, 898)]
    assert "messages[3..898]" in source and len(source) < 15_000
    assert re.findall(r"minted (toolu_\d+)", source) == ["toolu_0", "toolu_299"]


def test_the_way_back_in_chinese_says_every_word_in_chinese():
    """Issue 24: "no id" beside 「没有 id」 in chapter 09's picture. In Chinese every caption is
    Chinese; code names (tool_call, id, content) and the values stay as they are."""
    reply, events, body = next_turn()
    with using("zh"):
        source = reply_flow(MODEL_OUTPUT, "stop", reply, events)
    manager = text_of(source, "manager")
    assert "tool_call read_file · 没有 id" in manager and "no id" not in source
    assert "thinking · 没有签名" in text_of(source, "reply") and "unsigned" not in source
    assert "新 id toolu_0" in source and "fresh id" not in source
    with using("zh"):
        openai = echo_flow(reply[2], body, target="openai")
    assert 'tool_calls[0].id: （没有这个键） ≠ "toolu_0"' in text_of(openai, "verdict") and "(absent)" not in openai
    with using("zh"):
        wire = wire_flow(translate(body)[0])
    assert wire.count("没有 id") >= 2 and "no id" not in wire and "回到传输格式" in wire
    blocks = [{"type": "thinking", "thinking": "想一想", "signature": "c2ln"}, {"type": "text", "text": "好"}]
    saved = {"role": "assistant", "content": "好", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {}}}] * 5,
             "blocks": {"format": "anthropic-content", "data": blocks}}  # fmt: skip
    with using("zh"):
        source = wire_flow([{"role": "user", "content": "问"}, saved])
    assert "blocks：anthropic-content（保存了 2 个）" in source and "… 还有 2 个 tool_calls" in source
    assert "thinking · 有签名" in source and "saved" not in source and "more" not in source


def test_differences_lists_every_leaf_that_differs():
    assert differences({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) == []
    assert differences({"a": {"x": 1}, "b": [1]}, {"a": {"x": "1"}, "c": 2}) == [
        (("a", "x"), 1, "1"), (("b",), [1], "(absent)"), (("c",), "(absent)", 2)]  # fmt: skip
    assert differences([1, 2], [1]) == [((), [1, 2], [1])]
    assert differences(1, True) == [((), 1, True)]  # equal in Python, not the same JSON


# ---------------------------------------------------------------------------
# Rendering: Chinese survives, every picture fits, any text is drawn exactly


def test_every_diagram_renders_fits_and_keeps_its_chinese_as_text(dot_program):
    for stem, source in sources().items():
        svg = run_dot(dot_program, source)
        width, _ = svg_size(svg)
        assert width <= 960, f"{stem} is {width:.0f} px wide"
        assert min(float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)) * 4 / 3 >= 10
    svg = run_dot(dot_program, sources()["reply_flow"])
    assert '"我再看一下项目配置。"' in shown_lines(svg, "parsed")
    assert 'content "我再看一下项目配置。"' in shown_lines(svg, "manager")


NASTY = '"q" \\ <x> &amp; \\N\\l\n;'  # short enough to be drawn whole


def test_labels_escape_what_dot_would_read_as_syntax(dot_program):
    parsed = {"text": NASTY, "tool_uses": [{"name": NASTY, "input": {NASTY: NASTY}}]}
    reply = build_reply(parsed, "stop", new_id=counting_ids())
    source = reply_flow(parsed, "stop", reply, sse_events(reply[0], reply[1], **STREAM))
    assert "&amp;amp;" in node(source, "parsed")  # an entity in the text stays text
    svg = run_dot(dot_program, source)
    assert expected_line(NASTY) in shown_lines(svg, "parsed")


def test_long_and_hidden_text_is_cut_and_escaped():
    parsed = {"text": "长" * 300 + "\u200b\u2028\x85"}
    source = reply_flow(parsed, "stop", build_reply(parsed, "stop"))
    label = node(source, "parsed")
    assert "…" in label and label.count("长") < 30
    short = {"text": "a\u200bb\u2028c\x7f"}
    assert "a\\\\u200bb\\\\u2028c\\\\u007f" in node(reply_flow(short, "stop", build_reply(short, "stop")), "parsed")


HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
ALPHABET = st.one_of(
    st.sampled_from(list('"\\{}|<>&;[]=-#\n\r\t\x00\x7f\x85\u200b\u200d\u2028\u2029\ufeff\ud800你好é\u0301🙂 ')),
    st.characters(codec="utf-8"),
)


def expected_line(text: str) -> str:
    """How a short text must look in the picture: its JSON (Chinese kept), with every
    character a picture cannot show written as \\uXXXX — worked out independently."""
    written = json.dumps(text, ensure_ascii=False)
    return spaces("".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in HIDDEN else c for c in written))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(ALPHABET, min_size=1, max_size=3), name=st.text(ALPHABET, min_size=1, max_size=8))
@example(text="  \ud800\u2028", name='a"b\\')
@example(text="&lt;\\N", name="\ufeff你\u200d")
@example(text="🙂\n\x00", name="}]; x -> y [")
def test_any_text_is_drawn_exactly(dot_program, text, name):
    parsed = {"reasoning": text, "text": text, "tool_uses": [{"name": name, "input": {text: name}}]}
    parsed["matched_stop"] = text
    reply = build_reply(parsed, "stop", new_id=lambda: name)
    events = sse_events(reply[0], reply[1], **{**STREAM, "stop_sequence": text})
    history = [
        {"role": "system", "content": text},
        {"role": "user", "content": [{"type": "text", "text": text}]},
        {"role": "assistant", "content": text,
         "tool_calls": [{"type": "function", "function": {"name": name, "arguments": {text: text}}}]},
        {"role": "tool", "content": text},
        {"role": "user", "content": text},
    ]
    body = {"messages": [
        {"role": "user", "content": text},
        {"role": "assistant", "content": reply[0]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": name, "content": text}]},
    ]}
    svg = run_dot(dot_program, reply_flow(parsed, "stop", reply, events))
    assert expected_line(text) in shown_lines(svg, "parsed")
    for source in (echo_flow(reply[2], body), echo_flow(reply[2], body, target="openai")):
        run_dot(dot_program, source)
    svg = run_dot(dot_program, wire_flow(history))
    assert shown_lines(svg, "c4")[:2] == ["messages[4] · user", "content " + expected_line(text)]


def test_hostile_values_never_break_a_way_back_picture(dot_program):
    """Whatever the lesson accepts draws: lone surrogates, controls, a 4,000-digit
    integer, a value nested 50 deep, a backslash sequence in a name."""
    deep: object = "x"
    for _ in range(50):
        deep = [deep]
    parsed = {"reasoning": "\ud800\x1b[31m", "text": "\x00\u202e", "tool_uses": [{"name": "n\\N", "input": {"d": deep, "b": 10**3999}}]}
    reply = build_reply(parsed, "stop", new_id=counting_ids())
    events = sse_events(reply[0], reply[1], **STREAM)
    body = {"messages": [{"role": "user", "content": "\udfff"}, {"role": "assistant", "content": reply[0]}]}
    for source in (reply_flow(parsed, "stop", reply, events), echo_flow(reply[2], body), echo_flow(reply[2], body, target="openai"),
                   wire_flow(translate(body)[0]), wire_flow(translate(body, target="openai")[0])):  # fmt: skip
        assert svg_size(run_dot(dot_program, source))[0] <= 960
