"""serve/ — the package as a small, real Anthropic Messages endpoint.

`python -m tutorial serve` (or `tutorial.serve.start()` from a notebook) answers
`POST /v1/messages` the way the Messages API does, keeps every request it receives as a
capture (time, headers without secrets, body, what both targets make of it, what stays
behind) and shows them at `GET /captures`. Replies come from a teaching responder that
says what the translation made of the request, or, with a forward URL, from an
OpenAI-compatible engine through the way back. This folder is the top layer: it may
import anything from `tutorial` (it uses only the public names), and nothing imports it.
Starlette, uvicorn and httpx load only when the server is built, so `import tutorial`
stays light; install them with the `serve` extra.

    app.py        the Starlette app: routes, body limit, error envelopes
    running.py    uvicorn in a background thread on a free port: start(), RunningServer
    analysis.py   what the translation makes of a request, as plain JSON; a rough token count
    responder.py  the replies: the teaching responder, tool_then_text
    captures.py   the bounded capture store, secrets left out, --save as JSON Lines
    forward.py    the bridge to an OpenAI-compatible /v1/chat/completions
    relay.py      the engine's stream relayed as Anthropic's while it arrives
    engine_context.py  how many tokens the engine holds, when it says (max_tokens is lowered to it)
    token_path.py the adapter's token path (--tokens): render to ids, generate from them, keep trajectories
    sessions.py   which session a request belongs to (its key's digest, never the key)
    recorded_session.py  a Claude Code session through the token path, recorded for chapter 13
    wire.py       the Anthropic side of the wire: message objects, SSE text, error envelopes
    words.py      what it writes for people, in English and Chinese (Accept-Language, serve --lang zh)
    cli.py        `python -m tutorial serve`
"""

from __future__ import annotations

# Public name -> the module that defines it, imported on first use: the names are
# listed here without loading Starlette until a server is really wanted.
_LAZY = {
    "start": "running",
    "RunningServer": "running",
    "create_app": "app",
    "Reply": "responder",
    "teaching_responder": "responder",
    "tool_then_text": "responder",
    "Forwarder": "forward",
    "TokenPath": "token_path",
    "DEFAULT_MAX_BODY_BYTES": "app",
    "DEFAULT_MAX_CAPTURES": "captures",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = sorted(_LAZY)
