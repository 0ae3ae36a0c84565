"""Set-up: what can be checked offline and cheaply about the pins, the packaging, the line
endings and tasks.py itself. (Whether the pins resolve for every Python and platform needs
the network: `python3 tasks.py pins`, which CI runs.)"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import signal
import shutil
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tutorial.llama_cpp.engine import free_port  # the project's one free_port

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
CONSTRAINTS = (ROOT / "constraints.txt").read_text(encoding="utf-8")


def load_tasks():
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pins() -> dict[str, str]:
    """constraints.txt as {canonical name: version}; every line must be `name==version`."""
    found: dict[str, str] = {}
    for number, line in enumerate(CONSTRAINTS.splitlines(), start=1):
        line = re.split(r"(^|\s)#", line, maxsplit=1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==" and "*" not in specifiers[0].version, \
            f"constraints.txt line {number}: {line!r} is not an exact pin"
        assert not requirement.marker and not requirement.extras, f"constraints.txt line {number}: {line!r}: a plain name==version"
        name = canonicalize_name(requirement.name)
        assert name not in found, f"constraints.txt pins {name} twice"
        found[name] = specifiers[0].version
    return found


def direct_requirements() -> list[Requirement]:
    """The package's dependencies, every extra's, and the build backend."""
    listed = [*PROJECT["dependencies"], *(r for extra in PROJECT["optional-dependencies"].values() for r in extra)]
    return [Requirement(r) for r in [*listed, *PYPROJECT["build-system"]["requires"]]]


def test_constraints_are_exact_pins_that_parse():
    pinned = pins()
    assert len(pinned) > 50
    for name, version in pinned.items():
        Version(version)  # raises if it is not a version


def test_every_requirement_of_every_extra_is_pinned_within_its_range():
    pinned = pins()
    for requirement in direct_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} (pyproject.toml) is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), \
            f"constraints.txt pins {name}=={pinned[name]}, outside pyproject's {requirement}"


def test_the_extras_other_parts_rely_on():
    extras = PROJECT["optional-dependencies"]
    names = {extra: {canonicalize_name(Requirement(r).name) for r in rs} for extra, rs in extras.items()}
    assert {"starlette", "uvicorn"} <= names["serve"]
    assert {"anthropic", "httpx", "starlette", "uvicorn"} <= names["test"]
    assert "voila" in names["notebooks"]
    assert load_tasks().EXTRAS.split(",") == sorted(extras), "set-up installs every extra"


# Everything the installed package needs, followed through installed metadata with each
# requirement's markers evaluated for every platform and Python the pins are checked for:
# a dependency of Windows or macOS only (pywinpty, appnope, colorama) is reached on Linux too.
PLATFORMS = [
    {"sys_platform": "linux", "os_name": "posix", "platform_system": "Linux", "platform_machine": "x86_64"},
    {"sys_platform": "darwin", "os_name": "posix", "platform_system": "Darwin", "platform_machine": "arm64"},
    {"sys_platform": "win32", "os_name": "nt", "platform_system": "Windows", "platform_machine": "AMD64"},
]


def environments():
    header = load_tasks().constraints_header()
    for python in header["checked-python"]:
        full = python if python.count(".") == 2 else f"{python}.0"
        for platform in PLATFORMS:
            yield {**default_environment(), **platform, "python_version": ".".join(full.split(".")[:2]),
                   "python_full_version": full, "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def wanted(requirement: Requirement, extras: set[str], envs: list[dict]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({**env, "extra": extra}) for env in envs for extra in (extras or {""}))


def test_everything_the_installed_package_needs_is_pinned_on_every_platform():
    try:
        importlib.metadata.distribution(PROJECT["name"])
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed here (python3 tasks.py test installs it)")
    pinned, envs = pins(), list(environments())
    current = default_environment()
    seen: set[tuple[str, frozenset]] = set()
    queue = [(PROJECT["name"], frozenset(PROJECT["optional-dependencies"]))]
    unpinned, wrong_version = set(), {}
    while queue:
        name, extras = queue.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # not for this platform (its pin is checked above); its own needs are uv's to check
        for line in distribution.requires or []:
            requirement = Requirement(line)
            if not wanted(requirement, set(extras), envs):
                continue
            child = canonicalize_name(requirement.name)
            if child not in pinned:
                unpinned.add(f"{child} (needed by {name})")
            elif wanted(requirement, set(extras), [current]):
                try:
                    installed = importlib.metadata.version(child)
                except importlib.metadata.PackageNotFoundError:
                    installed = None
                if installed is not None and installed != pinned[child]:
                    wrong_version[child] = f"{installed} installed, {pinned[child]} pinned"
            queue.append((child, frozenset(requirement.extras)))
    assert not unpinned, f"not pinned in constraints.txt: {sorted(unpinned)}"
    assert not wrong_version, f"installed versions differ from the pins (run python3 tasks.py test to reinstall): {wrong_version}"


def test_constraints_name_what_they_were_checked_for_and_the_readme_names_the_same_pythons():
    header = load_tasks().constraints_header()
    pythons, platforms = header.get("checked-python"), header.get("checked-platform")
    assert pythons and platforms, "constraints.txt needs '# checked-python:' and '# checked-platform:' lines"
    assert "3.11.2" in pythons, "Debian 12's python3 (3.11.2) must be among the checked Pythons"
    assert set(platforms) == set(load_tasks().UV_PLATFORMS), "every platform tasks.py pins can check"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lowest, highest = pythons[0], max(pythons, key=lambda v: Version(v))
    assert lowest in readme and highest in readme, \
        f"the README should name the Pythons the pins were checked for ({lowest} to {highest})"


def test_line_endings_are_lf_for_files_compared_byte_for_byte():
    paths = ["diagrams/a.dot", "diagrams/a.svg", "notebooks/a.ipynb", "notebooks/zh/a.ipynb", "tutorial/x/a.json",
             "tests/data/a.json"]
    try:
        result = subprocess.run(["git", "check-attr", "eol", "--", *paths], capture_output=True, text=True, cwd=ROOT)
    except FileNotFoundError:
        result = None
    if result is not None and result.returncode == 0:
        for path in paths:
            assert f"{path}: eol: lf" in result.stdout, result.stdout
        return
    rules = (ROOT / ".gitattributes").read_text(encoding="utf-8")  # no git here: read the file itself
    for pattern in ("*.dot", "*.svg", "*.ipynb", "*.json"):
        assert re.search(rf"^{re.escape(pattern)}\s.*\beol=lf\b", rules, re.M), pattern


def test_every_data_file_under_the_package_is_packaged():
    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["tutorial*"]
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    files = [p for p in (ROOT / "tutorial").rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".py", ".pyc")]
    missing = [p.relative_to(ROOT).as_posix() for p in files if not any(fnmatch(p.name, g) for g in globs)]
    assert not missing, f"not matched by pyproject's package-data {globs}: {missing}"


# tasks.py ---------------------------------------------------------------------------------


def test_ctrl_c_is_one_line_and_exit_130(capsys):
    tasks = load_tasks()

    def interrupted(arguments):
        raise KeyboardInterrupt

    tasks.COMMANDS["doctor"] = interrupted
    assert tasks.main(["doctor"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "[tasks] interrupted" and "Traceback" not in err


def test_lab_with_a_language_that_has_no_notebooks_says_so_before_any_setup(capsys, monkeypatch, tmp_path):
    tasks = load_tasks()
    (tmp_path / "notebooks").mkdir()
    monkeypatch.setattr(tasks, "ROOT", tmp_path)
    monkeypatch.setattr(tasks, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(tasks, "setup", lambda *a, **k: pytest.fail("set up before checking --lang"))
    assert tasks.main(["lab", "--lang", "xx"]) == 1
    assert "no notebooks for --lang xx: notebooks/xx/ does not exist" in capsys.readouterr().err


def test_chromium_is_installed_in_its_own_apt_get_call_and_its_failure_does_not_stop_setup(monkeypatch, capsys):
    tasks = load_tasks()
    calls = []

    def fake_run(*command, **options):
        calls.append([str(c) for c in command])
        if "chromium" in command:
            raise subprocess.CalledProcessError(100, command)

    monkeypatch.setattr(tasks, "run", fake_run)
    monkeypatch.setattr(tasks, "_have", lambda package, probe: False)
    monkeypatch.setattr(tasks, "is_root", lambda: True)
    monkeypatch.setattr(tasks.shutil, "which", lambda name: f"/usr/bin/{name}")
    tasks.system_packages(browser=True)
    installs = [c for c in calls if "install" in c]
    assert len(installs) == 2
    assert "graphviz" in installs[0] and "fonts-wqy-microhei" in installs[0] and "chromium" not in installs[0]
    assert "chromium" in installs[1]
    assert "browser test will not run" in capsys.readouterr().out

    calls.clear()
    tasks.system_packages(browser=False)  # lab: Chromium is not asked for
    assert not any("chromium" in c for c in calls)


def test_off_debian_chromium_is_one_info_line_for_the_test_command_only(monkeypatch, capsys):
    tasks = load_tasks()
    monkeypatch.setattr(tasks.shutil, "which", lambda name: "/usr/local/bin/dot" if name == "dot" else None)
    tasks.system_packages(browser=False)
    assert capsys.readouterr().out == ""
    tasks.system_packages(browser=True)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("[tasks] info:") and "chromium" in out[0]


def test_a_failing_pip_shows_its_own_output(tmp_path, capsys):
    tasks = load_tasks()
    log = tmp_path / "pip.log"
    script = "import sys; print('Ignored the following versions that require a different python version'); sys.exit(1)"
    with pytest.raises(tasks.Failure):
        tasks.run_logged(log, sys.executable, "-c", script)
    assert "require a different python version" in capsys.readouterr().err


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_ctrl_c_during_a_child_waits_for_it_and_exits_130():
    # A child that, like JupyterLab, handles SIGINT itself and exits a moment later.
    child = "import signal, sys, time; signal.signal(signal.SIGINT, lambda *a: sys.exit(0)); print('ready', flush=True); time.sleep(30)"
    program = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("t", {str(ROOT / 'tasks.py')!r})
tasks = importlib.util.module_from_spec(spec); spec.loader.exec_module(tasks)
tasks.COMMANDS["doctor"] = lambda arguments: tasks.call(sys.executable, "-c", {child!r})
sys.exit(tasks.main(["doctor"]))
"""
    process = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    assert process.stdout.readline().strip() == "ready"
    os.killpg(process.pid, __import__("signal").SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert err.strip() == "[tasks] interrupted", err


def test_a_failing_npm_names_npms_log_not_pips(tmp_path, capsys):
    tasks = load_tasks()
    log = tmp_path / "npm.log"
    with pytest.raises(tasks.Failure) as failure:
        tasks.run_logged(log, sys.executable, "-c", "import sys; print('npm ERR! code E404'); sys.exit(1)", program="npm")
    assert f"npm's full output is in {log}" in str(failure.value) and "pip" not in str(failure.value)
    assert "npm ERR! code E404" in capsys.readouterr().err


def test_uv_trusts_what_the_system_trusts_unless_told_otherwise(monkeypatch):
    """Behind a TLS-intercepting proxy the system trusts, pip works (it uses the system's store);
    `tasks.py pins` asks uv to do the same, and leaves any choice the user made alone."""
    tasks = load_tasks()
    base = {"PATH": os.environ.get("PATH", "")}
    if sys.platform.startswith("linux"):
        import ssl

        paths = ssl.get_default_verify_paths()
        if not any(p and os.path.exists(p) for p in (paths.cafile, paths.capath, paths.openssl_cafile)):
            pytest.skip("this Linux has no CA bundle, so uv keeps its own roots")
    assert tasks.uv_environment(base) == {**base, "UV_SYSTEM_CERTS": "true"}
    for chosen in ({"SSL_CERT_FILE": "/corp/ca.pem"}, {"UV_NATIVE_TLS": "1"}, {"UV_SYSTEM_CERTS": "false"}):
        assert tasks.uv_environment({**base, **chosen}) == {**base, **chosen}


# `tasks.py lab` -----------------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    """Nothing listens there: a server may bind it again (as servers do, with SO_REUSEADDR, so
    connections closed a moment ago and waiting out TCP's TIME_WAIT do not count)."""
    import socket

    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
        return True


def lab_api(base: str, token: str, path: str, method: str = "GET"):
    import json
    import urllib.request

    request = urllib.request.Request(f"{base}{path}", method=method, headers={"Authorization": f"token {token}"},
                                     data=b"{}" if method == "POST" else None)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def run_in_kernel(address: str, token: str, kernel_id: str, code: str) -> str:
    """Run `code` in a kernel through the server's websocket, as JupyterLab's page does; its stdout."""
    import json
    import uuid

    websocket = pytest.importorskip("websocket")  # websocket-client, which Jupyter Server needs
    connection = websocket.create_connection(f"ws://{address}/api/kernels/{kernel_id}/channels?token={token}", timeout=60)
    try:
        header = {"msg_id": uuid.uuid4().hex, "session": uuid.uuid4().hex, "username": "test", "msg_type": "execute_request",
                  "version": "5.3", "date": ""}
        connection.send(json.dumps({"header": header, "parent_header": {}, "metadata": {}, "channel": "shell", "content": {
            "code": code, "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False}}))
        printed, replied, idle = "", False, False
        # the reply comes on the shell channel and the output on iopub: either may arrive first, so
        # wait for both the reply and iopub's "idle", which the kernel sends after the cell's output
        while not (replied and idle):
            message = json.loads(connection.recv())
            if message.get("parent_header", {}).get("msg_id") != header["msg_id"]:
                continue
            if message["msg_type"] == "stream":
                printed += message["content"]["text"]
            elif message["msg_type"] == "execute_reply":
                assert message["content"]["status"] == "ok", message["content"]
                replied = True
            elif message["msg_type"] == "status" and message["content"].get("execution_state") == "idle":
                idle = True
        return printed
    finally:
        connection.close()


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_sigterm_to_tasks_lab_stops_jupyterlab_and_its_kernels_quietly(tmp_path):
    """The real `tasks.py lab` (set-up and the chapters' metadata step left out: they would
    install packages and rewrite this working tree) on a free port: a kernel started through
    the server's API, then SIGTERM to tasks.py alone, as a service manager or `kill` sends it.
    JupyterLab and the kernel must be gone and the port free; and nothing in the log may say
    the kernel talks in plain text, warn about the token, or leave the news question open."""
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("jupyterlab")
    import time
    import uuid

    port, token = free_port(), uuid.uuid4().hex
    program = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("t", {str(ROOT / 'tasks.py')!r})
tasks = importlib.util.module_from_spec(spec); spec.loader.exec_module(tasks)
tasks.PYTHON = __import__("pathlib").Path(sys.executable)
tasks.setup = lambda browser=False: tasks.quiet_jupyterlab()
tasks.match_this_kernel = lambda: None
sys.exit(tasks.main(["lab", "--ServerApp.ip=127.0.0.1", "--ServerApp.port={port}", "--ServerApp.port_retries=0",
                     "--ServerApp.open_browser=False", "--IdentityProvider.token={token}"]))
"""
    home = tmp_path / "jupyter"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces")}
    env.pop("PYTHONWARNINGS", None)
    log_path = tmp_path / "lab.log"
    with log_path.open("w", encoding="utf-8") as log:
        tasks_process = subprocess.Popen([sys.executable, "-c", program], stdout=log, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert tasks_process.poll() is None, log_path.read_text(encoding="utf-8")[-3000:]
            try:
                lab_api(base, token, "/api/status")
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not answer:\n" + log_path.read_text(encoding="utf-8")[-3000:]
                time.sleep(0.5)
        news = lab_api(base, token, "/lab/api/settings/@jupyterlab/apputils-extension:notification")
        # (the override becomes the setting's default: what applies while the user chose nothing)
        assert news["schema"]["properties"]["fetchNews"]["default"] == "false", "JupyterLab would ask whether to fetch news"
        assert "fetchNews" not in (news.get("settings") or {}), "the answer comes from set-up, not from a user setting"
        kernel = lab_api(base, token, "/api/kernels", method="POST")
        assert run_in_kernel(f"127.0.0.1:{port}", token, kernel["id"], "print(6 * 7)") == "42\n"
        started = psutil.Process(tasks_process.pid).children(recursive=True)
        commands = [" ".join(p.cmdline()) for p in started]
        assert any("jupyterlab" in c for c in commands) and any("ipykernel" in c for c in commands), commands

        os.kill(tasks_process.pid, signal.SIGTERM)  # tasks.py alone, not its process group
        assert tasks_process.wait(timeout=60) == 128 + 15
        gone, alive = psutil.wait_procs(started, timeout=20)
        assert not alive, f"still running after tasks.py stopped: {[' '.join(p.cmdline()) for p in alive]}"
        assert port_is_free(port), f"port {port} is still taken"
    finally:
        if tasks_process.poll() is None:
            os.killpg(tasks_process.pid, signal.SIGKILL)
            tasks_process.wait(timeout=10)
    log = log_path.read_text(encoding="utf-8")
    assert "Jupyter Server" in log and "Kernel started" in log, log[-3000:]
    for noise in ("without encryption", "DeprecationWarning", "ServerApp.token config is deprecated", "websocket_ping_timeout"):
        assert noise not in log, f"{noise!r} in JupyterLab's output:\n{log[-3000:]}"
    assert "[tasks] stopped (SIGTERM)" in log


# git stays clean -----------------------------------------------------------------------------


def git(repo, *arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=repo, capture_output=True, text=True, check=True).stdout


def test_lab_writing_this_machines_kernel_into_the_chapters_leaves_git_clean(tmp_path, monkeypatch):
    """In a real clone with set-up's git configuration: `lab`'s metadata step on another Python
    (Debian's 3.11.2, say) rewrites language_info, and `git status` stays clean; a change to a
    cell still shows, and a commit of it keeps the language_info git had."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    import json

    nbformat = pytest.importorskip("nbformat")
    repo = tmp_path / "clone"
    (repo / "scripts").mkdir(parents=True)
    (repo / "notebooks").mkdir()
    for name in (".gitattributes", "scripts/git_notebook_filter.py", "scripts/run_notebooks.py", "notebooks/01_request.ipynb"):
        shutil.copyfile(ROOT / name, repo / name)
    git(repo, "init", "-q")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "chapters")
    tasks = load_tasks()
    monkeypatch.setattr(tasks, "ROOT", repo.resolve())
    monkeypatch.setattr(tasks, "PYTHON", Path(sys.executable))
    tasks.git_notebook_filter()
    assert "scripts/git_notebook_filter.py %f" in git(repo, "config", "--get", tasks.NOTEBOOK_FILTER)

    chapter = repo / "notebooks" / "01_request.ipynb"
    run_notebooks = importlib.util.spec_from_file_location("run_notebooks_under_test", repo / "scripts" / "run_notebooks.py")
    module = importlib.util.module_from_spec(run_notebooks)
    run_notebooks.loader.exec_module(module)
    stored = json.loads(chapter.read_text(encoding="utf-8"))["metadata"]
    other_python = {**stored["language_info"], "version": "3.11.2"}
    assert other_python != stored["language_info"]
    assert module.rewrite_metadata(chapter, stored["kernelspec"], other_python) is True  # what `lab` does there
    assert json.loads(chapter.read_text(encoding="utf-8"))["metadata"]["language_info"]["version"] == "3.11.2"
    assert git(repo, "status", "--porcelain") == "", "a kernel-only change shows in git status"
    assert git(repo, "diff") == ""
    assert module.rewrite_metadata(chapter, stored["kernelspec"], other_python) is False, "written again with nothing to change"

    notebook = nbformat.read(chapter, as_version=4)
    notebook.cells[0].source += "\n\nA line a learner added."
    nbformat.write(notebook, chapter)
    assert git(repo, "status", "--porcelain").strip() == "M notebooks/01_request.ipynb", "a real change is hidden"
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-am", "a learner's line")
    committed = json.loads(git(repo, "show", "HEAD:notebooks/01_request.ipynb"))
    assert "".join(committed["cells"][0]["source"]).endswith("A line a learner added.")
    assert committed["metadata"]["language_info"]["version"] == "3.11.2", "the edit carries the kernel it was made with"


def test_the_filter_passes_anything_but_a_kernel_only_change_through_unchanged():
    spec = importlib.util.spec_from_file_location("git_notebook_filter", ROOT / "scripts" / "git_notebook_filter.py")
    notebook_filter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notebook_filter)
    committed = b'{"cells": [], "metadata": {"language_info": {"version": "3.11.7"}, "kernelspec": {"name": "python3"}}}\n'
    kernel_only = b'{"metadata": {"kernelspec": {"name": "python3"}, "language_info": {"version": "3.13.1"}}, "cells": []}'
    other_metadata = b'{"cells": [], "metadata": {"language_info": {"version": "3.11.7"}, "kernelspec": {"name": "python3"}, "x": 1}}'
    assert notebook_filter.clean(kernel_only, committed) == committed
    assert notebook_filter.clean(other_metadata, committed) == other_metadata
    assert notebook_filter.clean(b"<<<<<<< ours", committed) == b"<<<<<<< ours"
    assert notebook_filter.clean(kernel_only, None) == kernel_only  # a new notebook


def test_an_option_given_to_lab_replaces_the_one_lab_sets():
    """JupyterLab stops with "only accepts one value" when an option comes twice, so `tasks.py app
    --lab`'s landing page, or a user's --notebook-dir, must replace lab's own."""
    tasks = load_tasks()
    landing = tasks.NOTEBOOKS / "00_index.ipynb"
    command = [str(part) for part in tasks.jupyter_lab(landing, ["--LabApp.default_url=/doc/tree/x.ipynb", "--notebook-dir=/tmp"])]
    names = [part.split("=", 1)[0] for part in command if part.startswith("--")]
    assert names.count("--LabApp.default_url") == 1 and "--LabApp.default_url=/doc/tree/x.ipynb" in command
    assert "--ServerApp.root_dir" not in names and "--notebook-dir=/tmp" in command
    plain = [str(part) for part in tasks.jupyter_lab(landing, [])]
    assert f"--ServerApp.root_dir={tasks.ROOT}" in plain and "--LabApp.default_url=/lab/tree/notebooks/00_index.ipynb" in plain


# What a newcomer meets first -------------------------------------------------------------------


def test_an_unknown_command_is_named_with_a_short_usage(capsys):
    tasks = load_tasks()
    assert tasks.main(["foo"]) == 2
    err = capsys.readouterr().err
    assert "'foo'" in err.splitlines()[0], err
    assert "lab, test, setup" in err and len(err.splitlines()) <= 4, err
    assert tasks.main(["--help"]) == 0 and "python3 tasks.py lab" in capsys.readouterr().out


def test_the_package_run_by_a_python_without_its_requirements_says_what_to_run_in_one_line():
    """`python3 -m tutorial doctor` with the system's python3 (no pydantic there): one line naming
    .venv's python and the same command, exit 1, no traceback. `-S` leaves site-packages out,
    which is what a Python without the project's packages looks like."""
    result = subprocess.run([sys.executable, "-S", "-m", "tutorial", "doctor"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 1 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    project_python = ".venv\\Scripts\\python" if os.name == "nt" else ".venv/bin/python"
    assert "No module named 'pydantic'" in lines[0] and f"{project_python} -m tutorial doctor" in lines[0], lines[0]
    chinese = subprocess.run([sys.executable, "-S", "-m", "tutorial", "--lang", "zh", "walk"], cwd=ROOT,
                             capture_output=True, text=True)
    assert "不是本项目的 Python" in chinese.stderr and f"{project_python} -m tutorial --lang zh walk" in chinese.stderr
    imported = subprocess.run([sys.executable, "-S", "-c", "import tutorial"], cwd=ROOT, capture_output=True, text=True)
    assert imported.returncode == 1 and imported.stderr.strip().splitlines()[-1].startswith("ImportError: ")


def test_the_metadata_step_of_lab_starts_its_kernel_without_the_plain_tcp_warning():
    """`tasks.py lab` runs scripts/run_notebooks.py --metadata-only, which asks a fresh kernel for
    its language_info; that kernel must not print "Kernel is running over TCP without encryption"."""
    program = ("import sys; sys.path.insert(0, 'scripts'); import run_notebooks; "
               "print(run_notebooks.kernel_language_info()['name'])")
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "python", result.stderr
    assert "without encryption" not in result.stderr, result.stderr


def _tasks_program(tasks_arguments: list[str]) -> str:
    """tasks.py with set-up and the chapters' metadata step left out (they would install packages
    and rewrite this working tree), run with this environment's Python."""
    return f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("t", {str(ROOT / 'tasks.py')!r})
tasks = importlib.util.module_from_spec(spec); spec.loader.exec_module(tasks)
tasks.PYTHON = __import__("pathlib").Path(sys.executable)
tasks.setup = lambda browser=False: tasks.quiet_jupyterlab()
tasks.match_this_kernel = lambda: None
sys.exit(tasks.main({tasks_arguments!r}))
"""


def run_in_terminal(address: str, token: str, command: str) -> str:
    """Open a terminal in JupyterLab (as its launcher does), type `command`, return what it printed."""
    import json
    import time

    websocket = pytest.importorskip("websocket")
    name = lab_api(f"http://{address}", token, "/api/terminals", method="POST")["name"]
    connection = websocket.create_connection(f"ws://{address}/terminals/websocket/{name}?token={token}", timeout=30)
    try:
        connection.send(json.dumps(["stdin", f"{command}; echo END-OF-$((6*7))\r"]))
        printed, deadline = "", time.monotonic() + 30
        while "END-OF-42" not in printed and time.monotonic() < deadline:
            message = json.loads(connection.recv())
            if message[0] == "stdout":
                printed += message[1]
        return printed
    finally:
        connection.close()


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_one_sigint_to_labs_process_group_stops_it_with_its_kernels_and_runtime_files(tmp_path):
    """A service manager (or Ctrl-C in the terminal) sends SIGINT to the whole group once: JupyterLab
    must not wait for a "Shut down? (y/[n])" answer no one gives, and must leave no kernel, no
    jpserver-*.json and no kernel-*.json behind. Its terminal (a login shell when there is no
    terminal around it, as here) finds .venv's python first."""
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("jupyterlab")
    import time
    import uuid

    port, token = free_port(), uuid.uuid4().hex
    runtime = tmp_path / "runtime"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces")}
    env.pop("PYTHONWARNINGS", None)
    log_path = tmp_path / "lab.log"
    arguments = ["lab", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                 "--ServerApp.open_browser=False", f"--IdentityProvider.token={token}"]
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen([sys.executable, "-c", _tasks_program(arguments)], stdout=log, stderr=subprocess.STDOUT,
                                   env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, log_path.read_text(encoding="utf-8")[-3000:]
            try:
                lab_api(base, token, "/api/status")
                break
            except OSError:
                assert time.monotonic() < deadline, log_path.read_text(encoding="utf-8")[-3000:]
                time.sleep(0.5)
        kernel = lab_api(base, token, "/api/kernels", method="POST")
        assert run_in_kernel(f"127.0.0.1:{port}", token, kernel["id"], "print(6 * 7)") == "42\n"
        assert ".venv/bin/python" in run_in_terminal(f"127.0.0.1:{port}", token, "command -v python claude jupyter"), \
            "JupyterLab's terminal does not find .venv's python first"
        started = psutil.Process(process.pid).children(recursive=True)
        assert sorted(p.name.split("-")[0] for p in runtime.glob("*.json")) >= ["jpserver", "kernel"]

        os.killpg(process.pid, signal.SIGINT)  # once, to the whole group
        assert process.wait(timeout=60) == 130
        gone, alive = psutil.wait_procs(started, timeout=20)
        assert not alive, f"still running: {[' '.join(p.cmdline()) for p in alive]}"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    left = sorted(p.name for p in runtime.iterdir() if p.name.startswith(("jpserver-", "kernel-")))
    assert not left, f"runtime files left behind: {left}\n{log_path.read_text(encoding='utf-8')[-2000:]}"
    assert port_is_free(port)


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_the_app_view_culls_the_kernels_of_closed_pages(tmp_path):
    """Every page load of `tasks.py app` starts a kernel; once the page is gone (no connection)
    and the kernel idle, it is shut down. The culling settings are the app's own; here they are
    shortened through the same options, so the test waits seconds instead of a minute."""
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("voila")
    import time
    import urllib.request

    tasks = load_tasks()
    assert tasks.APP_CULLING["--MappingKernelManager.cull_connected"] == "False", "an open page is never culled"
    assert int(tasks.APP_CULLING["--MappingKernelManager.cull_idle_timeout"]) <= 300
    port = free_port()
    arguments = ["app", f"--port={port}", "--no-browser", "--MappingKernelManager.cull_idle_timeout=4",
                 "--MappingKernelManager.cull_interval=1"]
    log_path = tmp_path / "app.log"
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen([sys.executable, "-c", _tasks_program(arguments)], stdout=log, stderr=subprocess.STDOUT,
                                   env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}, start_new_session=True)

    def kernels() -> list:
        """The kernels running under the app; one that is exiting (a zombie, or gone) is not running."""
        running = []
        for child in psutil.Process(process.pid).children(recursive=True):
            try:
                if "ipykernel" in " ".join(child.cmdline()):
                    running.append(child)
            except (psutil.ZombieProcess, psutil.NoSuchProcess):
                pass
        return running

    try:
        deadline = time.monotonic() + 120
        loads = 0
        while loads < 2:
            assert process.poll() is None, log_path.read_text(encoding="utf-8")[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as page:
                    assert b"<html" in page.read(2000).lower()
                loads += 1
            except OSError:
                assert time.monotonic() < deadline, log_path.read_text(encoding="utf-8")[-3000:]
                time.sleep(0.5)
        assert len(kernels()) == 2, "one kernel per page load"
        deadline = time.monotonic() + 30
        while kernels():
            assert time.monotonic() < deadline, "kernels of closed pages still run:\n" + log_path.read_text(encoding="utf-8")[-3000:]
            time.sleep(0.5)
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(timeout=30) == 130
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    log = log_path.read_text(encoding="utf-8")
    assert "Culling 'idle' kernel" in log and "without encryption" not in log, log[-3000:]


@pytest.mark.parametrize("edition", ["", "zh"])
def test_the_playgrounds_cell_says_to_run_it_before_it_runs(edition):
    """A widget cannot be stored, so the playground's cell stores a line that says to run it."""
    import json

    wanted = {"": "Run this cell", "zh": "运行这个单元格"}[edition]
    chapter = json.loads((ROOT / "notebooks" / edition / "07_playground.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in chapter["cells"] if c["cell_type"] == "code" and "Playground()" in "".join(c["source"]))
    shown = " ".join("".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"])
    assert wanted in shown, cell["outputs"]


def test_doctor_run_by_another_python_says_so_first():
    """`python3 tutorial/cli/doctor.py` with a Python that is not .venv's would list every package
    as missing; its first line says which Python it is and what checks .venv instead."""
    if not (ROOT / ".venv" / "pyvenv.cfg").is_file():
        pytest.skip("no .venv in this checkout")
    other = subprocess.run([sys.executable, "-S", str(ROOT / "tutorial" / "cli" / "doctor.py")], cwd=ROOT,
                           capture_output=True, text=True)
    first = other.stdout.splitlines()[0]
    assert first.startswith("✗") and "python3 tasks.py doctor checks .venv" in first, other.stdout[:500]
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        own = subprocess.run([sys.executable, str(ROOT / "tutorial" / "cli" / "doctor.py")], cwd=ROOT, capture_output=True, text=True)
        assert "not the project's" not in own.stdout
