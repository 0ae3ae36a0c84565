"""Who answers: a responder turns a request body into the assistant's content blocks.

    responder(body) -> (blocks, stop_reason)

`blocks` are Anthropic content blocks (text, thinking, tool_use — what a stream can
carry) and `stop_reason` one of the API's stop reasons. Two are ready-made:

- `teaching_responder`: the default. It answers in text with what the translation made
  of the request: messages and tools per target, and what stays behind — in the language
  of the request being answered (words.py: Accept-Language, else the server's). The same body
  always gets the same reply, so any client completes its turn and a test can expect it.
- `tool_then_text(tool_name, tool_input)`: calls the named tool once, then answers in
  text with what the tool returned — an agent CLI runs one real tool round trip.

Both build their blocks with `tutorial.build_reply`, the way back a real adapter takes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Optional

import tutorial
from tutorial.words import words_for

from .analysis import analyse, prompt_tokens, rough_token_count
from .words import WORDS, count

Responder = Callable[[dict], tuple[list[dict], str]]

STOP_REASONS = ("end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal")


@dataclass
class Reply:
    """Everything the wire needs to write a reply, streamed or not."""

    blocks: list[dict]
    stop_reason: str
    stop_sequence: Optional[str] = None
    input_tokens: int = 0
    output_tokens: int = 0


def run_responder(responder: Responder, body: dict) -> Reply:
    """Call a responder and check what it returned; the usage is the rough count of
    the prompt and of the reply (`analysis.rough_token_count`)."""
    result = responder(body)
    if not (isinstance(result, tuple) and len(result) == 2):
        raise TypeError(f"a responder returns (blocks, stop_reason), got {type(result).__name__}")
    blocks, stop_reason = result
    if not isinstance(blocks, list) or not all(isinstance(block, dict) for block in blocks):
        raise TypeError("a responder's blocks must be a list of content-block objects")
    if stop_reason not in STOP_REASONS:
        raise TypeError(f"a responder's stop_reason must be one of {STOP_REASONS}, got {stop_reason!r}")
    return Reply(blocks, stop_reason, input_tokens=prompt_tokens(body), output_tokens=rough_token_count(blocks))


def text_reply(text: str) -> tuple[list[dict], str]:
    blocks, stop_reason, _kept = tutorial.build_reply({"text": text}, "stop")
    return blocks, stop_reason


# ---------------------------------------------------------------------------
# The teaching responder


def teaching_responder(body: dict) -> tuple[list[dict], str]:
    """A text reply telling the client what the translation made of its request."""
    return teaching_reply(analyse(body))


def teaching_reply(analysis: dict) -> tuple[list[dict], str]:
    """The same, from an analysis already made (the server has one for the capture)."""
    return text_reply(describe(analysis))


MAX_LOSS_LINES = 8  # reasons listed before "and N more reasons"


def describe(analysis: dict) -> str:
    """The teaching reply's text, in the current language (the request's, see words.py). Places,
    targets and roles are written as in code; loss reasons in the same language."""
    lines = [words_for(WORDS, "intro"), ""]
    for target, result in analysis["translated"].items():
        lines.append(words_for(WORDS, "target", target=target, outcome=_outcome(result)))
    losses = analysis["losses"].get("chat_template")
    if losses is not None:
        # `stream` says how the reply travels, not what it says: leaving it out here gives
        # a streamed request the very message the same request unstreamed gets.
        losses = [loss for loss in losses if loss["path"] != "stream"]
        lines += ["", _losses_heading(losses)]
        lines += _loss_lines(losses)
    lines += ["", words_for(WORDS, "footer")]
    return "\n".join(lines)


def _outcome(result: dict) -> str:
    if "error" in result:
        return words_for(WORDS, "refused", message=result["error"]["message"])
    messages, tools = result["translated"], result["tools_schema"] or []
    roles = Counter(message.get("role") for message in messages)
    by_role = words_for(WORDS, "role_join").join(words_for(WORDS, "role_count", count=n, role=role) for role, n in roles.items())
    return words_for(WORDS, "outcome", messages=count(len(messages), "message"), by_role=by_role or words_for(WORDS, "no_roles"),
               tools=count(len(tools), "tool"))  # fmt: skip


def _losses_heading(losses: list) -> str:
    if not losses:
        return words_for(WORDS, "nothing_behind")
    return words_for(WORDS, "behind", places=count(len(losses), "place"))


def _loss_lines(losses: list[dict]) -> list[str]:
    """One line per reason, with the first place it applies and how many more."""
    from tutorial.watch.losses import reason_in

    by_reason: dict[str, list[str]] = {}
    for loss in losses:
        by_reason.setdefault(loss["reason"], []).append(loss["path"])
    lines = []
    for reason, paths in list(by_reason.items())[:MAX_LOSS_LINES]:
        more = words_for(WORDS, "loss_more", places=count(len(paths) - 1, "more place")) if len(paths) > 1 else ""
        lines.append(words_for(WORDS, "loss", path=paths[0], more=more, reason=reason_in(reason)))
    hidden = len(by_reason) - MAX_LOSS_LINES
    if hidden > 0:
        lines.append(words_for(WORDS, "hidden", reasons=count(hidden, "more reason")))
    return lines


def translator_line(compared: dict) -> str:
    """What the learner's translator made of a request (`compare_request`), in one line, in the
    language of the request being answered."""
    from tutorial.notebook.build_it.replay import request_line

    return request_line(compared)


# ---------------------------------------------------------------------------
# One tool round trip


def tool_then_text(
    tool_name: str,
    tool_input: dict,
    *,
    text: Optional[str] = None,
    fallback: Responder = teaching_responder,
) -> Responder:
    """A responder for an agent CLI's first tool round trip.

    - The last message carries a tool_result: answer in text — `text` if given, else
      what the tool returned (flattened, shortened).
    - `tool_name` is offered and no tool_result is in the history yet: call it with
      `tool_input` (stop_reason "tool_use").
    - Otherwise (a side request without that tool, or the round trip is done): `fallback`.

    The tool_use id depends only on the history's length, so a retried request gets
    the same reply.
    """

    def responder(body: dict) -> tuple[list[dict], str]:
        messages = body.get("messages") or []
        answered = _tool_results(messages[-1]) if messages else []
        if answered:
            return text_reply(text if text is not None else _what_it_returned(tool_name, answered[0]))
        if _offers(body, tool_name) and not any(_tool_results(message) for message in messages):
            call = {"tool_uses": [{"name": tool_name, "input": tool_input}]}
            blocks, stop_reason, _kept = tutorial.build_reply(
                call, "tool_calls", new_id=tutorial.counting_ids(f"toolu_tutorial_{len(messages)}_")
            )
            return blocks, stop_reason
        return fallback(body)

    responder.__name__ = f"tool_then_text({tool_name!r})"
    return responder


MAX_ECHOED_CHARACTERS = 2000


def _what_it_returned(tool_name: str, result: dict) -> str:
    returned = tutorial.flatten_content(result.get("content") or "")
    if len(returned) > MAX_ECHOED_CHARACTERS:
        cut = count(len(returned) - MAX_ECHOED_CHARACTERS, "more character")
        returned = returned[:MAX_ECHOED_CHARACTERS] + words_for(WORDS, "cut", characters=cut)
    return words_for(WORDS, "tool_returned", tool=tool_name, returned=returned)


def _tool_results(message: Any) -> list[dict]:
    if not isinstance(message, dict) or message.get("role") != "user" or not isinstance(message.get("content"), list):
        return []
    return [block for block in message["content"] if isinstance(block, dict) and block.get("type") == "tool_result"]


def _offers(body: dict, tool_name: str) -> bool:
    return any(isinstance(tool, dict) and tool.get("name") == tool_name for tool in body.get("tools") or [])
