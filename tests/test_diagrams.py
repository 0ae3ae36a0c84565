"""The diagrams: golden DOT files, what the pictures must show, and that `dot` accepts
every graph, whatever text a request carries.

The golden tests compare DOT text only (SVG embeds the Graphviz version). Tests that run
`dot` skip where it is missing, except on CI (CI set), where a missing `dot` fails.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
from graphviz_dot import find_dot, run_dot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import requests

from tutorial import readme_request, trace
from tutorial.pictures import flow as diagrams

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "diagrams"
LIT = diagrams._LIT_EDGE["color"]  # the highlight colour


@pytest.fixture
def dot_program() -> str:
    return find_dot()


def edge(source: str, tail: str, head: str) -> str:
    """The attribute text of the edge tail -> head (fails if there is none)."""
    found = re.search(rf"^\s*{re.escape(tail)} -> {re.escape(head)}(?: \[(.*)\])?;$", source, re.MULTILINE)
    assert found, f"no edge {tail} -> {head}"
    return found.group(1) or ""


def node(source: str, node_id: str) -> str:
    found = re.search(rf"^\s*{re.escape(node_id)} \[(.*)\];$", source, re.MULTILINE)
    assert found, f"no node {node_id}"
    return found.group(1)


@pytest.fixture(scope="module")
def readme_chat() -> str:
    return diagrams.local_flow(trace(readme_request()))


# ---------------------------------------------------------------------------
# Golden files: the builders produce the committed DOT exactly (no `dot` needed)


def test_builders_produce_the_committed_dot_files():
    built = diagrams.sources()
    assert sorted(path.stem for path in COMMITTED.glob("*.dot")) == sorted(built)
    for stem, source in built.items():
        assert (COMMITTED / f"{stem}.dot").read_text(encoding="utf-8") == source, (
            f"diagrams/{stem}.dot is stale: run python -m tutorial.pictures"
        )


def test_regenerating_reproduces_the_committed_dot_files_byte_for_byte(tmp_path):
    written = diagrams.write_all(tmp_path, svg=False)
    assert [path.suffix for path in written] == [".dot"] * len(diagrams.sources())
    for path in written:
        assert path.read_bytes() == (COMMITTED / path.name).read_bytes()


def test_every_committed_dot_file_has_its_svg():
    for path in COMMITTED.glob("*.dot"):
        assert path.with_suffix(".svg").exists(), f"{path.name} has no render"


def test_output_is_deterministic_and_free_of_addresses():
    first, second = diagrams.sources(), diagrams.sources()
    assert first == second
    for source in first.values():
        assert not re.search(r"0x[0-9a-fA-F]{6,}", source)
        assert source.endswith("}\n")
        assert diagrams.FONT in source  # a CJK-capable font, so Chinese renders as Chinese


def test_import_tutorial_does_not_load_graphviz():
    code = "import sys, tutorial, tutorial.pictures; assert 'graphviz' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# ---------------------------------------------------------------------------
# What the README example's local flow must show (default target)


def test_the_system_list_goes_through_flatten_content(readme_chat):
    assert "system · 1 text block" in node(readme_chat, "in_sys")
    assert 'label="flatten_content"' in edge(readme_chat, "in_sys", "out0")


def test_the_first_user_text_is_taken_directly(readme_chat):
    assert 'label="text taken directly"' in edge(readme_chat, "in_m0_c0", "out1")
    assert "读取 README.md 并概括内容。" in node(readme_chat, "out1")


def test_the_assistant_gives_text_plus_a_tool_call_dict(readme_chat):
    assert 'label="text taken directly"' in edge(readme_chat, "in_m1_c0", "out2")
    assert 'label="tool_call_dict"' in edge(readme_chat, "in_m1_c1", "out2")
    assert 'tool_call read_file {\\"path\\": \\"README.md\\"}' in node(readme_chat, "out2")


def test_one_user_message_splits_into_a_tool_and_a_user_message(readme_chat):
    assert "subgraph cluster_m2 {" in readme_chat
    assert 'label="flatten_content"' in edge(readme_chat, "in_m2_c0", "out3")
    assert 'label="text taken directly"' in edge(readme_chat, "in_m2_c1", "out4")
    assert "translated[3] · tool" in node(readme_chat, "out3")
    assert "translated[4] · user" in node(readme_chat, "out4")


def test_the_tool_definition_is_wrapped(readme_chat):
    assert "wrapped as a function tool" in edge(readme_chat, "in_t0", "schema0")
    assert "input_schema -> parameters" in edge(readme_chat, "in_t0", "schema0")


def test_both_results_return_to_run_turn_as_one_tuple(readme_chat):
    edge(readme_chat, "body", "messages_path")
    edge(readme_chat, "body", "tools_path")
    edge(readme_chat, "translated", "hand_back")
    edge(readme_chat, "tools_schema", "hand_back")
    back = edge(readme_chat, "hand_back", "run_turn")
    assert "function return" in back and "no HTTP request" in back
    assert readme_chat.count("-> run_turn") == 1


def test_what_stays_behind_is_drawn_apart_and_dashed(readme_chat):
    assert "subgraph cluster_losses {" in readme_chat
    for n, (tail, place) in enumerate(
        [
            ("in_m1_c1", "messages[1].content[1].id"),
            ("in_m2_c0", "messages[2].content[0].tool_use_id"),
            ("body", "max_tokens"),
        ]
    ):
        assert place in node(readme_chat, f"loss{n}")
        assert 'style="dashed"' in edge(readme_chat, tail, f"loss{n}")


def test_the_openai_target_labels_edges_with_its_own_helpers():
    source = diagrams.local_flow(trace(readme_request(), target="openai"))
    assert 'label="system_text"' in edge(source, "in_sys", "out0")
    assert 'label="content_part"' in edge(source, "in_m0_c0", "out1")
    assert 'label="openai_tool_call"' in edge(source, "in_m1_c1", "out2")
    assert 'label="tool_result_messages"' in edge(source, "in_m2_c0", "out3")
    assert 'tool_call_id \\"toolu_demo\\"' in node(source, "out3")
    assert "openai_messages(messages, system)" in source


def test_mixed_result_split_gives_one_tool_message_per_run():
    traced = trace(diagrams.mixed_result_request(), target="openai")
    result = next(p for p in traced.produced if p.via == ("tool_result_messages",))
    assert len(result.outputs) == 3
    source = diagrams.mixed_result_split(traced)
    for run, (part, output) in enumerate(zip(["r0_p0", "r0_p1", "r0_p2"], result.outputs), start=1):
        assert f'label="run {run}: ' in edge(source, part, f"r0_out{output}")
        assert 'tool_call_id \\"toolu_search\\"' in node(source, f"r0_out{output}")
    assert "tool_reference" in edge(source, "r0_p1", f"r0_out{result.outputs[1]}")


def test_mixed_result_with_the_default_target_flattens_into_one_message():
    traced = trace(diagrams.mixed_result_request())
    source = diagrams.mixed_result_split(traced)
    assert 'label="flatten_content"' in edge(source, "r0_p0", "r0_out3")
    assert 'label="flatten_content"' in edge(source, "r0_p2", "r0_out3")
    assert 'style="dashed"' in edge(source, "r0_p1", "r0_lost1")  # a reference has no text


def test_tools_path_renames_input_schema_to_parameters():
    source = diagrams.tools_path(trace(readme_request()))
    assert "renamed parameters" in edge(source, "tool0:f2:e", "fn0:parametersk:w")
    assert "kept" in edge(source, "tool0:f0:e", "fn0:namek:w")
    assert "wrapped" in edge(source, "tool0:head:e", "fn0:typek:w")


def test_a_request_without_tools_or_tool_results_still_draws():
    traced = trace({"messages": [{"role": "user", "content": "hi"}]})
    assert "None: no usable tools" in diagrams.local_flow(traced)
    assert "no tool_result" in diagrams.mixed_result_split(traced)
    assert "tools_schema = None" in diagrams.tools_path(traced)
    empty = diagrams.local_flow(trace({"messages": []}))
    assert "a list of 0 messages" in empty


# ---------------------------------------------------------------------------
# Highlighting


def test_highlighting_a_helper_lights_its_edges_only(readme_chat):
    lit = diagrams.local_flow(trace(readme_request()), highlight="flatten_content")
    assert lit != readme_chat and LIT not in readme_chat
    assert LIT in edge(lit, "in_sys", "out0") and LIT in edge(lit, "in_m2_c0", "out3")
    assert LIT not in edge(lit, "in_m1_c1", "out2")


def test_highlighting_a_path_lights_everything_under_it():
    lit = diagrams.local_flow(trace(readme_request()), highlight="messages[2]")
    assert LIT in edge(lit, "in_m2_c0", "out3") and LIT in edge(lit, "in_m2_c1", "out4")
    assert LIT not in edge(lit, "in_m1_c0", "out2")
    assert diagrams._LIT_NODE["fillcolor"] in node(lit, "out4")


@pytest.mark.parametrize(
    "name", ["tool_call_dict", "tools", "hand_back", "losses", "direct", "translated[2]", "max_tokens"]
)
def test_every_stage_name_changes_the_picture(name, readme_chat):
    assert diagrams.local_flow(trace(readme_request()), highlight=name) != readme_chat


def test_an_unknown_highlight_is_an_error_not_a_silent_no_op():
    with pytest.raises(ValueError, match="messages\\[9\\]"):
        diagrams.local_flow(trace(readme_request()), highlight="messages[9]")
    with pytest.raises(ValueError, match="translate"):
        diagrams.vertical_flow("translation")


def test_vertical_flow_highlights_one_stage():
    default, plain = diagrams.vertical_flow(), diagrams.vertical_flow(None)
    assert LIT in node(default, "translate") and LIT not in plain
    sampling = diagrams.vertical_flow("sampling")
    assert LIT in node(sampling, "sampling") and LIT not in node(sampling, "translate")
    for name in diagrams.STAGES:
        assert diagrams.vertical_flow(name) != plain


# ---------------------------------------------------------------------------
# Any text in a label


NASTY = 'say "hi" \\ {a|b} <x> & &amp; \\N \n end'


def test_labels_escape_what_dot_would_read_as_syntax():
    assert diagrams._label(['"q" \\ &amp; \\N']) == '"\\"q\\" \\\\ &amp;amp; \\\\N"'
    source = diagrams.local_flow(trace({"messages": [{"role": "user", "content": NASTY}]}))
    assert diagrams._show(NASTY) == ['"say \\"hi\\" \\\\ {a|b} <x> & &amp;', ' \\\\N \\n end"']
    assert "&amp;amp;" in node(source, "in_m0")


def test_the_picture_shows_the_text_exactly_as_json(dot_program):
    svg = run_dot(dot_program, diagrams.local_flow(trace({"messages": [{"role": "user", "content": NASTY}]})))
    shown = [html.unescape(text) for text in re.findall(r"<text[^>]*>(.*?)</text>", svg)]
    for line in diagrams._show(NASTY):
        assert line in shown


def test_long_text_is_shortened_with_an_ellipsis():
    source = diagrams.local_flow(trace({"messages": [{"role": "user", "content": "长" * 500}]}))
    label = node(source, "in_m0")
    assert "…" in label and label.count("长") < 40


def test_hidden_characters_are_shown_as_escapes():
    assert diagrams._wrap("a\u200bb\u2028c\x85") == ["a\\u200bb\\u2028c\\u0085"]
    assert diagrams._wrap("ab" * 40, 10, 2) == ["ab" * 5, "ababababa…"]
    assert diagrams._wrap("你好" * 20, 10, 1) == ["你好你好…"]


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
        "tools": [{"name": name, "description": text, "input_schema": {"type": "object", "properties": {text: {"type": "string"}}}}],
        text or "x": text,
    }  # fmt: skip


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=LABEL_TEXT, name=st.text(min_size=1, max_size=20))
def test_dot_accepts_every_graph_whatever_the_text(dot_program, text, name):
    body = request_with(text, name)
    for target in ("chat_template", "openai"):
        traced = trace(body, target=target)
        for source in (diagrams.local_flow(traced), diagrams.mixed_result_split(traced), diagrams.tools_path(traced)):
            run_dot(dot_program, source)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_any_valid_request_draws_for_both_targets(dot_program, data):
    for target in ("chat_template", "openai"):
        body = data.draw(requests(openai=target == "openai"))
        traced = trace(body, target=target)
        source = diagrams.local_flow(traced)
        # every translated message is drawn, and every one has an edge into it
        for index in range(len(traced.translated)):
            assert re.search(rf"-> out{index} \[", source), f"translated[{index}] has no source edge"
        run_dot(dot_program, source)
        run_dot(dot_program, diagrams.tools_path(traced))
        run_dot(dot_program, diagrams.mixed_result_split(traced))


# ---------------------------------------------------------------------------
# Rendering


def test_every_committed_dot_file_renders(dot_program):
    for path in sorted(COMMITTED.glob("*.dot")):
        assert "<svg" in run_dot(dot_program, path.read_text(encoding="utf-8"))


def test_the_readme_svg_carries_its_chinese_text_as_text(dot_program, readme_chat):
    for svg in (
        diagrams.render_svg(readme_chat),
        (COMMITTED / "local_flow_chat_template.svg").read_text(encoding="utf-8"),
    ):
        assert "你是代码助手" in svg
        assert "请用一句话概括。" in svg
        assert 'font-family="WenQuanYi Micro Hei' in svg


def test_show_gives_svg_when_dot_is_installed(dot_program, readme_chat):
    shown = diagrams.show(readme_chat)
    assert shown._repr_svg_().lstrip().startswith("<?xml") and "你是代码助手" in shown._repr_svg_()
    assert repr(shown) == "<digraph local_flow, rendered as SVG>"  # stable: notebooks store it


def test_show_without_dot_gives_the_dot_text_and_how_to_install(monkeypatch, tmp_path, readme_chat):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no `dot` anywhere
    shown = diagrams.show(readme_chat)
    text = repr(shown)
    assert isinstance(shown, diagrams.DotText) and not hasattr(shown, "_repr_svg_")
    first, _, rest = text.partition("\n\n")
    assert "apt-get install graphviz" in first and "brew install graphviz" in first and "\n" not in first
    assert rest == readme_chat


def test_show_without_the_graphviz_package_gives_text(monkeypatch, readme_chat):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # `import graphviz` now raises ImportError
    shown = diagrams.show(readme_chat)
    assert "pip install graphviz" in repr(shown) and readme_chat in repr(shown)


def test_python_dash_m_writes_the_files(dot_program, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "tutorial.pictures", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.count("wrote ") == 2 * len(diagrams.sources())
    assert (tmp_path / "vertical_flow.svg").read_text(encoding="utf-8").count("<svg") == 1
