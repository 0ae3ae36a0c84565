#!/usr/bin/env python3
"""`python3 tasks.py hub`: a JupyterHub for a class, on this machine (hub/README.md).

    python3 tasks.py hub [--port 8000] [--password WORDS] [--instructor NAME] [--lang en|zh]
                         [--memory 3G] [--cull-minutes 60] [--record-answers] [--state DIR]

Starts JupyterHub (its proxy, configurable-http-proxy, installed with npm on first use into
.cache/hub-proxy/), the progress service and the idle culler, then prints

    hub: <the hub's address>
    join: <the nbgitpuller link learners open>
    instructor: <the instructor's page>

and runs until Ctrl-C or SIGTERM, when it stops every process it started (learners' servers
and kernels included). The class copy (`tasks.py workshop`, answers hidden) is kept as a git
repository in the state folder, so the join link pulls it into each learner's home.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from auth import NAME  # noqa: E402 - the log-in's own rule for names
ROOT = HERE.parent
PYTHON = Path(sys.executable)
PROXY_PACKAGE, PROXY_VERSION = "configurable-http-proxy", "5.3.0"
PROXY_HOME = ROOT / ".cache" / "hub-proxy"
PROXY = PROXY_HOME / "node_modules" / ".bin" / "configurable-http-proxy"
STOP_SECONDS = 20  # what JupyterHub gets to stop its servers before the rest is killed (tasks.py waits 30)
CLASS_FOLDER = "tutorial"  # the folder in each learner's home that the class copy is pulled into


class Problem(Exception):
    """The hub cannot start; the message says why and what to do."""


def say(line: str) -> None:
    print(line, flush=True)


def options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tasks.py hub", description="A JupyterHub for a class (hub/README.md).")
    parser.add_argument("--port", type=int, default=8000, help="the hub's port (default 8000)")
    parser.add_argument("--ip", default="127.0.0.1", help="the address to listen on (0.0.0.0: the whole network)")
    parser.add_argument("--password", help="the class password (default: a new one, printed)")
    parser.add_argument("--instructor", default="instructor", help="the instructor's log-in name")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="the edition the join link opens")
    parser.add_argument("--memory", default="3G", help="address-space limit per process of a learner (0: none)")
    parser.add_argument("--cull-minutes", type=int, default=60, help="stop a learner's server idle this long")
    parser.add_argument("--record-answers", action="store_true",
                        help="store learners' answer text with their verdicts (off: exercise, ✓/✗, mistake, time)")
    parser.add_argument("--state", default=str(ROOT / ".cache" / "hub"), help="the hub's folder (databases, homes)")
    parser.add_argument("--log-level", default="WARN", choices=("DEBUG", "INFO", "WARN", "ERROR"))
    return parser.parse_args(argv)


def size_in_bytes(text: str) -> int:
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not found:
        raise Problem(f"--memory: expected a size such as 3G or 1500M, got {text!r}")
    number, unit = found.groups()
    return int(float(number) * 1024 ** " KMGT".index(unit.upper() or " "))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check_port(ip: str, port: int) -> None:
    with socket.socket() as probe:
        try:
            probe.bind((ip, port))
        except OSError as problem:
            raise Problem(f"--port {port}: cannot listen on {ip}:{port} ({problem.strerror}); "
                          "is another hub running? Choose another with --port") from None


def ensure_proxy() -> Path:
    """configurable-http-proxy, pinned, installed with npm into .cache/hub-proxy/ once."""
    installed = PROXY_HOME / "node_modules" / PROXY_PACKAGE / "package.json"
    if PROXY.exists() and json.loads(installed.read_text(encoding="utf-8")).get("version") == PROXY_VERSION:
        return PROXY
    npm = shutil.which("npm")
    if not npm:
        raise Problem("JupyterHub's proxy (configurable-http-proxy) is installed with npm, which is not on PATH: "
                      "as root, `python3 tasks.py setup --system-only` installs Node.js and npm "
                      "(Debian: apt-get install nodejs npm)")
    say(f"[hub] installing {PROXY_PACKAGE} {PROXY_VERSION} with npm into {PROXY_HOME.relative_to(ROOT)}/ (once)")
    done = subprocess.run([npm, "install", "--prefix", str(PROXY_HOME), "--no-audit", "--no-fund", "--save-exact",
                           f"{PROXY_PACKAGE}@{PROXY_VERSION}"], capture_output=True, text=True)
    if done.returncode or not PROXY.exists():
        raise Problem(f"npm could not install {PROXY_PACKAGE}:\n{done.stderr.strip()[-2000:]}")
    return PROXY


def check_sandbox() -> None:
    """Learners are kept apart by bubblewrap (hub/spawner.py); without it there is no class hub."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        raise Problem("learners' servers run in bubblewrap sandboxes, and `bwrap` is not installed: as root, "
                      "`python3 tasks.py setup --system-only` installs it (Debian: apt-get install bubblewrap)")
    probe = subprocess.run([bwrap, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-pid",
                            "--die-with-parent", "true"], capture_output=True, text=True)
    if probe.returncode:
        raise Problem("bubblewrap cannot make a sandbox here (unprivileged user namespaces are off?): "
                      f"{probe.stderr.strip()}. As root: sysctl kernel.unprivileged_userns_clone=1 "
                      "(Debian) or user.max_user_namespaces=10000")


def curve_available() -> bool:
    try:
        import zmq

        return bool(zmq.has("curve"))
    except ImportError:
        return False


def git(*arguments: str, cwd: Path | None = None) -> str:
    identity = ["-c", "user.name=class hub", "-c", "user.email=hub@localhost", "-c", "init.defaultBranch=main"]
    done = subprocess.run(["git", *identity, *arguments], cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise Problem(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout


def class_repository(state: Path, lang: str) -> Path:
    """The class copy (`tasks.py workshop`: answers hidden) committed to state/class.git (bare);
    a new commit only when the copy changed, so learners' pulls merge only real changes."""
    copy, repository = state / "class-copy", state / "class.git"
    made = subprocess.run([str(PYTHON), str(ROOT / "scripts" / "workshop.py"), str(copy), "--force", "--no-trust",
                           "--lang", lang], capture_output=True, text=True, cwd=ROOT)
    if made.returncode:
        raise Problem(f"the class copy could not be written (scripts/workshop.py):\n{made.stderr.strip()}")
    if not (repository / "HEAD").exists():
        git("init", "--quiet", "--bare", "--initial-branch=main", str(repository))
    tree = ["--git-dir", str(repository), "--work-tree", str(copy)]
    git(*tree, "add", "--all")
    if git(*tree, "status", "--porcelain").strip():
        git(*tree, "commit", "--quiet", "-m", "The class copy, answers hidden")
    shutil.rmtree(copy)
    return repository


def join_link(hub: str, repository: Path, lang: str) -> str:
    chapter = "notebooks/zh/00_index.ipynb" if lang == "zh" else "notebooks/00_index.ipynb"
    query = urlencode({"repo": repository.as_uri(), "branch": "main", "targetpath": CLASS_FOLDER,
                       "urlpath": f"lab/tree/{CLASS_FOLDER}/{chapter}"}, quote_via=quote)
    return f"{hub}/hub/user-redirect/git-pull?{query}"


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Problem(f"JupyterHub stopped while starting (exit {process.returncode}); its log, {log}:\n"
                          + log.read_text(encoding="utf-8", errors="replace")[-3000:])
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=2):
                return
        except urllib.error.HTTPError as answer:
            if answer.code != 404:  # 404: the proxy is up, its route to the hub or service not yet
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise Problem(f"JupyterHub did not answer at {url} within {seconds:.0f} s; see {log}")


def stop(process: subprocess.Popen) -> None:
    """Stop JupyterHub (it stops the learners' servers, the proxy and its services), then make
    sure: whatever it started and is still running is killed."""
    import psutil

    try:
        started = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        started = []
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    for leftover in left:
        try:
            leftover.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(left, timeout=10)


class Stop(Exception):
    """SIGTERM: stop as after Ctrl-C."""


def stop_requested(signum, frame):
    raise Stop


def main(argv: list[str]) -> int:
    given = options(argv)
    state = Path(given.state).resolve()
    password = given.password or secrets.token_urlsafe(9)
    instructor = given.instructor.strip().lower()
    if not NAME.match(instructor):
        raise Problem(f"--instructor {given.instructor!r}: a log-in name is 1-32 of a-z, 0-9, - and _, "
                      "starting with a letter or digit")
    check_port(given.ip, given.port)
    check_sandbox()
    proxy = ensure_proxy()
    (state / "homes").mkdir(parents=True, exist_ok=True)
    os.chmod(state, 0o700)
    repository = class_repository(state, given.lang)
    settings = {
        "state": str(state), "python": str(PYTHON), "instructor": instructor,
        "ip": given.ip, "port": given.port, "hub_port": free_port(), "proxy_api_port": free_port(),
        "service_port": free_port(), "proxy": str(proxy), "password": password,
        "class_repo": str(repository), "private_home": str(Path.home()),
        "visible": [str(ROOT), str(Path(sys.base_prefix).resolve())],
        "memory_bytes": size_in_bytes(given.memory), "cull_seconds": given.cull_minutes * 60,
        "record_answers": given.record_answers, "curve": curve_available(), "log_level": given.log_level,
    }
    settings_file = state / "settings.json"
    settings_file.write_text(json.dumps(settings, indent=1), encoding="utf-8")
    os.chmod(settings_file, 0o600)
    log = state / "jupyterhub.log"
    env = {**os.environ, "CLASS_HUB_SETTINGS": str(settings_file),
           "PATH": os.pathsep.join([str(PYTHON.parent), os.environ.get("PATH", "")])}
    signal.signal(signal.SIGTERM, stop_requested)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored (`cmd &`)
    with open(log, "a", encoding="utf-8") as output:
        process = subprocess.Popen([str(PYTHON), "-m", "jupyterhub", "-f", str(HERE / "jupyterhub_config.py")],
                                   cwd=state, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        shown = "localhost" if given.ip in ("127.0.0.1", "0.0.0.0") else given.ip
        hub = f"http://{shown}:{given.port}"
        wait_until_up(f"http://127.0.0.1:{given.port}/hub/api/", process, log)
        wait_until_up(f"http://127.0.0.1:{given.port}/services/progress/api/summary", process, log)
        if not given.password:
            say(f"password: {password}  (the class password, generated: give it to the class)")
        say(f"hub: {hub}/")
        say(f"join: {join_link(hub, repository, given.lang)}")
        say(f"instructor: {hub}/services/progress/{'?lang=zh' if given.lang == 'zh' else ''}  "
            f"(log in as {settings['instructor']} with the class password)")
        say(f"[hub] running; its log is {log}. Ctrl-C stops the hub and every learner's server.")
        while process.poll() is None:
            time.sleep(0.5)
        say(f"[hub] JupyterHub stopped on its own (exit {process.returncode}); see {log}")
        return 1
    except (KeyboardInterrupt, Stop):
        say("[hub] stopping: learners' servers, the proxy, the services")
        return 0
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop(process)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Problem as problem:
        print(f"[hub] {problem}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:  # before JupyterHub started: nothing to stop
        sys.exit(130)
