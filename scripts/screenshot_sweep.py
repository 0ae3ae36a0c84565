#!/usr/bin/env python3
"""Open every prediction as a learner does and photograph the screen (run by hand, not in CI: slow).

    python scripts/screenshot_sweep.py                      every prediction, unrun and run, both editions and the class copy
    python scripts/screenshot_sweep.py --every 4            one prediction in four (a sample)
    python scripts/screenshot_sweep.py --states unrun       only the chapters as opened, nothing run
    python scripts/screenshot_sweep.py --copies en zh       only these copies (en, zh, class)
    python scripts/screenshot_sweep.py --chapters 02 09     only these chapters

JupyterLab (on a scratch copy of notebooks/ and a class copy written by scripts/workshop.py) in
headless Chromium (/usr/bin/chromium) at 1400×1000, as tests/test_browser.py drives it. For each
prediction (a cell tagged `exercise` calling `check("KEY", …)`) the chapter is scrolled so the
question's heading is at the top of the window, in two states: `unrun` (opened without a kernel)
and `run` (every cell above the prediction run, in order, on one kernel). Each screen is saved as
artifacts/sweep/<copy>-<state>-<chapter>-<key>.png and listed in artifacts/sweep/list.tsv with
what was in the window: whether the answer (test_answers_in_view.py's forms and giveaway words)
was on screen outside the prediction's own cell, and how many pictures were there below it.
The last line printed counts the predictions with the answer on screen before the check.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_browser as lab  # noqa: E402  (how the tests start JupyterLab and Chromium)
from test_answers_in_view import chapters, compact, language_of, needles, predictions  # noqa: E402

OUT = ROOT / "artifacts" / "sweep"
WINDOW = lab.LAB_WINDOW  # 1400×1000

OPEN_WITH_KERNEL = """async path => {
  const widget = await window.jupyterapp.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  await widget.context.ready;
  await widget.sessionContext.ready;
  await widget.revealed;
  (window.tpOpened = window.tpOpened || {})[widget.id] = widget;
  return widget.id;
}"""

# Run cells [from, to) one after another, as Shift+Enter does; resolves when the last is done.
RUN_CELLS = """async ({id, from, to}) => {
  const widget = window.tpOpened[id];
  for (let i = from; i < to; i++) {
    widget.content.activeCellIndex = i;
    await window.jupyterapp.commands.execute('notebook:run-cell');
  }
  return true;
}"""

# What the window shows, cell by cell, leaving out the prediction's own cells (its code prints
# the question's options); pictures counted only below the prediction.
SCREEN = """({id, own, below}) => {
  const panel = document.getElementById(id);
  const visible = node => { const box = node.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.width > 0 && box.height > 0; };
  const cells = [...panel.querySelectorAll('.jp-Notebook .jp-Cell')];
  let text = [], code = [], pictures = 0;
  cells.forEach((cell, index) => {
    if (own.includes(index)) return;
    cell.querySelectorAll('.jp-MarkdownOutput, .jp-OutputArea-output').forEach(n => { if (visible(n)) text.push(n.innerText); });
    cell.querySelectorAll('.jp-InputArea-editor, .jp-InputPlaceholder').forEach(n => { if (visible(n)) code.push(n.innerText); });
    if (index > below) pictures += [...cell.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output svg')]
      .filter(e => !(e.tagName.toLowerCase() === 'svg' && e.parentElement.closest('svg'))).filter(visible).length;
  });
  return {text: text.join('\\n'), code: code.join('\\n'), pictures};
}"""


def heading_above(cells: list, at: int) -> int:
    """The markdown cell that asks the prediction at `at` (the last one above it)."""
    return max(i for i in range(at) if cells[i]["cell_type"] == "markdown")


def own_cells(cells: list, at: int, key: str) -> list[int]:
    asks = [i for i, cell in enumerate(cells) if cell["cell_type"] == "code" and f'ask("{key}")' in "".join(cell["source"])]
    return [at, *asks]


def start_lab(root: Path, runtime: Path):
    token = uuid.uuid4().hex
    home = root.parent / "jupyter"
    lab.settings(home / "settings")
    env = {
        **lab.os.environ,
        "PYTHONPATH": str(ROOT),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(runtime),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
    }

    def command(port: int) -> list[str]:
        made = [sys.executable, "-m", "jupyter", "lab", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
                "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False",
                f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.expose_app_in_browser=True",
                *lab.KERNELS_OVER_IPC]
        if lab.os.geteuid() == 0:
            made.append("--allow-root")
        return made

    log = root.parent / "jupyterlab.log"
    server, port = lab.launch(command, root, env, log, lambda s, p: lab.wait_for_server(s, f"http://127.0.0.1:{p}", token, log))
    return server, f"http://127.0.0.1:{port}", token


def sweep(options) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="tp-sweep-"))
    runtime = Path(tempfile.mkdtemp(prefix="tp-"))
    root = scratch / "root"
    shutil.copytree(ROOT / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    if "class" in options.copies:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "workshop.py"), str(root / "class"), "--force"], check=True,
                       capture_output=True, env={**lab.os.environ, "JUPYTER_DATA_DIR": str(scratch / "jupyter-data")})
    copies = {"en": (root / "notebooks", False), "zh": (root / "notebooks", True), "class": (root / "class" / "notebooks", None)}
    OUT.mkdir(parents=True, exist_ok=True)
    rows, on_screen, shots = [], set(), 0
    server, base, token = start_lab(root, runtime)
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=lab.CHROMIUM, headless=True, args=lab.CHROMIUM_ARGS)
            page = lab.lab_page(browser, base, token)
            number = 0
            for copy in options.copies:
                folder, chinese = copies[copy]
                for path in chapters(folder):
                    if chinese is not None and (language_of(path) == "zh") != chinese:
                        continue
                    if options.chapters and not path.stem.startswith(tuple(options.chapters)):
                        continue
                    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
                    asked = predictions({"cells": cells})
                    chosen = []
                    for at, key in asked:
                        number += 1
                        if number % options.every == 0 or options.every == 1:
                            chosen.append((at, key))
                    if not chosen:
                        continue
                    relative = path.relative_to(root).as_posix()
                    for state in options.states:
                        opener = lab.OPEN_WITHOUT_KERNEL if state == "unrun" else OPEN_WITH_KERNEL
                        panel = page.evaluate(opener, relative)
                        page.wait_for_function(f"id => ({lab.CELL_COUNT})(id) === {len(cells)}", arg=panel, timeout=60 * lab.MS)
                        page.evaluate(lab.SCROLL_THROUGH, panel)
                        ran = 0
                        for at, key in chosen:
                            if state == "run":
                                page.evaluate(RUN_CELLS, {"id": panel, "from": ran, "to": at})
                                ran = at
                            heading = heading_above(cells, at)
                            page.evaluate(lab.SCROLL_TO_CELL, {"id": panel, "index": heading})
                            page.wait_for_timeout(400)
                            screen = page.evaluate(SCREEN, {"id": panel, "own": own_cells(cells, at, key), "below": at})
                            name = f"{copy}-{state}-{path.stem}-{key}.png"
                            page.screenshot(path=str(OUT / name))
                            shots += 1
                            lang = language_of(path) if copy != "class" else ("zh" if "zh" in path.parts else "en")
                            seen_text, seen_code = compact(screen["text"]), compact(screen["code"])
                            try:
                                forms = needles(key, lang)
                            except Exception as error:  # the package itself is broken: say so, photograph on
                                forms = []
                                rows.append([copy, state, relative, key, "-", f"answer not computed: {error!r}"[:200], "-"])
                            found = [needle for _, needle in forms if compact(needle) in seen_text or compact(needle) in seen_code]
                            if found:
                                on_screen.add((copy, state, relative, key))
                            rows.append([copy, state, relative, key, name, "answer on screen: " + "; ".join(found)[:200] if found else "-",
                                         str(screen["pictures"])])
                            print(f"{name}: {'ANSWER ON SCREEN ' + repr(found[:2]) if found else 'ok'}; pictures below: {screen['pictures']}",
                                  flush=True)
                        page.evaluate(lab.CLOSE, panel)
                        for session in lab.api(base, token, "/api/sessions") or []:
                            lab.api(base, token, f"/api/sessions/{session['id']}", method="DELETE")
            browser.close()
    finally:
        lab.stop(server, base, token)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    (OUT / "list.tsv").write_text("copy\tstate\tchapter\tprediction\tscreenshot\tanswer\tpictures below the check\n"
                                  + "".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    print(f"{shots} screenshots in {OUT}; predictions with the answer on screen before the check: {len(on_screen)} of {len(rows)}")
    return 0


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="photograph one prediction in N")
    parser.add_argument("--states", nargs="+", default=["unrun", "run"], choices=["unrun", "run"])
    parser.add_argument("--copies", nargs="+", default=["en", "zh", "class"], choices=["en", "zh", "class"])
    parser.add_argument("--chapters", nargs="*", default=[])
    return sweep(parser.parse_args(arguments))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
