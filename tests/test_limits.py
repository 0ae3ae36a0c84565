"""The limits of issue 12, at their edges: what passes just inside, what is refused just
outside, where the refusal points, and that the limits agree from one entry point to the
next (what `translate` accepts, `render` and the way back accept too)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tutorial
from tutorial import RequestError, build_reply, counting_ids, flatten_content, render, response_to_message, sse_events
from tutorial import to_anthropic, trace, translate
from tutorial.client_tools import CLIENT_TOOLS, NEWEST, tool_kind
from tutorial.limits import FREE_DEPTH, MAX_DEPTH, MAX_INT_DIGITS, MAX_VALUES, check_json, read_json
from tutorial.watch.rendering import RenderError

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("chat_template", "openai")


def nested(depth: int, leaf=1) -> dict:
    """{"k": {"k": ... leaf}}: `depth` objects."""
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


def refused(run, *args, **kwargs) -> RequestError:
    with pytest.raises(RequestError) as caught:
        run(*args, **kwargs)
    assert "\n" not in str(caught.value)
    return caught.value


def tool_use_body(tool_input) -> dict:
    return {"messages": [{"role": "user", "content": "hi"},
                         {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": tool_input}]}],
            "tools": [{"name": "f", "input_schema": {"type": "object", "properties": {}}}]}  # fmt: skip


INPUT = ("messages", 1, "content", 0, "input")

# ---------------------------------------------------------------------------
# check_json itself


def test_depth_is_counted_in_objects_and_arrays_and_refused_one_past_the_limit():
    check_json(nested(FREE_DEPTH))
    error = refused(check_json, nested(FREE_DEPTH + 1), ("x",))
    assert error.location == ("x",) + ("k",) * FREE_DEPTH
    assert f"deeper than {FREE_DEPTH} levels" in error.problem
    check_json([[[]]], max_depth=3)
    assert refused(check_json, [[[[]]]], (), max_depth=3).location == (0, 0, 0)


@pytest.mark.parametrize("make, where", [
    (lambda: (lambda d: (d.__setitem__("self", d), d)[1])({"a": 1}), ("self",)),
    (lambda: (lambda l: (l.append(l), l)[1])([1]), (1,)),
    (lambda: (lambda a, b: (a.__setitem__("b", b), b.__setitem__("a", a), a)[2])({}, {}), ("b", "a")),
])  # fmt: skip
def test_a_value_that_contains_itself_is_refused_where_the_cycle_closes(make, where):
    error = refused(check_json, make())
    assert error.location == where and "contains itself" in error.problem


def test_shared_objects_are_fine_but_their_expansion_is_counted():
    shared = {"x": [1, 2]}
    check_json({"a": shared, "b": shared, "c": [shared, shared]})
    value: object = "leaf"
    for _ in range(40):  # 2**40 leaves once written out as JSON text
        value = [value, value]
    started = time.perf_counter()
    error = refused(check_json, value)
    assert f"more than {MAX_VALUES:,} values" in error.problem and time.perf_counter() - started < 10


def test_integers_up_to_the_python_limit_pass_longer_ones_are_located():
    check_json({"n": 10**MAX_INT_DIGITS - 1, "m": -(10**MAX_INT_DIGITS - 1)})
    error = refused(check_json, {"ok": 1, "n": [0, 10**MAX_INT_DIGITS]})
    assert error.location == ("n", 1) and f"more than {MAX_INT_DIGITS} digits" in error.problem


@pytest.mark.parametrize("value, word", [
    (float("nan"), "finite"), (float("inf"), "finite"), (b"x", "bytes"), (("x",), "tuple"), ({"x"}, "set"),
    (object(), "object"), (1j, "complex"), (len, "builtin_function_or_method"),
])  # fmt: skip
def test_what_json_cannot_carry_is_refused(value, word):
    assert word in refused(check_json, {"a": [value]}).problem


def test_keys_must_be_strings_and_the_error_points_at_the_object():
    for key in (1, None, (1, 2), 1.5, True):
        error = refused(check_json, {"a": {"ok": 1, key: 2}}, ("root",))
        assert error.location == ("root", "a") and "key of type" in error.problem


def test_subclasses_of_json_types_are_json():
    from collections import OrderedDict
    from enum import IntEnum

    class Name(str):
        pass

    check_json(OrderedDict(a=[Name("x"), IntEnum("E", "A").A, 1.5, None, True]))


def test_a_key_with_a_line_break_keeps_the_error_on_one_line():
    error = refused(translate, tool_use_body({"a\nb": float("nan")}))
    assert error.location == INPUT + ("a\nb",)
    assert str(error).startswith('messages[1].content[0].input["a\\nb"]: ')


# ---------------------------------------------------------------------------
# JSON text


def test_read_json_locates_deep_nesting_and_long_integers_in_the_text():
    deep = "[" * 100_000 + "]" * 100_000
    assert "line 1, column 65" in refused(read_json, deep, "stdin").problem
    text = '{\n  "max_tokens": 1' + "0" * 5000 + "\n}"
    error = refused(read_json, text, "request.json")
    assert error.problem.startswith("request.json has an integer of more than 4300 digits (at line 2, column 17)")
    assert read_json(b"\xef\xbb\xbf{}") == {}  # a BOM is skipped
    assert "not UTF-8" in refused(read_json, b"\xff{}").problem
    assert refused(read_json, "{", "x", ("messages", 0)).location == ("messages", 0)


def test_read_json_refuses_text_larger_than_the_api_takes(monkeypatch):
    import tutorial.limits as limits

    monkeypatch.setattr(limits, "MAX_TEXT_BYTES", 10)
    assert "larger than" in refused(read_json, b'{"messages": []}').problem


# ---------------------------------------------------------------------------
# The contract: every free value, both ways of checking it (pydantic-core, then Python)

PLACES = {
    "tool input": (tool_use_body, INPUT),
    "input_schema": (lambda v: {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "f", "input_schema": v}]},
                     ("tools", 0, "input_schema")),
    "unknown block field": (lambda v: {"messages": [{"role": "user", "content": [{"type": "future", "payload": v}]}]},
                            ("messages", 0, "content", 0, "payload")),
    "block inside a tool_result": (lambda v: {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                   "content": [{"type": "future", "payload": v}]}]}]}, ("messages", 0, "content", 0, "content", 0, "payload")),
    "top-level parameter": (lambda v: {"messages": [], "metadata": v}, ("metadata",)),
    "tool setting": (lambda v: {"messages": [], "tools": [{"type": "bash_20250124", "name": "bash", "extra": v}]}, ("tools", 0, "extra")),
    "image source field": (lambda v: {"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "u", "x": v}}]}]},
                           ("messages", 0, "content", 0, "source", "x")),
}  # fmt: skip


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("target", TARGETS)
def test_each_free_value_may_nest_to_the_limit_and_no_further(place, target):
    build, where = PLACES[place]
    ok = build(nested(FREE_DEPTH))
    try:
        translate(ok, target=target)
    except RequestError as error:  # the openai target may refuse the block's type, never its depth
        assert target == "openai" and error.location[-1] == "type", error
    error = refused(translate, build(nested(FREE_DEPTH + 1)), target=target)
    assert error.location == where + ("k",) * FREE_DEPTH and "deeper than" in error.problem


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 9])
@pytest.mark.parametrize("bad, word", [(10**MAX_INT_DIGITS, "digits"), (float("nan"), "finite"), (b"x", "bytes")], ids=["huge", "nan", "bytes"])
def test_the_fast_check_and_the_python_walk_give_the_same_answer_at_any_depth(depth, bad, word):
    """pydantic-core checks shallow free values itself and hands deeper ones to Python:
    either way the same place and the same words."""
    for place, (build, where) in PLACES.items():
        error = refused(translate, build(nested(depth, bad)))
        assert error.location == where + ("k",) * depth, place
        assert word in error.problem, (place, error.problem)


def test_keys_that_are_not_strings_anywhere_the_contract_reads():
    for place, (build, where) in PLACES.items():
        error = refused(translate, build({"ok": 1, 7: 2}))
        assert error.location == where and "key of type int" in error.problem, place


def test_tool_results_nested_in_tool_results_are_bounded_by_the_free_value_limit():
    value = {"type": "text", "text": "leaf"}
    for _ in range(FREE_DEPTH // 2):
        value = {"type": "tool_result", "tool_use_id": "t", "content": [value]}
    body = {"messages": [{"role": "user", "content": [value]}]}
    assert translate(body)[0] == [{"role": "tool", "content": "leaf"}]
    for _ in range(300):
        value = {"type": "tool_result", "tool_use_id": "t", "content": [value]}
    error = refused(translate, {"messages": [{"role": "user", "content": [value]}]})
    assert "deeper than" in error.problem and "must be a content block" not in error.problem


def test_the_deepest_body_the_contract_takes_is_within_max_depth_everywhere_after():
    """A free value at the deepest place the contract's shapes allow, as deep as it may be:
    every later step takes what translate gave (the two limits agree)."""
    leaf = nested(FREE_DEPTH - 1)
    body = {
        "system": [{"type": "text", "text": "s"}],
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": leaf}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
                {"type": "search_result", "title": "t", "source": "s", "content": [{"type": "text", "text": "x", "citations": leaf}]}]}]},
        ],
        "tools": [{"name": "f", "input_schema": leaf}],
    }  # fmt: skip
    for target in TARGETS:
        messages, tools = translate(body, target=target)
        check_json(messages, (), MAX_DEPTH) or check_json(tools, (), MAX_DEPTH)
        for template in ("chatml", "glm_style"):
            render(messages, tools, template=template)
        wire = to_anthropic(messages, tools)
        assert translate({"messages": wire["messages"]}, target=target)
    blocks, stop_reason, _ = build_reply({"tool_uses": [{"name": "f", "input": leaf}]}, "tool_calls", new_id=counting_ids())
    sse_events(blocks, stop_reason, message_id="m", model="m", input_tokens=1, output_tokens=1)
    to_anthropic([{"role": "user", "content": "q"}, response_to_message({"content": blocks})])


def test_a_huge_integer_in_a_block_type_is_refused_without_noise(capfd):
    error = refused(translate, {"messages": [{"role": "user", "content": [{"type": 10**5000}]}]})
    assert error.location == ("messages", 0, "content", 0, "type")
    assert "Exception ignored" not in capfd.readouterr().err


# ---------------------------------------------------------------------------
# Fields the contract leaves alone: translate ignores them, trace (which reports them) checks them


def test_unnamed_fields_of_frequent_blocks_are_checked_by_trace_where_they_are_in_the_body_as_sent():
    body = {"messages": [{"role": "user", "content": "a"}, {"role": "system", "content": "reminder"},
                         {"role": "user", "content": [{"type": "text", "text": "x", "cache_control": {"n": float("nan")}}]}]}  # fmt: skip
    assert translate(body)[0][-1] == {"role": "user", "content": "x"}
    error = refused(trace, body)
    assert error.location == ("messages", 2, "content", 0, "cache_control", "n")  # not messages[1]: preprocess folded one
    body["messages"][2]["content"][0] = {"type": "text", "text": "x", 5: 6}
    assert refused(trace, body, target="openai").location == ("messages", 2, "content", 0)


# ---------------------------------------------------------------------------
# flatten_content on values that never went through the contract


def test_flatten_content_refuses_content_that_contains_itself_and_takes_reasonable_depths():
    block = {"type": "future", "content": []}
    block["content"].append(block)
    assert "deeper than" in refused(flatten_content, [block]).problem
    value = {"type": "text", "text": "leaf"}
    for _ in range(30):
        value = {"type": "future", "content": [value]}
    assert flatten_content([value]) == "leaf"


# ---------------------------------------------------------------------------
# Client tools, toolsets, Files-API sources, system messages in order


def test_every_client_tool_is_offered_with_its_documented_schema_by_both_targets():
    for kind, (description, schema) in CLIENT_TOOLS.items():
        body = {"messages": [{"role": "user", "content": "go"}], "tools": [{"type": kind, "name": "x", "defer_loading": True}]}
        for target in TARGETS:
            (tool,) = translate(body, target=target)[1]
            assert tool["function"]["parameters"] == schema and tool["function"]["description"] == description
            assert tool["function"]["parameters"] is not schema  # a copy: the caller may change it
    assert set(CLIENT_TOOLS["text_editor_20250124"][1]["properties"]["command"]["enum"]) >= {"undo_edit"}
    assert "undo_edit" not in CLIENT_TOOLS["text_editor_20250728"][1]["properties"]["command"]["enum"]
    assert "zoom" in CLIENT_TOOLS["computer_20251124"][1]["properties"]["action"]["enum"]
    assert "zoom" not in CLIENT_TOOLS["computer_20250124"][1]["properties"]["action"]["enum"]


def test_an_unknown_version_of_a_client_tool_gets_the_newest_schema_and_the_loss_report_says_so():
    body = {"messages": [{"role": "user", "content": "go"}], "tools": [{"type": "memory_20991231", "name": "memory"}]}
    for target in TARGETS:
        t = trace(body, target=target)
        assert t.tools_schema[0]["function"]["parameters"] == CLIENT_TOOLS[NEWEST["memory"]][1]
        (loss,) = [loss for loss in t.losses if loss.location == ("tools", 0, "type")]
        assert "does not know" in loss.reason and NEWEST["memory"] in loss.reason


def test_tool_kinds():
    assert [tool_kind(t) for t in ({"name": "f"}, {"type": "custom", "name": "f"}, {"type": "bash_20250124", "name": "bash"},
                                   {"type": "web_search_20250305", "name": "web_search"}, {"type": "mcp_toolset"},
                                   {"type": "browser_toolset_20260801"})] == ["custom", "custom", "client", "server", "toolset", "toolset"]  # fmt: skip


def test_toolsets_and_files_api_sources_are_accepted_and_their_losses_named():
    body = {"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "file", "file_id": "file_1"}},
                                                      {"type": "document", "source": {"type": "file", "file_id": "file_2"}}]}],
            "tools": [{"type": "mcp_toolset", "mcp_server_name": "m"}]}  # fmt: skip
    chat = trace(body)
    assert chat.translated == [{"role": "user", "content": "[image omitted]"}, {"role": "user", "content": "[document omitted]"}]
    assert chat.tools_schema is None
    assert {loss.path for loss in chat.losses} >= {"messages[0].content[0]", "messages[0].content[1]", "tools[0]"}
    body["messages"][0]["content"].pop()  # the openai target carries no documents at all
    openai = trace(body, target="openai")
    assert openai.translated == [{"role": "user", "content": "[image omitted]"}]
    assert "messages[0].content[0].source" in {loss.path for loss in openai.losses}


def test_the_openai_target_merges_every_system_prompt_into_one_leading_message_in_order():
    body = {"system": "A", "messages": [{"role": "system", "content": "B"}, {"role": "user", "content": "hi"},
                                        {"role": "system", "content": [{"type": "text", "text": "C"}]}]}  # fmt: skip
    assert translate(body, target="openai")[0] == [{"role": "system", "content": "A\nB\nC"}, {"role": "user", "content": "hi"}]
    body.pop("system")
    assert translate(body, target="openai")[0][0] == {"role": "system", "content": "B\nC"}


# ---------------------------------------------------------------------------
# The way back


def test_thinking_blocks_carry_an_empty_signature_and_the_sdk_types_take_them():
    blocks, _, manager = build_reply({"reasoning": "r", "text": "t"}, "stop", new_id=counting_ids())
    assert blocks[0] == {"type": "thinking", "thinking": "r", "signature": ""}
    assert "signature" not in json.dumps(manager)
    events = sse_events(blocks, "end_turn", message_id="m", model="m", input_tokens=1, output_tokens=1)
    start = next(e["data"]["content_block"] for e in events if e["event"] == "content_block_start")
    assert start == {"type": "thinking", "thinking": "", "signature": ""}
    assert not [e for e in events if e["data"].get("delta", {}).get("type") == "signature_delta"]  # nothing to add
    anthropic = pytest.importorskip("anthropic")
    anthropic.types.ThinkingBlock.model_validate(blocks[0], strict=True)
    anthropic.types.RawContentBlockStartEvent.model_validate(events[1]["data"], strict=True)


def test_to_anthropic_leaves_out_what_would_be_empty():
    messages = [{"role": "user", "content": "q"},
                {"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}},
                                                                     {"id": "b", "function": {"name": "g", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "a", "content": ""}, {"role": "tool", "tool_call_id": "b", "content": []}]  # fmt: skip
    wire = to_anthropic(messages)
    assert "system" not in wire
    assert wire["messages"][2]["content"] == [{"type": "tool_result", "tool_use_id": "a"}, {"type": "tool_result", "tool_use_id": "b"}]


def test_the_way_back_refuses_hostile_values_located_in_its_arguments():
    cyclic: dict = {}
    cyclic["self"] = cyclic
    assert refused(build_reply, {"tool_uses": [{"name": "f", "input": {"x": cyclic}}]}, "stop").location == ("tool_uses", 0, "input", "x", "self")
    assert refused(sse_events, [{"type": "tool_use", "id": "t", "name": "f", "input": {"n": float("nan")}}], "tool_use",
                   message_id="m", model="m", input_tokens=1, output_tokens=1).location == ("blocks", 0, "input", "n")  # fmt: skip
    assert refused(sse_events, [], "end_turn", message_id="m", model="m", input_tokens=10**5000, output_tokens=1).location == ("input_tokens",)
    call = [{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "[" * 100_000 + "]" * 100_000}}]}]
    assert refused(to_anthropic, call).location == ("messages", 0, "tool_calls", 0, "function", "arguments")
    error = refused(response_to_message, {"type": "error", "error": {"type": "overloaded_error", "message": "busy\n" * 10, "x": cyclic}})
    assert error.location == ("error",) and "overloaded_error" in str(error)
    assert refused(build_reply, {}, "stop", new_id="not a function").location == ("new_id",)


# ---------------------------------------------------------------------------
# Rendering: what a template may build is bounded, before it is built

BOMBS = {
    "string repeat": "{{ 'a' * 10**9 }}",
    "list repeat": "{{ [1] * 10**9 }}",
    "power": "{{ 10 ** (10 ** 8) }}",
    "printf width": "{{ '%1000000000d' % 1 }}",
    "printf star": "{{ '%*d' % (1000000000, 1) }}",
    "format width": "{{ '{0:>1000000000}'.format(1) }}",
    "format computed width": "{{ '{0:>{1}}'.format(1, 1000000000) }}",
    "ljust": "{{ 'a'.ljust(1000000000) }}",
    "center filter": "{{ 'a' | center(1000000000) }}",
    "indent filter": "{{ 'a\nb' | indent(1000000000) }}",
    "replace method": "{{ ('a' * 1000000).replace('a', 'b' * 1000) }}",
    "replace filter": "{{ ('a' * 1000000) | replace('a', 'b' * 1000) }}",
    "join separator": "{{ ([1] * 100000) | join('x' * 10000) }}",
    "concat doubling": "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
    "plus doubling": "{% set ns = namespace(s=['a']) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}",
    "exponential macro": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
    "nested ranges": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "output": "{% for i in range(100000) %}{{ 'x' * 10000000 }}{% endfor %}",
    "tojson indent": "{{ messages | tojson(indent=1000000000) }}",
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_template_cannot_allocate_without_bound(name):
    started = time.perf_counter()
    with pytest.raises(RenderError) as caught:
        render([{"role": "user", "content": "hi"}], template=BOMBS[name])
    assert time.perf_counter() - started < 10, name
    assert "\n" not in str(caught.value)


def test_legitimate_templates_still_render_large_prompts():
    big = "字" * 5_000_000
    assert len(render([{"role": "user", "content": big}])) > 5_000_000
    assert render([], template="{{ 'ab' * 3 }}{{ [1, 2] * 2 }}{{ 2 ** 10 }}{{ '%5d' % 3 }}{{ 'x' | center(9) }}") == "ababab[1, 2, 1, 2]1024    3    x    "


def test_render_refuses_messages_that_are_not_plain_json_located():
    cyclic: dict = {}
    cyclic["self"] = cyclic
    for messages, where in (([{"role": "user", "content": "x", "extra": cyclic}], "messages[0].extra.self: "),
                            ([{"role": "user", "content": [[[[]]]] * 1, "n": float("nan")}], "messages[0].n: "),
                            ({"role": "user"}, "messages must be a list")):  # fmt: skip
        with pytest.raises(RenderError, match=r"^chat template 'chatml': " + __import__("re").escape(where)):
            render(messages)


# ---------------------------------------------------------------------------
# The command line


def cli(*args: str, stdin: bytes = b"", env: dict = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE", "PYTHONIOENCODING", "PYTHONUTF8")}
    environment.update(LANG="C", LC_ALL="C", PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, env=environment, cwd=ROOT, timeout=120)


def test_cli_prints_lone_surrogates_as_json_escapes_under_the_c_locale():
    body = json.dumps({"messages": [{"role": "user", "content": "a\ud800b"}]}).encode()
    done = cli("-m", "tutorial", "translate", "-", stdin=body)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8"))["translated"] == [{"role": "user", "content": "a\ud800b"}]


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, "nests deeper"),
    ('{"messages": [], "max_tokens": 1' + "0" * 5000 + "}", "more than 4300 digits"),
    ('{"messages": [{"role": "user", "content": "hi"}], "max_tokens": NaN}', "finite"),
    ('{"messages": [', "not valid JSON"),
])  # fmt: skip
def test_cli_bad_text_is_one_line_with_status_2(text, words):
    for command in ("translate", "walk"):
        done = cli("-m", "tutorial", command, "-", stdin=text.encode())
        err = done.stderr.decode()
        assert done.returncode == 2 and len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err, err


def test_cli_into_a_closed_pipe_ends_quietly():
    process = subprocess.Popen([sys.executable, "-m", "tutorial", "walk"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    process.wait(timeout=60)
    assert stderr == "", stderr


def test_cli_serve_without_the_serve_package_says_what_to_install():
    code = "import sys; sys.modules['tutorial.serve.cli'] = None; from tutorial.cli import main; sys.exit(main(['serve']))"
    done = cli("-c", code)
    err = done.stderr.decode()
    assert done.returncode == 2 and len(err.strip().splitlines()) == 1 and "serve" in err and "pip install" in err, err


def test_the_public_api_never_leaks_anything_but_request_error_for_the_readme_mutated():
    """A quick sweep in-process (tests/test_hostile.py has the full battery)."""
    base = tutorial.readme_request()
    bad_values = [10**5000, float("nan"), b"x", (1,), object(), {1: 2}, nested(100)]
    paths = [("messages", 2, "content", 0, "content", 0, "cache_control"), ("tools", 0, "input_schema", "properties"),
             ("messages", 1, "content", 1, "input", "path"), ("system", 0, "citations"), ("metadata",)]  # fmt: skip
    for path in paths:
        for value in bad_values:
            body = copy.deepcopy(base)
            target = body
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            for run in (translate, trace):
                for name in TARGETS:
                    try:
                        run(body, target=name)
                    except RequestError as error:
                        assert "\n" not in str(error)
