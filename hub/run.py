#!/usr/bin/env python3
"""`python3 tasks.py hub`: a JupyterHub for a class, on this machine (hub/README.md).

    python3 tasks.py hub [--port 8000] [--ip 127.0.0.1] [--instructor NAME] [--lang en|zh]
                         [--seats 40] [--memory 3G] [--tmp-size 1G] [--cull-minutes 60]
                         [--record-answers] [--state DIR] [--ssl-cert FILE --ssl-key FILE]

Starts JupyterHub (its proxy, configurable-http-proxy, installed with npm on first use into
.cache/hub-proxy/), the progress service and the idle culler, then prints

    hub: <the hub's address>
    join: <the nbgitpuller link learners open; it carries the class code>
    instructor: <the instructor's page>
    instructor password: <the instructor's password, new at each start>

Secrets never go on a command line (other users see it in `ps`): the class code and the
instructor's password are new at each start, or taken from the environment
(CLASS_HUB_CODE, CLASS_HUB_INSTRUCTOR_PASSWORD). Each start also revokes every token and
session the hub granted before (the accounts and learners' own passwords stay).

and runs until Ctrl-C or SIGTERM, when it stops every process it started (learners' servers
and kernels included). The class copy (`tasks.py workshop`, answers hidden) is kept as a git
repository in the state folder, so the join link pulls it into each learner's home.
"""

from __future__ import annotations

import argparse
import dbm
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
sys.path.insert(1, str(ROOT))
from tutorial.llama_cpp.engine import free_port  # noqa: E402 - the project's one free_port
PYTHON = Path(sys.executable)
PROXY_PACKAGE, PROXY_VERSION = "configurable-http-proxy", "5.3.0"
PROXY_HOME = ROOT / ".cache" / "hub-proxy"
PROXY = PROXY_HOME / "node_modules" / ".bin" / "configurable-http-proxy"
STOP_SECONDS = 20  # what JupyterHub gets to stop its servers before the rest is killed (tasks.py waits 30)
CLASS_FOLDER = "tutorial"  # the folder in each learner's home that the class copy is pulled into


class Problem(Exception):
    """The hub cannot start; the message says why and what to do."""


def announce(line: str) -> None:
    """A line for whoever started the hub (stdout, at once)."""
    print(line, flush=True)


def options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tasks.py hub", description="A JupyterHub for a class (hub/README.md).")
    parser.add_argument("--port", type=int, default=8000, help="the hub's port (default 8000)")
    parser.add_argument("--ip", default="127.0.0.1", help="the address to listen on (0.0.0.0: the whole network)")
    parser.add_argument("--seats", type=int, default=40, help="at most this many learner accounts (default 40)")
    parser.add_argument("--tmp-size", default="1G", help="the size of each learner's /tmp (default 1G)")
    parser.add_argument("--ssl-cert", help="TLS certificate (PEM); beyond loopback a self-signed one is made if none")
    parser.add_argument("--ssl-key", help="TLS key (PEM) for --ssl-cert")
    parser.add_argument("--instructor", default="instructor", help="the instructor's log-in name")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="the edition the join link opens")
    parser.add_argument("--memory", default="3G", help="address-space limit per process of a learner (0: none)")
    parser.add_argument("--cull-minutes", type=int, default=60, help="stop a learner's server idle this long")
    parser.add_argument("--record-answers", action="store_true",
                        help="store learners' answer text with their verdicts (off: exercise, ✓/✗, mistake, time)")
    parser.add_argument("--state", default=str(ROOT / ".cache" / "hub"), help="the hub's folder (databases, homes)")
    parser.add_argument("--log-level", default="WARN", choices=("DEBUG", "INFO", "WARN", "ERROR"))
    given = parser.parse_args(argv)
    if not 1 <= given.port <= 65535:  # the socket layer would take 99999 modulo 65536; 0 leaves no address to print
        parser.error(f"--port must be an integer from 1 to 65535, got {given.port}")
    return given


def size_in_bytes(text: str) -> int:
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not found:
        raise Problem(f"--memory: expected a size such as 3G or 1500M, got {text!r}")
    number, unit = found.groups()
    return int(float(number) * 1024 ** " KMGT".index(unit.upper() or " "))


def check_port(ip: str, port: int) -> None:
    with socket.socket() as probe:
        # as the proxy will listen: a port left in TIME-WAIT by the last hub is free to take
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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
    announce(f"[hub] installing {PROXY_PACKAGE} {PROXY_VERSION} with npm into {PROXY_HOME.relative_to(ROOT)}/ (once)")
    done = subprocess.run([npm, "install", "--prefix", str(PROXY_HOME), "--no-audit", "--no-fund", "--save-exact",
                           f"{PROXY_PACKAGE}@{PROXY_VERSION}"], capture_output=True, text=True)
    if done.returncode or not PROXY.exists():
        raise Problem(f"npm could not install {PROXY_PACKAGE}:\n{done.stderr.strip()[-2000:]}")
    return PROXY


CLASS_USER = "tutorial-class"  # as root: the system user every learner's server runs as
PROBE = """
import json, os, subprocess, sys
seen = {"uid": os.getuid(), "euid": os.geteuid()}
seen["capeff"] = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff:"))
def readable(path):
    try:
        if os.path.isdir(path):
            return bool(os.listdir(path))
        open(path, "rb").read(1); return True
    except OSError:
        return False
seen["shadow"] = readable("/etc/shadow")
seen["hub_files"] = sorted(n for n in os.listdir(sys.argv[1]) if n not in ("homes", *sys.argv[2:])) if os.path.isdir(sys.argv[1]) else []
seen["umount"] = subprocess.run(["umount", "-l", sys.argv[1]], capture_output=True).returncode == 0
try:
    import jupyterhub.singleuser, tutorial  # what the server and the chapters import
    seen["imports"] = True
except Exception as problem:
    seen["imports"] = repr(problem)
open(os.path.join(os.environ["HOME"], ".probe"), "w").write("x")
print(json.dumps(seen))
"""


def check_sandbox(state: Path, sandbox: dict, env: dict) -> dict:
    """Learners are kept apart by bubblewrap (hub/spawner.py): build a learner's sandbox as the
    hub will, and refuse to start unless inside it the learner is not root, has no
    capabilities, cannot unmount what hides the hub's folder, cannot read /etc/shadow or the
    hub's files, and can import what the server needs (a checkout anywhere, /tmp included)."""
    if not shutil.which("bwrap"):
        raise Problem("learners' servers run in bubblewrap sandboxes, and `bwrap` is not installed: as root, "
                      "`python3 tasks.py setup --system-only` installs it (Debian: apt-get install bubblewrap)")
    from spawner import sandbox_command

    home = state / "homes" / ".probe"
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.geteuid() == 0:
        import pwd

        entry = pwd.getpwnam(sandbox["class_user"])
        os.chown(home, entry.pw_uid, entry.pw_gid)
    shown = [Path(folder).name for folder in sandbox["shown"]]  # put back on purpose: the class copy, its git setting
    command = [*sandbox_command(home=str(home), **sandbox), str(PYTHON), "-c", PROBE, str(state), *shown]
    done = subprocess.run(command, capture_output=True, text=True, env={**env, "HOME": str(home)}, timeout=120)
    shutil.rmtree(home, ignore_errors=True)
    if done.returncode:
        hint = ("unprivileged user namespaces are off? As root: sysctl kernel.unprivileged_userns_clone=1 (Debian) "
                "or user.max_user_namespaces=10000" if os.geteuid() else
                f"can user {sandbox['class_user']} read this checkout and its Python ({sys.base_prefix})? "
                "Their folders need o+rx (chmod o+rx), files o+r")
        raise Problem(f"a learner's sandbox cannot start here ({hint}):\n{done.stderr.strip()[-1500:]}")
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    wrong = [f"{what}: {seen[what]!r}" for what, fine in (
        ("uid", seen["uid"] != 0 and seen["euid"] != 0), ("capeff", int(seen["capeff"], 16) == 0),
        ("shadow", not seen["shadow"]), ("hub_files", not seen["hub_files"]), ("umount", not seen["umount"]),
        ("imports", seen["imports"] is True)) if not fine]
    if wrong:
        raise Problem("a learner's sandbox would not keep learners apart here, so the hub does not start: "
                      + "; ".join(wrong))
    return seen


def ensure_class_user() -> str:
    """As root: the system user learners' servers run as (no log-in shell, no home)."""
    import pwd

    try:
        pwd.getpwnam(CLASS_USER)
    except KeyError:
        useradd = shutil.which("useradd")
        if not useradd:
            raise Problem(f"started as root, the hub runs learners as the system user {CLASS_USER}, "
                          "and `useradd` is missing to create it") from None
        made = subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", "/nonexistent",
                               "--shell", "/usr/sbin/nologin", "--user-group", CLASS_USER], capture_output=True, text=True)
        if made.returncode:
            raise Problem(f"useradd {CLASS_USER}: {made.stderr.strip()}")
        announce(f"[hub] created the system user {CLASS_USER}: learners' servers run as it, never as root")
    return CLASS_USER


def store_instructor(state: Path, instructor: str, password: str) -> None:
    """The instructor's password, hashed as FirstUseAuthenticator stores a learner's, before the
    hub answers anyone: no learner can claim the instructor's name."""
    import bcrypt

    with dbm.open(str(state / "passwords.dbm"), "c", 0o600) as db:
        db[instructor.encode()] = bcrypt.hashpw(password.encode(), bcrypt.gensalt())


def revoke_grants(state: Path) -> None:
    """What the last start granted goes: a new cookie secret ends every log-in session, and the
    tokens (API, OAuth) the hub's database kept are deleted."""
    import sqlite3

    (state / "jupyterhub_cookie_secret").unlink(missing_ok=True)
    database = state / "jupyterhub.sqlite"
    if not database.exists():
        return
    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type='table'")}
        for table in ("api_tokens", "oauth_codes"):
            if table in tables:
                connection.execute(f"delete from {table}")  # noqa: S608 - table names from the list above


def self_signed(state: Path, host: str) -> tuple[Path, Path, str]:
    """A certificate for a room without one: made with openssl once, its SHA-256 fingerprint
    printed so learners can compare it with what their browser shows."""
    cert, key = state / "tls-cert.pem", state / "tls-key.pem"
    if not cert.exists():
        openssl = shutil.which("openssl")
        if not openssl:
            raise Problem("beyond loopback the hub speaks TLS: give --ssl-cert/--ssl-key, or install openssl "
                          "to have a self-signed certificate made")
        names = f"subjectAltName=DNS:localhost,DNS:{socket.gethostname()},IP:127.0.0.1" + (
            f",IP:{host}" if re.fullmatch(r"[\d.]+", host) and host != "0.0.0.0" else "")
        made = subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30",
                               "-subj", "/CN=class hub", "-addext", names, "-keyout", str(key), "-out", str(cert)],
                              capture_output=True, text=True)
        if made.returncode:
            raise Problem(f"openssl could not make a certificate: {made.stderr.strip()[-500:]}")
        os.chmod(key, 0o600)
    import hashlib
    import ssl

    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    return cert, key, hashlib.sha256(der).hexdigest().upper()


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
    return repository  # class-copy/ stays (hidden from learners): each learner's copy is signed from it


def join_link(hub: str, repository: Path, lang: str, code: str) -> str:
    """nbgitpuller's link, with the class code: the log-in admits a new name only when it came
    through this link (hub/auth.py)."""
    chapter = "notebooks/zh/00_index.ipynb" if lang == "zh" else "notebooks/00_index.ipynb"
    query = urlencode({"repo": repository.as_uri(), "branch": "main", "targetpath": CLASS_FOLDER,
                       "urlpath": f"lab/tree/{CLASS_FOLDER}/{chapter}", "code": code}, quote_via=quote)
    return f"{hub}/hub/user-redirect/git-pull?{query}"


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    import ssl

    unverified = ssl._create_unverified_context()  # our own certificate, on loopback
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Problem(f"JupyterHub stopped while starting (exit {process.returncode}); its log, {log}:\n"
                          + log.read_text(encoding="utf-8", errors="replace")[-3000:])
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=2, context=unverified):
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


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def visible_to_learners() -> list[str]:
    """Folders a learner's sandbox shows read-only: the project, its .venv and the Python that was
    made from, the `tutorial` the .venv imports, and wherever the project's own top-level links lead
    (a clone under /tmp may share another checkout's .venv, installed editable from that checkout)."""
    folders = [ROOT, Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()]
    # where a learner's server finds `tutorial`: asked of the .venv's python from a neutral folder,
    # since this process has the checkout on its path and the server may not (an editable install)
    where = subprocess.run([str(PYTHON), "-c", "import importlib.util as u; s = u.find_spec('tutorial'); "
                            "print(s.origin if s and s.origin else '')"], cwd="/", capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, timeout=60)
    if where.returncode == 0 and where.stdout.strip():
        folders.append(Path(where.stdout.strip()).resolve().parent.parent)
    for entry in sorted(ROOT.iterdir()):
        target = entry.resolve()
        if entry.is_symlink() and target.is_dir() and not target.is_relative_to(ROOT):
            folders.append(target)
    kept = []
    for folder in sorted(folders, key=lambda f: len(f.parts)):  # one inside another needs no bind of its own
        if not any(folder.is_relative_to(other) for other in kept):
            kept.append(folder)
    return [str(folder) for folder in kept]


def main(argv: list[str]) -> int:
    given = options(argv)
    state = Path(given.state).resolve()
    instructor = given.instructor.strip().lower()
    if not NAME.match(instructor):
        raise Problem(f"--instructor {given.instructor!r}: a log-in name is 1-32 of a-z, 0-9, - and _, "
                      "starting with a letter or digit")
    if given.seats < 1:
        raise Problem("--seats: at least 1")
    if bool(given.ssl_cert) != bool(given.ssl_key):
        raise Problem("--ssl-cert and --ssl-key go together")
    code = os.environ.get("CLASS_HUB_CODE") or secrets.token_urlsafe(12)
    password = os.environ.get("CLASS_HUB_INSTRUCTOR_PASSWORD") or secrets.token_urlsafe(24)
    if len(password) < 16:
        raise Problem("CLASS_HUB_INSTRUCTOR_PASSWORD: at least 16 characters (it is the hub's only admin)")
    check_port(given.ip, given.port)
    proxy = ensure_proxy()
    old_mask = os.umask(0o022)  # what learners may read (the class copy) stays readable to them
    state.mkdir(parents=True, exist_ok=True)
    os.chmod(state, 0o700)
    (state / "homes").mkdir(exist_ok=True)
    class_user = ensure_class_user() if os.geteuid() == 0 else ""
    repository = class_repository(state, given.lang)
    # the class copy belongs to whoever started the hub, and git refuses a repository of another
    # user unless a global (not a command-line) setting allows it: learners get this one, read-only
    gitconfig = state / "gitconfig"
    gitconfig.write_text(f"[safe]\n\tdirectory = {repository}\n", encoding="utf-8")
    os.umask(old_mask)
    sandbox = {"hidden": str(state), "shown": {str(repository): str(repository), str(gitconfig): str(gitconfig)},
               "private_home": str(Path.home()),
               "visible": visible_to_learners(),
               "class_user": class_user, "tmp_bytes": size_in_bytes(given.tmp_size)}
    env = {**os.environ, "PATH": os.pathsep.join([str(PYTHON.parent), os.environ.get("PATH", "")])}
    for secret in ("CLASS_HUB_CODE", "CLASS_HUB_INSTRUCTOR_PASSWORD"):
        env.pop(secret, None)
    check_sandbox(state, sandbox, env)
    tls = None
    if given.ssl_cert:
        tls = (Path(given.ssl_cert).resolve(), Path(given.ssl_key).resolve(), None)
    elif given.ip not in LOOPBACK:
        tls = self_signed(state, given.ip)
    revoke_grants(state)
    store_instructor(state, instructor, password)
    settings = {
        "state": str(state), "python": str(PYTHON), "instructor": instructor,
        "ip": given.ip, "port": given.port, "hub_port": free_port(), "proxy_api_port": free_port(),
        "service_port": free_port(), "proxy": str(proxy), "class_code": code, "seats": given.seats,
        "class_repo": str(repository), "gitconfig": str(gitconfig), "sandbox": sandbox,
        "memory_bytes": size_in_bytes(given.memory), "cull_seconds": given.cull_minutes * 60,
        "record_answers": given.record_answers, "curve": curve_available(), "log_level": given.log_level,
        "ssl_cert": str(tls[0]) if tls else "", "ssl_key": str(tls[1]) if tls else "",
        "exercises": exercise_keys(),
    }
    settings_file = state / "settings.json"
    settings_file.touch(mode=0o600)
    os.chmod(settings_file, 0o600)
    settings_file.write_text(json.dumps(settings, indent=1), encoding="utf-8")
    log = state / "jupyterhub.log"
    env["CLASS_HUB_SETTINGS"] = str(settings_file)
    signal.signal(signal.SIGTERM, stop_requested)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored (`cmd &`)
    with open(log, "a", encoding="utf-8") as output:
        process = subprocess.Popen([str(PYTHON), "-m", "jupyterhub", "-f", str(HERE / "jupyterhub_config.py")],
                                   cwd=state, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        scheme = "https" if tls else "http"
        shown = "localhost" if given.ip in ("127.0.0.1", "0.0.0.0") else given.ip
        hub = f"{scheme}://{shown}:{given.port}"
        wait_until_up(f"{scheme}://127.0.0.1:{given.port}/hub/api/", process, log)
        wait_until_up(f"{scheme}://127.0.0.1:{given.port}/services/progress/api/summary", process, log)
        announce(f"hub: {hub}/")
        announce(f"join: {join_link(hub, repository, given.lang, code)}")
        announce(f"instructor: {hub}/services/progress/{'?lang=zh' if given.lang == 'zh' else ''}  "
                 f"(log in as {instructor} with the instructor password)")
        announce(f"instructor password: {password}")
        if tls and tls[2]:
            announce(f"[hub] self-signed certificate, SHA-256 fingerprint {tls[2]}: learners' browsers warn once; "
                     "compare the fingerprint they show with this one")
        who = f"user {class_user}" if class_user else f"user {os.environ.get('USER') or os.getuid()} (no capabilities)"
        announce(f"[hub] running; learners' servers run as {who}; its log is {log}. "
                 "Ctrl-C stops the hub and every learner's server.")
        while process.poll() is None:
            time.sleep(0.5)
        announce(f"[hub] JupyterHub stopped on its own (exit {process.returncode}); see {log}")
        return 1
    except (KeyboardInterrupt, Stop):
        announce("[hub] stopping: learners' servers, the proxy, the services")
        return 0
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop(process)


def exercise_keys() -> list[str]:
    """Every exercise the chapters have: the progress service stores verdicts for these only."""
    from tutorial.notebook.build_it.stages import stage_names
    from tutorial.notebook.exercises import all_exercises

    return sorted([*all_exercises(), *(f"05.{name}" for name in stage_names())])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Problem as problem:
        print(f"[hub] {problem}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:  # before JupyterHub started: nothing to stop
        sys.exit(130)
