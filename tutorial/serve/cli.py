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
        "forward": "forward each request to an OpenAI-compatible engine (/v1/chat/completions) and answer with its output",
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
        "description": "启动本地的 /v1/messages 端点，捕获收到的每个请求，并显示翻译把请求变成了什么。",
        "host": "绑定的地址（默认为 127.0.0.1，只有本机可以访问）",
        "port": f"端口（默认为 {DEFAULT_PORT}，设为 0 时任选一个空闲端口）",
        "forward": "把请求转发给兼容 OpenAI 的引擎的 /v1/chat/completions，用引擎的输出回复客户端",
        "engine": "在一个空闲端口上启动 llama.cpp 的服务器（由 `python3 tasks.py engine` 构建），运行这个模型"
        "（默认为 tiny，手工设定权重的小模型），并把请求转发过去，本服务器停止时 llama.cpp 的服务器也随之停止",
        "engine_or_forward": "--engine 和 --forward 只能选一个",
        "engine_missing": "--engine：{reason}",
        "engine_started": "llama-server 正在 {url} 上运行 {model}（{threads} 个线程），会随这个服务器一起停止",
        "model": "与 --forward 一起使用，指定引擎提供的模型名（默认取请求中的模型名）",
        "tokens": "与 --engine 或 --forward（llama.cpp 的服务器）一起使用，用这个模型家族的模板和词表把每个请求渲染成 token id"
        "（默认为 qwen3），在引擎的 /completion 上从这些 id 生成，并在捕获记录中保存每个会话的轨迹"
        "（python -m tutorial trajectory 文件）",
        "timeout": "与 --forward 一起使用，指定等待引擎的秒数（默认为 300）",
        "body_timeout": "请求头到达后，请求体最多可以用多少秒传完（默认为 30）",
        "save": "把每条捕获记录以 JSON Lines 格式追加到这个文件",
        "max_body_bytes": "接受的最大请求体字节数（默认为 32 MiB）",
        "max_captures": "内存中保留的捕获记录条数（默认为 100）",
        "translator": "定义了第 05 章 translate 的文件，每个请求也会交给这个文件翻译，捕获记录中的 \"yours\" 和日志会指出与本包的翻译不同的地方",
        "lang": "回复、摘要、错误和这份帮助的语言，用于 Accept-Language 既不是 en 也不是 zh 的请求"
        "（默认取 TUTORIAL_LANG，其次是系统语言环境 LANG，都没有时用英文）",
        "file": "文件",
        "file_py": "文件.py",
        "metavars": {"host": "地址", "port": "端口", "model": "模型名", "family": "模型家族", "timeout": "秒数",
                     "max_body_bytes": "字节数", "max_captures": "个数"},
        "missing": "服务器需要 serve 附加依赖（Starlette、uvicorn、httpx），请运行 pip install -e '.[serve]' 安装",
        "forward_only": "--model、--timeout 和 --tokens 只能与 --forward 或 --engine 一起使用",
        "cannot_listen": "无法监听 {host}:{port}（{why}）",
        "error": "错误：{message}",
    },
}
MISSING = WORDS["en"]["missing"]


def parser() -> argparse.ArgumentParser:
    """The serve command's parser, its help in the current language (build it inside
    `words.argparse_words()`)."""
    from ..cli.words import LANGUAGES, Port, formatter
    from ..words import current

    texts = WORDS[current()]
    commands = argparse.ArgumentParser(prog="python -m tutorial serve", description=texts["description"], formatter_class=formatter())
    named = texts["metavars"]
    commands.add_argument("--host", default="127.0.0.1", metavar=named.get("host"), help=texts["host"])
    commands.add_argument("--port", type=int, action=Port, default=DEFAULT_PORT, metavar=named.get("port"), help=texts["port"])
    commands.add_argument("--forward", metavar="URL", help=texts["forward"])
    commands.add_argument("--engine", nargs="?", const="tiny", metavar=named.get("model", "MODEL"), help=texts["engine"])
    commands.add_argument("--model", metavar=named.get("model"), help=texts["model"])
    commands.add_argument("--timeout", type=float, metavar=named.get("timeout"), help=texts["timeout"])
    commands.add_argument("--tokens", nargs="?", const="qwen3", metavar=named.get("family", "FAMILY"), help=texts["tokens"])
    commands.add_argument("--body-timeout", type=float, metavar=named.get("timeout"), help=texts["body_timeout"])
    commands.add_argument("--save", metavar=texts["file"], help=texts["save"])
    commands.add_argument("--max-body-bytes", type=int, metavar=named.get("max_body_bytes"), help=texts["max_body_bytes"])
    commands.add_argument("--max-captures", type=int, metavar=named.get("max_captures"), help=texts["max_captures"])
    commands.add_argument("--translator", metavar=texts["file_py"], help=texts["translator"])
    commands.add_argument("--lang", choices=LANGUAGES, default=None, help=texts["lang"])
    return commands


def main(argv: Optional[list[str]] = None) -> int:
    """Serve until Ctrl-C, in the language of `--lang`, else the one `python -m tutorial` runs
    it in, else TUTORIAL_LANG, else the locale (tutorial/cli/words.py)."""
    from ..cli import words
    from ..words import using

    argv = sys.argv[1:] if argv is None else list(argv)
    with using(words.choose(words.flag_in(argv))):
        return _main(argv)


def _main(argv: list[str]) -> int:
    from ..cli import words
    from ..words import current

    with words.argparse_words():
        arguments = parser().parse_args(argv)
    texts = WORDS[current()]
    if arguments.engine and arguments.forward:
        return _fail(texts["engine_or_forward"])
    if (arguments.model or arguments.timeout or arguments.tokens) and not (arguments.forward or arguments.engine):
        return _fail(texts["forward_only"])
    try:
        import httpx  # noqa: F401  (the serve extra is installed: Starlette, uvicorn, httpx)
        import uvicorn  # noqa: F401

        from . import app  # noqa: F401
    except ImportError:
        return _fail(texts["missing"])

    translator = None
    if arguments.translator:
        from ..notebook.build_it import TranslatorError, load_translator

        try:
            translator = load_translator(arguments.translator)
        except TranslatorError as error:
            return _fail(str(error))
    engine = None
    if arguments.engine:
        from ..llama_cpp import engine as llama

        reason = llama.unavailable()
        if reason:
            return _fail(texts["engine_missing"].format(reason=reason))
        try:
            engine = llama.start(arguments.engine)
        except (RuntimeError, OSError) as error:
            return _fail(texts["engine_missing"].format(reason=error))
        _log(texts["engine_started"].format(model=engine.model.name, url=engine.url, threads=engine.threads))
        arguments.forward = engine.url
        arguments.model = arguments.model or engine.model.stem
    try:
        return _serve(arguments, translator)
    finally:
        if engine is not None:
            engine.stop()


def _serve(arguments, translator) -> int:
    from ..words import current
    from .app import DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY_BYTES, create_app
    from .captures import DEFAULT_MAX_CAPTURES
    from .running import BridgeServer, bind, server_config, warn_unless_loopback

    lang = current()
    texts = WORDS[lang]
    forward = _forwarder(arguments) if arguments.forward else None
    try:
        app = create_app(
            forward=forward,
            save=arguments.save,
            max_body_bytes=arguments.max_body_bytes or DEFAULT_MAX_BODY_BYTES,
            max_captures=arguments.max_captures or DEFAULT_MAX_CAPTURES,
            log=_log,
            translator=translator,
            lang=lang,  # the server's language, for a request whose Accept-Language names neither
            body_timeout=arguments.body_timeout or DEFAULT_BODY_TIMEOUT,
        )
    except (OSError, ValueError) as error:
        return _fail(str(error))
    warn_unless_loopback(arguments.host)
    try:
        sock = bind(arguments.host, arguments.port)
    except OSError as error:
        return _fail(texts["cannot_listen"].format(host=arguments.host, port=arguments.port, why=error.strerror or error))
    _banner(sock, forward, arguments.save, translator)
    # uvicorn stops cleanly on SIGINT and SIGTERM, then passes the signal on to the handler it
    # found: for SIGTERM that is ours, so the process ends by returning (and --engine's
    # llama-server is stopped) rather than being killed by the default handler.
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        BridgeServer(server_config(app)).run(sockets=[sock])  # in this block's language too (the log)
    except (KeyboardInterrupt, Terminated):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


class Terminated(Exception):
    """SIGTERM arrived (after uvicorn's graceful shutdown)."""


def _terminated(signum, frame) -> None:
    raise Terminated()


def _forwarder(arguments):
    try:
        from .forward import DEFAULT_TIMEOUT, Forwarder
    except ImportError:
        raise SystemExit(_fail(_words()["missing"]))
    timeout = arguments.timeout or DEFAULT_TIMEOUT
    api_key = os.environ.get("TUTORIAL_FORWARD_API_KEY")
    if arguments.tokens:
        from .token_path import TokenPath

        try:
            return TokenPath(arguments.forward, family=arguments.tokens, model=arguments.model, timeout=timeout, api_key=api_key)
        except (ValueError, ImportError) as error:
            raise SystemExit(_fail(str(error)))
    return Forwarder(arguments.forward, model=arguments.model, timeout=timeout, api_key=api_key)


def _banner(sock, forward, save: Optional[str], translator=None) -> None:
    from ..words import words_for
    from .words import WORDS as SERVER_WORDS

    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    answers = words_for(SERVER_WORDS, "forwarding", url=forward.url) if forward is not None else words_for(SERVER_WORDS, "teaching")
    _log(words_for(SERVER_WORDS, "listening", url=url, answers=answers))
    _log(words_for(SERVER_WORDS, "point", url=url))
    _log(words_for(SERVER_WORDS, "captures_at", url=url) + (words_for(SERVER_WORDS, "appended", file=save) if save else ""))
    if translator is not None:
        _log(words_for(SERVER_WORDS, "translator_banner", origin=translator.origin))
    _log(words_for(SERVER_WORDS, "stop"))


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _words() -> dict:
    from ..words import current

    return WORDS[current()]


def _fail(message: str) -> int:
    print(_words()["error"].format(message=message), file=sys.stderr)
    return 2
