"""Start and stop a real engine: llama.cpp's `llama-server` on loopback, running a tiny model.

    from tutorial.llama_cpp import engine

    with engine.start() as running:              # the hand-wired model, a free port
        running.url                               # http://127.0.0.1:PORT (OpenAI-compatible /v1/...)
        running.post("/apply-template", {...})    # llama-server's own endpoints, as JSON

    python -m tutorial.llama_cpp.engine          build what is missing, then serve the tiny model
                                                 in the foreground (Ctrl-C stops it)
    python -m tutorial.llama_cpp.engine prepare  only build what is missing (what set-up runs)

The server renders prompts with the Jinja chat template in the model's metadata (the real
Qwen3 one, see tiny_model.py) and parses Qwen3's tool calls and thinking from the output.
`unavailable()` says in one line what is missing (the build, the models), or None.
Standard library only.
"""

from __future__ import annotations

import json
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
THREADS = 2


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


def start(model: str = "tiny", *, port: int = 0, context: int = CONTEXT, threads: int = THREADS) -> RunningEngine:
    """Start llama-server on 127.0.0.1 with one of the tiny models ("tiny", "tiny-endless")
    or a GGUF path, and return once it answers GET /health."""
    reason = unavailable()
    if reason:
        raise RuntimeError(reason)
    from . import tiny_model

    path = Path(model) if model.endswith(".gguf") else tiny_model.model_path(model)
    port = port or free_port()
    log = Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
    command = [
        str(build.binary()), "-m", str(path), "--host", "127.0.0.1", "--port", str(port),
        "-c", str(context), "-np", "1", "-t", str(threads), "--jinja", "--no-webui", "--metrics", "--slots",
    ]  # fmt: skip
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    running = RunningEngine(process, f"http://127.0.0.1:{port}", path, log)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama-server exited with {process.returncode}:\n{running.log_tail()}")
        try:
            if running.get("/health", timeout=2).get("status") == "ok":
                return running
        except (OSError, urllib.error.URLError, ValueError):
            pass
        time.sleep(0.1)
    running.stop()
    raise RuntimeError(f"llama-server did not become ready within {STARTUP_TIMEOUT:g} s:\n{running.log_tail()}")


def main(argv: list[str]) -> int:
    try:
        prepare(quiet=False)
        if argv[:1] == ["prepare"]:
            return 0
        running = start(argv[0] if argv else "tiny", port=8080)
    except (RuntimeError, OSError, ImportError, ValueError) as error:  # SdistMissing and BuildFailed are RuntimeErrors
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"llama-server is serving {running.model.name} at {running.url} (log: {running.log}); Ctrl-C stops it")
    print(f"  bridge it:  python -m tutorial serve --forward {running.url}")
    try:
        running.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
