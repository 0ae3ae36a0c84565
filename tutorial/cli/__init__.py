"""The command line, for readers outside Jupyter.

    python -m tutorial walk [FILE] [--lang zh]           the stage-by-stage walk (default: README example)
    python -m tutorial translate [FILE|-] [--target openai]   {"translated": ..., "tools_schema": ...}
    python -m tutorial grade FILE.py [--lang zh]         check chapter 05's functions in FILE.py against the package
    python -m tutorial serve [...]                       a local /v1/messages endpoint (the `serve` extra)
    python -m tutorial doctor                            check the environment, print fixes

Bad input prints one line, the located error, on stderr and exits with status 2; the
command line never prints a traceback. Output is UTF-8 whatever the console's locale; a
lone surrogate (valid in JSON text, not in UTF-8) is written as its `\\udXXX` escape, which
in JSON output is the same string again. Output into a closed pipe (`... | head -1`) ends
quietly. This folder may import anything in `tutorial`; nothing in `tutorial` imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Optional

from ..errors import RequestError
from ..examples import readme_request
from ..limits import MAX_TEXT_BYTES, read_json
from ..targets import names as target_names
from . import grade

BAD_INPUT = 2


def main(argv: Optional[list[str]] = None) -> int:
    """Run one command; the exit status. Never raises, never prints a traceback."""
    _utf8_streams()
    try:
        status = _run(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows up here, not at exit
        return status
    except BrokenPipeError:
        # The reader went away (`| head -1`). Python's docs ("Note on SIGPIPE"): point
        # stdout at devnull, so the flush at exit does not raise a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        return _fail("the input is nested too deeply to process")
    except MemoryError:
        return _fail("out of memory")
    except Exception as error:  # noqa: BLE001 - a bug, but still one line, not a traceback
        return _fail(f"internal error (a bug; please report it): {type(error).__name__}: {_first_line(error)}", status=1)


def _run(argv: Optional[list[str]]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutorial", description="Anthropic request -> chat template input, stage by stage.")
    commands = parser.add_subparsers(dest="command", required=True)
    walk = commands.add_parser("walk", help="print every stage's input and output, then what stays behind")
    walk.add_argument("file", nargs="?", help="request JSON (default: the README example; - for stdin)")
    walk.add_argument("--target", choices=target_names(), default="chat_template")
    walk.add_argument("--lang", choices=("en", "zh"), default=None, help="language of the walk (default: TUTORIAL_LANG, else English)")
    translate = commands.add_parser("translate", help='print {"translated": ..., "tools_schema": ...} as JSON')
    translate.add_argument("file", nargs="?", help="request JSON (default: the README example; - for stdin)")
    translate.add_argument("--target", choices=target_names(), default="chat_template")
    grade.add_parser(commands)
    commands.add_parser("serve", help="a local /v1/messages endpoint that captures requests (python -m tutorial serve -h)", add_help=False)
    commands.add_parser("doctor", help="check Python, packages, Graphviz, a CJK font and the widget extension")
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["serve"]:
        return _serve(argv[1:])  # its own options, parsed by the serve package
    arguments = parser.parse_args(argv)

    if arguments.command == "doctor":
        from .doctor import main as doctor

        return doctor()
    if arguments.command == "grade":
        return grade.run(arguments, _fail)
    try:
        body = _read_body(arguments.file)
    except _BadText as error:
        return _fail(str(error))
    try:
        if arguments.command == "walk":
            from ..notebook.walk import walk_text
            from ..watch.trace import trace

            sys.stdout.write(walk_text(trace(body, target=arguments.target), lang=arguments.lang))
        else:
            from ..translation import translate as run_translate

            translated, tools_schema = run_translate(body, target=arguments.target)
            print(json.dumps({"translated": translated, "tools_schema": tools_schema}, ensure_ascii=False, indent=2))
    except RequestError as error:
        return _fail(str(error))
    return 0


def _read_body(source: Optional[str]) -> dict:
    """The request from a file, from stdin ("-"), or the README example (None)."""
    if source is None:
        return readme_request()
    name = "stdin" if source == "-" else source
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
        else:
            with open(source, "rb") as file:
                data = file.read(MAX_TEXT_BYTES + 1)
    except OSError as error:
        raise _BadText(f"{name}: cannot read: {error.strerror or error}") from None
    try:
        return read_json(data, name)
    except RequestError as error:  # about the text, not a place in a body: no "body: " before it
        raise _BadText(error.problem) from None


class _BadText(Exception):
    """The request could not be read, or is not JSON text within the limits."""


def _serve(argv: list[str]) -> int:
    try:
        from ..serve.cli import main as serve
    except ImportError as error:
        missing = getattr(error, "name", None) or "a module"
        return _fail(f"the serve command needs the 'serve' extra ({missing} is missing): pip install -e '.[serve]'")
    return serve(argv)


def _fail(message: str, status: int = BAD_INPUT) -> int:
    print(f"error: {' '.join(message.splitlines())}", file=sys.stderr)
    return status


def _first_line(error: BaseException) -> str:
    try:
        return (str(error).splitlines() or [""])[0][:300]
    except Exception:  # noqa: BLE001
        return ""


def _utf8_streams() -> None:
    """Chinese must print on any console, and a lone surrogate must not stop the output."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(encoding="utf-8", errors="backslashreplace")
            except (ValueError, OSError):  # a stream that cannot change now: leave it
                pass
