"""The diagrams: golden DOT files, what the pictures must show, that `dot` draws every
graph whatever text a request carries, that long requests are collapsed without losing
any message's place, and that every picture fits a notebook (at most 960 px wide, text
at least 10 px).

The golden tests compare DOT text only (SVG embeds the Graphviz version). Tests that run
`dot` skip where it is missing, except on CI (CI set), where a missing `dot` fails.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from graphviz_dot import find_dot, run_dot
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import assistant_message, requests, user_message

from tutorial import readme_request, trace
from tutorial.notebook import diagram
from tutorial.pictures import (
    FONT,
    DotText,
    Picture,
    escape,
    escape_html,
    local_flow,
    mixed_result_request,
    mixed_result_split,
    render_svg,
    show,
    sources,
    svg_size,
    tools_path,
    vertical_flow,
    write_all,
)
from tutorial.pictures import dot as writer
from tutorial.pictures import reading
from tutorial.pictures import text as t
from tutorial.examples import agent_request
from tutorial.pictures.turn import STAGES
from tutorial.words import using

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "diagrams"
LIT = writer.LIT_EDGE["color"]  # the highlight colour
LIT_FILL = writer.LIT_NODE["fillcolor"]
MAX_WIDTH_PX = 960
MIN_FONT_PX = 10


@pytest.fixture(scope="module")
def dot_program() -> str:
    return find_dot()


def edge(source: str, tail: str, head: str) -> str:
    """The attribute text of the edge tail -> head (fails if there is none)."""
    found = re.search(rf"^\s*{re.escape(tail)} -> {re.escape(head)}(?: \[(.*)\])?;$", source, re.MULTILINE)
    assert found, f"no edge {tail} -> {head}"
    return found.group(1) or ""


def node(source: str, node_id: str) -> str:
    found = re.search(rf"^\s*{re.escape(node_id)} \[(label=.*)\];$", source, re.MULTILINE)
    assert found, f"no node {node_id}"
    return found.group(1)


def shown(source: str, node_id: str) -> list[str]:
    """The text lines a node's label asks Graphviz to draw (HTML or quoted label)."""
    label = node(source, node_id)
    if label.startswith("label=<"):
        body = label[len("label=<") : label.index("</TABLE>>") + len("</TABLE>")]
        lines = re.split(r"<BR/>|</TD>", body)
        text = [html.unescape(re.sub(r"<[^>]+>", "", line)).replace("\\\\", "\\") for line in lines]
        return [line for line in text if line]
    quoted = re.match(r'label="((?:[^"\\]|\\.)*)"', label).group(1)
    return [part.replace('\\"', '"').replace("\\\\", "\\").replace("&amp;", "&") for part in re.split(r"\\n|\\l", quoted) if part]


@pytest.fixture(scope="module")
def readme_chat() -> str:
    return local_flow(trace(readme_request()))


# ---------------------------------------------------------------------------
# Golden files: the builders produce the committed DOT exactly (no `dot` needed)


def test_builders_produce_the_committed_dot_files():
    built = sources()
    assert sorted(path.stem for path in COMMITTED.glob("*.dot")) == sorted(built)
    for stem, source in built.items():
        assert (COMMITTED / f"{stem}.dot").read_text(encoding="utf-8") == source, (
            f"diagrams/{stem}.dot is stale: run python -m tutorial.pictures"
        )


def test_regenerating_reproduces_the_committed_dot_files_byte_for_byte(tmp_path):
    written = write_all(tmp_path, svg=False)
    assert [path.suffix for path in written] == [".dot"] * len(sources())
    for path in written:
        assert path.read_bytes() == (COMMITTED / path.name).read_bytes()


def test_every_committed_dot_file_has_its_svg():
    for path in COMMITTED.glob("*.dot"):
        assert path.with_suffix(".svg").exists(), f"{path.name} has no render"


def test_output_is_deterministic_and_free_of_addresses():
    first, second = sources(), sources()
    assert first == second
    for source in first.values():
        assert not re.search(r"0x[0-9a-fA-F]{6,}", source)
        assert source.endswith("}\n")
        assert FONT in source  # a CJK-capable font, so Chinese renders as Chinese


def test_no_statement_chains_more_than_one_edge():
    """`a -> b -> c -> ...` is one statement; Graphviz's parser overflows on a few
    thousand. Every edge is a statement of its own."""
    for source in list(sources().values()) + [local_flow(trace(agent_request(3000)))]:
        assert not re.search(r"^\s*[\w:]+ -> [\w:]+ -> ", source, re.MULTILINE)


def test_import_tutorial_does_not_load_graphviz():
    code = "import sys, tutorial, tutorial.pictures, tutorial.pictures.way_back; assert 'graphviz' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_every_module_of_pictures_is_small():
    for path in (ROOT / "tutorial" / "pictures").glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 420, f"{path.name} is over ~400 lines"


# ---------------------------------------------------------------------------
# What the README example's local flow must show (default target)


def test_each_message_is_a_row_with_what_it_gives_beside_it(readme_chat):
    for left, right in [("in_sys", "out0"), ("in_m0", "out1"), ("in_m1", "out2"), ("in_m2", "out3"), ("in_t0", "schema0")]:
        assert f"{{ rank=same; {left}; {right}; }}" in readme_chat
    assert 'in_m0 [group="left"]' in readme_chat and 'out1 [group="right"]' in readme_chat


def test_the_system_list_goes_through_flatten_content(readme_chat):
    assert shown(readme_chat, "in_sys")[:3] == ["system · 1 text block", '"你是代码助手。"', "flatten_content"]
    edge(readme_chat, "in_sys:vp:e", "out0:t0:w")


def test_the_first_user_text_is_taken_directly(readme_chat):
    assert "text taken directly" in " ".join(shown(readme_chat, "in_m0"))
    edge(readme_chat, "in_m0:vc0:e", "out1:t1:w")
    assert '"读取 README.md 并概括内容。"' in shown(readme_chat, "out1")


def test_the_assistant_gives_text_plus_a_tool_call_dict(readme_chat):
    lines = shown(readme_chat, "in_m1")
    assert lines[0] == "messages[1] · assistant" and "tool_call_dict" in lines
    edge(readme_chat, "in_m1:vc0:e", "out2:t2:w")
    edge(readme_chat, "in_m1:vc1:e", "out2:t2:w")
    assert shown(readme_chat, "out2")[2:] == ["tool_call read_file", '  arguments {"path": "README.md"}']


def test_one_user_message_splits_into_a_tool_and_a_user_message(readme_chat):
    edge(readme_chat, "in_m2:vc0:e", "out3:t3:w")
    edge(readme_chat, "in_m2:vc1:e", "out3:t4:w")
    out = shown(readme_chat, "out3")
    assert "translated[3] · tool" in out and "translated[4] · user" in out


def test_the_tool_definition_is_wrapped(readme_chat):
    assert "wrapped as a function tool" in " ".join(shown(readme_chat, "in_t0"))
    edge(readme_chat, "in_t0:vp:e", "schema0:p:w")
    assert "tools_schema: a list of 1 function tool" in shown(readme_chat, "head_schema")


def test_both_results_return_to_run_turn_as_one_tuple(readme_chat):
    assert 'lhead="cluster_messages"' in edge(readme_chat, "body", "head_in")
    assert 'body[\\"tools\\"]' in node(readme_chat, "head_tools")
    assert 'ltail="cluster_messages"' in edge(readme_chat, "out3", "hand_back")
    assert 'ltail="cluster_tools_path"' in edge(readme_chat, "schema0", "hand_back")
    back = edge(readme_chat, "hand_back", "run_turn")
    assert "function return" in back and "no HTTP request" in back
    assert readme_chat.count("-> run_turn") == 1


def test_what_stays_behind_is_written_under_the_block_it_leaves(readme_chat):
    assert '✂ id "toolu_demo"' in shown(readme_chat, "in_m1")
    assert '✂ tool_use_id "toolu_demo"' in shown(readme_chat, "in_m2")
    assert "✂ max_tokens 128" in shown(readme_chat, "lost_body")
    assert 'style="dashed"' in edge(readme_chat, "body", "lost_body")


def test_the_openai_target_names_its_own_helpers():
    source = local_flow(trace(readme_request(), target="openai"))
    assert "system_text" in shown(source, "in_sys")
    assert "content_part" in shown(source, "in_m0")
    assert "openai_tool_call" in shown(source, "in_m1")
    assert "tool_result_messages" in shown(source, "in_m2")
    assert 'tool_call_id "toolu_demo"' in shown(source, "out3")
    assert "the messages path: openai_messages(messages, system)" in source


def test_mixed_result_split_gives_one_tool_message_per_run():
    traced = trace(mixed_result_request(), target="openai")
    result = next(p for p in traced.produced if p.via == ("tool_result_messages",))
    assert len(result.outputs) == 3
    source = mixed_result_split(traced)
    # what notebooks/08_two_targets.ipynb checks
    assert re.findall(r'label="(run \d: [^"]+)"', source) == ["run 1: visible parts", "run 2: tool_reference", "run 3: visible parts"]
    for part, output in zip(["r0_p0", "r0_p1", "r0_p2"], result.outputs):
        edge(source, part, f"r0_out{output}")
        assert 'tool_call_id \\"toolu_search\\"' in node(source, f"r0_out{output}")


def test_mixed_result_with_the_default_target_flattens_into_one_message():
    source = mixed_result_split(trace(mixed_result_request()))
    assert 'label="flatten_content"' in edge(source, "r0_p0", "r0_out3")
    assert 'label="flatten_content"' in edge(source, "r0_p2", "r0_out3")
    assert 'style="dashed"' in edge(source, "r0_p1", "r0_lost1")  # a reference has no text


def test_tools_path_renames_input_schema_to_parameters():
    source = tools_path(trace(readme_request()))
    assert "renamed parameters" in edge(source, "tool0:f2:e", "fn0:parametersk:w")
    assert "kept" in edge(source, "tool0:f0:e", "fn0:namek:w")
    assert "wrapped" in edge(source, "tool0:head:e", "fn0:typek:w")
    for field in ("function.name", "function.parameters"):  # chapter 03 lost these off-screen
        assert field in source


def test_a_request_without_tools_or_tool_results_still_draws():
    traced = trace({"messages": [{"role": "user", "content": "hi"}]})
    assert "tools_schema = None: no usable tools" in local_flow(traced)
    assert "no tool_result" in mixed_result_split(traced)
    assert "tools_schema = None" in tools_path(traced)
    assert "a list of 0 messages" in local_flow(trace({"messages": []}))


def test_captions_come_in_chinese_too():
    with using("zh"):
        source = local_flow(trace(readme_request()))
        assert "translated：5 条消息的列表" in source and "文本直接取用" in source
        assert "一轮" in vertical_flow() and "改名为 parameters" in tools_path(trace(readme_request()))
    with pytest.raises(ValueError, match="lang"):
        with using("fr"):
            local_flow(trace(readme_request()))


# ---------------------------------------------------------------------------
# Every label in Chinese: a Chinese picture has no English word but code names and data

# Names a reader types or reads as code, and the English Chinese engineers keep (terms.py; "part" of content part).
CODE_WORDS = set("""
    API Action Anthropic CLI HTTP Harness JSON Messages POST SSE arguments assistant await blocks body content
    delta description diff function generate id input name null object openai parameters parsed preprocess
    prompt request respond return rollout run schema sdist start stop string system target text thinking token
    tokenizer tool tools translate translated true false type user messages None
    part
""".split())
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?|\'[^\']*\'')
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")


def label_lines(source: str) -> list[str]:
    """The text lines of every label in DOT source (plain and HTML-like labels)."""
    lines = []
    for found in re.finditer(r'label=(<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>|"(?:[^"\\]|\\.)*")', source):
        value = found.group(1)
        if value.startswith("<"):
            value = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<BR[^>]*>|</TD>", "\n", value[1:-1])))
        else:
            value = value[1:-1].replace("\\l", "\n").replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
        lines += [line for line in value.split("\n") if line.strip()]
    return lines


def data_words(*values) -> set:
    """Every word in the strings (and keys) of JSON values: what a picture may quote."""
    found, stack = set(), list(values)
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(_WORD.findall(item))
        elif isinstance(item, dict):
            stack += [str(key) for key in item] + list(item.values())
        elif isinstance(item, (list, tuple)):
            stack += list(item)
    return found


def english_words(source: str, data: set, skip_after: tuple = ()) -> list[str]:
    """The words in a picture's labels that are neither code, nor data, nor a piece of data
    cut by a preview ("operties" of "properties")."""
    found, skip = [], False
    for line in label_lines(source):
        if skip:  # quoted words, e.g. a template's own refusal
            skip = False
            continue
        skip = line in skip_after
        for word in _WORD.findall(_QUOTED.sub(" ", line)):
            code = "_" in word or "." in word or any(ch.isdigit() for ch in word) or word in CODE_WORDS
            if not (code or word in data or any(word in known for known in data)):
                found.append(word)
    return found


def chinese_pictures(lang: str) -> list[tuple[str, str, set, tuple]]:
    """(name, DOT, the data it may quote, lines after which a quotation follows) for every
    picture the chapters draw, drawn in `lang`."""
    from test_way_back_diagrams import next_turn

    readme = readme_request()
    chat, openai = trace(readme), trace(readme, target="openai")
    reply, events, body = next_turn()
    lossy = {**readme, "temperature": 0.2, "tools": readme["tools"] + [{"type": "web_search_20250305", "name": "web_search"}]}
    lossy["messages"] = lossy["messages"] + [{"role": "assistant", "content": [
        {"type": "thinking", "thinking": "想一想", "signature": "SIG"}, {"type": "redacted_thinking", "data": "x"},
        {"type": "text", "text": "好", "cache_control": {"type": "ephemeral"}}]},
        {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
                                     {"type": "hologram", "frames": 24}, {"type": "text", "text": "看"}]}]
    long = agent_request(300)
    mixed = mixed_result_request()
    with using(lang):
        words = __import__("tutorial.pictures.captions", fromlist=["words"]).words()
        made = _pictures(readme, chat, openai, lossy, long, mixed, reply, events, body)
    return [(name, source, data_words(data, trace(readme).translated), (words["refused"],))
            for name, source, data in made]


def _pictures(readme, chat, openai, lossy, long, mixed, reply, events, body) -> list:
    """The pictures `chinese_pictures` checks, drawn in the current language."""
    from test_way_back_diagrams import MODEL_OUTPUT

    from tutorial import translate
    from tutorial.pictures.families import families_picture
    from tutorial.pictures.way_back import echo_flow, reply_flow, wire_flow

    return [
        ("vertical_flow", vertical_flow(), readme),
        ("local_flow", local_flow(chat), readme),
        ("local_flow openai", local_flow(openai), readme),
        ("hand_back", local_flow(chat, highlight="hand_back"), readme),
        ("focus", local_flow(chat, highlight="messages[2]", focus=True), readme),
        ("tools_path", tools_path(chat), readme),
        ("lossy", local_flow(trace(lossy)), lossy),
        ("lossy tools", tools_path(trace(lossy)), lossy),
        ("long", local_flow(trace(long), highlight="messages[150]"), long),
        ("split", mixed_result_split(trace(mixed, target="openai")), mixed),
        ("split chat_template", mixed_result_split(trace(mixed)), mixed),
        ("no tools", local_flow(trace({"messages": [{"role": "user", "content": "你好"}]})), {}),
        ("reply_flow", reply_flow(MODEL_OUTPUT, "stop", reply, events), MODEL_OUTPUT),
        ("echo_flow", echo_flow(reply[2], body), body),
        ("echo_flow openai", echo_flow(reply[2], body, target="openai"), body),
        ("wire_flow", wire_flow(translate(body)[0]), body),
        ("wire_flow openai", wire_flow(translate(body, target="openai")[0]), body),
        ("families", families_picture(chat.translated, chat.tools_schema),
         [readme, list(__import__("tutorial").template_families())]),  # the families' names
    ]


def test_every_label_of_a_chinese_picture_is_chinese():
    """Issue 24: "no id" beside 「没有 id」 in a chapter 09 picture. Every word a Chinese
    picture draws is Chinese, a code name, or data the request carries."""
    for name, source, data, skip in chinese_pictures("zh"):
        assert not english_words(source, data, skip), (name, sorted(set(english_words(source, data, skip))))


def test_the_check_finds_english_captions():
    english = {name: english_words(source, data, skip) for name, source, data, skip in chinese_pictures("en")}
    assert all(english[name] for name in ("vertical_flow", "local_flow", "reply_flow", "echo_flow", "wire_flow", "split"))
    assert "no" in english["reply_flow"] and "fresh" in english["reply_flow"]


# ---------------------------------------------------------------------------
# Highlighting


def test_highlighting_a_helper_lights_its_rows_and_arrows_only(readme_chat):
    lit = local_flow(trace(readme_request()), highlight="flatten_content")
    assert lit != readme_chat and LIT not in readme_chat
    assert LIT in edge(lit, "in_sys:vp:e", "out0:t0:w") and LIT in edge(lit, "in_m2:vc0:e", "out3:t3:w")
    assert LIT not in edge(lit, "in_m1:vc1:e", "out2:t2:w")


def test_highlighting_a_path_lights_everything_under_it():
    lit = local_flow(trace(readme_request()), highlight="messages[2]")
    assert LIT in edge(lit, "in_m2:vc0:e", "out3:t3:w") and LIT in edge(lit, "in_m2:vc1:e", "out3:t4:w")
    assert LIT not in edge(lit, "in_m1:vc0:e", "out2:t2:w")
    assert LIT_FILL in node(lit, "out3") and LIT_FILL in node(lit, "in_m2") and LIT_FILL not in node(lit, "in_m1")


@pytest.mark.parametrize("name", ["tool_call_dict", "tools", "hand_back", "losses", "direct", "translated[2]", "max_tokens", "system"])
def test_every_stage_name_changes_the_picture(name, readme_chat):
    assert local_flow(trace(readme_request()), highlight=name) != readme_chat


def test_an_unknown_highlight_is_an_error_not_a_silent_no_op():
    with pytest.raises(ValueError, match="messages\\[9\\]"):
        local_flow(trace(readme_request()), highlight="messages[9]")
    with pytest.raises(ValueError, match="translate"):
        vertical_flow("translation")


def test_vertical_flow_highlights_one_stage():
    default, plain = vertical_flow(), vertical_flow(None)
    assert LIT_FILL in node(default, "translate") and LIT_FILL not in plain
    sampling = vertical_flow("sampling")
    assert LIT_FILL in node(sampling, "sampling") and LIT_FILL not in node(sampling, "translate")
    for name in STAGES:
        assert vertical_flow(name) != plain


# ---------------------------------------------------------------------------
# Long requests: collapsed, every message still named, the same size whatever the length


def _named_messages(source: str, collapsed) -> set[int]:
    drawn = {int(i) for i in re.findall(r"^\s*in_m(\d+) \[label=", source, re.MULTILINE)}
    runs = {i for run in collapsed if run.where == "messages" for i in range(run.first, run.last + 1)}
    for run in collapsed:
        if run.where == "messages":
            assert run.path in source  # the summary row names its range
    assert not drawn & runs
    return drawn | runs


def test_a_long_request_is_collapsed_around_the_first_and_last_turns_and_the_highlight():
    traced = trace(agent_request(1000))
    source = local_flow(traced, highlight="messages[500]")
    assert [(run.where, run.first, run.last) for run in source.collapsed] == [
        ("messages", 3, 499), ("messages", 501, 998), ("tools", 2, 28),
    ]  # fmt: skip
    assert source.collapsed[0].outputs == (5, 749) and source.collapsed[0].count == 497
    assert "… 497 more messages like these …" in source and "messages[3..499]" in source
    assert "translated[5..749]" in source
    assert LIT in edge(source, "in_m500:vc0:e", "out750:t750:w")
    assert _named_messages(source, source.collapsed) == set(range(len(traced.preprocessed["messages"])))


def test_a_highlighted_output_keeps_its_message_drawn():
    source = local_flow(trace(agent_request(200)), highlight="translated[150]")
    assert re.search(r"^\s*in_m\d+ \[label=.*translated\[150\]|^\s*out150 \[", source, re.MULTILINE)


def test_the_picture_of_any_length_has_the_same_size():
    small, large = local_flow(trace(agent_request(100))), local_flow(trace(agent_request(5000)))
    assert abs(len(small) - len(large)) < len(small) // 10
    assert len(re.findall(r"^\s*\w+ \[label=", large, re.MULTILINE)) < 40


def test_a_message_with_many_blocks_and_a_result_with_many_parts_are_collapsed_too():
    parts = [{"type": "text", "text": f"p{k}"} if k % 2 else {"type": "tool_reference", "tool_name": "t"} for k in range(300)]
    blocks = [{"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": parts if k == 0 else "ok"} for k in range(200)]
    body = {"messages": [{"role": "user", "content": blocks}]}
    source = local_flow(trace(body, target="openai"))
    assert ("messages[0].content", 3, 197) in [(run.where, run.first, run.last) for run in source.collapsed]
    assert len(source) < 20_000
    split = mixed_result_split(trace(body, target="openai"))
    assert any(run.where == "messages[0].content[0].content" for run in split.collapsed)
    assert any(run.where == "tool_results" for run in split.collapsed)


def test_a_focused_picture_draws_one_message_and_a_map_of_the_rest():
    source = local_flow(trace(agent_request(1000)), highlight="messages[500]", focus=True)
    assert [run.path for run in source.collapsed] == ["messages[0..499]", "messages[501..1000]", "tools[0..29]"]
    assert re.findall(r"^\s*(in_m\d+) \[label=", source, re.MULTILINE) == ["in_m500"]
    assert LIT_FILL in node(source, "in_m500")
    readme = local_flow(trace(readme_request()), highlight="messages[1]", focus=True)
    assert "… 1 other message …" in readme and "messages[0]" in readme and "messages[0..0]" not in readme


LONG = st.lists(st.one_of(user_message(False), assistant_message(False)), min_size=0, max_size=70)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(messages=LONG, data=st.data())
def test_collapsed_diagrams_still_name_every_input_messages_range(messages, data):
    traced = trace({"messages": messages})
    count = len(traced.preprocessed["messages"])
    wanted = data.draw(st.integers(0, count - 1)) if count else None
    source = local_flow(traced, highlight=f"messages[{wanted}]" if wanted is not None else None)
    assert _named_messages(source, source.collapsed) == set(range(count))
    drawn = {int(i) for i in re.findall(r"^\s*in_m(\d+) \[label=", source, re.MULTILINE)}
    must = set(range(min(reading.HEAD_MESSAGES, count))) | set(range(max(count - reading.TAIL_MESSAGES, 0), count))
    assert must | ({wanted} if wanted is not None else set()) <= drawn
    for run in source.collapsed:  # a summary row names the translated messages it gave
        if run.where == "messages" and run.outputs:
            assert f"translated[{run.outputs[0]}" in source


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reading_finds_each_messages_entries_by_binary_search(data):
    """The trace records steps and outputs in body order, and the loss report lists
    losses in body order: the binary search finds exactly what a scan finds."""
    for target in ("chat_template", "openai"):
        traced = trace(data.draw(requests(openai=target == "openai")), target=target)
        read = reading.Reading(traced)
        for i in range(len(traced.preprocessed["messages"])):
            under = lambda entries: [e for e in entries if e.location[:2] == ("messages", i)]  # noqa: E731
            assert read.produced_in(i) == under(traced.produced)
            assert read.steps.between(i, i) == under(traced.steps)
            assert read.losses_in(i) == under(traced.losses)


# ---------------------------------------------------------------------------
# Any text in a label


NASTY = 'say "hi" \\ {a|b} <x> & &amp; \\N \n end'


def test_the_one_escaping_api():
    assert escape('"q" \\ &amp; \\N') == '\\"q\\" \\\\ &amp;amp; \\\\N'
    assert escape("a\nb\x00\ud800") == "a\\\\u000ab\\\\u0000\\\\ud800"
    assert escape_html('<k\\N & "x">') == "&lt;k\\\\N &amp; &quot;x&quot;&gt;"
    assert escape_html("\u2028") == "\\\\u2028"


def test_labels_escape_what_dot_would_read_as_syntax():
    source = local_flow(trace({"messages": [{"role": "user", "content": NASTY}]}))
    assert "".join(t.preview(NASTY)) == t.visible(json.dumps(NASTY, ensure_ascii=False))
    assert "&lt;x&gt; &amp;" in node(source, "in_m0")  # markup in the text stays text


def _svg_texts(svg: str) -> list[str]:
    return [html.unescape(text).replace("\xa0", " ") for text in re.findall(r"<text[^>]*>(.*?)</text>", svg)]


def test_the_picture_shows_the_text_exactly_as_json(dot_program):
    svg = run_dot(dot_program, local_flow(trace({"messages": [{"role": "user", "content": NASTY}]})))
    for line in t.preview(NASTY):
        assert line in _svg_texts(svg)


def test_a_tool_key_with_a_backslash_is_drawn_as_written(dot_program):
    body = {"messages": [{"role": "user", "content": "x"}], "tools": [
        {"name": "k\\N", "description": "d\\G", "input_schema": {"type": "object", "properties": {"k\\N": {}}}, "k\\N": 1}]}  # fmt: skip
    svg = run_dot(dot_program, tools_path(trace(body)))
    texts = _svg_texts(svg)
    assert "k\\N" in texts and "tool0" not in " ".join(texts)  # not the node's name
    assert '"k\\\\N"' in texts  # the name, as JSON


def test_long_text_is_shortened_with_an_ellipsis():
    source = local_flow(trace({"messages": [{"role": "user", "content": "长" * 500}]}))
    label = node(source, "in_m0")
    assert "…" in label and label.count("长") < 40


def test_hidden_characters_are_shown_as_escapes():
    assert t.wrap("a\u200bb\u2028c\x85") == ["a\\u200bb\\u2028c\\u0085"]
    assert t.wrap("ab" * 40, 10, 2) == ["ab" * 5, "ababababa…"]
    assert t.wrap("你好" * 20, 10, 1) == ["你好你好…"]


def test_previews_are_bounded_whatever_the_value():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert t.one(deep, 12) == "[[[[[[[[[[[…"
    assert t.one(10**5000, 40) == "<int of about 5001 digits>"
    assert t.one({"a": "x" * 10_000_000}, 12) == '{"a": "xxxx…'
    assert t.one(float("nan")) == "NaN" and t.one({1: None, "k": True}) == '{"1": null, "k": true}'
    assert t.one("\ud800\x00") == '"\\ud800\\u0000"'


LABEL_TEXT = st.text(max_size=60)


def request_with(text: str, name: str) -> dict:
    """A body carrying the drawn text wherever a label shows request text."""
    return {
        "system": [{"type": "text", "text": text}],
        "messages": [
            {"role": "user", "content": text},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": text},
                {"type": "text", "text": text},
                {"type": "tool_use", "id": text, "name": name, "input": {text: text}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": text, "content": [
                    {"type": "text", "text": text}, {"type": "tool_reference", "tool_name": name}, {"type": "text", "text": text},
                ]},
                {"type": "text", "text": text},
            ]},
        ],
        "tools": [{"name": name, "description": text, "input_schema": {"type": "object", "properties": {text: {"type": "string"}}}, text or "x": 1}],
        text or "x": text,
    }  # fmt: skip


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=LABEL_TEXT, name=st.text(min_size=1, max_size=20))
@example(text="\x00\x1b\u202e\\N\\G&#92;", name="k\\N")
@example(text="9" * 4000, name="🙂\u200d")
def test_dot_accepts_every_graph_whatever_the_text(dot_program, text, name):
    body = request_with(text, name)
    for target in ("chat_template", "openai"):
        traced = trace(body, target=target)
        for source in (local_flow(traced), mixed_result_split(traced), tools_path(traced)):
            run_dot(dot_program, source)
    shown_text = t.preview(text)[0].replace("\xa0", " ")
    assert shown_text in _svg_texts(run_dot(dot_program, local_flow(trace(body))))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_valid_request_draws_for_both_targets_within_the_width(dot_program, data):
    for target in ("chat_template", "openai"):
        body = data.draw(requests(openai=target == "openai"))
        traced = trace(body, target=target)
        source = local_flow(traced)
        # every translated message is drawn, and every one has an arrow into it
        for index in range(len(traced.translated)):
            assert re.search(rf"-> out\d+:t{index}:w", source), f"translated[{index}] has no source edge"
        for picture in (source, tools_path(traced), mixed_result_split(traced)):
            assert svg_size(run_dot(dot_program, picture))[0] <= MAX_WIDTH_PX


# ---------------------------------------------------------------------------
# Rendering: every picture fits a notebook


def _fits(svg: str, what: str) -> None:
    width, _ = svg_size(svg)
    assert width <= MAX_WIDTH_PX, f"{what} is {width:.0f} px wide"
    sizes = [float(size) * 4 / 3 for size in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) >= MIN_FONT_PX, f"{what} has text of {min(sizes):.1f} px"


def test_every_committed_picture_fits_a_notebook(dot_program):
    for path in sorted(COMMITTED.glob("*.svg")):
        _fits(path.read_text(encoding="utf-8"), path.name)
    for path in sorted(COMMITTED.glob("*.dot")):
        _fits(run_dot(dot_program, path.read_text(encoding="utf-8")), path.name + " (rendered here)")


@pytest.mark.parametrize("highlight", [None, "system", "messages[0]", "messages[1]", "messages[2]", "hand_back", "losses"])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_every_readme_picture_a_chapter_shows_fits(dot_program, highlight, target):
    traced = trace(readme_request(), target=target)
    _fits(run_dot(dot_program, local_flow(traced, highlight=highlight)), f"{target} {highlight}")
    if highlight is not None:
        _fits(run_dot(dot_program, local_flow(traced, highlight=highlight, focus=True)), f"{target} {highlight} focused")
    with using("zh"):
        chinese = local_flow(traced, highlight=highlight)
    _fits(run_dot(dot_program, chinese), f"{target} {highlight} in Chinese")


def test_every_committed_dot_file_renders(dot_program):
    for path in sorted(COMMITTED.glob("*.dot")):
        assert "<svg" in run_dot(dot_program, path.read_text(encoding="utf-8"))


def test_the_readme_svg_carries_its_chinese_text_as_text(dot_program, readme_chat):
    for svg in (render_svg(readme_chat), (COMMITTED / "local_flow_chat_template.svg").read_text(encoding="utf-8")):
        assert "你是代码助手" in svg
        assert "请用一句话概括。" in svg
        assert 'font-family="WenQuanYi Micro Hei' in svg


def test_show_gives_svg_when_dot_is_installed(dot_program, readme_chat):
    shown_ = show(readme_chat)
    assert shown_._repr_svg_().lstrip().startswith("<?xml") and "你是代码助手" in shown_._repr_svg_()
    assert repr(shown_) == "<digraph local_flow, rendered as SVG>"  # stable: notebooks store it
    assert shown_.collapsed == ()


def test_a_picture_says_what_it_collapsed(dot_program):
    source = local_flow(trace(agent_request(300)))
    picture = show(source)
    assert isinstance(picture, Picture) and picture.collapsed == source.collapsed
    assert [run.path for run in picture.collapsed] == ["messages[3..298]", "tools[2..28]"]
    notebook = diagram(trace(agent_request(300)), highlight="messages[100]")
    assert [run.path for run in notebook.collapsed][:2] == ["messages[3..99]", "messages[101..298]"]


def test_show_without_dot_gives_the_dot_text_and_how_to_install(monkeypatch, tmp_path, readme_chat):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no `dot` anywhere
    shown_ = show(readme_chat)
    text = repr(shown_)
    assert isinstance(shown_, DotText) and not hasattr(shown_, "_repr_svg_")
    first, _, rest = text.partition("\n\n")
    assert "apt-get install graphviz" in first and "brew install graphviz" in first and "\n" not in first
    assert rest == readme_chat


def test_show_without_the_graphviz_package_gives_text(monkeypatch, readme_chat):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # `import graphviz` now raises ImportError
    shown_ = show(readme_chat)
    assert "pip install graphviz" in repr(shown_) and readme_chat in repr(shown_)


def test_the_install_hints_in_chinese(monkeypatch, tmp_path, readme_chat):
    monkeypatch.setenv("PATH", str(tmp_path))
    with using("zh"):
        first = repr(show(readme_chat)).partition("\n\n")[0]
    assert first.startswith("没有找到 Graphviz 的 `dot` 程序") and "apt-get install graphviz" in first
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with using("zh"):
        assert repr(show(readme_chat)).startswith("没有安装 Python 包 `graphviz`")


def test_python_dash_m_writes_the_files(dot_program, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "tutorial.pictures", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.count("wrote ") == 2 * len(sources())
    assert (tmp_path / "vertical_flow.svg").read_text(encoding="utf-8").count("<svg") == 1
