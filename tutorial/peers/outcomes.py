"""What each row made of one recorded request or reply: the four peers' recorded
outcomes and our own, computed on the spot, with markers for what is not plain JSON
(absent, not applicable, refused, reported as lost). `tables.py` builds tables from them."""

from __future__ import annotations

import re

import functools
import json
from dataclasses import dataclass
from typing import Optional

from . import deviations as dv
from ..watch import losses as loss_report
from ..words import current, words_for

# ---------------------------------------------------------------------------
# Rows: who is compared

PEER_ROWS = ("slime", "sglang", "vllm", "litellm")
"""The recorded peers, in the order the tables list them."""

OUR_REQUEST_ROWS = {"ours: chat_template": "slime", "ours: openai": "sglang"}
"""Our request rows -> the peer whose pipeline (`deviations.PEERS`) each one runs."""

OUR_REPLY_ROW = "ours: way back"

_NAMES = {"slime": "Slime", "sglang": "SGLang", "vllm": "vLLM", "litellm": "LiteLLM"}


def peer_label(peer: str, data: dv.PeerData) -> str:
    """"SGLang 0.5.23", "Slime @624b824a": the name and the version the data came from."""
    meta = data.versions.get(peer, {})
    name = _NAMES.get(peer, peer)
    if meta.get("version"):
        return f"{name} {meta['version']}"
    source = str(meta.get("source", ""))
    if "@" in source:
        return f"{name} @{source.rsplit('@', 1)[1][:8]}"
    return name


def citation(data: dv.PeerData) -> str:
    """The four peers with their versions, for prose: "Slime @624b824a, SGLang 0.5.23, …"."""
    return ", ".join(peer_label(peer, data) for peer in PEER_ROWS)


# ---------------------------------------------------------------------------
# Markers for values that are not plain JSON


# The words the markers print, per language. "(absent)", "—" and "✗" are the tables' notation
# (the chapter's prose explains them in both editions); the outcomes after "✗" are data.
WORDS = {
    "en": {"loss_report": "loss report: {path}", "no_response_body": "no response body",
           "no_response_recorded": "no response body recorded"},
    "zh": {"loss_report": "丢失报告：{path}", "no_response_body": "没有响应体",
           "no_response_recorded": "没有记录响应体"},
}

# An outcome ("ok", "400 (validation)", "error (conversion)", "RequestError") in Chinese: the
# status and the code name stay, the words around them are said.
OUTCOMES_ZH = {"ok": "成功", "(validation)": "（校验阶段）", "(conversion)": "（翻译阶段）", "error": "错误"}
_OUTCOME = re.compile(r"(ok)$|(\d+|error) (\((?:validation|conversion)\))")


def outcome_in(outcome: str) -> str:
    """`outcome` in the current language: "400 (validation)" -> "400（校验阶段）", "ok" -> "成功" under Chinese."""
    if current() != "zh":
        return outcome

    def said(match: re.Match) -> str:
        if match.group(1):
            return OUTCOMES_ZH["ok"]
        return OUTCOMES_ZH.get(match.group(2), match.group(2)) + OUTCOMES_ZH[match.group(3)]

    return _OUTCOME.sub(said, outcome, count=1) if _OUTCOME.match(outcome) else outcome


class _Marker:
    def __init__(self, text: str, zh: Optional[str] = None):
        self.text, self.zh = text, zh

    def __repr__(self) -> str:
        return self.text

    def text_in(self) -> str:
        """The marker in the current language; the notation ("(absent)", "—") reads the same in both."""
        return self.zh if self.zh is not None and current() == "zh" else self.text


ABSENT = _Marker("(absent)")
"""The key is not there at all (which a template may treat differently from null or "")."""

NOT_APPLICABLE = _Marker("—")
"""The question does not apply to this row (e.g. a sampling setting for our translation)."""


@dataclass(frozen=True)
class Refused:
    """The row refused the input, so a view of its output has nothing to show."""

    outcome: str  # "400 (validation)", "RequestError", ...

    def __repr__(self) -> str:
        return f"✗ {self.outcome}"

    def text_in(self) -> str:
        """`✗ 400 (validation)`; our own "no response body" in the current language."""
        if self.outcome == WORDS["en"]["no_response_body"]:
            return f"✗ {words_for(WORDS, 'no_response_body')}"
        return f"✗ {outcome_in(self.outcome)}"


@dataclass(frozen=True)
class InLossReport:
    """Our translation does not carry this setting; the loss report names it at `path`."""

    path: str

    def __repr__(self) -> str:
        return WORDS["en"]["loss_report"].format(path=self.path)

    def text_in(self) -> str:
        return words_for(WORDS, "loss_report", path=self.path)


# ---------------------------------------------------------------------------
# One row's outcome for one request or reply


@dataclass(frozen=True)
class RequestSide:
    """What one row made of one request: chat messages and tools, or a refusal."""

    row: str
    ok: bool
    messages: Optional[list] = None
    tools: Optional[list] = None
    record: Optional[dict] = None  # the peer's recorded result (None for our rows)
    error: Optional[str] = None  # the error text (all lines)
    status: Optional[int] = None  # the HTTP status a server would answer
    stage: Optional[str] = None  # where the peer refused (validation / conversion)
    losses: tuple = ()  # our rows: the loss report's (path, value) pairs

    @property
    def outcome(self) -> str:
        if self.ok:
            return "ok"
        if self.record is None:
            return "RequestError"
        return f"{self.status} ({self.stage})" if self.status else f"error ({self.stage})"


@dataclass(frozen=True)
class ReplySide:
    """What one row made of one model output: a response body (or an error) and a stream."""

    row: str
    response: Optional[dict]
    error: Optional[str]  # why there is no response body
    sse: list

    @property
    def ok(self) -> bool:
        return self.response is not None


def request_sides(case_id: str, data: dv.PeerData) -> dict[str, RequestSide]:
    """Every row's outcome for one recorded request, peers first, then our targets."""
    sides: dict[str, RequestSide] = {}
    for peer in PEER_ROWS:
        record = data.results[case_id][peer]
        if record.get("ok"):
            sides[peer] = RequestSide(peer, True, record.get("messages"), record.get("tools"), record)
        else:
            sides[peer] = RequestSide(
                peer,
                False,
                record=record,
                error=str(record.get("error") or "error"),
                status=record.get("http_status_if_served"),
                stage=record.get("stage"),
            )
    for row, peer in OUR_REQUEST_ROWS.items():
        sides[row] = _our_request_side(row, peer, data.cases[case_id])
    return sides


def _our_request_side(row: str, peer: str, request: dict) -> RequestSide:
    ours = dv.run_ours(request, peer)
    if not ours.ok:
        return RequestSide(row, False, error=str(ours.error))
    # The loss report of the very body this pipeline translated. (`trace` always preprocesses;
    # the "openai" row is compared on the body as sent, so the report is taken directly.)
    found = tuple((loss.path, loss.value) for loss in loss_report.report(ours.body, dv.PEERS[peer].target))
    return RequestSide(row, True, ours.messages, ours.tools, losses=found)


def _way_back():
    """The way-back module, or None when it is missing or broken (the tables then say so)."""
    try:
        from .. import way_back
    except Exception:  # noqa: BLE001 - any failure to import means: no row of ours
        return None
    needed = ("build_reply", "sse_events", "counting_ids")
    return way_back if all(hasattr(way_back, name) for name in needed) else None


def parsed_output(model_output: dict) -> dict:
    """A recorded engine output (`replies.json`) as `build_reply`'s `parsed` argument.

    This is the parsing step that comes before `build_reply`. Tool arguments are JSON
    text; text that does not parse is kept as `{"_raw_arguments": text}`, the way Slime
    @624b824a keeps it, so the model's words reach the client instead of vanishing.
    """
    uses = []
    for call in model_output.get("tool_calls") or []:
        try:
            arguments = json.loads(call["arguments"]) if call.get("arguments") else {}
        except json.JSONDecodeError:
            arguments = {"_raw_arguments": call["arguments"]}
        if not isinstance(arguments, dict):
            arguments = {"_raw_arguments": call["arguments"]}
        uses.append({"name": call["name"], "input": arguments})
    return {
        "reasoning": model_output.get("reasoning") or None,
        "text": model_output.get("text") or "",
        "tool_uses": uses,
        "matched_stop": model_output.get("matched_stop"),
    }


def our_reply(reply_id: str, data: dv.PeerData) -> Optional[dict]:
    """Our way back for one recorded model output, in the shape of a peer's record:
    `{"ok", "response", "sse", "manager_message"}`; None when the way back is unavailable.

    Tool ids come from `counting_ids()` ("toolu_0", …), so the result is the same every run.
    """
    way_back = _way_back()
    if way_back is None:
        return None
    output = data.replies[reply_id]
    blocks, stop_reason, manager = way_back.build_reply(
        parsed_output(output), output.get("finish_reason"), new_id=way_back.counting_ids()
    )
    stop_sequence = output.get("matched_stop") if stop_reason == "stop_sequence" else None
    model = _reply_models(data.directory).get(reply_id, "")
    usage = {"input_tokens": output.get("prompt_tokens", 0), "output_tokens": output.get("completion_tokens", 0)}
    response = {
        "id": f"msg_{reply_id}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": usage,
    }
    events = way_back.sse_events(
        blocks,
        stop_reason,
        message_id=response["id"],
        model=model,
        input_tokens=usage["input_tokens"],
        output_tokens=usage["output_tokens"],
        stop_sequence=stop_sequence,
    )
    return {"ok": True, "response": response, "sse": events, "manager_message": manager}


@functools.lru_cache(maxsize=4)
def _reply_models(directory) -> dict[str, str]:
    # `PeerData.replies` keeps the model output only; the model name sits beside it.
    path = directory / "replies.json"
    if not path.is_file():
        return {}
    return {reply["id"]: reply.get("model", "") for reply in json.loads(path.read_text(encoding="utf-8"))}


def reply_sides(reply_id: str, data: dv.PeerData) -> dict[str, ReplySide]:
    """Every row's response body and stream for one recorded model output."""
    sides: dict[str, ReplySide] = {}
    records = dict(data.reply_results[reply_id])
    ours = our_reply(reply_id, data)
    rows = [*PEER_ROWS, *([OUR_REPLY_ROW] if ours is not None else [])]
    if ours is not None:
        records[OUR_REPLY_ROW] = ours
    for row in rows:
        record = records[row]
        failure = record.get("response_error")
        error = str(failure.get("error") or "error") if isinstance(failure, dict) else None
        response = record.get("response") if error is None else None
        if response is None and error is None:
            error = WORDS["en"]["no_response_recorded"]  # views show it in the table's language
        sides[row] = ReplySide(row, response, error, record.get("sse") or [])
    return sides
