"""The command line, for readers outside Jupyter.

    python -m tutorial walk [FILE]                       the stage-by-stage walk (default: README example)
    python -m tutorial translate [FILE|-] [--target openai]   {"translated": ..., "tools_schema": ...}
    python -m tutorial doctor                            check the environment, print fixes

Bad input prints the located error on stderr and exits with status 2. This folder may
import anything in `tutorial`; nothing in `tutorial` imports it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional

from ..errors import RequestError
from ..examples import readme_request
from ..targets import names as target_names


def _read_body(source: Optional[str]) -> dict:
    """The request from a file, from stdin ("-"), or the README example (None)."""
    if source is None:
        return readme_request()
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8")  # JSON is UTF-8, whatever the console uses
        else:
            with open(source, encoding="utf-8") as file:
                text = file.read()
    except OSError as error:
        raise SystemExit(_fail(f"{source}: cannot read: {error.strerror}"))
    except UnicodeDecodeError as error:
        raise SystemExit(_fail(f"{source}: not UTF-8 text: {error.reason} at byte {error.start}"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        name = "stdin" if source == "-" else source
        raise SystemExit(_fail(f"{name}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutorial", description="Anthropic request -> chat template input, stage by stage.")
    commands = parser.add_subparsers(dest="command", required=True)
    walk = commands.add_parser("walk", help="print every stage's input and output, then what stays behind")
    walk.add_argument("file", nargs="?", help="request JSON (default: the README example; - for stdin)")
    walk.add_argument("--target", choices=target_names(), default="chat_template")
    translate = commands.add_parser("translate", help='print {"translated": ..., "tools_schema": ...} as JSON')
    translate.add_argument("file", nargs="?", help="request JSON (default: the README example; - for stdin)")
    translate.add_argument("--target", choices=target_names(), default="chat_template")
    commands.add_parser("doctor", help="check Python, packages, Graphviz, a CJK font and the widget extension")
    arguments = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # Chinese must print on any console
        if hasattr(stream, "reconfigure") and (stream.encoding or "").lower() != "utf-8":
            stream.reconfigure(encoding="utf-8")

    if arguments.command == "doctor":
        from ..doctor import main as doctor

        return doctor()
    body = _read_body(arguments.file)
    try:
        if arguments.command == "walk":
            from ..watch.trace import trace
            from ..notebook.walk import walk_text

            sys.stdout.write(walk_text(trace(body, target=arguments.target)))
        else:
            from ..translation import translate as run_translate

            translated, tools_schema = run_translate(body, target=arguments.target)
            print(json.dumps({"translated": translated, "tools_schema": tools_schema}, ensure_ascii=False, indent=2))
    except RequestError as error:
        return _fail(str(error))
    return 0
