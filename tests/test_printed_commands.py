"""Every command the README, the run-sheets and the chapters print, run as a newcomer runs it.

Which text counts as a printed command (the rule, applied to README.md, README.zh.md,
notebooks/README.md, notebooks/zh/README.md and the markdown cells of every chapter, both editions):

- every command line of a ```sh, ```bash, ```shell or ```console block: a line ending in `\\`
  continues on the next, `#` comments are dropped, and in a ```console block only `$ ` lines count;
- every inline code span that starts the way a command does: `python3 tasks.py`, `python tasks.py`,
  `python -m`, `python3 -m`, `python scripts/`, `.venv/bin/`, `.venv\\Scripts\\` or `source .venv`.
  A span without a space is a name, not a command (`.venv/bin/python`), and so is a span naming a
  subcommand alone (`grade`).

A reader fills placeholders, and so does the test: optional `[...]` parts are left out, `NN` is
00, `DIR` a new folder, `FILE.py` the learner's translator saved where chapter 05's SAVE saves it
(notebooks/my_translator.py, notebooks/zh/ for the Chinese edition), `ARGS` nothing.

Where they run: in a fresh `git clone` of this repository (what is committed, nothing else), from
its top, with a newcomer's PATH (this environment's .venv/bin taken out), after the README's
`python3 tasks.py setup` there. The clone shares this checkout's .cache/ and .agent-cli/ through
symlinks (llama.cpp's 37 MB sdist and the built engine, the npm agent CLI), and its .venv/ too when
that was installed from exactly the clone's pins: set-up then finds it installed instead of spending
time in pip (measured here: set-up 2.5 s sharing .venv, 44 s making its own with pip's cache warm). Otherwise, or with
TUTORIAL_FRESH_SETUP=1, set-up makes the clone its own .venv. What set-up does to the clone itself
(trust, git filter) it does for real.

Servers (`lab`, `app`, `serve`, the engine) are started with a free port added, seen to answer
HTTP, and stopped with one SIGINT to their process group, as Ctrl-C in a terminal or a service
manager sends it: they must exit within 30 s, and lab must leave no kernel and no runtime file.
The agent CLI line runs against the `serve` that the same section starts.

Skipped, each with its reason (see SKIPS): `tasks.py test` (the whole suite, this test in it),
`tasks.py pins` (resolves against PyPI over the network; .ci/run runs it), `tasks.py bench`
(minutes of full load), `setup --system-only` when not root, Windows spellings on POSIX, and
what needs the engine or the agent CLI on a machine without them (never in CI).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tutorial.llama_cpp.engine import free_port  # the project's one free_port

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
LEARNER_TRANSLATOR = ROOT / "tests" / "data" / "learner" / "my_translator.py"

SHELL_FENCES = {"sh", "bash", "shell", "console"}
COMMAND_STARTS = ("python3 tasks.py", "python tasks.py", "python -m ", "python3 -m ", "python scripts/",
                  ".venv/bin/", ".venv\\Scripts\\", "source .venv")
FENCE = re.compile(r"^\s*```\s*([\w+-]*)\s*$")
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
WIDEST_LINE = 80  # characters: a shell block's line fits JupyterLab's markdown at 1400 px, file browser open


def documents() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "README.zh.md", ROOT / "notebooks" / "README.md",
             ROOT / "notebooks" / "zh" / "README.md"]
    found += sorted((ROOT / "notebooks").glob("[0-9][0-9]*.ipynb"))
    found += sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]*.ipynb"))
    return found


def markdown_of(path: Path) -> list[tuple[str, str]]:
    """(where, text) for a markdown file, or for each markdown cell of a notebook."""
    where = path.relative_to(ROOT).as_posix()
    if path.suffix != ".ipynb":
        return [(where, path.read_text(encoding="utf-8"))]
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [(f"{where} cell {cell.get('id')}", "".join(cell["source"]))
            for cell in notebook["cells"] if cell["cell_type"] == "markdown"]


def shell_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(fence language, lines) of every fenced shell block."""
    blocks, language, lines = [], None, []
    for line in text.splitlines():
        match = FENCE.match(line)
        if match and language is None:
            language, lines = match.group(1).lower() or "text", []
        elif line.strip() == "```" and language is not None:
            if language in SHELL_FENCES:
                blocks.append((language, lines))
            language = None
        elif language is not None:
            lines.append(line)
    return blocks


def block_commands(language: str, lines: list[str]) -> list[str]:
    commands, pending = [], ""
    for line in lines:
        if language == "console":
            if not pending and not line.startswith("$ "):
                continue
            line = line[2:] if not pending else line
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].rstrip() + " "
            continue
        commands.append(strip_comment(pending + line.strip()))
        pending = ""
    return commands


def strip_comment(command: str) -> str:
    """The command without a trailing `# ...` comment (a # inside quotes stays)."""
    quote = None
    for index, char in enumerate(command):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or command[index - 1].isspace()):
            return command[:index].rstrip()
    return command.strip()


def printed_commands() -> dict[str, list[str]]:
    """{command as printed: [where it is printed]}"""
    found: dict[str, list[str]] = {}
    for path in documents():
        for where, text in markdown_of(path):
            for language, lines in shell_blocks(text):
                for command in block_commands(language, lines):
                    found.setdefault(command, []).append(where)
            outside = re.sub(r"```.*?```", "", text, flags=re.S)
            for span in SPAN.findall(outside):
                if span.startswith(COMMAND_STARTS) and " " in span.strip():
                    found.setdefault(span.strip(), []).append(where)
    return found


def test_the_rule_finds_what_the_readme_and_the_chapters_print():
    """The reader above is itself checked, on commands known to be printed, so a change in the
    rule or in a heading's fence cannot quietly make the list empty."""
    found = printed_commands()
    for command in ("python3 tasks.py lab", "python3 tasks.py test", ".venv/bin/python -m tutorial doctor",
                    ".venv/bin/python -m tutorial grade notebooks/my_translator.py",
                    'ANTHROPIC_BASE_URL=http://127.0.0.1:8082 ANTHROPIC_API_KEY=dummy '
                    'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 .venv/bin/claude -p "Say hello"'):
        assert command in found, f"{command!r} is not among the printed commands: {sorted(found)}"
    assert len(found) > 30


def test_printed_commands_name_the_projects_python():
    """`python` is not a command on Debian 12, and the system's python3 lacks the packages: a
    printed command runs tasks.py with any python3, everything else with .venv's."""
    wrong = {command: where for command, where in printed_commands().items()
             if re.match(r"(python3?|py)\s", command) and not re.match(r"python3? tasks\.py\b", command)}
    assert not wrong, "printed with a bare python (write .venv/bin/python):\n" + "\n".join(
        f"  {command}   ({', '.join(sorted(set(where)))})" for command, where in wrong.items())


def test_chapter_shell_lines_are_short_enough_not_to_wrap():
    """JupyterLab wraps a long line of a markdown code block wherever it can break (pre-wrap), so a
    `--forward http://...` line broke inside a word at 1400 px with the file browser open. Every
    line of a chapter's shell block keeps to WIDEST_LINE characters."""
    long_lines = []
    for path in documents():
        if path.suffix != ".ipynb":
            continue
        for where, text in markdown_of(path):
            for _language, lines in shell_blocks(text):
                long_lines += [f"{where}: {len(line)} characters: {line}" for line in lines if len(line) > WIDEST_LINE]
    assert not long_lines, "\n".join(long_lines)


# Running them --------------------------------------------------------------------------------

WINDOWS_ONLY = (".venv\\Scripts\\",)
SKIPS = {
    "python3 tasks.py test": "the whole test suite, this test included; .ci/run runs it",
    "python3 tasks.py pins": "resolves constraints.txt for 30 Python/platform pairs against PyPI (the network); "
                             ".ci/run runs it",
    "python3 tasks.py notebooks": "re-executes all 28 notebooks (about ten minutes on two cores); the same command "
                                  "is run on chapter 00 as `python3 tasks.py notebooks [NN ...]`",
    "python3 tasks.py bench": "every benchmark: minutes of both cores at full load (hub load with Chromium, "
                              "the engine's latency); its figures are the README's speed table",
    ".venv/bin/python -m tutorial trajectory FILE": "reads the captures a `serve --engine --tokens --save FILE` "
                                                   "session wrote: tests/test_engine_tokens.py runs it, both forms, "
                                                   "on the file a real Claude Code session saved",
    ".venv/bin/python -m tutorial.serve.recorded_session update": "records chapter 13's Claude Code session again "
                                                                 "(rewrites the recording): tests/test_engine_tokens.py "
                                                                 "runs the same session, run_session, against the engine",
}
LONG_RUNNING = re.compile(r"tasks\.py (lab|app|serve|hub)\b|-m tutorial serve\b|-m tutorial\.llama_cpp\.engine\b")


def newcomer_environment(home: Path) -> dict[str, str]:
    """This environment as a newcomer's shell has it: no venv active, Jupyter's runtime files in a
    folder of the test's own (so what lab leaves behind can be counted)."""
    venv_bins = {str(ROOT / ".venv" / "bin"), str(ROOT / ".venv" / "Scripts")}
    if os.environ.get("VIRTUAL_ENV"):
        venv_bins.add(str(Path(os.environ["VIRTUAL_ENV"]) / "bin"))
    path = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if entry and entry not in venv_bins]
    environ = {name: value for name, value in os.environ.items()
               if name not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME") and not name.startswith("PYTEST")}
    environ.update(PATH=os.pathsep.join(path), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
                   JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), PYTHONUNBUFFERED="1")
    return environ


def installed_inputs_match(clone: Path) -> bool:
    """Whether the shared .venv was installed from the clone's pyproject.toml and constraints.txt
    (tasks.py's stamp); if not, set-up in the clone would reinstall the shared .venv from the clone."""
    import hashlib

    stamp = ROOT / ".venv" / ".installed"
    spec = __import__("importlib.util").util.spec_from_file_location("tasks_for_stamp", clone / "tasks.py")
    tasks = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    inputs = tasks.EXTRAS.encode() + (clone / "pyproject.toml").read_bytes() + (clone / "constraints.txt").read_bytes()
    return stamp.is_file() and stamp.read_text() == hashlib.sha256(inputs).hexdigest()


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A fresh clone, set up as the README says; its set-up time is printed."""
    if not (ROOT / ".git").exists() or not shutil.which("git"):
        pytest.skip("not a git checkout, so there is nothing to clone")
    if not (ROOT / ".venv" / ".installed").is_file():
        pytest.skip("this checkout has no .venv to share: run python3 tasks.py setup")
    base = tmp_path_factory.mktemp("newcomer")
    where = base / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(where)], check=True)
    # .venv is shared only when it was installed from exactly the clone's pins (else set-up in the
    # clone would reinstall the shared one from the clone); otherwise, or with TUTORIAL_FRESH_SETUP=1,
    # the clone's set-up makes its own .venv, as on a newcomer's machine (pip's cache helps).
    fresh = os.environ.get("TUTORIAL_FRESH_SETUP") == "1" or not installed_inputs_match(where)
    for shared in ((".cache", ".agent-cli") if fresh else (".venv", ".cache", ".agent-cli")):
        if (ROOT / shared).exists():
            (where / shared).symlink_to(ROOT / shared, target_is_directory=True)
    for edition in ("notebooks", "notebooks/zh"):  # what chapter 05's SAVE = True writes
        shutil.copy(LEARNER_TRANSLATOR, where / edition / "my_translator.py")
    (base / "runtime").mkdir()
    environ = newcomer_environment(base)
    started = time.monotonic()
    setup = subprocess.run(["bash", "-c", "python3 tasks.py setup"], cwd=where, env=environ,
                           capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - started
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    shared = ".cache, .agent-cli; its own .venv" if fresh else ".venv, .cache, .agent-cli"
    print(f"\n[newcomer] set-up in a fresh clone (sharing {shared}): {seconds:.1f} s")
    return {"dir": where, "env": environ, "base": base}


def fill_placeholders(command: str, clone_dir: Path, where: list[str]) -> str:
    chinese = all("/zh/" in w or w.endswith(".zh.md") or "notebooks/zh" in w for w in where)
    command = command.replace("[NN ...]", "NN")  # which chapters: one is enough
    command = re.sub(r"\s*\[[^\]]*\]", "", command)  # optional parts left out
    command = command.replace("FILE.py", "notebooks/zh/my_translator.py" if chinese else "notebooks/my_translator.py")
    command = re.sub(r"\bDIR\b", str(clone_dir.parent / f"class-{uuid.uuid4().hex[:6]}"), command)
    command = re.sub(r"\bNN\b", "00", command)
    return command


def skip_reason(command: str) -> str | None:
    if command in SKIPS:
        return SKIPS[command]
    if command.startswith(WINDOWS_ONLY) and os.name != "nt":
        return "the Windows spelling; its POSIX twin is run"
    if "--system-only" in command and not (hasattr(os, "geteuid") and os.geteuid() == 0):
        return "installs system packages with apt-get, which needs root"
    engine_needed = "--engine" in command or "tutorial.llama_cpp.engine" in command or command.endswith("tasks.py engine")
    if engine_needed and not engine_built() and not IN_CI:
        return "needs llama.cpp's server, built by python3 tasks.py engine (not built on this machine)"
    if "claude" in command and not (ROOT / ".venv" / "bin" / "claude").exists() and not IN_CI:
        return "needs the agent CLI, which set-up installs with npm (no npm on this machine)"
    return None


def engine_built() -> bool:
    return any((ROOT / ".cache").glob("llama_server-*/build/bin/llama-server"))


def run_to_the_end(command: str, clone: dict) -> None:
    result = subprocess.run(["bash", "-c", command], cwd=clone["dir"], env=clone["env"], capture_output=True,
                            text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, (f"`{command}` exited with {result.returncode}:\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    assert "Traceback (most recent call last)" not in result.stdout + result.stderr, result.stderr[-3000:]


def with_port(command: str, port: int) -> tuple[str, str]:
    """The command on a free port, and the URL that answers when it is up."""
    if re.search(r"tasks\.py lab\b", command):
        token = uuid.uuid4().hex
        extra = (f" --ServerApp.port={port} --ServerApp.port_retries=0 --ServerApp.open_browser=False"
                 f" --IdentityProvider.token={token}")
        return command + extra, f"http://127.0.0.1:{port}/api/kernels?token={token}"
    if re.search(r"tasks\.py app\b", command):
        return command + f" --port={port} --no-browser", f"http://127.0.0.1:{port}/"
    if "tutorial.llama_cpp.engine" in command:
        return command, "http://127.0.0.1:8080/health"
    if "--port" in command:
        return re.sub(r"--port\s+\d+", f"--port {port}", command), f"http://127.0.0.1:{port}/captures"
    return command + f" --port {port}", f"http://127.0.0.1:{port}/captures"


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
        return True
    except urllib.error.HTTPError:
        return True  # an HTTP answer, whatever its status: the server is up
    except OSError:
        return False


def start_and_stop(command: str, clone: dict, during=None) -> str:
    """Start a server, wait until it answers, run `during(url)`, then one SIGINT to its process
    group; it must be gone within 30 s. Its output."""
    port = free_port()
    command, url = with_port(command, port)
    if "tutorial.llama_cpp.engine" in command and not answers_nothing_on(8080):
        pytest.skip("port 8080, where the printed engine command listens, is taken on this machine")
    log_path = clone["base"] / f"server-{port}.log"
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=clone["dir"], env=clone["env"],
                                   stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while not answers(url):
            assert process.poll() is None, f"`{command}` stopped:\n{log_path.read_text(encoding='utf-8')[-4000:]}"
            assert time.monotonic() < deadline, f"`{command}` did not answer at {url}:\n" \
                                                f"{log_path.read_text(encoding='utf-8')[-4000:]}"
            time.sleep(0.5)
        if during:
            during(url, port)
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"`{command}` still runs 30 s after one SIGINT to its process group:\n"
                        f"{log_path.read_text(encoding='utf-8')[-3000:]}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    time.sleep(1)
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert not leftover, f"`{command}` left processes of its group running: {leftover}"
    return log_path.read_text(encoding="utf-8")


def answers_nothing_on(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def lab_checks(clone: dict):
    """While lab runs: a kernel started through its API (a learner opening a chapter)."""
    def during(url: str, port: int) -> None:
        token = url.split("token=")[1]
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/kernels", method="POST", data=b"{}",
                                         headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert json.loads(response.read())["id"]
        deadline = time.monotonic() + 60
        while not list((clone["base"] / "runtime").glob("kernel-*.json")):
            assert time.monotonic() < deadline, "the kernel wrote no connection file"
            time.sleep(0.5)
    return during


def agent_cli_against_serve(command: str, clone: dict) -> None:
    """The agent CLI line, against the `serve` its section starts (on a free port here)."""
    serve = ".venv/bin/python -m tutorial serve --port 8082"

    def during(url: str, port: int) -> None:
        line = command.replace("127.0.0.1:8082", f"127.0.0.1:{port}")
        result = subprocess.run(["bash", "-c", line], cwd=clone["dir"], env={**clone["env"], "HOME": str(clone["base"])},
                                capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        assert "Tutorial server" in result.stdout or "教学服务器" in result.stdout, result.stdout[-2000:]

    start_and_stop(serve, clone, during)


COMMANDS = printed_commands()


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("printed", sorted(COMMANDS), ids=lambda c: c[:70])
def test_a_printed_command_works_as_printed(printed, clone):
    where = COMMANDS[printed]
    reason = skip_reason(printed)
    if reason:
        pytest.skip(f"{reason}  [{printed}]")
    command = fill_placeholders(printed, clone["dir"], where)
    if printed.startswith("source "):
        # it changes the shell it runs in: what it promises is that plain python and claude then work
        run_to_the_end(f"{command} && python -m tutorial doctor >/dev/null && command -v python"
                       + (" && command -v claude" if (ROOT / ".venv" / "bin" / "claude").exists() else ""), clone)
        return
    if "claude" in command and "ANTHROPIC_BASE_URL" in command:
        agent_cli_against_serve(command, clone)
        return
    if LONG_RUNNING.search(command):
        lab = re.search(r"tasks\.py lab\b", command) is not None
        log = start_and_stop(command, clone, lab_checks(clone) if lab else None)
        if lab:
            left = sorted(p.name for p in (clone["base"] / "runtime").iterdir() if p.name.startswith(("jpserver-", "kernel-")))
            assert not left, f"lab left runtime files after one SIGINT: {left}\n{log[-3000:]}"
            assert "without encryption" not in log, log[-3000:]
        return
    run_to_the_end(command, clone)


# How the chapters show them ------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SHELL_CHAPTERS = ["notebooks/05_build_it_yourself.ipynb", "notebooks/11_capture_a_real_client.ipynb",
                  "notebooks/zh/05_build_it_yourself.ipynb", "notebooks/zh/11_capture_a_real_client.ipynb"]
# Each rendered code block of the Markdown cells: its lines as written, and the lines they take
# on screen (its height over its line height). More on screen than written: a line wrapped.
WRAPPED_LINES = """() => [...document.querySelectorAll('.jp-RenderedMarkdown pre')].map(pre => {
  const written = pre.textContent.replace(/\\n$/, '').split('\\n');
  const style = getComputedStyle(pre), height = pre.getBoundingClientRect().height
    - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const shown = Math.round(height / parseFloat(style.lineHeight));
  return {written: written.length, shown, longest: written.reduce((a, b) => b.length > a.length ? b : a, '')};
}).filter(block => block.shown > block.written)"""


@pytest.mark.browser
def test_shell_blocks_do_not_wrap_in_jupyterlab_at_1400_px_with_the_file_browser_open(tmp_path):
    """Chapters 05 and 11, both editions, in JupyterLab as `tasks.py lab` starts it, 1400x1000,
    the file browser open: no line of a Markdown code block wraps. A page with the old one-line
    `--forward` command is opened too, and must be seen to wrap: the check can fail."""
    pytest.importorskip("jupyterlab")
    nbformat = pytest.importorskip("nbformat")
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is missing under CI")
        pytest.skip(f"{CHROMIUM} is missing (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    spec = __import__("importlib.util").util.spec_from_file_location("tasks_for_lab", ROOT / "tasks.py")
    tasks = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(tasks)

    home, served = tmp_path / "jupyter", tmp_path / "served"
    settings = home / "settings" / "@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"windowingMode": "none"}), encoding="utf-8")  # every cell drawn
    for chapter in SHELL_CHAPTERS:
        (served / chapter).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / chapter, served / chapter)
    old_line = ("python -m tutorial serve --port 8082 --forward http://127.0.0.1:30000 --model Qwen/Qwen3-8B"
                "   # SGLang's default port")
    control = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"```sh\n{old_line}\n```")])
    nbformat.write(control, served / "notebooks" / "control.ipynb")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces")}
    port, token = free_port(), uuid.uuid4().hex
    command = tasks.jupyter_lab(ROOT / "notebooks" / "00_index.ipynb", [
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.open_browser=False", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={served}"])
    with (tmp_path / "lab.log").open("w", encoding="utf-8") as log:
        server = subprocess.Popen([str(part) for part in command], cwd=served, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    found = {}
    try:
        deadline = time.monotonic() + 90
        while not answers(f"{base}/api/status?token={token}"):
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "lab.log").read_text()[-3000:]
            time.sleep(0.5)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(90_000)
                for chapter in [*SHELL_CHAPTERS, "notebooks/control.ipynb"]:
                    page.goto(f"{base}/lab/tree/{chapter}?token={token}")
                    page.wait_for_selector(".jp-RenderedMarkdown pre", state="attached")
                    page.wait_for_timeout(1000)  # fonts and layout settle
                    assert page.is_visible(".jp-FileBrowser"), "the file browser is not open"
                    found[chapter] = page.evaluate(WRAPPED_LINES)
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert found.pop("notebooks/control.ipynb"), "the old one-line --forward command did not wrap: the check sees nothing"
    assert {chapter: blocks for chapter, blocks in found.items() if blocks} == {}
