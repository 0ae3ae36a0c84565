"""The playground in a real browser: JupyterLab and the Voila app view in headless Chromium.

Starts JupyterLab on 127.0.0.1 (a token, news and autosave off) on a scratch copy of
notebooks/, opens 07_playground.ipynb, runs all cells, edits the request in the playground's
editor and checks that the translated messages, the diagram and the prompt change on the
page. The app view (`tasks.py app`: app/playground.ipynb in Voila with the "playground"
template) is opened at 1280×720 with every request that would leave the machine refused:
the playground alone, readable, working offline. Another test opens every chapter of both
editions, runs nothing, and measures each stored diagram as JupyterLab draws it at 1400×1000
with the file browser open. Screenshots go to artifacts/ (gitignored). Everything started
here is stopped in the fixture's teardown.

No port races on a loaded machine: kernels talk to their server over Unix sockets (ipc
transport, no TCP ports to pick), and a server whose port was taken between choosing it and
binding it is started again on another one.

Run it alone with:  python -m pytest -m browser tests/test_browser.py
Needs Debian's /usr/bin/chromium (no browser is downloaded) and Graphviz's `dot` (the
playground's diagram). Without either the test is skipped locally, with the reason, and
fails under CI (when the CI variable is set).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from tutorial.llama_cpp.engine import free_port  # the project's one free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "07_playground.ipynb"
APP = ROOT / "app"  # app/playground.ipynb and the Voila template tasks.py app uses
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
START_TIMEOUT = 120  # seconds for JupyterLab (or Voila) to answer, on a loaded machine
LAUNCHES = 3  # tries to start a server whose port was taken meanwhile
MS = 1000
SIZES = [(1400, 1000), (1280, 720)]
KERNELS_OVER_IPC = ["--KernelManager.transport=ipc"]  # no TCP port for a kernel, so none to race for
LOCAL_HOSTS = ("127.0.0.1", "localhost")


def unavailable(reason: str) -> None:
    """Missing tools fail the test under CI and skip it elsewhere, with the reason."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"browser test cannot run under CI: {reason}")
    pytest.skip(reason)


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


def needs(*modules: str) -> None:
    """Skip (or, under CI, fail) without Chromium, Graphviz or one of `modules`."""
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing (Debian: apt-get install chromium)")
    if not shutil.which("dot"):
        unavailable("Graphviz's dot is not on PATH, so the playground cannot draw its diagram (Debian: apt-get install graphviz)")
    for module in modules:
        try:
            __import__(module)
        except ImportError:
            unavailable(f"the Python package {module!r} is not installed (python3 tasks.py test installs it)")


@pytest.fixture
def runtime_dir():
    """A short folder for the kernels' connection files and sockets: a Unix socket's path
    may be at most 107 bytes, and pytest's tmp_path alone can be longer."""
    folder = Path(tempfile.mkdtemp(prefix="tp-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def scratch(tmp_path: Path, runtime: Path) -> tuple[Path, dict]:
    """A copy of notebooks/, and an environment that reads nothing from the user's Jupyter set-up."""
    notebooks = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    home = tmp_path / "jupyter"
    settings(home / "settings")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "JUPYTER_CONFIG_DIR": str(home / "config"),  # nothing from the user's ~/.jupyter
        "JUPYTER_RUNTIME_DIR": str(runtime),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }
    return notebooks, env


PORT_TAKEN = ("Address already in use", "address already in use", "is already in use", "Errno 98")


def launch(make_command, cwd: Path, env: dict, log_path: Path, ready) -> tuple[subprocess.Popen, int]:
    """Start a server on a free port and wait until `ready(server, port)` returns; when it
    exits because its port was taken in the meantime, start it again on another port."""
    for attempt in range(1, LAUNCHES + 1):
        port = free_port()
        with log_path.open("w", encoding="utf-8") as log:
            server = subprocess.Popen(make_command(port), cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        try:
            ready(server, port)
            return server, port
        except ServerExited:
            text = log_path.read_text(encoding="utf-8", errors="replace")
            if attempt < LAUNCHES and any(sign in text for sign in PORT_TAKEN):
                print(f"port {port} was taken before the server bound it; starting again ({attempt + 1}/{LAUNCHES})")
                continue
            pytest.fail(f"the server exited with {server.returncode}:\n{text[-3000:]}")
        except BaseException:
            stop(server, f"http://127.0.0.1:{port}", "", kernels=False)
            raise
    raise AssertionError("unreachable")


class ServerExited(Exception):
    """The server stopped before it answered."""


@pytest.fixture
def lab(tmp_path, runtime_dir):
    """A JupyterLab server on a scratch copy of notebooks/; yields (base_url, token)."""
    needs("playwright", "jupyterlab", "ipywidgets")
    notebooks, env = scratch(tmp_path, runtime_dir)
    token = uuid.uuid4().hex

    def command(port: int) -> list[str]:
        made = [
            sys.executable, "-m", "jupyter", "lab",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False",
            f"--ServerApp.root_dir={notebooks}",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: open a notebook with no kernel
            *KERNELS_OVER_IPC,
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            made.append("--allow-root")
        return made

    log = tmp_path / "jupyterlab.log"
    server, port = launch(command, notebooks, env, log,
                          lambda server, port: wait_for_server(server, f"http://127.0.0.1:{port}", token, log))
    base = f"http://127.0.0.1:{port}"
    try:
        yield base, token
    finally:
        stop(server, base, token)


@pytest.fixture
def voila(tmp_path, runtime_dir):
    """The app view as `tasks.py app` starts it (app/playground.ipynb, the "playground"
    template found through JUPYTER_PATH); yields the page's URL and the server's log."""
    needs("playwright", "voila", "ipywidgets")
    _notebooks, env = scratch(tmp_path, runtime_dir)
    app = tmp_path / "app"
    shutil.copytree(APP, app)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(app), os.environ.get("JUPYTER_PATH")]))
    env["TUTORIAL_LANG"] = "en"
    token = uuid.uuid4().hex

    def command(port: int) -> list[str]:
        return [
            sys.executable, "-m", "voila", str(app / "playground.ipynb"), "--template=playground", "--no-browser",
            "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0", f"--token={token}",
            "--show_tracebacks=True", f"--Voila.connection_dir_root={runtime_dir}", *KERNELS_OVER_IPC,
        ]

    log = tmp_path / "voila.log"
    server, port = launch(command, app, env, log,
                          lambda server, port: wait_for_page(server, f"http://127.0.0.1:{port}/?token={token}", log))
    base = f"http://127.0.0.1:{port}"
    try:
        yield f"{base}/?token={token}", log
    finally:
        stop(server, base, token, kernels=False)


def api(base: str, token: str, path: str, method: str = "GET"):
    request = urllib.request.Request(f"{base}{path}", method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        return json.loads(body) if body else None


def wait_for_server(server: subprocess.Popen, base: str, token: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ServerExited
        try:
            api(base, token, "/api/status")
            return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{log.read_text(encoding='utf-8')[-3000:]}")


def wait_for_page(server: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ServerExited
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.5)
    pytest.fail(f"the server did not answer within {START_TIMEOUT} s:\n{log.read_text(encoding='utf-8')[-3000:]}")


def stop(server: subprocess.Popen, base: str, token: str, kernels: bool = True) -> None:
    """Shut down the kernels this server started, then the server (its process group; Voila
    shuts its kernels down itself on SIGTERM)."""
    if server.poll() is None:
        try:
            for kernel in (api(base, token, "/api/kernels") or []) if kernels else []:
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

# A cell whose input is hidden (a chapter's solution cells) shows no prompt at all.
ALL_CELLS_DONE = """() => {
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
  return prompts.some(p => p !== '') && prompts.every(p => p === '' || /^\\[\\d+\\]:$/.test(p));
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


PROMPTS = "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim())"


def wait_for_all_cells(page) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(ALL_CELLS_DONE, timeout=120 * MS)
    except PlaywrightTimeout:
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
        pytest.fail(f"not every cell ran: prompts {page.evaluate(PROMPTS)}; errors: {errors[:3]}")


def tab(page, title: str) -> None:
    """Click a playground tab by its title (only the visible tab is drawn)."""
    page.locator(".tp-tabs .lm-TabBar-tab", has_text=title).first.click()


def test_editing_the_request_changes_the_translation_and_the_diagram(lab):
    from playwright.sync_api import expect, sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60 * MS)
            page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=90 * MS)
            # The kernel must be up before Run All, or the cells only queue behind "Select Kernel".
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90 * MS)

            run_all_cells(page)
            wait_for_all_cells(page)

            playground = page.locator(".tp-playground")
            expect(playground).to_be_visible()
            translated, diagram, status = page.locator(".tp-translated"), page.locator(".tp-diagram"), page.locator(".tp-error")
            editor = page.locator(".tp-editor textarea")
            # The notebook's last cell went back to the README example.
            expect(status).to_contain_text("target chat_template: 5 message(s)")
            expect(translated).to_contain_text('"name": "read_file"')
            # At 1400 px, the file browser open, the tab titles sit on one row, whole.
            playground.scroll_into_view_if_needed()
            assert page.evaluate(FILE_BROWSER), "the file browser should be open, as a learner has it"
            assert page.evaluate(CUT_TAB_TITLES) == [], "tab titles cut in JupyterLab at 1400 px"
            assert page.evaluate(TAB_ROWS) == 1, f"the tab titles wrap in JupyterLab at 1400 px: {page.evaluate(TAB_WIDTHS)}"
            tab(page, "diagram")
            expect(diagram).to_contain_text("read_file", timeout=60 * MS)
            expect(diagram.locator("svg")).to_have_count(1)
            diagram_before = diagram.inner_html()
            playground.screenshot(path=str(ARTIFACTS / "playground-start.png"))

            # Rename the tool in the editor, as a reader would, and do not press Translate:
            # the pause after typing is enough. The diagram tab is showing, so it is redrawn.
            editor.fill(editor.input_value().replace("read_file", "open_file"))
            page.wait_for_function(
                "before => document.querySelector('.tp-diagram').innerHTML !== before", arg=diagram_before, timeout=30 * MS
            )
            expect(diagram).to_contain_text("open_file", timeout=30 * MS)
            expect(diagram).not_to_contain_text("read_file")
            expect(diagram.locator("svg")).to_be_visible()
            playground.screenshot(path=str(ARTIFACTS / "playground-diagram.png"))
            tab(page, "translated")
            expect(translated).to_contain_text('"name": "open_file"', timeout=30 * MS)
            expect(translated).not_to_contain_text("read_file")
            tab(page, "tools_schema")
            expect(page.locator(".tp-tools")).to_contain_text('"name": "open_file"', timeout=30 * MS)

            # Break the request: the error names the place, the outputs stay, marked stale.
            tab(page, "translated")
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

            # In JupyterLab at 1280 px (the file browser open), the tab titles are still whole.
            page.set_viewport_size({"width": 1280, "height": 900})
            playground.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            playground.screenshot(path=str(ARTIFACTS / "playground-1280.png"))
            assert page.evaluate(CUT_TAB_TITLES) == [], "tab titles cut in JupyterLab at 1280 px"
        finally:
            browser.close()


# Measurements taken in the page -------------------------------------------------------

CUT_TAB_TITLES = """() => {
  const bar = document.querySelector('.tp-tabs > .lm-TabBar').getBoundingClientRect();
  return [...document.querySelectorAll('.tp-tabs .lm-TabBar-tab')].flatMap(tab => {
    const label = tab.querySelector('.lm-TabBar-tabLabel'), box = tab.getBoundingClientRect();
    // (a tab overlaps its neighbour's border by 1 px; on a narrow screen the titles wrap to a second row)
    const cut = label.scrollWidth > label.clientWidth || box.right > bar.right + 2 || box.left < bar.left - 2;
    return cut ? [`${label.textContent}: ${label.scrollWidth} px of text in ${label.clientWidth} px`] : [];
  });
}"""

DIAGRAM_SIZE = """() => {
  const pane = document.querySelector('.tp-diagram'), svg = pane.querySelector('svg');
  const area = document.querySelector('.tp-tabs').getBoundingClientRect();
  const box = svg.getBoundingClientRect();
  const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
  return {left: box.left, right: box.right, width: box.width, areaLeft: area.left, areaRight: area.right,
          paneScrolls: pane.scrollWidth > pane.clientWidth + 1, smallestText: Math.min(...sizes), texts: sizes.length};
}"""

HIDDEN_CELLS = """() => {
  const pane = document.querySelector('.tp-peers-pane'), right = pane.getBoundingClientRect().right;
  return [...pane.querySelectorAll('.tp-table th, .tp-table td')].flatMap(cell => {
    const box = cell.getBoundingClientRect();
    return box.right > right + 0.5 || cell.scrollWidth > cell.clientWidth + 1 ? [cell.textContent.slice(0, 40)] : [];
  });
}"""

PAGE_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


TAB_ROWS = """() => new Set([...document.querySelectorAll('.tp-tabs .lm-TabBar-tab')]
  .map(tab => Math.round(tab.getBoundingClientRect().top))).size"""

# The tab bar's width and what its titles need, for the message when they wrap.
TAB_WIDTHS = """() => ({bar: document.querySelector('.tp-tabs > .lm-TabBar').getBoundingClientRect().width,
  titles: [...document.querySelectorAll('.tp-tabs .lm-TabBar-tab')].map(t => Math.round(t.getBoundingClientRect().width)),
  editor: document.querySelector('.tp-editor').getBoundingClientRect().width})"""

# Where the parts of the app sit in the window, and what the page shows besides the playground.
APP_LAYOUT = """() => {
  const box = selector => { const e = document.querySelector(selector); if (!e) return null;
    const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const outputs = [...document.querySelectorAll('.jp-OutputArea-output')]
    .filter(o => !o.closest('.tp-playground') && !o.querySelector('.tp-playground') && o.innerText.trim());
  return {editor: box('.tp-editor textarea'), tabs: box('.tp-tabs'), playground: box('.tp-playground'),
          height: window.innerHeight, scrollsDown: document.documentElement.scrollHeight - window.innerHeight,
          otherOutputs: outputs.map(o => o.innerText.trim().slice(0, 80)),
          markdown: document.querySelectorAll('.jp-MarkdownOutput, .jp-RenderedMarkdown').length,
          editorFont: parseFloat(getComputedStyle(document.querySelector('.tp-editor textarea')).fontSize)};
}"""

# The icon on the Translate button, drawn with Voila's own copy of Font Awesome.
ICON_FONT = """async () => {
  await document.fonts.ready;
  const icon = document.querySelector('.tp-translate i');
  const family = icon ? getComputedStyle(icon).fontFamily : '';
  const faces = [...document.fonts].filter(f => /Font Awesome/i.test(f.family));
  return {family, loaded: faces.filter(f => f.status === 'loaded').map(f => f.family),
          width: icon ? icon.getBoundingClientRect().width : 0};
}"""


def offline(page) -> list[str]:
    """Refuse every request that would leave the machine, as an offline room would; returns
    the list the page's requests are recorded in (every URL, refused or not)."""
    requested: list[str] = []

    def route(route) -> None:
        url = route.request.url
        requested.append(url)
        host = urllib.parse.urlsplit(url).hostname
        if url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            route.continue_()
        else:
            route.abort("internetdisconnected")

    page.route("**/*", route)
    return requested


def check_app_view(page, url: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    def shot(name: str) -> None:
        path = ARTIFACTS / f"voila-{width}x{height}-{name}.png"
        page.screenshot(path=str(path))
        print(f"screenshot: {path.relative_to(ROOT)}")

    requested = offline(page)
    started = time.monotonic()
    page.goto(url)
    # The app view runs the notebook itself: the live widget appears with no Run All.
    playground = page.locator(".tp-playground")
    expect(playground).to_be_visible(timeout=120 * MS)
    assert not page.locator(".jp-NotebookPanel").count() and not page.locator("li.lm-Menu-item").count()
    status, translated, diagram = page.locator(".tp-error"), page.locator(".tp-translated"), page.locator(".tp-diagram")
    editor = page.locator(".tp-editor textarea")
    expect(status).to_contain_text("target chat_template: 5 message(s)")
    expect(translated).to_contain_text('"name": "read_file"')
    print(f"{width}x{height}: the app view was live after {time.monotonic() - started:.1f} s")

    # The playground alone, sized to the window: no chapter prose, no answers, nothing below it.
    layout = page.evaluate(APP_LAYOUT)
    assert layout["markdown"] == 0 and layout["otherOutputs"] == [], f"the app shows more than the playground: {layout}"
    expect(page.locator("body")).not_to_contain_text("not answered yet")
    expect(page.locator("body")).not_to_contain_text("show=True")
    assert layout["editor"]["top"] < 200 and layout["editor"]["bottom"] <= layout["height"], (
        f"the editor is not whole in a {width}x{height} window: {layout['editor']}")
    assert layout["tabs"]["bottom"] <= layout["height"] + 1, f"the tabs run past the window's bottom: {layout['tabs']}"
    assert layout["scrollsDown"] <= 8, f"the app scrolls down by {layout['scrollsDown']} px"
    assert layout["editorFont"] >= 12, f"the editor's text is {layout['editorFont']} px"
    assert page.evaluate(CUT_TAB_TITLES) == [], "tab titles cut at this width"
    assert page.evaluate(TAB_ROWS) == 1, f"the tab titles wrap to a second row: {page.evaluate(TAB_WIDTHS)}"
    assert page.evaluate(PAGE_OVERFLOW) <= 0, "the page scrolls sideways"
    icon = page.evaluate(ICON_FONT)
    assert icon["width"] > 0 and "Font Awesome" in icon["family"] and icon["loaded"], f"the button's icon is not drawn: {icon}"
    shot("start")

    tab(page, "diagram")
    expect(diagram.locator("svg")).to_be_visible(timeout=60 * MS)
    size = page.evaluate(DIAGRAM_SIZE)
    shot("diagram")
    assert size["texts"] > 10 and size["smallestText"] >= 10, f"diagram text too small to read: {size}"

    # An edit changes the result, in the visible tab, without pressing Translate.
    diagram_before = diagram.inner_html()
    editor.fill(editor.input_value().replace("read_file", "open_file"))
    page.wait_for_function(
        "before => document.querySelector('.tp-diagram').innerHTML !== before", arg=diagram_before, timeout=60 * MS
    )
    expect(diagram).to_contain_text("open_file", timeout=60 * MS)
    tab(page, "translated")
    expect(translated).to_contain_text('"name": "open_file"', timeout=30 * MS)
    expect(translated).not_to_contain_text("read_file")
    # Another body pasted: the picker stops naming the README example.
    expect(page.locator(".tp-preset select")).to_have_value(re.compile("^$"))
    expect(page.locator(".tp-preset-note")).to_contain_text("your own request (started from README example)")

    # The prompt: the request through a model family's chat template, with its token count.
    tab(page, "prompt")
    prompt = page.locator(".tp-prompt")
    expect(prompt).to_contain_text("open_file", timeout=120 * MS)
    shot("prompt")

    # A missing closing brace is said as such, with where the object began.
    tab(page, "translated")
    editor.fill(editor.input_value().rstrip().removesuffix("}"))
    expect(status).to_contain_text("the object that begins at line 1, column 1 is closed: its '}' is missing", timeout=30 * MS)
    shot("brace")
    editor.fill(editor.input_value() + "}")
    expect(status).to_contain_text("target chat_template: 5 message(s)", timeout=30 * MS)

    # The openai target says what it builds, not "for the chat template".
    page.locator(".tp-target button", has_text="openai").click()
    expect(status).to_contain_text("target openai", timeout=30 * MS)
    expect(translated).to_contain_text("OpenAI-compatible engine builds")
    expect(translated).not_to_contain_text("for the chat template")

    # A recorded peer case: every column of the verdict table is visible.
    if (ROOT / "tutorial" / "peers" / "data" / "outputs_requests.json").is_file():
        page.locator(".tp-preset select").select_option("peer: 04_image_base64_and_url")
        expect(status).to_contain_text("target openai", timeout=30 * MS)
        tab(page, "peers")
        peers = page.locator(".tp-peers-pane")
        expect(peers).to_contain_text("litellm", timeout=30 * MS)
        assert page.evaluate(HIDDEN_CELLS) == [], "peer table cells cut"
        shot("peers")
    assert page.evaluate(CUT_TAB_TITLES) == [] and page.evaluate(TAB_ROWS) == 1
    assert not page.locator(".tp-log .jp-OutputArea-output").count(), page.locator(".tp-log").inner_text()

    # Nothing was asked of any host but this machine.
    outside = sorted({u for u in requested if not u.startswith(("data:", "blob:"))
                      and urllib.parse.urlsplit(u).hostname not in LOCAL_HOSTS})
    assert outside == [], f"the app view asked hosts outside this machine: {outside}"
    print(f"{width}x{height}: {len(requested)} requests, all to this machine")


def test_the_app_view_is_the_playground_alone_readable_and_offline(voila):
    from playwright.sync_api import sync_playwright

    url, log = voila
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.set_default_timeout(60 * MS)
                try:
                    check_app_view(page, url, width, height)
                finally:
                    page.close()
        finally:
            browser.close()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "ZMQError" not in text, text[-3000:]


# Every stored diagram, as JupyterLab draws it ----------------------------------------------

CHAPTERS = [path.relative_to(ROOT / "notebooks").as_posix()
            for folder in (ROOT / "notebooks", ROOT / "notebooks" / "zh") for path in sorted(folder.glob("*.ipynb"))]
LAB_WINDOW = (1400, 1000)
MIN_TEXT_PX = 10

# "Notebook (no kernel)", as the file browser's Open With menu does it: nothing can run.
OPEN_WITHOUT_KERNEL = """async path => {
  const widget = await window.jupyterapp.commands.execute('docmanager:open',
    {path, factory: 'Notebook', kernelPreference: {shouldStart: false, shouldReuse: false}});
  await widget.context.ready;
  await widget.revealed;
  (window.tpOpened = window.tpOpened || {})[widget.id] = widget;
  return widget.id;
}"""

CLOSE = "id => { window.tpOpened[id].dispose(); delete window.tpOpened[id]; }"

CELL_COUNT = "id => document.getElementById(id).querySelectorAll('.jp-Notebook .jp-Cell').length"

# Down the notebook a screen at a time (a windowed notebook attaches cells as they come into
# view), waiting two frames at each step; then back to the top.
SCROLL_THROUGH = """async id => {
  const panel = document.getElementById(id);
  const scroller = panel.querySelector('.jp-WindowedPanel-outer') || panel.querySelector('.jp-Notebook');
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  let steps = 0;
  for (let top = 0; steps < 1000; top += Math.max(100, scroller.clientHeight * 0.8), steps++) {
    scroller.scrollTop = top;
    await frame();
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
  }
  scroller.scrollTop = 0;
  await frame();
  return {steps, mode: window.tpOpened[id].content.notebookConfig.windowingMode};
}"""

PICTURES = """const pictures = root => [...root.querySelectorAll(
  '.jp-OutputArea-output img[src^="data:image/svg+xml"], .jp-OutputArea-output svg')]
  .filter(e => !(e.tagName.toLowerCase() === 'svg' && e.parentElement.closest('svg')));"""

PICTURES_LOADED = f"""id => {{ {PICTURES}
  return pictures(document.getElementById(id)).every(e => e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0));
}}"""

# For each diagram in an output: its box against the output area's (and the notebook's), and
# its smallest text: computed font-size × the scale from the SVG's units to screen pixels.
# JupyterLab shows an image/svg+xml output as an <img> of the SVG, whose text the page cannot
# reach, so the same SVG is put, unseen, into the page at its own size and the result scaled
# by the <img>'s rendered width over its natural width.
MEASURE_DIAGRAMS = f"""async ({{id, expected}}) => {{ {PICTURES}
  const panel = document.getElementById(id);
  const scroller = panel.querySelector('.jp-WindowedPanel-outer') || panel.querySelector('.jp-Notebook');
  const cells = [...panel.querySelectorAll('.jp-Notebook .jp-Cell')];
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const host = document.createElement('div');
  host.style.cssText = 'position: fixed; left: 0; top: 0; visibility: hidden; pointer-events: none';
  document.body.appendChild(host);
  const textSizes = (svg, scale) => [...svg.querySelectorAll('text, tspan')]
    .filter(t => t.textContent.trim() && !(t.tagName.toLowerCase() === 'text' && t.querySelector('tspan')))
    .map(t => {{
      const m = t.getScreenCTM();
      return {{px: parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) * scale,
               text: t.textContent.trim().slice(0, 40)}};
    }})
    .sort((a, b) => a.px - b.px);
  const diagrams = [];
  try {{
    for (const [cell, node] of cells.entries()) {{
      for (const picture of pictures(node)) {{
        picture.scrollIntoView({{block: 'nearest'}});
        await frame();
        const output = picture.closest('.jp-OutputArea-output');
        const box = picture.getBoundingClientRect(), area = output.getBoundingClientRect();
        let texts;
        if (picture.tagName === 'IMG') {{
          const source = decodeURIComponent(picture.src.slice(picture.src.indexOf(',') + 1));
          const svg = document.importNode(new DOMParser().parseFromString(source, 'image/svg+xml').documentElement, true);
          host.replaceChildren(svg);
          texts = textSizes(svg, box.width / picture.naturalWidth);
        }} else {{
          texts = textSizes(picture, 1);
        }}
        diagrams.push({{
          cell, kind: picture.tagName.toLowerCase(), left: box.left, right: box.right, width: box.width,
          height: box.height, naturalWidth: picture.naturalWidth || null,
          areaLeft: area.left, areaRight: area.right, notebookRight: scroller.getBoundingClientRect().right,
          scrolls: output.scrollWidth > output.clientWidth + 1, texts: texts.length, smallest: texts[0] || null,
        }});
      }}
    }}
  }} finally {{
    host.remove();
  }}
  // What the cells that should hold a diagram show instead, if they do not.
  const shown = Object.fromEntries(expected.map(i => [i, cells[i] ?
    [...cells[i].querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText.trim().slice(0, 120)) : null]));
  return {{diagrams, shown}};
}}"""

FILE_BROWSER = """() => {
  const browser = document.getElementById('filebrowser');
  const box = browser && browser.getBoundingClientRect();
  return box && !browser.classList.contains('lm-mod-hidden') && box.width > 0 ? box.right : 0;
}"""


def lab_page(browser, base: str, token: str):
    """A page of JupyterLab at the learner's window size, once its commands and layout are restored."""
    width, height = LAB_WINDOW
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60 * MS)
    page.goto(f"{base}/lab?token={token}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')",
                           timeout=90 * MS)
    page.evaluate("() => window.jupyterapp.restored.then(() => true)")
    return page


def stored_diagrams(chapter: str) -> tuple[int, list[int]]:
    """The number of cells, and the index of the cell of each stored SVG output, in order."""
    cells = json.loads((ROOT / "notebooks" / chapter).read_text(encoding="utf-8"))["cells"]
    return len(cells), [index for index, cell in enumerate(cells) for output in cell.get("outputs", [])
                        if "image/svg+xml" in output.get("data", {})]


def diagram_problems(chapter: str, expected: list[int], measured: dict) -> list[str]:
    problems, diagrams = [], measured["diagrams"]
    found = [d["cell"] for d in diagrams]
    for cell in sorted(set(expected)):
        if found.count(cell) < expected.count(cell):
            problems.append(
                f"{chapter}: cell {cell} should show {expected.count(cell)} diagram(s) and shows {found.count(cell)}; "
                f"its outputs read {measured['shown'].get(str(cell))!r} (text instead of the picture: the notebook is "
                "not trusted; `python3 tasks.py setup` or `jupyter trust` marks it)"
            )
    for number, d in enumerate(diagrams, 1):
        name = f"{chapter}: diagram {number} of {len(diagrams)} (cell {d['cell']})"
        if d["left"] < d["areaLeft"] - 0.5 or d["right"] > min(d["areaRight"], d["notebookRight"]) + 0.5 or d["scrolls"]:
            problems.append(
                f"{name} is {d['width']:.0f} px wide and the output area {d['areaRight'] - d['areaLeft']:.0f} px: "
                f"it spans x={d['left']:.0f}..{d['right']:.0f}, the area x={d['areaLeft']:.0f}..{d['areaRight']:.0f}"
                f"{' and scrolls sideways' if d['scrolls'] else ''} (natural width {d['naturalWidth']} px)"
            )
        if not d["texts"]:
            problems.append(f"{name}: no text found in the diagram to measure")
        elif d["smallest"]["px"] < MIN_TEXT_PX:
            problems.append(
                f"{name}: its smallest text is {d['smallest']['px']:.1f} px high, under {MIN_TEXT_PX} px "
                f"({d['smallest']['text']!r}; drawn {d['width']:.0f} px wide, natural width {d['naturalWidth']} px)"
            )
    return problems


def test_every_diagram_of_every_chapter_fits_the_output_width_with_readable_text(lab):
    """Both editions, opened in JupyterLab at 1400×1000 with the file browser open and nothing
    run (no kernel): every stored diagram is inside its output area, whole, with no text under
    10 px. The first diagram of each chapter is saved to artifacts/lab-diagram-*.png, with the
    window around it in artifacts/lab-1400-*.png."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    started, problems, report = time.monotonic(), [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = lab_page(browser, base, token)
            width, height = LAB_WINDOW
            if not page.evaluate(FILE_BROWSER):
                page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
            page.wait_for_function(FILE_BROWSER)
            sidebar = page.evaluate(FILE_BROWSER)

            for chapter in CHAPTERS:
                cells, expected = stored_diagrams(chapter)
                panel = page.evaluate(OPEN_WITHOUT_KERNEL, chapter)
                try:
                    try:
                        page.wait_for_function(f"id => ({CELL_COUNT})(id) === {cells}", arg=panel, timeout=30 * MS)
                    except PlaywrightTimeout:
                        pytest.fail(f"{chapter}: {page.evaluate(CELL_COUNT, panel)} of its {cells} cells are in the page "
                                    "after 30 s (the settings should turn notebook windowing off)")
                    scrolled = page.evaluate(SCROLL_THROUGH, panel)
                    try:
                        page.wait_for_function(PICTURES_LOADED, arg=panel, timeout=30 * MS)
                    except PlaywrightTimeout:
                        pytest.fail(f"{chapter}: a diagram's image did not load within 30 s")
                    measured = page.evaluate(MEASURE_DIAGRAMS, {"id": panel, "expected": expected})
                    problems += diagram_problems(chapter, expected, measured)
                    report.append((chapter, measured["diagrams"]))
                    print(f"{chapter}: {cells} cells, scrolled in {scrolled['steps']} step(s), "
                          f"windowing mode {scrolled['mode']!r}, {len(measured['diagrams'])} diagram(s)")
                    if measured["diagrams"]:
                        cell = page.locator(f"[id='{panel}'] .jp-Notebook .jp-Cell").nth(measured["diagrams"][0]["cell"])
                        name = chapter.replace("/", "-").removesuffix(".ipynb")
                        name = name if name.startswith("zh-") else f"en-{name}"
                        output = cell.locator(".jp-Cell-outputWrapper")
                        output.evaluate("node => node.scrollIntoView({block: 'start'})")
                        page.screenshot(path=str(ARTIFACTS / f"lab-{width}-{name}.png"))
                        # The whole output, even when taller than the window: a taller window
                        # for the picture only (the measurements are taken).
                        tall = int(output.bounding_box()["height"]) + 300
                        if tall > height:
                            page.set_viewport_size({"width": width, "height": tall})
                        output.screenshot(path=str(ARTIFACTS / f"lab-diagram-{name}.png"))
                        page.set_viewport_size({"width": width, "height": height})
                finally:
                    page.evaluate(CLOSE, panel)
            sessions = api(base, token, "/api/sessions")
        finally:
            browser.close()

    for chapter, diagrams in report:
        for d in diagrams:
            print(f"{chapter} cell {d['cell']}: {d['width']:.0f} px in a {d['areaRight'] - d['areaLeft']:.0f} px output area, "
                  f"smallest text {d['smallest']['px'] if d['smallest'] else float('nan'):.1f} px")
    print(f"{len(CHAPTERS)} notebooks, {sum(len(d) for _, d in report)} diagrams, file browser to x={sidebar:.0f}, "
          f"{time.monotonic() - started:.1f} s")
    assert sessions == [], f"a kernel was started: {sessions}"
    assert not problems, (
        f"{len(problems)} problem(s) with the stored diagrams in JupyterLab at {width}×{height} with the file browser open:\n"
        + "\n".join(problems)
    )


# What the first screen under a question shows: the text of every cell part inside the window
# (innerText: what is rendered, so a closed <details> shows only its summary; a collapsed input
# shows its first line) and the pictures there.
IN_WINDOW = """id => {
  const panel = document.getElementById(id);
  const visible = node => { const box = node.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.width > 0 && box.height > 0; };
  const shown = selector => [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].flatMap(cell =>
    [...cell.querySelectorAll(selector)].filter(visible).map(node => node.innerText)).join('\\n');
  const pictures = [...panel.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output svg')].filter(visible).length;
  return {text: shown('.jp-MarkdownOutput, .jp-OutputArea-output'), code: shown('.jp-InputArea-editor, .jp-InputPlaceholder'), pictures};
}"""

SCROLL_TO_CELL = """async ({id, index}) => {
  const cell = document.getElementById(id).querySelectorAll('.jp-Notebook .jp-Cell')[index];
  cell.scrollIntoView({block: 'start'});
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return cell.getBoundingClientRect().top;
}"""


@pytest.mark.parametrize("chapter", ["02_messages_path.ipynb", "zh/02_messages_path.ipynb"])
def test_the_first_screen_under_question_2_1_shows_no_translated_message(lab, chapter):
    """Chapter 02 opened in JupyterLab at 1400×1000, nothing run, scrolled so that question
    2.1's heading is at the top: its prose and outputs name no translated message (no
    `translated[…]`, no chat message as JSON), nothing in the window (code included) holds an
    answer of the chapter's predictions, no picture is there, and the folded explanation shows
    only its summary. Screenshot: artifacts/lab-02-question-2.1-*.png."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from test_answers_in_view import compact, needles, predictions

    base, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    lang = "zh" if chapter.startswith("zh/") else "en"
    cells = json.loads((ROOT / "notebooks" / chapter).read_text(encoding="utf-8"))["cells"]
    asked = predictions({"cells": cells})
    heading = max(i for i in range(asked[0][0]) if cells[i]["cell_type"] == "markdown")  # the question's prose
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = lab_page(browser, base, token)
            panel = page.evaluate(OPEN_WITHOUT_KERNEL, chapter)
            page.wait_for_function(f"id => ({CELL_COUNT})(id) === {len(cells)}", arg=panel, timeout=30 * MS)
            page.evaluate(SCROLL_THROUGH, panel)
            page.evaluate(SCROLL_TO_CELL, {"id": panel, "index": heading})
            page.wait_for_timeout(500)
            shown = page.evaluate(IN_WINDOW, panel)
            page.screenshot(path=str(ARTIFACTS / f"lab-02-question-2.1-{lang}.png"))
            sessions = api(base, token, "/api/sessions")
        finally:
            browser.close()
    text, code = shown["text"], shown["code"]
    print(text, "\n--- code in the window:\n", code)
    assert "## 2.1" in "".join(cells[heading]["source"]) and ("2.1" in text), "the window is not at question 2.1"
    # Code may name `t.translated[0]` (it is what a reveal cell shows when run); prose and outputs may not.
    assert "translated[" not in text, "a translated message is named on the first screen under question 2.1"
    assert '"role":"' not in compact(text), "a chat message is shown as JSON"
    given = [(key, how, needle) for _, key in asked for how, needle in needles(key, lang)
             if compact(needle) in compact(text) or compact(needle) in compact(code)]
    assert not given, f"answers on the first screen under question 2.1: {given}"
    assert shown["pictures"] == 0, f"{shown['pictures']} picture(s) on the first screen under question 2.1"
    assert sessions == [], f"a kernel was started: {sessions}"
