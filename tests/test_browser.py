"""The playground in a real browser: JupyterLab in headless Chromium.

Starts JupyterLab on 127.0.0.1 (a free port, a token, news and autosave off) on a scratch
copy of notebooks/, opens 07_playground.ipynb, runs all cells, edits the request in the
playground's editor and checks that the translated messages and the diagram change on
the page. Screenshots go to artifacts/ (gitignored). Everything started here is stopped
in the fixture's teardown.

Run it alone with:  python -m pytest -m browser tests/test_browser.py
Needs Debian's /usr/bin/chromium (no browser is downloaded). Without it the test is
skipped locally, and fails under CI (when the CI variable is set).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "07_playground.ipynb"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
START_TIMEOUT = 60  # seconds for JupyterLab to answer
MS = 1000


def unavailable(reason: str) -> None:
    """Missing tools fail the test under CI and skip it elsewhere, with the reason."""
    if os.environ.get("CI"):
        pytest.fail(f"browser test cannot run under CI: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def settings(directory: Path) -> None:
    """User settings for this server only: no autosave, every cell kept in the page."""
    for plugin, values in {
        "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    }.items():
        path = directory / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on a scratch copy of notebooks/; yields (base_url, token)."""
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing (Debian: apt-get install chromium)")
    for module in ("playwright", "jupyterlab", "ipywidgets"):
        try:
            __import__(module)
        except ImportError:
            unavailable(f"the Python package {module!r} is not installed (pip install -e '.[notebooks,test]')")

    notebooks = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    home = tmp_path / "jupyter"
    settings(home / "settings")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "JUPYTER_CONFIG_DIR": str(home / "config"),  # nothing from the user's ~/.jupyter
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    port, token = free_port(), uuid.uuid4().hex
    command = [
        sys.executable, "-m", "jupyter", "lab",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False",
        f"--ServerApp.root_dir={notebooks}",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = (tmp_path / "jupyterlab.log").open("w", encoding="utf-8")
    server = subprocess.Popen(command, cwd=notebooks, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(server, base, token, tmp_path / "jupyterlab.log")
        yield base, token
    finally:
        stop(server, base, token)
        log.close()


def api(base: str, token: str, path: str, method: str = "GET"):
    request = urllib.request.Request(f"{base}{path}", method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        return json.loads(body) if body else None


def wait_for_server(server: subprocess.Popen, base: str, token: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"JupyterLab exited with {server.returncode}:\n{log.read_text(encoding='utf-8')[-3000:]}")
        try:
            api(base, token, "/api/status")
            return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{log.read_text(encoding='utf-8')[-3000:]}")


def stop(server: subprocess.Popen, base: str, token: str) -> None:
    """Shut down the kernels this server started, then the server (its process group)."""
    if server.poll() is None:
        try:
            for kernel in api(base, token, "/api/kernels") or []:
                api(base, token, f"/api/kernels/{kernel['id']}", method="DELETE")
        except (urllib.error.URLError, OSError, ValueError):
            pass
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


# JavaScript run in the page -------------------------------------------------------

CELLS_STARTED = """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
  .some(p => /^\\[(\\*|\\d+)\\]:$/.test(p.textContent.trim()))"""

ALL_CELLS_DONE = """() => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
  return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p));
}"""


def run_all_cells(page) -> None:
    """Run → Run All Cells, from the menu. The notebook must be the current widget for the
    item to be enabled, so click into it first; try again if no cell starts running."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _attempt in range(3):
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.click()
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator("li.lm-Menu-item[data-command='runmenu:run-all']").click()
        try:
            page.wait_for_function(CELLS_STARTED, timeout=15 * MS)
            return
        except PlaywrightTimeout:
            page.keyboard.press("Escape")  # close the menu if it is still open
    pytest.fail("Run → Run All Cells did not start the notebook's cells")


def test_editing_the_request_changes_the_translation_and_the_diagram(lab):
    from playwright.sync_api import expect, sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1680, "height": 1100})
            page.set_default_timeout(60 * MS)
            page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=90 * MS)
            # The kernel must be up before Run All, or the cells only queue behind "Select Kernel".
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90 * MS)

            run_all_cells(page)
            page.wait_for_function(ALL_CELLS_DONE, timeout=120 * MS)

            playground = page.locator(".tp-playground")
            expect(playground).to_be_visible()
            translated, diagram, status = page.locator(".tp-translated"), page.locator(".tp-diagram"), page.locator(".tp-error")
            editor = page.locator(".tp-editor textarea")
            # The notebook's last cell went back to the README example.
            expect(status).to_contain_text("target chat_template: 5 message(s)")
            expect(translated).to_contain_text('"name": "read_file"')
            expect(diagram.locator("svg")).to_have_count(1)
            diagram_before = diagram.inner_html()
            playground.screenshot(path=str(ARTIFACTS / "playground-start.png"))

            # Rename the tool in the editor, as a reader would, and do not press Translate:
            # the pause after typing is enough.
            editor.fill(editor.input_value().replace("read_file", "open_file"))
            expect(translated).to_contain_text('"name": "open_file"', timeout=30 * MS)
            expect(translated).not_to_contain_text("read_file")
            expect(page.locator(".tp-tools")).to_contain_text('"name": "open_file"')
            page.wait_for_function(
                "before => document.querySelector('.tp-diagram').innerHTML !== before", arg=diagram_before, timeout=30 * MS
            )
            assert "open_file" in diagram.inner_html() and "read_file" not in diagram.inner_html()
            page.locator(".tp-tabs .lm-TabBar-tab", has_text="diagram").click()
            expect(diagram.locator("svg")).to_be_visible()
            playground.screenshot(path=str(ARTIFACTS / "playground-diagram.png"))

            # Break the request: the error names the place, the outputs stay, marked stale.
            page.locator(".tp-tabs .lm-TabBar-tab", has_text="translated").click()
            editor.fill(editor.input_value().replace('"tool_use_id": "toolu_demo",', ""))
            expect(status).to_contain_text("messages[2].content[0].tool_use_id", timeout=30 * MS)
            expect(translated).to_contain_text("Stale")
            expect(translated).to_contain_text('"name": "open_file"')
            playground.screenshot(path=str(ARTIFACTS / "playground-error.png"))

            # Switch the target with the toggle and fix the request with the Translate button.
            editor.fill(editor.input_value().replace('"type": "tool_result",', '"type": "tool_result", "tool_use_id": "toolu_demo",'))
            page.locator(".tp-translate").click()
            expect(status).to_contain_text("target chat_template: 5 message(s)", timeout=30 * MS)
            page.locator(".tp-target button", has_text="openai").click()
            expect(status).to_contain_text("target openai", timeout=30 * MS)
            expect(translated).to_contain_text('"tool_call_id": "toolu_demo"')
            assert not page.locator(".tp-log .jp-OutputArea-output").count(), page.locator(".tp-log").inner_text()
        finally:
            browser.close()
