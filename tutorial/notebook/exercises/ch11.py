"""Chapter 11, capture a real client: predictions about what a real client sends and what the
translation makes of it.

The right answers come from the package: the way back and `response_to_message` for the echo
of a reply, and `trace` of the recorded Claude Code session (tests/data/captures/, read from the
repository this package was installed from) for the rest. The question about the API key asks
what a capture should keep; the chapter checks the server's answer right below it.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

from ...examples import readme_request
from ...round_trip import response_to_message
from ...translation import translate
from ...way_back import build_reply, counting_ids
from ...watch.trace import trace
from . import Exercise, add

TARGETS = ("chat_template", "openai")
SESSION = Path(__file__).resolve().parents[3] / "tests" / "data" / "captures" / "claude_code_session.json"
"""The recorded Claude Code session the chapter reads (as ../tests/data/captures/... beside it)."""


@functools.cache
def _session() -> dict:
    if not SESSION.is_file():
        raise FileNotFoundError(f"no recorded session at {SESSION}: chapter 11 runs from a checkout of the repository")
    return json.loads(SESSION.read_text(encoding="utf-8"))


def _first_request() -> dict:
    return copy.deepcopy(_session()["requests"][0]["body"])


def _names(value: Any) -> list:
    return sorted({str(v).strip().strip("'\"").lower() for v in value}) if isinstance(value, (list, tuple, set)) else []


add(
    Exercise(
        key="11.key",
        question="The SDK sent its API key in a request header. What should the capture of that request keep of it?",
        choices={
            "a": "The header as it was sent: a capture is a faithful record, and the server runs on your own machine.",
            "b": "The key with all but its last four characters masked, so that two keys can be told apart.",
            "c": "Only the header's name, listed in headers_withheld: the value never enters the capture.",
            "d": "A hash of the key, so that requests made with the same key can be matched up.",
        },
        expected=lambda: "c",
        wrong="a",
        feedback={
            "a": "captures are shown at GET /captures, saved with --save and printed in notebooks; anything in a "
            "capture can leak from any of them. The request works without the key, so the record does not need it.",
            "b": "the last characters of a key still identify it, and a partly shown key invites copying the rest "
            "from somewhere else. The capture has no use for any part of it.",
            "d": "a short key hashed without a secret salt can be guessed back, and nothing in the tutorial needs to "
            "match requests by key.",
        },
        hint="Think of every place a capture goes: the list at GET /captures, the file written with --save, a "
        "notebook's stored outputs.",
        explanation="a header whose name says it carries a credential is dropped before the capture is built, "
        "and only its name is kept, so nothing in a capture (its list, its saved file, a notebook) can leak the key.",
    )
)


CALL = {"name": "read_file", "input": {"path": "README.md"}}
"""The call the tool_then_text responder makes in section 4."""


def _echo_equals_record() -> str:
    """Which target's translation of the echoed reply equals response_to_message(reply)."""
    call = {"tool_uses": [copy.deepcopy(CALL)]}
    blocks, stop_reason, _manager = build_reply(call, "tool_calls", new_id=counting_ids("toolu_tutorial_1_"))
    reply = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "local", "content": blocks,
        "stop_reason": stop_reason, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip
    record = response_to_message(reply)
    body = readme_request()
    question = {"role": "user", "content": "读取 README.md 并概括内容。"}
    echo = {**body, "messages": [question, {"role": "assistant", "content": blocks}]}
    equal = tuple(translate(copy.deepcopy(echo), target=target)[0][-1] == record for target in TARGETS)
    return {(True, False): "a", (False, True): "b", (True, True): "c", (False, False): "d"}[equal]


add(
    Exercise(
        key="11.echo",
        question="The server keeps each reply as a chat message too: capture['reply_as_chat_message'], made by "
        "response_to_message (chapter 09). The next request echoes the reply back as history. Translate that "
        "echo with each target: which translation equals the kept message under ==?",
        choices={
            "a": "The chat_template translation: it drops the id, as the adapter's record does.",
            "b": "The openai translation: both keep the id and write the arguments as JSON text.",
            "c": "Both: the echo is the same turn, whichever target translates it.",
            "d": "Neither: the SDK's response objects are not plain JSON, so the echo differs from what was sent.",
        },
        expected=_echo_equals_record,
        wrong="a",
        feedback={
            "a": "that was chapter 08's record, the manager message build_reply returns. response_to_message keeps "
            "a different record: the one a store of Chat Completions messages needs, with the id the result points "
            "back at.",
            "c": "the two targets differ exactly where a call is concerned: the id, and a dict or JSON text for the "
            "arguments. One of them matches this record, the other cannot.",
            "d": "the SDK turns its objects back into the JSON it received (the chapter checks it just below): the "
            "echo is the reply, word for word.",
        },
        hint="Look at what response_to_message does with a tool_use block: does it keep the id, and how does it "
        "write the arguments?",
        explanation="response_to_message keeps the id and writes the arguments as JSON text, the openai shape, so "
        "the openai translation of the echo equals it. The default target's echo equals build_reply's manager "
        "message instead (chapter 08): which translation matches depends on which record a store keeps.",
    )
)


def _roles() -> list[str]:
    return [message["role"] for message in trace(_first_request()).translated]


add(
    Exercise(
        key="11.cc_roles",
        question="Claude Code's first request: a system prompt of three blocks, then messages[0] (user: two text "
        "blocks) and messages[1] (role system: one text block). Which roles does the server's translation "
        "(trace: preprocess, then the default target) give, in order?",
        expected=_roles,
        wrong=["system", "user", "user", "system"],
        hint="translate alone would keep a system message in the middle of the list, and many chat templates refuse "
        "one there. The server runs preprocess first (chapter 01): where does it put that message?",
        explanation="the system prompt becomes the one system message; each text block of messages[0] becomes a "
        "user message of its own; and preprocess folded messages[1] into messages[0] as a <system-reminder> text "
        "block first, so it comes out as a third user message.",
        form="a list of roles, e.g. ['system', 'user']",
    )
)


def _deferred() -> str:
    body = _first_request()
    [index] = [i for i, tool in enumerate(body["tools"]) if tool.get("defer_loading")]
    traced = trace(body)
    listed = body["tools"][index]["name"] in [tool["function"]["name"] for tool in traced.tools_schema]
    reported = f"tools[{index}].defer_loading" in [loss.path for loss in traced.losses]
    flag_kept = "defer_loading" in json.dumps(traced.tools_schema)
    return "b" if listed and reported and not flag_kept else "?"


add(
    Exercise(
        key="11.deferred",
        question="One of Claude Code's twelve tools, DeferredToolPlaceholder, carries \"defer_loading\": true "
        "(Anthropic's tool search: the schema of a deferred tool is loaded only when a search finds it). What does "
        "the default target make of that tool?",
        choices={
            "a": "It leaves the tool out of tools_schema: a deferred tool is not offered up front.",
            "b": "It lists the tool like the other eleven, and the loss report names the defer_loading flag it left "
            "behind.",
            "c": "It refuses the request: the chat_template shape cannot say that a tool is deferred.",
            "d": "It keeps defer_loading inside the function's entry, for the chat template to act on.",
        },
        expected=_deferred,
        wrong="a",
        feedback={
            "a": "nothing in a tool tells the translation to leave it out, and leaving it out would hide a tool the "
            "client offered. The flag is what cannot be carried.",
            "c": "the default target refuses nothing that it can carry in part: it carries what it can and says what "
            "stayed behind.",
            "d": "that is the openai target, which passes the flag on for an engine that knows it. A chat template "
            "has no such setting: the default target's function entry has name, description and parameters.",
        },
        hint="Tool search is a service of Anthropic's servers. Does a chat template have anything that could load a "
        "schema later?",
        explanation="the tool is listed with its name, description and parameters like any other, and the flag "
        "stays behind (tools[10].defer_loading in the loss report): the model behind a chat template sees every "
        "schema up front. The openai target passes the flag on.",
    )
)


def _reach() -> list[str]:
    body = _first_request()
    left = {loss.path for loss in trace(body).losses}
    return sorted(key for key in body if key not in left)


add(
    Exercise(
        key="11.cc_reach",
        question="Claude Code's request has ten top-level fields: model, messages, system, tools, metadata, "
        "max_tokens, thinking, context_management, output_config, stream. Which of them reach the default "
        "target's output (translated or tools_schema)? (A list; order does not matter.)",
        expected=_reach,
        wrong=["messages", "system", "thinking", "tools"],
        same=lambda answer, expected: _names(answer) == _names(expected),
        hint="Ask of each field: is it the conversation, a tool on offer, or a setting of the sampling? A chat "
        "template's switch for thinking is a keyword argument of the call, not a message.",
        explanation="only the conversation and the tools on offer: system and messages become translated, tools "
        "becomes tools_schema. The other seven are settings or bookkeeping, and the loss report names each one with "
        "its reason.",
        form="a list of field names, e.g. ['messages']",
    )
)
