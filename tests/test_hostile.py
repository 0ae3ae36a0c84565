"""Hostile input, every entry point (issue 12).

The contract: only `RequestError` (or the renderer's own error) escapes any entry point for
any input, and the command line never prints a traceback. A refusal is one line that starts
with its location — a real path into what was given, at or under the hostile value when the
problem is inside the input — and says what is wrong (for nesting: that it is too deep; the
limit is the implementation's to choose). Nothing given is ever changed, and nothing takes
quadratic time or unbounded memory.

The inputs come from `tests/hostile.py`. Tests that need more than the exception contract
(wire output must be strict JSON, a diagram must escape a key) say so in their names.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
from hypothesis import HealthCheck, given, settings

import tutorial
from tutorial import (
    RequestError,
    build_reply,
    counting_ids,
    flatten_content,
    preprocess,
    readme_request,
    response_to_message,
    sse_events,
    to_anthropic,
    tools_to_chat_tools,
    trace,
    translate,
    translate_messages,
)

import hostile as H

ROOT = Path(__file__).resolve().parent.parent
DEEP = re.compile(r"(?i)deep|depth|nest|level")
HUGE = re.compile(r"(?i)digit|integer|number|large|big|long")
CYCLE = re.compile(r"(?i)cycl|circular|itself|recurs|refer|deep|depth|nest|level")
SLOW = 20.0  # seconds: loose, only to catch quadratic work on 10 MB
HYPOTHESIS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

# ---------------------------------------------------------------------------
# Finding the parts that move between folders


def _first_module(names: tuple, *attributes: str):
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if all(hasattr(module, attribute) for attribute in attributes):
            return module
    pytest.fail(f"no module among {names} has {attributes}", pytrace=False)


def renderer() -> tuple[Callable, type]:
    """`tutorial.render` and the renderer's own error class."""
    render = tutorial.render
    return render, sys.modules[render.__module__].RenderError


def playground_class():
    return _first_module(("tutorial.notebook.playground", "tutorial.playground", "tutorial.notebook"), "Playground").Playground


class pictures:  # noqa: N801 - used like the module it stands for
    """The DOT builders drawn from a trace, wherever they live (`tutorial.pictures` or the
    older `tutorial.diagrams`): `pictures().local_flow(trace)`, `pictures().tools_path(trace)`."""

    PLACES = ("tutorial.pictures", "tutorial.pictures.flow", "tutorial.pictures.tools", "tutorial.diagrams")

    def __getattr__(self, name: str):
        return getattr(_first_module(self.PLACES, name), name)


# ---------------------------------------------------------------------------
# Calling an entry point and judging what came out


def format_location(location) -> str:
    """The place as errors write it; a key with a line break, or one UTF-8 cannot carry (a
    lone surrogate), is written as a JSON string in brackets, so that the error stays one
    line a console can print."""
    text = ""
    for part in location:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and ("".join(part.splitlines()) != part or not _encodes(part)):
            text += f"[{json.dumps(part)}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "body"


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Outcome:
    """What one call did: `status` is "ok", "refused" (a RequestError / the renderer's
    error) or "escaped" (anything else, which breaks the contract); `ignored` lists the
    exceptions Python reported as "Exception ignored in ..." meanwhile (on a console they
    print a traceback to stderr)."""

    def __init__(self, status: str, value: Any, seconds: float, ignored: Optional[list] = None):
        self.status, self.value, self.seconds, self.ignored = status, value, seconds, ignored or []

    def describe(self) -> str:
        if self.status == "ok":
            return "returned"
        text = str(self.value)
        return f"{type(self.value).__name__}: {text[:240]}{'…' if len(text) > 240 else ''}"


class _Ignored(list):
    """An unraisable hook that only records (repr of the object might itself fail)."""

    def __call__(self, unraisable) -> None:
        where = getattr(unraisable.exc_traceback, "tb_frame", None)
        origin = f" (in {where.f_code.co_filename.rsplit('/', 1)[-1]}:{where.f_code.co_name})" if where else ""
        self.append(f"{unraisable.exc_type.__name__}: {str(unraisable.exc_value)[:160]}{origin}")


def attempt(function: Callable, *args, allowed: tuple = (RequestError,), **kwargs) -> Outcome:
    ignored, hook = _Ignored(), sys.unraisablehook
    sys.unraisablehook = ignored
    start = time.perf_counter()
    try:
        result = function(*args, **kwargs)
    except allowed as error:
        return Outcome("refused", error, time.perf_counter() - start, ignored)
    except Exception as error:  # noqa: BLE001 - the point of these tests
        return Outcome("escaped", error, time.perf_counter() - start, ignored)
    finally:
        sys.unraisablehook = hook
    return Outcome("ok", result, time.perf_counter() - start, ignored)


def _walks(root: Any, location: tuple) -> bool:
    """Is `location` a path into `root` (the last key may be a missing required field)?"""
    value = root
    for number, part in enumerate(location):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        elif number == len(location) - 1 and isinstance(value, dict):
            return True
        else:
            return False
    return True


def refusal_problems(error: Exception, root: Any = None, *, anchor: Optional[tuple] = None,
                     words: Optional[re.Pattern] = None) -> list[str]:  # fmt: skip
    """What is wrong with a RequestError as a refusal (empty when it is a good one)."""
    text = str(error)
    problems = []
    if "\n" in text or "\r" in text:
        problems.append(f"the message is not one line: {text[:200]!r}")
    location = getattr(error, "location", None)
    if not isinstance(location, tuple):
        return problems + [f"no location tuple: {text[:200]}"]
    prefix = format_location(location) + ": "
    if not text.startswith(prefix):
        problems.append(f"the message does not start with its location {prefix!r}: {text[:200]}")
    problem = text[len(prefix):] if text.startswith(prefix) else text
    if not re.search(r"[A-Za-z]{3}", problem):
        problems.append(f"the message does not say what is wrong: {text[:200]}")
    if root is not None and not _walks(root, location):
        problems.append(f"the location {format_location(location)} is not a path into the input: {text[:200]}")
    if anchor is not None and location[: len(anchor)] != anchor:
        problems.append(f"the location {format_location(location)} is not at or under {format_location(anchor)}: {text[:200]}")
    if words is not None and not words.search(problem) and "cannot be carried" not in problem:  # the openai target's own refusal
        problems.append(f"the message does not say what is wrong ({words.pattern}): {text[:300]}")
    return problems


def judge(outcome: Outcome, root: Any = None, **checks) -> list[str]:
    ignored = [f'printed "Exception ignored": {e}' for e in outcome.ignored[:2]]
    if outcome.status == "escaped":
        return ignored + [f"{outcome.describe()} escaped (only RequestError may)"]
    if outcome.status == "refused":
        return ignored + refusal_problems(outcome.value, root, **checks)
    return ignored


def changed(value: Any, before: list) -> bool:
    return H.fingerprint(value) != before


def _severity(failure: str) -> int:
    return 0 if "escaped (only" in failure else 1 if "Exception ignored" in failure else 2


def report(failures: list[str], total: int) -> None:
    """Fail with the cases that broke the contract: exceptions that escaped first."""
    failures = sorted(failures, key=_severity)
    if failures:
        shown = "\n".join(f"  - {f}" for f in failures[:12])
        more = f"\n  ... and {len(failures) - 12} more" if len(failures) > 12 else ""
        pytest.fail(f"{len(failures)} of {total} cases broke the contract:\n{shown}{more}", pytrace=False)


# The request entry points: name -> (call, the root its locations are relative to).
def _messages_root(body):
    return {"messages": body.get("messages"), "system": body.get("system")}


REQUEST_ENTRIES: dict[str, tuple[Callable, Callable]] = {
    "translate": (lambda b: translate(b), lambda b: b),
    "translate[openai]": (lambda b: translate(b, target="openai"), lambda b: b),
    "trace": (lambda b: trace(b), lambda b: b),
    "trace[openai]": (lambda b: trace(b, target="openai"), lambda b: b),
    "preprocess": (preprocess, lambda b: b),
}
PART_ENTRIES: dict[str, tuple[Callable, Callable]] = {
    "translate_messages": (lambda b: translate_messages(b.get("messages"), b.get("system")), _messages_root),
    "translate_messages[openai]": (lambda b: translate_messages(b.get("messages"), b.get("system"), target="openai"), _messages_root),
    "tools_to_chat_tools": (lambda b: tools_to_chat_tools(b.get("tools")), lambda b: {"tools": b.get("tools")}),
    "tools_to_chat_tools[openai]": (lambda b: tools_to_chat_tools(b.get("tools"), target="openai"), lambda b: {"tools": b.get("tools")}),
}
ALL_ENTRIES = {**REQUEST_ENTRIES, **PART_ENTRIES}
TRANSLATING = [name for name in REQUEST_ENTRIES if name != "preprocess"]


def run_entry(name: str, body: Any, **checks) -> tuple[Outcome, list[str]]:
    """Call one entry point on `body`; the outcome and what broke the contract (also: the
    body must come back unchanged)."""
    call, root = ALL_ENTRIES[name]
    if name in PART_ENTRIES and not isinstance(body, dict):
        return Outcome("ok", None, 0.0), []
    before = H.fingerprint(body)
    outcome = attempt(call, body)
    problems = judge(outcome, root(body), **checks)
    if changed(body, before):
        problems.append("the input was changed")
    return outcome, problems


def arguments_of(translated: list) -> list:
    return [call["function"]["arguments"] for m in translated for call in m.get("tool_calls") or []]


def strict_json(text: str) -> Any:
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------------------
# Wrong types: at the top, and at every place of a body


@pytest.mark.parametrize("value", H.TOP_LEVEL)
@pytest.mark.parametrize("entry", list(REQUEST_ENTRIES))
def test_a_body_of_the_wrong_type_is_refused_at_the_body(entry, value):
    body = H.scalars()[value]
    outcome, problems = run_entry(entry, body)
    assert not problems, problems
    assert outcome.status == "refused" and outcome.value.location == (), outcome.describe()


@pytest.mark.parametrize("value", H.TOP_LEVEL)
@pytest.mark.parametrize("entry", ["translate_messages", "translate_messages[openai]", "tools_to_chat_tools", "tools_to_chat_tools[openai]"])
def test_the_parts_of_the_wrong_type_are_refused(entry, value):
    field = "messages" if entry.startswith("translate_messages") else "tools"
    body = {"messages": [{"role": "user", "content": "hi"}], field: H.scalars()[value]}
    outcome, problems = run_entry(entry, body)
    assert not problems, problems
    if outcome.status == "refused":
        assert outcome.value.location[:1] == (field,), outcome.describe()


@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_every_wrong_value_at_every_place_of_a_body(entry):
    """Every place of a body with every block kind gets every type of value (and odd and
    non-string keys added): only a located RequestError may come out."""
    base = H.openai_body() if "openai" in entry else H.rich_body()
    failures, total = [], 0
    for label, body in H.body_mutations(base):
        total += 1
        _, problems = run_entry(entry, body)
        failures += [f"{label}: {p}" for p in problems]
    report(failures, total)


# ---------------------------------------------------------------------------
# Depth


@pytest.mark.parametrize("depth", [H.TOOL_INPUT_DEPTH, H.EXTREME_DEPTH])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_a_deeply_nested_tool_input(entry, depth):
    body = H.tool_use_body(H.nested_dicts(depth))
    outcome, problems = run_entry(entry, body, anchor=H.TOOL_INPUT_PATH, words=DEEP)
    assert not problems, problems
    if outcome.status == "ok" and entry in ("translate[openai]", "translate_messages[openai]"):
        translated = outcome.value[0] if entry == "translate[openai]" else outcome.value
        (arguments,) = arguments_of(translated)
        assert isinstance(arguments, str) and arguments.startswith('{"k": {"k": '), arguments[:40]


@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_what_a_deep_tool_input_gives_can_be_drawn_rendered_and_sent_back(target):
    body = H.tool_use_body(H.nested_dicts(H.TOOL_INPUT_DEPTH))
    traced = attempt(trace, body, target=target)
    assert traced.status != "escaped", traced.describe()
    if traced.status == "refused":
        return
    failures = []
    for name in ("local_flow", "tools_path"):
        drawn = attempt(getattr(pictures(), name), traced.value)
        if drawn.status == "escaped":
            failures.append(f"{name}: {drawn.describe()}")
    render, render_error = renderer()
    rendered = attempt(render, traced.value.translated, traced.value.tools_schema, allowed=(render_error, RequestError))
    if rendered.status == "escaped":
        failures.append(f"render: {rendered.describe()}")
    back = attempt(to_anthropic, traced.value.translated, traced.value.tools_schema)
    failures += [f"to_anthropic: {p}" for p in judge(back)]
    assert not failures, failures


UNKNOWN_CASES = {
    # label -> (body builder, anchor, entries)
    "message_content": (lambda d: {"messages": [{"role": "user", "content": [H.nested_unknown_blocks(d)]}]}, ("messages", 0, "content", 0)),
    "mid_list_system": (
        lambda d: {"system": "top", "messages": [{"role": "user", "content": "hi"}, {"role": "system", "content": [H.nested_unknown_blocks(d)]},
                                                  {"role": "user", "content": "go"}]},
        ("messages", 1, "content", 0),
    ),  # fmt: skip
    "tool_result_content": (
        lambda d: {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [H.nested_unknown_blocks(d)]}]}]},
        ("messages", 0, "content", 0),
    ),
    "assistant_content": (
        lambda d: {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [H.nested_unknown_blocks(d)]}]},
        ("messages", 1, "content", 0),
    ),
}


@pytest.mark.parametrize("depth", [H.UNKNOWN_BLOCK_DEPTH, 1000, H.EXTREME_DEPTH])
@pytest.mark.parametrize("case", list(UNKNOWN_CASES))
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_unknown_blocks_nested_deep(entry, case, depth):
    build, anchor = UNKNOWN_CASES[case]
    body = build(depth)
    outcome, problems = run_entry(entry, body, anchor=anchor, words=None)
    assert not problems, problems
    if outcome.status == "refused" and not outcome.value.location[-1:] == ("type",):
        # Not a refusal of the block's type by the openai target: then it is the depth.
        assert DEEP.search(str(outcome.value)), outcome.describe()


@pytest.mark.parametrize("depth", [H.UNKNOWN_BLOCK_DEPTH, 1000, H.EXTREME_DEPTH])
def test_flatten_content_of_unknown_blocks_nested_deep(depth):
    content = [H.nested_unknown_blocks(depth)]
    before = H.fingerprint(content)
    outcome = attempt(flatten_content, content)
    assert not judge(outcome, {"content": content}), outcome.describe()
    if outcome.status == "ok":
        assert outcome.value == "leaf"
    assert not changed(content, before)


@pytest.mark.parametrize("depth", [100, H.TOOL_RESULT_DEPTH, 1000])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_tool_results_nested_in_tool_results(entry, depth):
    """257 nested tool_results are refused today as "must be a content block ... got dict",
    which is false (each is a block): the refusal must say what is wrong."""
    body = {"messages": [{"role": "user", "content": [H.nested_tool_results(depth)]}]}
    outcome, problems = run_entry(entry, body, anchor=("messages", 0, "content", 0))
    assert not problems, problems
    if outcome.status == "refused":
        text = str(outcome.value)
        assert not re.search(r"must be a content block.*got dict", text), f"a false message: {text[-200:]}"
        assert DEEP.search(text) or "cannot be carried" in text, text[-300:]


# ---------------------------------------------------------------------------
# Cycles and shared objects


@pytest.mark.parametrize("case", [label for label, _, _ in H.cyclic_bodies()])
@pytest.mark.parametrize("entry", TRANSLATING + ["preprocess"])
def test_a_structure_that_contains_itself_is_refused_where_it_is(entry, case):
    label, body, anchor = next(c for c in H.cyclic_bodies() if c[0] == case)
    words = None if case == "messages_list" else CYCLE
    outcome, problems = run_entry(entry, body, anchor=anchor, words=words)
    assert not problems, problems
    if outcome.status == "ok" and entry != "preprocess":  # preprocess only moves the parts it folds
        # Accepted only if the cycle was never read: nothing cyclic may be handed on.
        result = outcome.value
        handed_on = (result.translated, result.tools_schema) if entry.startswith("trace") else result
        try:
            json.dumps(handed_on, default=repr)
        except (ValueError, RecursionError) as error:
            pytest.fail(f"{label}: {entry} accepted a structure that contains itself and handed it on ({error})", pytrace=False)


@pytest.mark.parametrize("entry", TRANSLATING)
def test_a_cycle_in_an_ignored_top_level_field(entry):
    body = {"messages": [{"role": "user", "content": "hi"}], "metadata": H.self_containing_dict()}
    _, problems = run_entry(entry, body, anchor=("metadata",), words=CYCLE)
    assert not problems, problems


@pytest.mark.parametrize("entry", TRANSLATING)
def test_objects_shared_between_places_translate_like_copies(entry):
    body = H.shared_body()
    unshared = json.loads(json.dumps(body))
    shared_outcome, problems = run_entry(entry, body)
    assert not problems and shared_outcome.status == "ok", problems or shared_outcome.describe()
    plain = ALL_ENTRIES[entry][0](unshared)
    if entry.startswith("trace"):
        assert (shared_outcome.value.translated, shared_outcome.value.tools_schema) == (plain.translated, plain.tools_schema)
    else:
        assert shared_outcome.value == plain


@pytest.mark.parametrize("width", [40, 1000])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_one_object_in_a_billion_places_is_counted_not_walked(entry, width):
    """A shallow value whose arrays share one object: `width`**4 values written out (2.6
    million, or a trillion), a few kilobytes in memory. It is refused as too many values,
    located under the tool input, in seconds: nothing walks it place by place."""
    row = ["a"] * width
    outcome, problems = run_entry(entry, H.tool_use_body({"x": [[[row] * width] * width] * width}), anchor=H.TOOL_INPUT_PATH,
                                  words=re.compile("values"))  # fmt: skip
    assert not problems, problems
    if "messages" in entry or entry in REQUEST_ENTRIES:
        assert outcome.status == "refused", outcome.describe()
    assert outcome.seconds < SLOW, f"{outcome.seconds:.1f} s"


# ---------------------------------------------------------------------------
# Values JSON or a console cannot carry


def _placed(value_factory: Callable) -> list:
    return [(label, anchor) for label, _, anchor in H.placements(value_factory())]


@pytest.mark.parametrize("place", [label for label, _ in _placed(H.huge_int)])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_five_thousand_digit_integers(entry, place):
    _, body, anchor = next(p for p in H.placements(H.huge_int()) if p[0] == place)
    outcome, problems = run_entry(entry, body, anchor=anchor, words=HUGE)
    assert not problems, problems
    if outcome.status == "ok" and entry in ("translate[openai]", "translate_messages[openai]"):
        translated = outcome.value[0] if entry == "translate[openai]" else outcome.value
        assert all(isinstance(a, str) for a in arguments_of(translated))


@pytest.mark.parametrize("place", ["tool_input_field", "input_schema_default", "unknown_block_field"])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_five_thousand_digit_integers_downstream(target, place):
    """If a huge integer is accepted, what comes of it must still draw, render and go back."""
    _, body, _ = next(p for p in H.placements(H.huge_int()) if p[0] == place)
    traced = attempt(trace, body, target=target)
    assert traced.status != "escaped", traced.describe()
    if traced.status == "refused":
        return
    failures = []
    for name in ("local_flow", "tools_path"):
        drawn = attempt(getattr(pictures(), name), traced.value)
        if drawn.status != "ok":
            failures.append(f"{name}: {drawn.describe()}")
    render, render_error = renderer()
    for template in ("chatml", "glm_style"):
        rendered = attempt(render, traced.value.translated, traced.value.tools_schema, template=template, allowed=(render_error,))
        if rendered.status == "escaped":
            failures.append(f"render({template}): {rendered.describe()}")
    back = attempt(to_anthropic, traced.value.translated, traced.value.tools_schema)
    failures += [f"to_anthropic: {p}" for p in judge(back)]
    assert not failures, failures


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
@pytest.mark.parametrize("place", ["tool_input_field", "tool_input_list", "input_schema_default", "unknown_block_field", "top_level_param"])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_nan_and_infinity(entry, place, value):
    _, body, anchor = next(p for p in H.placements(H.scalars()[value]) if p[0] == place)
    _, problems = run_entry(entry, body, anchor=anchor)
    assert not problems, problems


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_openai_arguments_are_strict_json_text_even_for_nan(value):
    """The openai target's arguments are JSON text: NaN and Infinity are not JSON, so the
    value is either refused (located) or carried some way a JSON parser reads."""
    body = H.tool_use_body({"x": H.scalars()[value]})
    outcome, problems = run_entry("translate[openai]", body, anchor=H.TOOL_INPUT_PATH)
    assert not problems, problems
    if outcome.status == "ok":
        for arguments in arguments_of(outcome.value[0]):
            strict_json(arguments)


@pytest.mark.parametrize("place", [label for label, _ in _placed(lambda: {1: "one", (1, 2): "pair", None: 0})])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_non_string_keys(entry, place):
    _, body, anchor = next(p for p in H.placements({1: "one", (1, 2): "pair", None: 0}) if p[0] == place)
    _, problems = run_entry(entry, body, anchor=anchor)
    assert not problems, problems


@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_odd_keys_go_through_unchanged(target):
    keys = {key: index for index, key in enumerate(H.ODD_KEYS)}
    body = H.tool_use_body(dict(keys))
    body["tools"][0]["input_schema"] = {"type": "object", "properties": {key: {"type": "integer"} for key in H.ODD_KEYS}}
    outcome, problems = run_entry("translate" if target == "chat_template" else "translate[openai]", body)
    assert not problems, problems
    if outcome.status == "ok":
        translated, tools_schema = outcome.value
        (arguments,) = arguments_of(translated)
        assert (json.loads(arguments) if isinstance(arguments, str) else arguments) == keys
        assert tools_schema[0]["function"]["parameters"] == body["tools"][0]["input_schema"]


@pytest.mark.parametrize("text", H.TRICKY_TEXT, ids=[repr(t[:10]) for t in H.TRICKY_TEXT])
@pytest.mark.parametrize("entry", list(ALL_ENTRIES))
def test_surrogates_nul_and_control_characters_everywhere(entry, text):
    failures = []
    for label, body, anchor in H.text_placements(text):
        _, problems = run_entry(entry, body, anchor=anchor)
        failures += [f"{label}: {p}" for p in problems]
    assert not failures, failures


# ---------------------------------------------------------------------------
# Keys that are not valid Unicode (issue 23.9): a lone surrogate, as JSON text escapes it


def surrogate_key_bodies(key: str = "\ud800") -> list[tuple[str, dict, tuple, bool]]:
    """(label, body, anchor, named) with `key` as a key at one place, from the body down to
    a free value seven levels deep. `named`: the place is one of the contract's own objects,
    whose keys it compares with its field names, so a refusal must name the key itself."""
    deep: Any = {key: 1}
    for level in range(6):
        deep = {f"level_{level}": deep}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "future_block", key: 1}]}
    return [
        ("body", {"messages": [{"role": "user", "content": "hi"}], key: 1}, (), True),
        ("tool", {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "f", key: 1}]}, ("tools", 0), True),
        ("defined_tool", {"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "bash_20250124", "name": "bash", key: 1}]},
         ("tools", 0), True),
        ("unknown_block", {"messages": [{"role": "user", "content": [{"type": "future_block", key: 1}]}]}, ("messages", 0, "content", 0), True),
        ("image_source", {"messages": [{"role": "user", "content": [
            {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png", key: 1}}]}]},
         ("messages", 0, "content", 0, "source"), True),
        ("search_result", {"messages": [{"role": "user", "content": [{"type": "search_result", "content": [], key: 1}]}]},
         ("messages", 0, "content", 0), True),
        ("inside_tool_result", {"messages": [{"role": "user", "content": [result]}]}, ("messages", 0, "content", 0, "content", 0), True),
        ("message", {"messages": [{"role": "user", "content": "hi", key: 1}]}, ("messages", 0), False),
        ("text_block", {"messages": [{"role": "user", "content": [{"type": "text", "text": "x", key: 1}]}]}, ("messages", 0, "content", 0), False),
        ("cache_control", {"system": [{"type": "text", "text": "s", "cache_control": {key: "ephemeral"}}],
                           "messages": [{"role": "user", "content": "hi"}]}, ("system", 0), False),
        ("tool_input", H.tool_use_body({key: 1}), H.TOOL_INPUT_PATH, False),
        ("tool_input_7_deep", H.tool_use_body(deep), H.TOOL_INPUT_PATH, False),
        ("input_schema_7_deep", {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "f", "input_schema": deep}]},
         ("tools", 0, "input_schema"), False),
        ("metadata", {"messages": [{"role": "user", "content": "hi"}], "metadata": {"user": {key: 1}}}, ("metadata",), False),
    ]  # fmt: skip


def surrogate_value_bodies(value: str = "\udfff") -> list[tuple[str, dict, tuple]]:
    """(label, body, anchor) with a lone surrogate as a value the contract compares
    (a role, a block's or a source's type) or carries (a tool's name, a deep free value)."""
    deep: Any = value
    for level in range(7):
        deep = {f"level_{level}": deep}
    return [
        ("role", {"messages": [{"role": value, "content": "hi"}]}, ("messages", 0)),
        ("block_type", {"messages": [{"role": "user", "content": [{"type": value}]}]}, ("messages", 0, "content", 0)),
        ("source_type", {"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": value}}]}]},
         ("messages", 0, "content", 0)),
        ("tool_type", {"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": value, "name": "f"}]}, ("tools", 0)),
        ("tool_name", {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": value}]}, ("tools", 0)),
        ("tool_input_7_deep", H.tool_use_body(deep), H.TOOL_INPUT_PATH),
        ("nested_text", {"messages": [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": value}]}]}]}, ("messages", 0, "content", 0)),
    ]  # fmt: skip


def _bytes_entry(target: str) -> Callable:
    return lambda body: tutorial.translate_json(json.dumps(body).encode(), target=target)  # ASCII escapes, as clients send


KEY_ENTRIES = {**{name: ALL_ENTRIES[name][0] for name in ALL_ENTRIES},
               "translate_json": _bytes_entry("chat_template"), "translate_json[openai]": _bytes_entry("openai")}  # fmt: skip
KEY_ROOTS = {**{name: ALL_ENTRIES[name][1] for name in ALL_ENTRIES}, "translate_json": lambda b: b, "translate_json[openai]": lambda b: b}


@pytest.mark.parametrize("key", ["\ud800", "\udfff", "a\udc80b", "\ud83d"])
@pytest.mark.parametrize("entry", list(KEY_ENTRIES))
def test_a_key_that_is_not_valid_unicode_is_refused_at_the_key(entry, key):
    """Where the contract compares keys with its field names, a lone surrogate in one is
    refused at that very key (not at the body, not as "unable to parse raw data"); inside
    a free value it travels like one in a string value. Dicts and bytes alike."""
    failures = []
    for label, body, anchor, named in surrogate_key_bodies(key):
        if entry in PART_ENTRIES and not anchor[:1] == (("tools",) if entry.startswith("tools") else ("messages",)):
            continue  # this entry is not given the part that holds the key
        before = H.fingerprint(body)
        outcome = attempt(KEY_ENTRIES[entry], body)
        failures += [f"{label}: {p}" for p in judge(outcome, KEY_ROOTS[entry](body), anchor=anchor)]
        if changed(body, before):
            failures.append(f"{label}: the input was changed")
        if outcome.status == "refused":
            text = str(outcome.value)
            if "unable to parse raw data" in text or not _encodes(text):
                failures.append(f"{label}: {ascii(text)[:200]}")
            if named and (outcome.value.location[-1:] != (key,) or "not valid Unicode" not in text):
                failures.append(f"{label}: refused, but not at the key: {ascii(text)[:200]}")
        elif named:
            failures.append(f"{label}: accepted a key the contract cannot compare")
    assert not failures, failures


@pytest.mark.parametrize("entry", list(KEY_ENTRIES))
def test_a_value_that_is_not_valid_unicode_is_refused_where_it_is_or_carried(entry):
    failures = []
    for label, body, anchor in surrogate_value_bodies():
        if entry in PART_ENTRIES and not anchor[:1] == (("tools",) if entry.startswith("tools") else ("messages",)):
            continue
        outcome = attempt(KEY_ENTRIES[entry], body)
        failures += [f"{label}: {p}" for p in judge(outcome, KEY_ROOTS[entry](body), anchor=anchor)]
        if outcome.status == "refused" and ("unable to parse raw data" in str(outcome.value) or not _encodes(str(outcome.value))):
            failures.append(f"{label}: {ascii(str(outcome.value))[:200]}")
    assert not failures, failures


@pytest.mark.parametrize("entry", ["translate", "translate_json", "translate[openai]", "translate_json[openai]", "trace"])
def test_the_dict_and_bytes_entries_agree_on_a_surrogate_key(entry):
    """The same body as a dict and as the bytes a client sends gets the same answer."""
    dict_entry = KEY_ENTRIES[entry.replace("translate_json", "translate")]
    bytes_entry = KEY_ENTRIES[entry.replace("translate[", "translate_json[") if entry != "translate" else "translate_json"]
    for label, body, _anchor, _named in surrogate_key_bodies():
        one, other = attempt(dict_entry, body), attempt(bytes_entry, body)
        assert (one.status, str(one.value) if one.status == "refused" else None) == (
            other.status, str(other.value) if other.status == "refused" else None), label


@pytest.mark.parametrize("source", ["file", "stdin"])
@pytest.mark.parametrize("command", ["translate", "walk"])
def test_cli_names_a_surrogate_key_and_its_place(tmp_path, command, source):
    body = {"messages": [{"role": "user", "content": [{"type": "future_block", "\ud800": 1}]}]}
    args, stdin = _feed(tmp_path, json.dumps(body), source)
    done = cli([command, *args], stdin)
    problems = one_clean_error(done, re.compile("not valid Unicode"))
    assert not problems, problems
    assert done.stderr.decode("utf-8").count('messages[0].content[0]["\\ud800"]') == 1, done.stderr[-300:]


def test_the_server_names_a_surrogate_key_and_its_place():
    pytest.importorskip("starlette")
    httpx = pytest.importorskip("httpx")
    from tutorial import serve

    raw = json.dumps({"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}],
                      "tools": [{"name": "f", "input_schema": {"type": "object"}, "\ud800": 1}]}).encode()  # fmt: skip
    with serve.start() as running:
        response = httpx.post(f"{running.url}/v1/messages", content=raw, headers={"content-type": "application/json"}, timeout=30)
    assert response.status_code == 400, response.text[:300]
    message = response.json()["error"]["message"]
    assert message.startswith('tools[0]["\\ud800"]: ') and "not valid Unicode" in message, message


@pytest.mark.parametrize("label", [label for label, _ in H.big_string_bodies(16)])
def test_ten_megabyte_strings_take_linear_time(label):
    body = dict(H.big_string_bodies())[label]
    render, render_error = renderer()
    slow, failures = [], []
    for entry in list(ALL_ENTRIES):
        outcome, problems = run_entry(entry, body)
        failures += [f"{entry}: {p}" for p in problems]
        if outcome.seconds > SLOW:
            slow.append(f"{entry}: {outcome.seconds:.1f} s")
        if entry in ("trace", "trace[openai]") and outcome.status == "ok":
            for stage, call in (
                ("render", lambda: render(outcome.value.translated, outcome.value.tools_schema)),
                ("local_flow", lambda: pictures().local_flow(outcome.value)),
                ("to_anthropic", lambda: to_anthropic(outcome.value.translated, outcome.value.tools_schema)),
            ):
                downstream = attempt(call, allowed=(RequestError, render_error))
                if downstream.status == "escaped":
                    failures.append(f"{entry} -> {stage}: {downstream.describe()}")
                if downstream.seconds > SLOW:
                    slow.append(f"{entry} -> {stage}: {downstream.seconds:.1f} s")
    assert not failures, failures
    assert not slow, f"10 MB of text took too long: {slow}"


@pytest.mark.parametrize("entry", list(REQUEST_ENTRIES))
def test_time_grows_linearly_with_the_number_of_blocks(entry):
    """Four times the blocks may take about four times as long, not sixteen (quadratic)."""
    call = REQUEST_ENTRIES[entry][0]

    def seconds(blocks: int, runs: int) -> float:
        body = H.many_blocks_body(blocks)
        best = float("inf")
        for _ in range(runs):
            gc.collect()  # a run starts from a clean heap, not from the last one's garbage
            outcome = attempt(call, body)
            assert outcome.status != "escaped", outcome.describe()
            best = min(best, outcome.seconds)
        return best

    small, large = seconds(600, 3), seconds(2400, 2)  # per message; three messages of that many blocks
    assert large < max(1.0, 8 * small), f"{entry}: 600 blocks a message took {small:.2f} s, 2,400 took {large:.2f} s"


def test_mixed_type_lists_and_bools_for_numbers_are_refused_where_they_are():
    cases = [
        (translate, ({"messages": [{"role": "user", "content": [{"type": "text", "text": "t"}, None, 3, "x", []]}]},),
         ("messages", 0, "content", 1)),
        (translate, ({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": 1}]}]},),
         ("messages", 0, "content", 0, "is_error")),
        (translate, ({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [1, "x"]}]}]},),
         ("messages", 0, "content", 0, "content", 0)),
        (build_reply, ({"text": "x", "matched_stop": True}, "stop"), ("matched_stop",)),
        (build_reply, ({"tool_uses": [{"name": "f", "input": {}}, "g"]}, "stop"), ("tool_uses", 1)),
        (sse_events, ([], "end_turn"), ("input_tokens",)),
    ]  # fmt: skip
    for function, args, location in cases:
        kwargs = {"message_id": "m", "model": "m", "input_tokens": True, "output_tokens": 1} if function is sse_events else {}
        outcome = attempt(function, *args, **kwargs)
        assert outcome.status == "refused", f"{function.__name__}{args}: {outcome.describe()}"
        assert outcome.value.location == location, f"{function.__name__}: {outcome.describe()}"
        assert not refusal_problems(outcome.value), refusal_problems(outcome.value)


# ---------------------------------------------------------------------------
# The way back


def test_build_reply_with_hostile_parsed_output():
    failures, total = [], 0
    for label, parsed, finish_reason in H.parsed_variants():
        total += 1
        before = H.fingerprint(parsed)
        outcome = attempt(build_reply, parsed, finish_reason, new_id=counting_ids())
        root = {**parsed, "finish_reason": finish_reason} if isinstance(parsed, dict) else {"finish_reason": finish_reason}
        failures += [f"{label}: {p}" for p in judge(outcome, root if isinstance(parsed, dict) else None)]
        if changed(parsed, before):
            failures.append(f"{label}: the input was changed")
    report(failures, total)


def _stream(blocks, stop_reason):
    return sse_events(blocks, stop_reason, message_id="msg_1", model="m", input_tokens=1, output_tokens=2)


def test_sse_events_of_what_build_reply_accepted():
    """Whatever build_reply accepts, sse_events streams or refuses (located)."""
    failures, total = [], 0
    for label, parsed, finish_reason in H.parsed_variants():
        built = attempt(build_reply, parsed, finish_reason, new_id=counting_ids())
        if built.status != "ok":
            continue
        total += 1
        blocks, stop_reason, _ = built.value
        streamed = attempt(_stream, blocks, stop_reason)
        failures += [f"{label}: {p}" for p in judge(streamed, {"blocks": blocks})]
    report(failures, total)


def test_sse_events_of_what_build_reply_accepted_are_strict_json():
    """The events go on the wire as JSON: they must encode without NaN, and a tool input's
    partial_json must parse as JSON (or the reply is refused with a located error)."""
    failures, total = [], 0
    for label, parsed, finish_reason in H.parsed_variants():
        built = attempt(build_reply, parsed, finish_reason, new_id=counting_ids())
        if built.status != "ok":
            continue
        streamed = attempt(_stream, *built.value[:2])
        if streamed.status != "ok":
            continue
        total += 1
        try:
            json.dumps(streamed.value, allow_nan=False)
            for event in streamed.value:
                delta = event["data"].get("delta") or {}
                if delta.get("type") == "input_json_delta":
                    strict_json(delta["partial_json"])
        except (TypeError, ValueError, RecursionError) as error:
            failures.append(f"{label}: {type(error).__name__}: {str(error)[:160]}")
    report(failures, total)


def test_sse_events_with_hostile_arguments():
    failures, total = [], 0
    for label, args, kwargs in H.stream_variants():
        total += 1
        before = H.fingerprint((args, kwargs))
        outcome = attempt(sse_events, *args, **kwargs)
        root = {"blocks": args[0], "stop_reason": args[1], **kwargs}
        failures += [f"{label}: {p}" for p in judge(outcome, root)]
        if changed((args, kwargs), before):
            failures.append(f"{label}: the input was changed")
    report(failures, total)


def test_sse_events_output_is_strict_json():
    failures, total = [], 0
    for label, args, kwargs in H.stream_variants():
        outcome = attempt(sse_events, *args, **kwargs)
        if outcome.status != "ok":
            continue
        total += 1
        try:
            json.dumps(outcome.value, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            failures.append(f"{label}: {type(error).__name__}: {str(error)[:160]}")
    report(failures, total)


def test_to_anthropic_with_hostile_messages():
    failures, total = [], 0
    for label, messages, tools in H.chat_variants():
        total += 1
        before = H.fingerprint((messages, tools))
        outcome = attempt(to_anthropic, messages, tools)
        failures += [f"{label}: {p}" for p in judge(outcome, {"messages": messages, "tools": tools})]
        if changed((messages, tools), before):
            failures.append(f"{label}: the input was changed")
    report(failures, total)


def test_to_anthropic_output_is_strict_json():
    """A request for the wire: no NaN, no huge integers JSON cannot write, string keys."""
    failures, total = [], 0
    for label, messages, tools in H.chat_variants():
        outcome = attempt(to_anthropic, messages, tools)
        if outcome.status != "ok":
            continue
        total += 1
        try:
            json.dumps(outcome.value, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            failures.append(f"{label}: {type(error).__name__}: {str(error)[:160]}")
    report(failures, total)


def test_response_to_message_with_hostile_responses():
    failures, total = [], 0
    for label, response in H.response_variants():
        total += 1
        before = H.fingerprint(response)
        outcome = attempt(response_to_message, response)
        failures += [f"{label}: {p}" for p in judge(outcome, response if isinstance(response, dict) else None)]
        if changed(response, before):
            failures.append(f"{label}: the input was changed")
    report(failures, total)


def test_response_to_message_arguments_are_strict_json():
    failures, total = [], 0
    for label, response in H.response_variants():
        outcome = attempt(response_to_message, response)
        if outcome.status != "ok":
            continue
        total += 1
        for call in outcome.value.get("tool_calls") or []:
            try:
                strict_json(call["function"]["arguments"])
            except (TypeError, ValueError, RecursionError) as error:
                failures.append(f"{label}: {type(error).__name__}: {str(error)[:160]}")
    report(failures, total)


# ---------------------------------------------------------------------------
# Rendering


@pytest.mark.parametrize("name", list(H.RUNTIME_TEMPLATES))
def test_render_with_a_template_that_fails_at_run_time(name):
    render, render_error = renderer()
    messages = [{"role": "user", "content": "hi"}]
    outcome = attempt(render, messages, template=H.RUNTIME_TEMPLATES[name], allowed=(render_error,))
    assert outcome.status != "escaped", outcome.describe()
    if outcome.status == "refused":
        assert "\n" not in str(outcome.value), str(outcome.value)[:300]


BOMB_CHILD = textwrap.dedent(
    """
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024 ** 3, 2 * 1024 ** 3))
    import tutorial
    render = tutorial.render
    RenderError = sys.modules[render.__module__].RenderError
    start = time.perf_counter()
    try:
        text = render([{"role": "user", "content": "hi"}], template=sys.argv[1])
        outcome = {"status": "ok", "length": len(text)}
    except RenderError as error:
        outcome = {"status": "refused", "message": str(error)[:300]}
    except BaseException as error:
        outcome = {"status": "escaped", "type": type(error).__name__, "message": str(error)[:300]}
    outcome["seconds"] = time.perf_counter() - start
    print(json.dumps(outcome))
    """
)


def _child_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LC_CTYPE", "LANG")}
    env.update(LANG="C", LC_ALL="C", PYTHONPATH=os.pathsep.join([str(ROOT)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    env.update(extra)
    return env


@pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")
@pytest.mark.parametrize("name", list(H.ALLOCATION_BOMBS))
def test_render_allocation_bombs_fail_fast_with_the_renderers_error(name):
    try:
        done = subprocess.run([sys.executable, "-c", BOMB_CHILD, H.ALLOCATION_BOMBS[name]], capture_output=True, text=True,
                              timeout=90, env=_child_env(), cwd=ROOT)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: still rendering after 90 s", pytrace=False)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, f"{name}: the child died (status {done.returncode}): {done.stderr[-500:]}"
    outcome = json.loads(lines[-1])
    assert outcome["status"] == "refused", f"{name}: {outcome}"
    assert outcome["seconds"] < SLOW, f"{name}: refused only after {outcome['seconds']:.1f} s"


@pytest.mark.parametrize("template", ["chatml", "glm_style"])
@pytest.mark.parametrize("case", list(H.RENDER_MESSAGES))
def test_render_shipped_templates_with_odd_messages(template, case):
    render, render_error = renderer()
    messages = H.RENDER_MESSAGES[case]
    before = H.fingerprint(messages)
    outcome = attempt(render, messages, template=template, allowed=(render_error,))
    assert outcome.status != "escaped", outcome.describe()
    assert not changed(messages, before)


@pytest.mark.parametrize("template", ["chatml", "glm_style"])
@pytest.mark.parametrize("case", list(H.RENDER_TOOLS))
def test_render_shipped_templates_with_odd_tools(template, case):
    render, render_error = renderer()
    tools = H.RENDER_TOOLS[case]
    outcome = attempt(render, [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}], tools, template=template,
                      allowed=(render_error,))  # fmt: skip
    assert outcome.status != "escaped", outcome.describe()


@pytest.mark.parametrize("value", ["none", "str", "empty_dict", "zero", "bytes", "tuple"])
def test_render_messages_that_are_not_a_list(value):
    render, render_error = renderer()
    outcome = attempt(render, H.scalars()[value], allowed=(render_error, RequestError))
    assert outcome.status != "escaped", outcome.describe()


@pytest.mark.parametrize("case", ["huge_int", "deep", "nan", "non_string_keys", "surrogate", "cyclic"])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_render_what_translate_gave_for_hostile_tool_inputs(target, case):
    values = {
        "huge_int": lambda: {"n": H.huge_int()},
        "deep": lambda: H.nested_dicts(H.TOOL_INPUT_DEPTH),
        "nan": lambda: {"n": float("nan")},
        "non_string_keys": lambda: {(1, 2): 1},
        "surrogate": lambda: {"\ud800": "\udfff"},
        "cyclic": H.self_containing_dict,
    }
    body = H.tool_use_body(values[case]())
    body["tools"][0]["input_schema"] = {"type": "object", "properties": {}, "default": values[case]()}
    translated = attempt(translate, body, target=target)
    assert translated.status != "escaped", translated.describe()
    if translated.status == "refused":
        return
    render, render_error = renderer()
    for template in ("chatml", "glm_style"):
        outcome = attempt(render, *translated.value, template=template, allowed=(render_error,))
        assert outcome.status != "escaped", f"{template}: {outcome.describe()}"


# ---------------------------------------------------------------------------
# The command line (LANG=C, PYTHONIOENCODING unset)


def cli(args: list, stdin: Optional[bytes] = None, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-m", "tutorial", *args], input=stdin, capture_output=True, timeout=timeout,
                              env=_child_env(), cwd=ROOT)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"python -m tutorial {' '.join(args)}: still running after {timeout} s", pytrace=False)


def one_clean_error(done: subprocess.CompletedProcess, words: Optional[re.Pattern] = None) -> list[str]:
    stderr = done.stderr.decode("utf-8", "replace")
    problems = []
    if done.returncode == 0:
        problems.append("exited 0 for bad input")
    if "Traceback" in stderr or "Exception ignored" in stderr:
        problems.append(f"printed a traceback: {stderr[-400:]}")
    lines = stderr.strip().splitlines()
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr, not one: {stderr[-400:]}")
    elif words is not None and not words.search(lines[0]):
        problems.append(f"the error does not say what is wrong ({words.pattern}): {lines[0][:300]}")
    return problems


def no_traceback(done: subprocess.CompletedProcess) -> list[str]:
    stderr = done.stderr.decode("utf-8", "replace")
    problems = []
    if "Traceback" in stderr or "Exception ignored" in stderr or "BrokenPipeError" in stderr:
        problems.append(f"printed a traceback: {stderr[-400:]}")
    if done.returncode != 0 and len(stderr.strip().splitlines()) != 1:
        problems.append(f"failed (status {done.returncode}) without one clean line on stderr: {stderr[-400:]}")
    return problems


def _feed(tmp_path: Path, text: str, source: str, name: str = "request.json") -> tuple[list, Optional[bytes]]:
    data = text.encode("utf-8")
    if source == "stdin":
        return ["-"], data
    path = tmp_path / name
    path.write_bytes(data)
    return [str(path)], None


@pytest.mark.parametrize("kind", ["list", "dict", "tool_input"])
@pytest.mark.parametrize("source", ["file", "stdin"])
@pytest.mark.parametrize("command", ["translate", "walk"])
def test_cli_deep_json(tmp_path, command, source, kind):
    text = H.deep_body_json_text(H.EXTREME_DEPTH) if kind == "tool_input" else H.deep_json_text(H.EXTREME_DEPTH, kind)
    args, stdin = _feed(tmp_path, text, source)
    done = cli([command, *args], stdin)
    problems = one_clean_error(done, DEEP)
    assert not problems, problems


@pytest.mark.parametrize("source", ["file", "stdin"])
@pytest.mark.parametrize("command", ["translate", "walk"])
def test_cli_huge_integer_literal(tmp_path, command, source):
    args, stdin = _feed(tmp_path, H.huge_int_json_text(), source)
    done = cli([command, *args], stdin)
    problems = one_clean_error(done, HUGE)
    assert not problems, problems


@pytest.mark.parametrize("target", ["chat_template", "openai"])
@pytest.mark.parametrize("source", ["file", "stdin"])
@pytest.mark.parametrize("command", ["translate", "walk"])
def test_cli_lone_surrogates_under_the_c_locale(tmp_path, command, source, target):
    body = {"system": "\ud800 system", "messages": [
        {"role": "user", "content": "lone \ud800 and \udfff"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"\udc80": "\ud83d"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "\ud800"}]}],
        "tools": [{"name": "f", "input_schema": {"type": "object", "properties": {}}}]}  # fmt: skip
    args, stdin = _feed(tmp_path, json.dumps(body), source)  # ASCII JSON with \\ud800 escapes, as clients send
    done = cli([command, *args, "--target", target], stdin)
    problems = no_traceback(done)
    if done.returncode == 0:
        try:
            done.stdout.decode("utf-8")
        except UnicodeDecodeError as error:
            problems.append(f"stdout is not UTF-8: {error}")
        if command == "translate":
            strict_json(done.stdout.decode("utf-8", "replace"))
    assert not problems, problems


def test_cli_control_characters_and_nul(tmp_path):
    body = {"messages": [{"role": "user", "content": H.CONTROL + "\x00 end"}], "system": "\x00"}
    args, stdin = _feed(tmp_path, json.dumps(body), "file")
    for command in ("translate", "walk"):
        done = cli([command, *args])
        assert not no_traceback(done) and done.returncode == 0, no_traceback(done) or done.stderr[-300:]


def _broken_pipe(args: list, read_first_line: bool) -> subprocess.CompletedProcess:
    """`python -m tutorial ARGS | head -1`: read one line (or nothing), then close the pipe.
    Closing before the first write, or with more output left than a pipe holds, makes the
    command's next write fail with EPIPE every time."""
    process = subprocess.Popen([sys.executable, "-m", "tutorial", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=_child_env(), cwd=ROOT)  # fmt: skip
    if read_first_line:
        process.stdout.readline()
    process.stdout.close()
    try:
        stderr = process.stderr.read()
        process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(args, process.returncode, b"", stderr)


def _long_body() -> dict:
    body = readme_request()
    body["messages"] = body["messages"] + [{"role": "user", "content": "第 %d 行\n" % i * 40} for i in range(3000)]
    return body


@pytest.mark.parametrize("body", ["readme", "long"])
@pytest.mark.parametrize("command", ["translate", "walk"])
def test_cli_into_a_closed_pipe(tmp_path, command, body):
    args = []
    if body == "long":
        path = tmp_path / "long.json"
        path.write_text(json.dumps(_long_body(), ensure_ascii=False), encoding="utf-8")
        args = [str(path)]
    done = _broken_pipe([command, *args], read_first_line=body == "long")
    stderr = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr and "Exception ignored" not in stderr, stderr[-600:]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_cli_non_json_number_literals(tmp_path, literal):
    """Python's json reads NaN and Infinity; the output must still be JSON (or a clean refusal)."""
    text = '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": %s}}]}]}' % literal
    args, _ = _feed(tmp_path, text, "file")
    for target in ("chat_template", "openai"):
        done = cli(["translate", *args, "--target", target])
        problems = no_traceback(done)
        if done.returncode == 0:
            try:
                strict_json(done.stdout.decode("utf-8"))
            except ValueError as error:
                problems.append(f"{target}: the output is not JSON: {error}")
        assert not problems, problems


@pytest.mark.parametrize(
    "case",
    ["missing", "directory", "not_utf8", "empty", "list", "null", "string", "truncated", "bom", "utf16"],
)
def test_cli_bad_files(tmp_path, case):
    path = tmp_path / "request.json"
    contents = {
        "not_utf8": b"\xff\xfe{", "empty": b"", "list": b"[]", "null": b"null", "string": b'"text"',
        "truncated": b'{"messages": [', "bom": b'\xef\xbb\xbf{"messages": []}', "utf16": '{"messages": []}'.encode("utf-16"),
    }  # fmt: skip
    if case == "directory":
        path = tmp_path
    elif case != "missing":
        path.write_bytes(contents[case])
    for command in ("translate", "walk"):
        done = cli([command, str(path)])
        if case == "bom" and done.returncode == 0:
            continue  # reading past a BOM is fine too
        problems = one_clean_error(done)
        assert not problems, (command, problems)


def test_cli_ten_megabytes(tmp_path):
    body = {"messages": [{"role": "user", "content": "x" * H.TEN_MB}]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    for command in ("translate", "walk"):
        start = time.perf_counter()
        done = cli([command, str(path)])
        seconds = time.perf_counter() - start
        assert done.returncode == 0 and not no_traceback(done), done.stderr[-400:]
        assert seconds < SLOW * 2, f"{command}: {seconds:.1f} s for 10 MB"


# ---------------------------------------------------------------------------
# The playground

PLAYGROUND_CASES = {
    "deep_dict": (lambda: H.tool_use_body(H.nested_dicts(H.TOOL_INPUT_DEPTH)), DEEP),
    "extreme_dict": (lambda: H.tool_use_body(H.nested_dicts(H.EXTREME_DEPTH)), DEEP),
    "deep_json_text": (lambda: H.deep_json_text(H.EXTREME_DEPTH), DEEP),
    "deep_object_text": (lambda: H.deep_json_text(H.EXTREME_DEPTH, "dict"), DEEP),
    "deep_tool_input_text": (lambda: H.deep_body_json_text(H.EXTREME_DEPTH), DEEP),
    "cyclic_dict": (lambda: H.tool_use_body(H.self_containing_dict()), CYCLE),
    "cyclic_body": (lambda: H.self_containing_dict(), CYCLE),
    "huge_int_text": (lambda: H.huge_int_json_text(), HUGE),
    "huge_int_dict": (lambda: H.tool_use_body({"n": H.huge_int()}), None),
    "non_string_keys": (lambda: {"messages": [{"role": "user", "content": "hi"}], 1: 2, (1, 2): 3}, None),
    "nan_text": (lambda: '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": NaN}', None),
    "surrogate_text": (lambda: '{"messages": [{"role": "user", "content": "\\ud800"}]}', None),
    "list": (lambda: [1, 2], None),
    "unknown_blocks_deep": (lambda: {"messages": [{"role": "user", "content": [H.nested_unknown_blocks(1000)]}]}, DEEP),
}


@pytest.mark.parametrize("case", list(PLAYGROUND_CASES))
def test_playground_request_text_hostile(case):
    build, words = PLAYGROUND_CASES[case]
    playground = playground_class()()
    good = playground.results["translated"]
    value = build()
    try:
        playground.request_text = value
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"setting request_text raised {type(error).__name__}: {str(error)[:300]}", pytrace=False)
    error = playground.results["error"]
    if error is None:
        return  # accepted (non-string keys, NaN, surrogates may be)
    assert isinstance(error, str) and "\n" not in error, repr(error)[:300]
    assert not re.search(r"(?i)a bug|please report|unexpected", error), f"an internal error shown as a bug: {error[:300]}"
    if words is not None:
        assert words.search(error), f"the error does not say what is wrong ({words.pattern}): {error[:300]}"
        located = re.match(r"[^\s:]+: |line \d+, column \d+", error)
        assert located, f"the error does not say where (a body path, or a line and column of the text): {error[:300]}"
    assert playground.results["stale"] and playground.results["translated"] == good


# ---------------------------------------------------------------------------
# Diagrams

UNESCAPED = re.compile(r"(?<!\\)(?:\\\\)*\\[NGEHTL]")


def _escape_body() -> dict:
    body = H.tool_use_body({"k\\N": "v\\G"})
    body["tools"] = [{"name": "f\\N", "description": "d\\G", "input_schema": {"type": "object", "properties": {"k\\N": {"type": "string"}}},
                      "k\\N": 1, "k\\G\\E\\H\\T\\L": "x\\N"}]  # fmt: skip
    body["k\\N"] = "top-level key"
    return body


@pytest.mark.parametrize("builder", ["tools_path", "local_flow"])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_diagram_labels_escape_backslash_sequences_in_keys(builder, target):
    """Graphviz expands \\N (node name), \\G (graph name), ... inside labels, HTML-like
    tables included: a key such as `k\\N` from a request must be escaped (`k\\\\N`)."""
    baseline = getattr(pictures(), builder)(trace(readme_request(), target=target))
    assert not UNESCAPED.search(baseline), "the README diagram itself has an escape sequence"
    dot = getattr(pictures(), builder)(trace(_escape_body(), target=target))
    found = sorted({m.group(0) for m in UNESCAPED.finditer(dot)})
    context = [dot[max(0, m.start() - 40): m.end() + 10] for m in UNESCAPED.finditer(dot)][:3]
    assert not found, f"unescaped {found} in the DOT text, e.g. {context}"


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_the_rendered_tools_path_shows_the_key_as_written():
    dot = pictures().tools_path(trace(_escape_body()))
    svg = subprocess.run(["dot", "-Tsvg"], input=dot.encode("utf-8"), capture_output=True, timeout=60, check=True).stdout.decode("utf-8")
    assert "k\\N" in svg, "the key k\\N is not shown as written"
    assert "ktool0" not in svg, "\\N was expanded to the node's name"


DIAGRAM_CASES = {
    "huge_int": lambda: H.tool_use_body({"n": H.huge_int()}),
    "deep_input": lambda: H.tool_use_body(H.nested_dicts(H.TOOL_INPUT_DEPTH)),
    "surrogates": lambda: {"system": "\ud800", "messages": [{"role": "user", "content": "\udfff"}],
                           "tools": [{"name": "\ud800", "input_schema": {"type": "object", "\ud800": 1}, "\udc80": 2}]},  # fmt: skip
    "control": lambda: {"messages": [{"role": "user", "content": H.CONTROL}], "tools": [{"name": H.CONTROL, "input_schema": {}}]},
    "odd_keys": lambda: {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "f", **{k: 1 for k in H.ODD_KEYS if k}}]},
    "nan": lambda: H.tool_use_body({"n": float("nan"), "m": float("-inf")}),
    "non_string_keys_schema": lambda: {"messages": [{"role": "user", "content": "hi"}], "tools": [{"name": "f", "input_schema": {1: 2}}]},
}


@pytest.mark.parametrize("builder", ["local_flow", "tools_path"])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
@pytest.mark.parametrize("case", list(DIAGRAM_CASES))
def test_diagrams_of_hostile_requests(case, target, builder):
    """Whatever trace accepts can be drawn: the DOT text is a string `dot` can read (UTF-8)."""
    traced = attempt(trace, DIAGRAM_CASES[case](), target=target)
    assert traced.status != "escaped", traced.describe()
    if traced.status == "refused":
        return
    drawn = attempt(getattr(pictures(), builder), traced.value)
    assert drawn.status == "ok", drawn.describe()
    drawn.value.encode("utf-8")


# ---------------------------------------------------------------------------
# Generated: hostile values injected anywhere


@pytest.mark.parametrize("entry", list(REQUEST_ENTRIES))
def test_generated_bodies_with_a_hostile_value_somewhere(entry):
    @HYPOTHESIS
    @given(H.hostile_bodies(openai="openai" in entry))
    def check(case):
        body, _path = case
        _, problems = run_entry(entry, body)
        assert not problems, problems

    check()


def test_generated_hostile_replies_through_build_reply_and_sse_events():
    @HYPOTHESIS
    @given(H.hostile_replies())
    def check(parsed):
        before = H.fingerprint(parsed)
        built = attempt(build_reply, parsed, "stop", new_id=counting_ids())
        assert not judge(built, parsed), judge(built, parsed)
        assert not changed(parsed, before)
        if built.status == "ok":
            streamed = attempt(_stream, *built.value[:2])
            assert not judge(streamed), judge(streamed)

    check()
