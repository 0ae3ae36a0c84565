"""The class hub, end to end: `python3 tasks.py hub`, three learners through the join link (one
in headless Chromium), chapter 02's exercises answered right and wrong, the instructor's page,
learners kept apart, edits kept across a second pull, and nothing left running after SIGTERM.

The hub is real (JupyterHub, configurable-http-proxy, bubblewrap sandboxes, nbgitpuller, the
progress service); the learners talk to it as browsers do (benchmarks/hub_load.py). Without
bubblewrap, npm or Chromium the test skips locally and fails under CI.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from tutorial.llama_cpp.engine import free_port  # the project's one free_port

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

CHAPTER = "02"


def unavailable(reason: str) -> None:
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"the hub test cannot run under CI: {reason}")
    pytest.skip(reason)


def processes_of(root_pid: int, marker: str) -> list:
    """The hub's processes: the tree under `root_pid`, and anything whose command line names
    the hub's state folder (servers and kernels run in their own sessions)."""
    import psutil

    found = {}
    try:
        for process in [psutil.Process(root_pid), *psutil.Process(root_pid).children(recursive=True)]:
            found[process.pid] = process
    except psutil.NoSuchProcess:
        pass
    for process in psutil.process_iter(["cmdline"]):
        if marker in " ".join(process.info["cmdline"] or []):
            found[process.pid] = process
    return [p for p in found.values() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    for program, package in (("bwrap", "bubblewrap"), ("npm", "npm"), ("git", "git")):
        if not shutil.which(program):
            unavailable(f"`{program}` is not installed (Debian: apt-get install {package})")
    import hub_load

    state = tmp_path_factory.mktemp("hub") / "state"
    running = hub_load.start_hub([sys.executable, str(ROOT / "tasks.py"), "hub"], free_port(), state,
                                 ["--log-level", "INFO"])
    running.state = state
    yield running
    if running.process.poll() is None:
        running.process.send_signal(signal.SIGTERM)
        running.process.wait(60)


@pytest.fixture(scope="module")
def classroom(hub):
    """ana answers wrong then right, ben only wrong (stuck), chen joins in Chromium, then answers
    right at once; all at the same time."""
    import hub_load

    if not Path(hub_load.CHROMIUM).exists():
        unavailable(f"{hub_load.CHROMIUM} is missing (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    ana, ben, chen = (hub_load.Learner(hub, name) for name in ("ana", "ben", "chen"))
    work, failures = {}, []

    def learn(learner, attempts):
        try:
            learner.log_in()
            started = time.monotonic()
            learner.join()
            work[learner.name] = hub_load.work_through(learner, [CHAPTER], attempts, started=started)
        except Exception as problem:  # noqa: BLE001 - reported below, with the learner's name
            failures.append(f"{learner.name}: {problem!r}")

    threads = [threading.Thread(target=learn, args=(ana, ("wrong", "right"))),
               threading.Thread(target=learn, args=(ben, ("wrong",)))]
    for thread in threads:
        thread.start()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=hub_load.CHROMIUM, headless=True,
                                             args=hub_load.CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            page = context.new_page()
            seconds = hub_load.browser_join(page, hub, "chen")
            assert seconds < 180
            hub_load.browser_session(chen, context)
            work["chen"] = hub_load.work_through(chen, [CHAPTER], ("right",))
            teacher = browser.new_context().new_page()
            hub_load.browser_log_in(teacher, hub, hub_load.INSTRUCTOR)
            for thread in threads:
                thread.join(240)
            teacher.goto(hub.instructor)
            page_text = teacher.inner_text("body")
        finally:
            browser.close()
    assert not failures, failures
    return {"work": work, "learners": {"ana": ana, "ben": ben, "chen": chen}, "page_text": page_text}


def summary(hub) -> dict:
    import hub_load

    teacher = hub_load.Learner(hub, hub_load.INSTRUCTOR)
    teacher.log_in()
    answer = teacher.session.get(hub.instructor.split("?")[0] + "api/summary")
    answer.raise_for_status()
    return answer.json()


def test_three_learners_and_the_instructors_page(hub, classroom):
    work = classroom["work"]
    for name, done in work.items():
        assert not done.failed, done.failed
        assert done.cells > 20 and done.verdicts, name
    data = summary(hub)
    assert data["learners"] == ["ana", "ben", "chen"]
    exercises = sorted(work["ana"].verdicts)
    assert data["exercises"] == exercises
    for key in exercises:
        assert data["grid"]["ana"][key] == {"verdict": "right", "attempts": 2, "last": data["grid"]["ana"][key]["last"]}
        assert data["grid"]["ben"][key]["verdict"] == "wrong"
        assert data["grid"]["chen"][key]["verdict"] == "right" and data["grid"]["chen"][key]["attempts"] == 1
    # every exercise: ben is stuck on it; ana and ben each got it wrong once
    assert {f["exercise"]: (f["learners_stuck"], f["wrong_attempts"]) for f in data["most_failed"]} == {
        key: (1, 2) for key in exercises}
    named = [m for m in data["mistakes"] if m["exercise"] == f"{CHAPTER}.system_message"]
    assert named and named[0]["count"] == 2 and named[0]["mistake"].startswith("mistake 1: ")
    assert data["not_started"] == []
    assert data["events"] == sum(len(v) for w in work.values() for v in w.verdicts.values())
    # the page the instructor sees in the browser
    text = classroom["page_text"]
    assert "3 learners" in text and "✓ (2)" in text and "✗ (1)" in text and "✓ (1)" in text
    assert named[0]["mistake"][:40] in text


def test_no_answer_text_is_stored(hub, classroom):
    import sqlite3

    with sqlite3.connect(hub.state / "progress.sqlite") as database:
        stored = database.execute("select count(*), count(answer) from events").fetchone()
    assert stored[0] > 0 and stored[1] == 0


def test_learners_are_kept_apart(hub, classroom):
    ana, ben = classroom["learners"]["ana"], classroom["learners"]["ben"]
    homes = hub.state / "homes"
    ben_kernel = ben.kernel()
    try:
        kernel = ana.kernel()
        try:
            probe = (
                "import os, json\n"
                f"homes = sorted(os.listdir({str(homes)!r}))\n"
                f"try:\n    open({str(homes / 'ben' / 'tutorial' / 'notebooks' / '02_messages_path.ipynb')!r}).read(); seen = True\n"
                "except OSError:\n    seen = False\n"
                f"hub_files = [n for n in ('jupyterhub.sqlite', 'progress.sqlite', 'jupyterhub_cookie_secret', 'settings.json') "
                f"if os.path.exists(os.path.join({str(hub.state)!r}, n))]\n"
                f"kernel_files = [n for n in os.listdir({str(homes / 'ben')!r})] if os.path.isdir({str(homes / 'ben')!r}) else []\n"
                "commands = [open(f'/proc/{p}/cmdline').read() for p in os.listdir('/proc') if p.isdigit()]\n"
                f"others = [c for c in commands if 'ben' in c or {ben_kernel.id!r} in c]\n"
                "try:\n    block = bytearray(4 * 2**30); limited = False; del block\n"
                "except MemoryError:\n    limited = True\n"
                "print(json.dumps({'limited': limited, 'homes': homes, 'seen': seen, 'hub_files': hub_files, 'kernel_files': kernel_files, "
                "'others': others, 'tokens': os.environ.get('JUPYTERHUB_USER')}))"
            )
            ok, text, _ = kernel.run(probe)
            assert ok, text
            seen = json.loads(text.strip().splitlines()[-1])
            assert seen == {"limited": True, "homes": ["ana"], "seen": False, "hub_files": [], "kernel_files": [], "others": [],
                            "tokens": "ana"}
        finally:
            kernel.close()
        # over HTTP: ana's log-in opens neither ben's files nor ben's kernel
        answer = ana.session.get(f"{ben.server}/api/contents/tutorial/notebooks", allow_redirects=False)
        assert answer.status_code in (302, 403), answer.status_code
        if answer.status_code == 302:  # the hub's answer: an OAuth round that ends refused
            assert ana.session.get(f"{ben.server}/api/contents/tutorial/notebooks").status_code == 403
        import websocket

        cookies = "; ".join(f"{c.name}={c.value}" for c in ana.session.cookies)
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            websocket.create_connection(f"ws://{hub.url.split('://')[1]}/user/ben/api/kernels/{ben_kernel.id}/channels",
                                        header=[f"Cookie: {cookies}"], origin=hub.url, timeout=30)
        assert refused.value.status_code in (302, 403)
    finally:
        ben_kernel.close()


def test_the_learners_copy_shows_its_diagrams(hub, classroom):
    """The class copy is signed for each learner's server: JupyterLab trusts its stored outputs
    (the contents API marks each code cell trusted or not), so the diagrams show."""
    chapter = classroom["learners"]["ben"].notebook("tutorial/notebooks/00_index.ipynb")
    shown = [c for c in chapter["cells"] if c["cell_type"] == "code" and c.get("outputs")]
    assert shown and all(c["metadata"].get("trusted") for c in shown)


def test_a_second_pull_keeps_the_learners_edits(hub, classroom):
    """ana edits a chapter; the class copy gains a file; the join link again: both are there."""
    ana = classroom["learners"]["ana"]
    path = f"tutorial/notebooks/{CHAPTER}_messages_path.ipynb"
    model = ana.api("GET", f"contents/{path}")
    cell = next(c for c in model["content"]["cells"] if c["cell_type"] == "code" and "my_guess = ..." in c["source"])
    cell["source"] = cell["source"].replace("my_guess = ...", "my_guess = 'ana was here'")
    ana.api("PUT", f"contents/{path}", json={"type": "notebook", "format": "json", "content": model["content"]})
    scratch = hub.state.parent / "teacher-clone"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "clone", "--quiet", str(hub.state / "class.git"), str(scratch)], check=True)
    (scratch / "NOTES.md").write_text("A note the instructor added during the class.\n", encoding="utf-8")
    subprocess.run([*git, "add", "NOTES.md"], cwd=scratch, check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "a note"], cwd=scratch, check=True)
    subprocess.run([*git, "push", "--quiet", "origin", "HEAD:main"], cwd=scratch, check=True)
    ana.join()
    again = ana.api("GET", f"contents/{path}")["content"]
    assert any("my_guess = 'ana was here'" in c["source"] for c in again["cells"])
    assert ana.api("GET", "contents/tutorial/NOTES.md")["content"].startswith("A note the instructor added")


def test_sigterm_stops_everything(hub, classroom):
    marker = str(hub.state)
    before = processes_of(hub.process.pid, marker)
    assert len(before) >= 5  # tasks.py, run.py, JupyterHub, the proxy, services, servers, kernels
    hub.process.send_signal(signal.SIGTERM)
    assert hub.process.wait(90) in (0, 128 + signal.SIGTERM)
    deadline = time.monotonic() + 15
    while (left := [p for p in before if p.is_running() and p.status() != "zombie"]) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not left, [" ".join(p.cmdline()) for p in left]
    assert not processes_of(hub.process.pid, marker)


# --- the kernel side, without a hub --------------------------------------------------------


class Collector(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Collector.received.append((self.headers["Authorization"], json.loads(body)))
        self.send_response(201)
        self.end_headers()

    def log_message(self, *args):
        pass


def run_check(env: dict) -> subprocess.CompletedProcess:
    code = ("from tutorial.notebook.exercises import check\n"
            "from tutorial.notebook.exercises import get\n"
            "wrong_letter = next(x for x in 'abcd' if x != get('02.why_dict').expected())\n"
            "print(check('02.count', 3)); print(check('02.why_dict', wrong_letter)); print(check('02.count', ...))\n"
            "import threading; print(sorted(t.name for t in threading.enumerate()))\n")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_outside_a_hub_check_sends_nothing():
    server = HTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        Collector.received = []
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "TUTORIAL_PROGRESS"))}
        url = f"http://127.0.0.1:{server.server_port}/events"
        alone = run_check({**clean, "TUTORIAL_PROGRESS_URL": url})  # a URL but no hub: still nothing
        assert alone.returncode == 0, alone.stderr
        assert "tutorial-progress" not in alone.stdout and Collector.received == []
        on_hub = run_check({**clean, "TUTORIAL_PROGRESS_URL": url, "JUPYTERHUB_API_TOKEN": "t0ken",
                            "JUPYTERHUB_USER": "ana"})
        assert on_hub.returncode == 0, on_hub.stderr
        events = [event for _, event in Collector.received]
        assert {auth for auth, _ in Collector.received} == {"token t0ken"}
        assert [(e["exercise"], e["verdict"]) for e in events] == [("02.count", "wrong"), ("02.why_dict", "wrong")]
        assert events[0]["mistake"].startswith("mistake ") and events[1]["mistake"].startswith("chose (")
        assert all("answer" not in e for e in events)
    finally:
        server.shutdown()


def test_the_summary_counts():
    sys.path.insert(0, str(ROOT / "hub"))
    from service import checked, summary as summarize

    events = [{"learner": "a", "exercise": "01.x", "verdict": "wrong", "mistake": "m1", "at": 1},
              {"learner": "a", "exercise": "01.x", "verdict": "right", "mistake": None, "at": 2},
              {"learner": "b", "exercise": "01.x", "verdict": "wrong", "mistake": "m1", "at": 3}]
    data = summarize(events, ["a", "b", "c"])
    assert data["not_started"] == ["c"]
    assert data["most_failed"] == [{"exercise": "01.x", "learners_stuck": 1, "wrong_attempts": 2}]
    assert data["mistakes"] == [{"exercise": "01.x", "mistake": "m1", "count": 2}]
    with pytest.raises(ValueError, match="^verdict: "):
        checked({"id": "1", "exercise": "01.x", "verdict": "maybe", "at": 1})
    with pytest.raises(ValueError, match="^at: "):
        checked({"id": "1", "exercise": "01.x", "verdict": "right", "at": "now"})


def test_the_kubernetes_config_matches_the_hub():
    """hub/z2jh/config.yaml parses, runs the same service and authenticator, and its image
    (binder/) brings nbgitpuller at the version constraints.txt pins."""
    import yaml

    config = yaml.safe_load((ROOT / "hub" / "z2jh" / "config.yaml").read_text(encoding="utf-8"))
    assert config["hub"]["config"]["JupyterHub"]["authenticator_class"] == "auth.ClassAuthenticator"
    assert "/srv/class-hub/service.py" in config["hub"]["services"]["progress"]["command"]
    url = config["singleuser"]["extraEnv"]["TUTORIAL_PROGRESS_URL"]
    assert url.endswith("/services/progress/api/events") and ":10101/" in url
    assert config["singleuser"]["memory"] == {"guarantee": "384M", "limit": "1G"}
    pins = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
                if "==" in line and not line.startswith("#"))
    assert f"nbgitpuller=={pins['nbgitpuller']}" in (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")


def test_the_page_in_both_languages():
    sys.path.insert(0, str(ROOT / "hub"))
    from service import page, summary as summarize

    data = summarize([{"learner": "a", "exercise": "01.x", "verdict": "wrong", "mistake": "<m1>", "at": 1}], ["a", "b"])
    english, chinese = page(data, "en"), page(data, "zh")
    assert "2 learners" in english and "Not started yet" in english and "&lt;m1&gt;" in english
    assert "2 名学员" in chinese and "还没开始的学员" in chinese and "Not started" not in chinese
