"""The command line, for readers outside Jupyter.

    python -m tutorial walk [FILE] [--lang zh]           the stage-by-stage walk (default: README example)
    python -m tutorial translate [FILE|-] [--target openai]   {"translated": ..., "tools_schema": ...}
    python -m tutorial grade FILE.py [--lang zh]         check chapter 05's functions in FILE.py against the package
    python -m tutorial serve [...]                       a local /v1/messages endpoint (the `serve` extra)
    python -m tutorial trajectory CAPTURES [--json]      the training samples of `serve --tokens` sessions
    python -m tutorial drift [--json] [--family F]       does each family's next prompt extend the last one + answer?
    python -m tutorial doctor                            check the environment, print fixes

Every command takes `--lang en|zh` (before or after its name); without it the language is
`TUTORIAL_LANG`, else the locale (`LANG=zh_CN.UTF-8`), else English (words.py). In Chinese,
everything a user reads is Chinese — help, argparse's own words, reports, errors — except the
lesson's located errors, which stay English inside a Chinese frame.

Bad input prints one line, the located error, on stderr and exits with status 2; the
command line never prints a traceback. Output is UTF-8 whatever the console's locale; a
lone surrogate (valid in JSON text, not in UTF-8) is written as its `\\udXXX` escape, which
in JSON output is the same string again. Output into a closed pipe (`... | head -1`) ends
quietly. This folder may import anything in `tutorial`; nothing in `tutorial` imports it,
except the server, whose command line and error messages share words.py.
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
from ..words import current, located, os_problem, using, words_for
from . import grade, words
from .words import WORDS
from .drift import help_line as drift_help, main as drift

BAD_INPUT = 2


def main(argv: Optional[list[str]] = None) -> int:
    """Run one command; the exit status. Never raises (but SystemExit), never prints a traceback."""
    _utf8_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    with using(words.lang_of(argv)):  # everything the command calls speaks its language
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
            return _fail(words_for(WORDS, "too_deep"))
        except MemoryError:
            return _fail(words_for(WORDS, "memory"))
        except Exception as error:  # noqa: BLE001 - a bug, but still one line, not a traceback
            return _fail(words_for(WORDS, "bug", kind=type(error).__name__, detail=_first_line(error)), status=1)


def parser() -> argparse.ArgumentParser:
    """The command line's parser, its help in the current language (build it inside
    `words.argparse_words()`)."""
    texts = WORDS[current()]
    formatter = words.formatter()
    file_metavar = texts["file_metavar"]
    top = argparse.ArgumentParser(prog="python -m tutorial", description=texts["description"], formatter_class=formatter)
    top.add_argument("--lang", choices=words.LANGUAGES, default=None, help=texts["lang"])
    choices = "{walk,translate,grade,serve,trajectory,drift,doctor}"  # named so in "the following arguments are required"
    commands = top.add_subparsers(dest="command", required=True, metavar=choices)

    def command(name: str, **options) -> argparse.ArgumentParser:
        made = commands.add_parser(name, formatter_class=formatter, **options)
        if options.get("add_help", True):
            # SUPPRESS: a --lang before the command is not undone by this one's default
            made.add_argument("--lang", choices=words.LANGUAGES, default=argparse.SUPPRESS, help=texts["lang"])
        return made

    walk = command("walk", help=texts["walk"], description=texts["walk"])
    walk.add_argument("file", nargs="?", metavar=file_metavar, help=texts["walk_file"])
    walk.add_argument("--target", choices=target_names(), default="chat_template", help=texts["target"])
    translate = command("translate", help=texts["translate"], description=texts["translate"])
    translate.add_argument("file", nargs="?", metavar=file_metavar, help=texts["walk_file"])
    translate.add_argument("--target", choices=target_names(), default="chat_template", help=texts["target"])
    grade.add_parser(command)
    command("serve", help=texts["serve"], add_help=False)
    from .trajectory import help_line as trajectory_help

    command("trajectory", help=trajectory_help(), add_help=False)
    command("drift", help=drift_help(), add_help=False)
    command("doctor", help=texts["doctor"], description=texts["doctor"])
    return top


def _run(argv: list[str]) -> int:
    rest = _after_top_options(argv)
    if rest[:1] == ["serve"]:
        return _serve(rest[1:])  # its own options, parsed by the serve package
    if rest[:1] == ["trajectory"]:
        from .trajectory import main as trajectory

        with words.argparse_words():
            return trajectory(rest[1:], _fail)
    if rest[:1] == ["drift"]:
        with words.argparse_words():
            return drift(rest[1:], _fail)
    with words.argparse_words():
        if not rest:  # no command: named plainly, not as argparse's {walk,translate,...}
            top = parser()
            names = list(top._subparsers._group_actions[0].choices)  # the commands, in their order
            top.error(words_for(WORDS, "no_command", commands=("、" if current() == "zh" else ", ").join(names)))
        arguments = parser().parse_args(argv)

    if arguments.command == "doctor":
        from .doctor import main as doctor

        return doctor([])  # its arguments are read: it runs in this command's language
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

            sys.stdout.write(walk_text(trace(body, target=arguments.target)))
        else:
            from ..translation import translate as run_translate

            translated, tools_schema = run_translate(body, target=arguments.target)
            print(json.dumps({"translated": translated, "tools_schema": tools_schema}, ensure_ascii=False, indent=2))
    except RequestError as error:
        return _fail(words_for(WORDS, "request", message=located(error)), framed=current() != "zh")  # 「请求无效：…」 is the frame
    return 0


def _after_top_options(argv: list[str]) -> list[str]:
    """`argv` from the command's name on: the top level's `--lang X` (or `--lang=X`) skipped."""
    at = 0
    while at < len(argv):
        if argv[at] == "--lang":
            at += 2
        elif argv[at].startswith("--lang="):
            at += 1
        else:
            break
    return argv[at:]


def _read_body(source: Optional[str]) -> dict:
    """The request from a file, from stdin ("-"), or the README example (None)."""
    if source is None:
        return readme_request()
    name = words_for(WORDS, "stdin") if source == "-" else source
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
        else:
            with open(source, "rb") as file:
                data = file.read(MAX_TEXT_BYTES + 1)
    except OSError as error:
        raise _BadText(words_for(WORDS, "cannot_read", name=name, why=os_problem(error))) from None
    try:
        return read_json(data, name)
    except RequestError as error:  # about the text, not a place in a body: no "body: " before it
        raise _BadText(words.text_problem(data, name) or error.problem) from None


class _BadText(Exception):
    """The request could not be read, or is not JSON text within the limits."""


def _serve(argv: list[str]) -> int:
    try:
        from ..serve.cli import main as serve
    except ImportError as error:
        missing = getattr(error, "name", None) or words_for(WORDS, "a_module")
        return _fail(words_for(WORDS, "no_serve", missing=missing))
    return serve(argv)  # in this command's language: a --lang before `serve` holds there too


def _fail(message: str, status: int = BAD_INPUT, framed: bool = True) -> int:
    """Print `message` as one line on stderr ("error: ..." unless `framed` is False), in the
    current language; the status."""
    line = " ".join(str(message).splitlines())
    print(words_for(WORDS, "error", message=line) if framed else line, file=sys.stderr)
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
