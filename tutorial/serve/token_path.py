"""The adapter's token path: Slime's turn, whole, on a real engine (`serve --engine --tokens`).

    python -m tutorial serve --engine --tokens                          llama-server + the tiny model
    python -m tutorial serve --forward http://127.0.0.1:8080 --tokens qwen3 --save turns.jsonl
    python -m tutorial trajectory turns.jsonl --json                    the sessions' training samples

Where the bridge (forward.py) hands the engine chat messages and lets it render them, this
path does what Slime's adapter does in `BaseAdapter._run_turn` (THUDM/slime@624b824a,
`slime/agent/adapters/common.py`), one step each:

1. translate: `tutorial.translate(tutorial.preprocess(body))`, the chat_template target;
2. render `translated` to prompt ids with the family's real template and vocabulary
   (`tutorial.render(..., template=family, tokenize=True)`);
3. generate from the ids on llama.cpp's `POST /completion`, which takes token ids as its
   prompt and returns the ids it wrote (`return_tokens`) and each one's log-probability
   (`n_probs: 1`: the softmax of the model's logits before sampling, `completion_probabilities`);
4. decode the output ids and parse them the way the model writes (Qwen3: `<think>…</think>`,
   then text, then Hermes `<tool_call>` JSON), then `tutorial.build_reply` gives the blocks,
   the stop reason and the turn's `manager_message`;
5. answer the client (JSON, or SSE: `message_start` at once, pings while the engine works);
6. `TrajectoryManager.record_turn(session, turn=TurnRecord(...), prompt_messages=translated,
   response_message=manager_message)`, once the answer has been sent (as Slime: a client that
   went away mid-answer leaves no turn behind).

The session is told apart as Slime tells it: the `Authorization: Bearer` token, else the
`x-api-key`, else "default" (sessions.py). The key itself is never kept: the session is named
by a digest of it. Every capture of this path keeps its turn (`tokens`: the session's digest, the
TurnRecord, the prompt messages and the manager message), so `python -m tutorial trajectory`
rebuilds the same trajectories from a `--save` file without the server.

Only the Qwen3 family's output is parsed here (PARSERS): the tiny model speaks it.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import asdict, dataclass
from typing import Any, AsyncIterator, Awaitable, Callable, Optional

import anyio
import httpx

import tutorial
from tutorial.words import located, words_for

from . import engine_context
from .forward import DEFAULT_TIMEOUT, PING_SECONDS, chat_completions_url, engine_errors, engine_refusal, shutting_down
from .responder import Reply
from .wire import ApiError, sse_text, stream_events
from .words import WORDS as SERVER_WORDS

DEFAULT_FAMILY = "qwen3"
NO_CONTEXT_LEFT = "length"  # the prompt fills the context: nothing is generated (Slime does the same)

# What this module writes for people: few, and all here.
WORDS = {
    "not_parsed": "--tokens: no output parser for the family {family!r} here (parsed: {known})",
    "not_rendered": "the chat template {family!r} could not render this request: {error}",
    "no_completion": "the engine's /completion answer has no {field}: {text}",
}


# ---------------------------------------------------------------------------
# The model's output, the way back: text -> {"reasoning", "text", "tool_uses"}

END_OF_TURN = ("<|im_end|>", "<|endoftext|>")
CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)


def parse_qwen3(text: str) -> tuple[dict, bool]:
    """Qwen3's output -> (build_reply's `parsed`, ill_formed). A think block opens the
    answer (reasoning up to `</think>`; no `</think>`: all reasoning, cut short), text
    follows, and each `<tool_call>…</tool_call>` holds {"name", "arguments"} as JSON. A call
    that is not such JSON leaves the text as it came and marks the turn ill-formed."""
    for end in END_OF_TURN:
        if text.endswith(end):
            text = text[: -len(end)]
    reasoning = None
    if "<think>" in text:
        before, _, rest = text.partition("<think>")
        thought, closed, after = rest.partition("</think>")
        reasoning = thought.strip()
        text = before + after if closed else before
    calls, uses = CALL.findall(text), []
    for call in calls:
        try:
            value = json.loads(call)
        except ValueError:
            return {"reasoning": reasoning, "text": text.strip(), "tool_uses": []}, True
        if not (isinstance(value, dict) and isinstance(value.get("name"), str)
                and isinstance(value.get("arguments", {}), dict)):  # fmt: skip
            return {"reasoning": reasoning, "text": text.strip(), "tool_uses": []}, True
        uses.append({"name": value["name"], "input": value.get("arguments", {})})
    if calls:
        text = text[: text.index("<tool_call>")]
    return {"reasoning": reasoning or None, "text": text.strip(), "tool_uses": uses}, False


PARSERS = {"qwen3": parse_qwen3}


# ---------------------------------------------------------------------------
# One turn


@dataclass
class Turn:
    """A request on its way through the token path."""

    session: str  # the digest (sessions.py), never the key
    translated: list
    tools: Optional[list]
    prompt_ids: list
    record: dict  # the capture's "tokens" entry
    reply: Optional[Reply] = None
    manager_message: Optional[dict] = None
    turn: Any = None  # the TurnRecord, once generated


class TokenPath:
    """Renders, generates from ids, parses, and keeps a TrajectoryManager of every session.
    Opened and closed by the app as a Forwarder is (it stands in its place)."""

    renders_tokens = True  # what the app asks to tell it from a Forwarder

    def __init__(self, url: str, *, family: str = DEFAULT_FAMILY, model: Optional[str] = None,
                 timeout: float = DEFAULT_TIMEOUT, api_key: Optional[str] = None,
                 fork_threshold_tokens: Optional[int] = None):  # fmt: skip
        from tutorial.trajectory import TrajectoryManager

        if family not in PARSERS:
            raise ValueError(WORDS["not_parsed"].format(family=family, known=", ".join(PARSERS)))
        base = url.rstrip("/")
        for tail in ("/completion", "/chat/completions", "/v1"):
            base = base[: -len(tail)] if base.endswith(tail) else base
        self.url = base + "/completion"
        self.family, self.model, self.timeout = family, model, timeout
        self._api_key = api_key
        self._client: Optional[httpx.AsyncClient] = None
        self._closing: Optional[asyncio.Event] = None
        self.context = engine_context.EngineContext(chat_completions_url(base))
        self.manager = TrajectoryManager(fork_threshold_tokens=fork_threshold_tokens)

    def __repr__(self) -> str:
        return f"TokenPath({self.url!r}, family={self.family!r})"

    async def open(self) -> None:
        headers = {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout), headers=headers, trust_env=False)
        self._closing = asyncio.Event()
        self.context.start(self._client)
        # the vocabulary takes a second or two to build: built now, not while the first request waits
        asyncio.get_running_loop().run_in_executor(None, _warm, self.family)

    def shut_down(self) -> None:
        if self._closing is not None:
            self._closing.set()

    async def close(self) -> None:
        self.shut_down()
        await self.context.stop()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # -- the steps ---------------------------------------------------------------

    def prepare(self, body: dict, session: str) -> Turn:
        """Steps 1 and 2 (in a worker thread: a long prompt takes a while to render)."""
        translated, tools = tutorial.translate(tutorial.preprocess(body))
        try:
            prompt_ids = tutorial.render(translated, tools or None, template=self.family, tokenize=True)
        except Exception as error:  # RenderError: the template refused, or the vocabulary is missing
            raise ApiError(400, words_for(SERVER_WORDS, "invalid_request", message=WORDS["not_rendered"].format(family=self.family, error=error)))
        record = {"url": self.url, "family": self.family, "session": session, "prompt_tokens": len(prompt_ids)}
        return Turn(session, translated, tools or None, prompt_ids, record)

    def completion_request(self, body: dict, turn: Turn) -> dict:
        """llama.cpp's /completion body for the turn (the prompt ids themselves are in the TurnRecord)."""
        wanted = body.get("max_tokens") if isinstance(body.get("max_tokens"), int) else 4096
        request: dict = {"n_predict": wanted, "return_tokens": True, "n_probs": 1, "cache_prompt": True, "stream": False}
        context = self.context.size
        if isinstance(context, int):  # as Slime: what is left of the context after the prompt
            request["n_predict"] = min(wanted, context - len(turn.prompt_ids))
        else:
            turn.record["max_tokens_as_asked"] = {"sent": wanted, "context": context}
        for name in ("temperature", "top_p", "top_k"):
            if body.get(name) is not None:
                request[name] = body[name]
        if body.get("stop_sequences"):
            request["stop"] = list(body["stop_sequences"])
        turn.record["request"] = dict(request)
        return request

    async def generate(self, body: dict, turn: Turn) -> Turn:
        """Steps 3 and 4: the engine's ids and log-probs, parsed into the reply."""
        from tutorial.trajectory import TurnRecord
        from tutorial.watch.tokenizer import backend_tokenizer

        request = self.completion_request(body, turn)
        if request["n_predict"] <= 0:
            answer = {"tokens": [], "completion_probabilities": [], "stop_type": "limit"}
        else:
            answer = await self._post({**request, "prompt": turn.prompt_ids}, turn.record)
        output_ids = answer.get("tokens")
        if not isinstance(output_ids, list):
            raise ApiError(502, WORDS["no_completion"].format(field="tokens", text=repr(str(answer)[:200])), retry=False)
        probs = answer.get("completion_probabilities") or []
        log_probs = [float(p["logprob"]) for p in probs if isinstance(p, dict) and isinstance(p.get("logprob"), (int, float))]
        if len(log_probs) != len(output_ids):  # a stop word trims the probabilities, not the ids
            log_probs = []
        finish = "length" if answer.get("stop_type") == "limit" else "stop"
        matched = answer.get("stopping_word") if answer.get("stop_type") == "word" else None
        text = backend_tokenizer(_vocabulary(self.family)).decode(output_ids, skip_special_tokens=False)
        parsed, ill_formed = PARSERS[self.family](text)
        parsed["matched_stop"] = matched or None
        try:
            blocks, stop_reason, manager_message = tutorial.build_reply(parsed, finish)
        except tutorial.RequestError as error:
            raise ApiError(502, words_for(SERVER_WORDS, "no_reply_located", error=located(error)), retry=False)
        turn.reply = Reply(blocks, stop_reason, matched if stop_reason == "stop_sequence" else None,
                           input_tokens=len(turn.prompt_ids), output_tokens=len(output_ids))  # fmt: skip
        turn.manager_message = manager_message
        # Slime's finish reason for the manager: tool_calls when the turn called a tool
        kept_finish = "tool_calls" if parsed["tool_uses"] else finish
        turn.turn = TurnRecord(list(turn.prompt_ids), list(output_ids), kept_finish, log_probs, ill_formed)
        turn.record["turn"] = asdict(turn.turn)
        turn.record["output_text"] = text
        turn.record["prompt_messages"] = turn.translated
        turn.record["tools"] = turn.tools
        turn.record["response_message"] = manager_message
        return turn

    async def _post(self, request: dict, record: dict) -> dict:
        """The engine's whole answer; a server shutting down meanwhile ends it with a 529."""
        if self._client is None:
            raise ApiError(500, words_for(SERVER_WORDS, "not_open"))
        work = asyncio.ensure_future(self._client.post(self.url, json=request))
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            async with engine_errors(self):
                await asyncio.wait({work, closing}, return_when=asyncio.FIRST_COMPLETED)
                if not work.done():
                    raise shutting_down()
                response = work.result()
        finally:
            closing.cancel()
            if not work.done():
                work.cancel()
                with anyio.CancelScope(shield=True):
                    await asyncio.wait({work})
        record["status"] = response.status_code
        if response.status_code >= 300:
            raise engine_refusal(response.status_code, response.text)
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise ApiError(502, WORDS["no_completion"].format(field="JSON object", text=repr(response.text[:200])), retry=False)
        return answer

    def keep(self, turn: Turn) -> None:
        """Step 6: the turn joins its session's trajectory."""
        self.manager.record_turn(turn.session, turn=turn.turn, prompt_messages=turn.translated,
                                 response_message=turn.manager_message)  # fmt: skip

    async def sse(self, body: dict, turn: Turn, *, message_id: str, model: str,
                  on_end: Callable[[Optional[Turn], Optional[ApiError]], Awaitable[None]]) -> AsyncIterator[str]:  # fmt: skip
        """Step 5, streamed: message_start and a ping at once, a ping every PING_SECONDS while
        the engine works, then the blocks; a failure after the start is an `error` event."""
        done, failure = None, None
        opening = stream_events(Reply([], "end_turn", input_tokens=len(turn.prompt_ids)), message_id=message_id, model=model)
        work: Optional[asyncio.Future] = None
        try:
            for text in sse_text(opening[:2]):
                yield text
            work = asyncio.ensure_future(self.generate(body, turn))
            while not work.done():
                await asyncio.wait({work}, timeout=PING_SECONDS)
                if not work.done():
                    for text in sse_text([{"event": "ping", "data": {"type": "ping"}}]):
                        yield text
            work.result()
            for text in sse_text(stream_events(turn.reply, message_id=message_id, model=model)[2:]):
                yield text
            done = turn
        except ApiError as error:
            failure = error
            for text in sse_text([{"event": "error", "data": error.envelope()}]):
                yield text
        finally:
            with anyio.CancelScope(shield=True):  # even when the client's disconnect cancelled us
                if work is not None and not work.done():
                    work.cancel()
                    await asyncio.wait({work})
                await on_end(done, failure)


def _vocabulary(family: str) -> str:
    from tutorial.watch.families import FAMILIES

    return FAMILIES[family].vocabulary


def _warm(family: str) -> None:
    try:
        tutorial.render([{"role": "user", "content": "hi"}], template=family, tokenize=True)
    except Exception:  # noqa: BLE001 - the first request will say what is wrong, located
        pass
