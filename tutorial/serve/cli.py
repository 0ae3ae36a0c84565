"""`python -m tutorial serve`: the server in the foreground, one log line per request on stderr.

    python -m tutorial serve                              teaching responder on 127.0.0.1:8765
    python -m tutorial serve --port 0                     any free port (the banner says which)
    python -m tutorial serve --forward http://127.0.0.1:8000 --model my-model
    python -m tutorial serve --engine                     start llama.cpp's server with the tiny model
                                                          (python3 tasks.py engine builds it) and forward
                                                          to it; Ctrl-C stops both
    python -m tutorial serve --engine --tokens            the adapter's token path (token_path.py): render to
                                                          ids, generate from them, keep each session's trajectory
    python -m tutorial serve --save captures.jsonl        also append every capture to a file
    python -m tutorial serve --translator my_translator.py   also run your chapter-05 translator on every request
    python -m tutorial serve --lang zh                    replies, summaries, errors and log in Chinese

Then point a client at it, e.g. `ANTHROPIC_BASE_URL=http://127.0.0.1:8765`. The engine's
API key, if it needs one, is read from the TUTORIAL_FORWARD_API_KEY environment variable
(never from the command line, where other users of the machine could read it).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Optional

DEFAULT_PORT = 8765

WORDS = {
    "en": {
        "description": "A local /v1/messages endpoint that captures every request and shows what the translation makes of it.",
        "host": "address to bind (default: 127.0.0.1, this machine only)",
        "port": f"(default: {DEFAULT_PORT}; 0: any free port)",
        "forward": "answer with an OpenAI-compatible engine's /v1/chat/completions",
        "engine": "start llama.cpp's server (built by `python3 tasks.py engine`) with MODEL (default: tiny, the "
        "hand-wired tiny model) on a free port, and forward to it; stopping the server stops it",
        "engine_or_forward": "give --engine or --forward, not both",
        "engine_missing": "--engine: {reason}",
        "engine_started": "llama-server is running {model} at {url} ({threads} thread(s)); it stops with this server",
        "model": "with --forward: the model name the engine serves (default: the request's)",
        "tokens": "with --engine or --forward (llama.cpp's server): render each request to token ids with FAMILY's "
        "template and vocabulary (default: qwen3), generate from them on the engine's /completion, and keep "
        "every session's trajectory in the captures (python -m tutorial trajectory FILE)",
        "timeout": "with --forward: seconds to wait for the engine (default: 300)",
        "body_timeout": "seconds a request's body may take to arrive after its headers (default: 30)",
        "save": "append every capture to FILE as JSON Lines",
        "max_body_bytes": "largest request body accepted (default: 32 MiB)",
        "max_captures": "captures kept in memory (default: 100)",
        "translator": "a file defining chapter 05's translate: every request also goes through it, and its capture "
        "(\"yours\") and the log say where it differs from the package's translation",
        "lang": "language of replies, summaries, errors and this help, for a request whose Accept-Language "
        "names neither en nor zh (default: TUTORIAL_LANG, else the locale, else English)",
        "file": "FILE",
        "file_py": "FILE.py",
        "metavars": {},
        "missing": "the server needs the serve extra: pip install -e '.[serve]' (Starlette, uvicorn, httpx)",
        "forward_only": "--model, --timeout and --tokens only apply with --forward or --engine",
        "cannot_listen": "cannot listen on {host}:{port}: {why}",
        "error": "error: {message}",
    },
    "zh": {
        "description": "本地的 /v1/messages 端点：捕获收到的每个请求，并显示翻译把它变成了什么。",
        "host": "绑定的地址（默认：127.0.0.1，只有本机可以访问）",
        "port": f"端口（默认：{DEFAULT_PORT}；0：任选一个空闲端口）",
        "forward": "用兼容 OpenAI 的引擎的 /v1/chat/completions 回答",
        "engine": "在一个空闲端口上启动 llama.cpp 的服务器（由 `python3 tasks.py engine` 构建），运行 MODEL"
        "（默认：tiny，手工设定权重的小模型），并转发给它；停止这个服务器时它也随之停止",
        "engine_or_forward": "--engine 和 --forward 只能选一个",
        "engine_missing": "--engine：{reason}",
        "engine_started": "llama-server 正在 {url} 上运行 {model}（{threads} 个线程）；它会随这个服务器一起停止",
        "model": "与 --forward 一起使用：引擎提供的模型名（默认：请求中的模型名）",
        "tokens": "与 --engine 或 --forward（llama.cpp 的服务器）一起使用：用 FAMILY 的模板和词表把每个请求渲染成 token id"
        "（默认：qwen3），在引擎的 /completion 上从这些 id 生成，并在捕获记录中保存每个会话的轨迹"
        "（python -m tutorial trajectory 文件）",
        "timeout": "与 --forward 一起使用：等待引擎的秒数（默认：300）",
        "body_timeout": "请求头到达后，请求体最多可以用多少秒传完（默认：30）",
        "save": "把每个捕获以 JSON Lines 格式追加到这个文件",
        "max_body_bytes": "接受的最大请求体字节数（默认：32 MiB）",
        "max_captures": "内存中保留的捕获数（默认：100）",
        "translator": "定义了第 05 章 translate 的文件：每个请求也会交给它翻译，它的捕获（\"yours\"）和日志会指出它与本包的翻译不同的地方",
        "lang": "回复、摘要、错误和这份帮助的语言，用于 Accept-Language 既不是 en 也不是 zh 的请求"
        "（默认：TUTORIAL_LANG，其次是系统语言环境 LANG，否则英文）",
        "file": "文件",
        "file_py": "文件.py",
        "metavars": {"host": "地址", "port": "端口", "model": "模型名", "timeout": "秒数", "max_body_bytes": "字节数",
                     "max_captures": "个数"},
        "missing": "服务器需要 serve 附加依赖：pip install -e '.[serve]'（Starlette、uvicorn、httpx）",
        "forward_only": "--model、--timeout 和 --tokens 只能与 --forward 或 --engine 一起使用",
        "cannot_listen": "无法监听 {host}:{port}：{why}",
        "error": "错误：{message}",
    },
}
MISSING = WORDS["en"]["missing"]


def parser(lang: str = "en") -> argparse.ArgumentParser:
    """The serve command's parser, its help in `lang` (build it inside `words.argparse_in(lang)`)."""
    from ..cli.words import LANGUAGES, formatter

    say = WORDS[lang]
    commands = argparse.ArgumentParser(prog="python -m tutorial serve", description=say["description"], formatter_class=formatter(lang))
    named = say["metavars"]
    commands.add_argument("--host", default="127.0.0.1", metavar=named.get("host"), help=say["host"])
    commands.add_argument("--port", type=int, default=DEFAULT_PORT, metavar=named.get("port"), help=say["port"])
    commands.add_argument("--forward", metavar="URL", help=say["forward"])
    commands.add_argument("--engine", nargs="?", const="tiny", metavar=named.get("model", "MODEL"), help=say["engine"])
    commands.add_argument("--model", metavar=named.get("model"), help=say["model"])
    commands.add_argument("--timeout", type=float, metavar=named.get("timeout"), help=say["timeout"])
    commands.add_argument("--tokens", nargs="?", const="qwen3", metavar="FAMILY", help=say["tokens"])
    commands.add_argument("--body-timeout", type=float, metavar=named.get("timeout"), help=say["body_timeout"])
    commands.add_argument("--save", metavar=say["file"], help=say["save"])
    commands.add_argument("--max-body-bytes", type=int, metavar=named.get("max_body_bytes"), help=say["max_body_bytes"])
    commands.add_argument("--max-captures", type=int, metavar=named.get("max_captures"), help=say["max_captures"])
    commands.add_argument("--translator", metavar=say["file_py"], help=say["translator"])
    commands.add_argument("--lang", choices=LANGUAGES, default=None, help=say["lang"])
    return commands


def main(argv: Optional[list[str]] = None, lang: Optional[str] = None) -> int:
    """Serve until Ctrl-C. `lang` is the language `python -m tutorial` chose; otherwise this
    reads `--lang`, else TUTORIAL_LANG, else the locale (tutorial/cli/words.py)."""
    from ..cli import words

    argv = sys.argv[1:] if argv is None else list(argv)
    flag = words.flag_in(argv)
    if flag in words.LANGUAGES or lang is None:
        lang = words.choose(flag)
    with words.argparse_in(lang):
        arguments = parser(lang).parse_args(argv)
    say = WORDS[lang]
    if arguments.engine and arguments.forward:
        return _fail(say["engine_or_forward"], lang)
    if (arguments.model or arguments.timeout or arguments.tokens) and not (arguments.forward or arguments.engine):
        return _fail(say["forward_only"], lang)
    try:
        import httpx  # noqa: F401  (the serve extra is installed: Starlette, uvicorn, httpx)
        import uvicorn  # noqa: F401

        from . import app  # noqa: F401
    except ImportError:
        return _fail(say["missing"], lang)

    translator = None
    if arguments.translator:
        from ..notebook.build_it import TranslatorError, load_translator

        try:
            with words.speaking(lang):
                translator = load_translator(arguments.translator)
        except TranslatorError as error:
            return _fail(str(error), lang)
    engine = None
    if arguments.engine:
        from ..llama_cpp import engine as llama

        reason = llama.unavailable()
        if reason:
            return _fail(say["engine_missing"].format(reason=reason), lang)
        try:
            engine = llama.start(arguments.engine)
        except (RuntimeError, OSError) as error:
            return _fail(say["engine_missing"].format(reason=error), lang)
        _log(say["engine_started"].format(model=engine.model.name, url=engine.url, threads=engine.threads))
        arguments.forward = engine.url
        arguments.model = arguments.model or engine.model.stem
    try:
        return _serve(arguments, translator, lang)
    finally:
        if engine is not None:
            engine.stop()


def _serve(arguments, translator, lang: str) -> int:
    from ..cli import words
    from .app import DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY_BYTES, create_app
    from .captures import DEFAULT_MAX_CAPTURES
    from .running import BridgeServer, bind, server_config, warn_unless_loopback

    say = WORDS[lang]
    forward = _forwarder(arguments, lang) if arguments.forward else None
    try:
        app = create_app(
            forward=forward,
            save=arguments.save,
            max_body_bytes=arguments.max_body_bytes or DEFAULT_MAX_BODY_BYTES,
            max_captures=arguments.max_captures or DEFAULT_MAX_CAPTURES,
            log=_log,
            translator=translator,
            lang=lang,
            body_timeout=arguments.body_timeout or DEFAULT_BODY_TIMEOUT,
        )
    except (OSError, ValueError) as error:
        return _fail(str(error), lang)
    warn_unless_loopback(arguments.host, lang)
    try:
        sock = bind(arguments.host, arguments.port)
    except OSError as error:
        return _fail(say["cannot_listen"].format(host=arguments.host, port=arguments.port, why=error.strerror or error), lang)
    _banner(sock, forward, arguments.save, translator, lang)
    # uvicorn stops cleanly on SIGINT and SIGTERM, then passes the signal on to the handler it
    # found: for SIGTERM that is ours, so the process ends by returning (and --engine's
    # llama-server is stopped) rather than being killed by the default handler.
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        with words.speaking(lang):  # what the server writes when a request names no language
            BridgeServer(server_config(app)).run(sockets=[sock])
    except (KeyboardInterrupt, Terminated):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


class Terminated(Exception):
    """SIGTERM arrived (after uvicorn's graceful shutdown)."""


def _terminated(signum, frame) -> None:
    raise Terminated()


def _forwarder(arguments, lang: str = "en"):
    try:
        from .forward import DEFAULT_TIMEOUT, Forwarder
    except ImportError:
        raise SystemExit(_fail(WORDS[lang]["missing"], lang))
    timeout = arguments.timeout or DEFAULT_TIMEOUT
    api_key = os.environ.get("TUTORIAL_FORWARD_API_KEY")
    if arguments.tokens:
        from .token_path import TokenPath

        try:
            return TokenPath(arguments.forward, family=arguments.tokens, model=arguments.model, timeout=timeout, api_key=api_key)
        except (ValueError, ImportError) as error:
            raise SystemExit(_fail(str(error), lang))
    return Forwarder(arguments.forward, model=arguments.model, timeout=timeout, api_key=api_key)


def _banner(sock, forward, save: Optional[str], translator=None, lang: str = "en") -> None:
    from .words import say

    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    answers = say("forwarding", lang, url=forward.url) if forward is not None else say("teaching", lang)
    _log(say("listening", lang, url=url, answers=answers))
    _log(say("point", lang, url=url))
    _log(say("captures_at", lang, url=url) + (say("appended", lang, file=save) if save else ""))
    if translator is not None:
        _log(say("translator_banner", lang, origin=translator.origin))
    _log(say("stop", lang))


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _fail(message: str, lang: str = "en") -> int:
    print(WORDS[lang]["error"].format(message=message), file=sys.stderr)
    return 2
