"""`python -m tutorial serve`: the server in the foreground, one log line per request on stderr.

    python -m tutorial serve                              teaching responder on 127.0.0.1:8765
    python -m tutorial serve --port 0                     any free port (the banner says which)
    python -m tutorial serve --forward http://127.0.0.1:8000 --model my-model
    python -m tutorial serve --save captures.jsonl        also append every capture to a file
    python -m tutorial serve --translator my_translator.py   also run your chapter-05 translator on every request

Then point a client at it, e.g. `ANTHROPIC_BASE_URL=http://127.0.0.1:8765`. The engine's
API key, if it needs one, is read from the TUTORIAL_FORWARD_API_KEY environment variable
(never from the command line, where other users of the machine could read it).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

DEFAULT_PORT = 8765
MISSING = "the server needs the serve extra: pip install -e '.[serve]' (Starlette, uvicorn, httpx)"


def parser() -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(
        prog="python -m tutorial serve",
        description="A local /v1/messages endpoint that captures every request and shows what the translation makes of it.",
    )
    commands.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    commands.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"(default: {DEFAULT_PORT}; 0: any free port)")
    commands.add_argument("--forward", metavar="URL", help="answer with an OpenAI-compatible engine's /v1/chat/completions")
    commands.add_argument("--model", help="with --forward: the model name the engine serves (default: the request's)")
    commands.add_argument("--timeout", type=float, help="with --forward: seconds to wait for the engine (default: 300)")
    commands.add_argument("--save", metavar="FILE", help="append every capture to FILE as JSON Lines")
    commands.add_argument("--max-body-bytes", type=int, help="largest request body accepted (default: 32 MiB)")
    commands.add_argument("--max-captures", type=int, help="captures kept in memory (default: 100)")
    commands.add_argument(
        "--translator", metavar="FILE.py",
        help="a file defining chapter 05's translate: every request also goes through it, and its capture "
        "(\"yours\") and the log say where it differs from the package's translation",
    )  # fmt: skip
    return commands


def main(argv: Optional[list[str]] = None) -> int:
    arguments = parser().parse_args(argv)
    if (arguments.model or arguments.timeout) and not arguments.forward:
        return _fail("--model and --timeout only apply with --forward")
    try:
        import uvicorn

        from .app import DEFAULT_MAX_BODY_BYTES, create_app
        from .captures import DEFAULT_MAX_CAPTURES
        from .running import bind, server_config, warn_unless_loopback
    except ImportError:
        return _fail(MISSING)

    translator = None
    if arguments.translator:
        from ..notebook.build_it import TranslatorError, load_translator

        try:
            translator = load_translator(arguments.translator)
        except TranslatorError as error:
            return _fail(str(error))
    forward = _forwarder(arguments) if arguments.forward else None
    try:
        app = create_app(
            forward=forward,
            save=arguments.save,
            max_body_bytes=arguments.max_body_bytes or DEFAULT_MAX_BODY_BYTES,
            max_captures=arguments.max_captures or DEFAULT_MAX_CAPTURES,
            log=_log,
            translator=translator,
        )
    except (OSError, ValueError) as error:
        return _fail(str(error))
    warn_unless_loopback(arguments.host)
    try:
        sock = bind(arguments.host, arguments.port)
    except OSError as error:
        return _fail(f"cannot listen on {arguments.host}:{arguments.port}: {error.strerror or error}")
    _banner(sock, forward, arguments.save, translator)
    try:
        uvicorn.Server(server_config(app)).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly on Ctrl-C, then passes the signal on
        pass
    return 0


def _forwarder(arguments):
    try:
        from .forward import DEFAULT_TIMEOUT, Forwarder
    except ImportError:
        raise SystemExit(_fail(MISSING))
    timeout = arguments.timeout or DEFAULT_TIMEOUT
    api_key = os.environ.get("TUTORIAL_FORWARD_API_KEY")
    return Forwarder(arguments.forward, model=arguments.model, timeout=timeout, api_key=api_key)


def _banner(sock, forward, save: Optional[str], translator=None) -> None:
    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    answers = f"forwarding to {forward.url}" if forward is not None else "answering with the teaching responder"
    _log(f"tutorial serve: listening on {url}, {answers}")
    _log(f"  point a client at it:  ANTHROPIC_BASE_URL={url}")
    _log(f"  captures:              {url}/captures" + (f"  (and appended to {save})" if save else ""))
    if translator is not None:
        _log(f"  your translator:       {translator.origin}, compared with the package's on every request")
    _log("  stop with Ctrl-C")


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
