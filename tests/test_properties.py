"""Properties over generated requests: what must hold for every body, not just the example."""

from __future__ import annotations

import copy
import json
from typing import Any, Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import requests
from tutorial import RequestError, preprocess, trace, translate

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TARGETS = st.sampled_from(["chat_template", "openai"])
ROLES = {"system", "user", "assistant", "tool"}

any_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["messages", "role", "content", "type", "text", "system", "tools", "name", "tool_use_id", "id", "input", "source"]), inner, max_size=4),
    max_leaves=12,
)


@SETTINGS
@given(body=st.one_of(any_json, requests()), target=TARGETS)
def test_only_request_error_escapes(body, target):
    for run in (translate, trace):
        try:
            run(body, target=target)
        except RequestError as error:
            assert str(error).startswith(error.args[0].split(":")[0])
            assert isinstance(error.location, tuple)


@SETTINGS
@given(body=requests(), target=TARGETS)
def test_inputs_are_never_mutated(body, target):
    before = copy.deepcopy(body)
    for run in (translate, trace, lambda b, target: preprocess(b)):
        try:
            run(body, target=target)
        except RequestError:
            pass
        assert body == before


@SETTINGS
@given(body=requests(), target=TARGETS)
def test_output_roles_are_valid(body, target):
    try:
        translated, tools_schema = translate(body, target=target)
    except RequestError:
        assert target == "openai"  # the default target takes every generated body
        return
    assert all(message["role"] in ROLES for message in translated)
    assert tools_schema is None or (tools_schema and all(tool["type"] == "function" for tool in tools_schema))
    assert all(message["role"] in ROLES - {"system"} for message in translate(preprocess(body), target=target)[0][1:])


def leaves(value: Any, location: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(location, value) for every scalar in the body, except `type` and `role` tags."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key not in ("type", "role"):
                yield from leaves(child, location + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from leaves(child, location + (index,))
    else:
        yield location, value


def output_scalars(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for child in value.values():
            yield from output_scalars(child)
    elif isinstance(value, list):
        for child in value:
            yield from output_scalars(child)
    else:
        yield value
        if isinstance(value, str) and value[:1] in "{[":
            try:  # the openai target carries tool arguments as JSON text
                yield from output_scalars(json.loads(value))
            except ValueError:
                pass


@SETTINGS
@given(body=requests(), target=TARGETS)
def test_nothing_is_lost_silently(body, target):
    try:
        t = trace(body, target=target)
    except RequestError:
        return
    carried = list(output_scalars([t.translated, t.tools_schema]))
    strings = [s for s in carried if isinstance(s, str)]
    lost = [loss.location for loss in t.losses]
    for location, value in leaves(t.preprocessed):
        if value is None:  # an explicit null says nothing that could be lost
            continue
        if isinstance(value, str):
            kept = value == "" or any(value in s for s in strings)
        else:
            kept = any(value == c and type(value) is type(c) for c in carried)
        named = any(location[: len(where)] == where for where in lost)
        assert kept or named, f"{location} = {value!r} is neither in the output nor in the losses"


@SETTINGS
@given(body=requests(openai=True))
def test_openai_keeps_every_tool_use_id(body):
    translated, _ = translate(body, target="openai")
    carried = {call["id"] for m in translated for call in m.get("tool_calls", [])} | {m["tool_call_id"] for m in translated if m["role"] == "tool"}
    for message in body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block["type"] == "tool_use":
                assert block["id"] in carried
            if block["type"] == "tool_result":
                assert block["tool_use_id"] in carried


@SETTINGS
@given(body=requests(), target=TARGETS)
def test_trace_agrees_with_translate(body, target):
    try:
        expected = translate(preprocess(body), target=target)
    except RequestError:
        return
    t = trace(body, target=target)
    assert (t.translated, t.tools_schema) == expected
    assert sorted(i for p in t.produced for i in p.outputs) == list(range(len(t.translated)))


@SETTINGS
@given(body=requests(mid_list_system=False), target=TARGETS)
def test_trace_equals_translate_without_folding(body, target):
    try:
        expected = translate(body, target=target)[0]
    except RequestError:
        return
    assert trace(body, target=target).translated == expected


REQUIRED = {"text": ["text"], "tool_use": ["id", "name", "input"], "tool_result": ["tool_use_id"], "image": ["source"], "thinking": ["thinking"]}


@SETTINGS
@given(body=requests(mid_list_system=False), data=st.data(), target=TARGETS)
def test_a_removed_required_field_is_reported_where_it_was(body, data, target):
    places = []
    for i, message in enumerate(body["messages"]):
        for j, block in enumerate(message["content"] if isinstance(message["content"], list) else []):
            places += [("messages", i, "content", j, field) for field in REQUIRED.get(block["type"], [])]
            for k, item in enumerate(block.get("content") if block["type"] == "tool_result" and isinstance(block.get("content"), list) else []):
                places += [("messages", i, "content", j, "content", k, field) for field in REQUIRED.get(item["type"], [])]
    if not places:
        return
    where = data.draw(st.sampled_from(places))
    broken = copy.deepcopy(body)
    parent = broken
    for key in where[:-1]:
        parent = parent[key]
    del parent[where[-1]]
    try:
        translate(broken, target=target)
    except RequestError as error:
        assert error.location == where, str(error)
        assert str(error).startswith(f"{error.args[0].split(':')[0]}: is required")
    else:
        raise AssertionError(f"removing {where} was not reported")
