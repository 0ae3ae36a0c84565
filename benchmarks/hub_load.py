#!/usr/bin/env python3
"""The class hub under load: N learners join through the link and work through chapters.

    python benchmarks/hub_load.py [--learners 10] [--browsers 2] [--chapters 01 02 03 04 05]

Starts `tasks.py hub` (hub/run.py) on a free port, then N simulated learners at once, each as a
browser does it: open the join link, which sends them to the hub's log-in form, where their first
log-in claims their name with a password of their own (the link's class code admits new names);
JupyterHub spawns the learner's server and nbgitpuller's API pulls the class copy; read each
chapter from the server's contents API, start a kernel over REST and run every code cell over
the kernel's websocket, answering each exercise wrong first (every other learner) and then
right. `--browsers B` of the N learners are real headless Chromium pages instead (playwright,
/usr/bin/chromium): they log in and open the join link, and JupyterLab must show chapter 00.

Reported: time from opening the link to the first executed cell (p50/p95), memory per learner
(server + kernel, unique set size), cell latency p95, failed cells (target 0), progress events
lost (verdicts given in kernels minus events on the instructor's page; target 0), and the CPU
the hub's own processes (JupyterHub, proxy, services) used per second of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tutorial.llama_cpp.engine import free_port  # noqa: E402 - the project's one free_port
INSTRUCTOR = "teacher"


def password_of(name: str) -> str:
    """The password each invented learner chooses at their first log-in."""
    return f"{name}-own-password"
EXERCISE = re.compile(r"^my_guess = \.\.\..*$", re.MULTILINE)


@dataclass
class Hub:
    """A running `tasks.py hub` (or hub/run.py): its process and the three addresses it printed."""

    process: subprocess.Popen
    url: str
    join: str
    instructor: str
    instructor_password: str
    lines: list[str] = field(default_factory=list)

    def stop(self, seconds: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(seconds)


PRINTED = ("hub", "join", "instructor", "instructor password")


def start_hub(command: list[str], port: int, state: Path, extra: list[str] = (), seconds: float = 240,
              cwd: Path = ROOT, **popen) -> Hub:
    """Start the hub and wait for its `hub:`, `join:`, `instructor:` and `instructor password:` lines."""
    process = subprocess.Popen([*command, "--port", str(port), "--instructor", INSTRUCTOR, "--state", str(state),
                                *extra], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True, **popen)
    lines, found = [], {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(found) < len(PRINTED):
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("the hub stopped before it was up:\n" + "".join(lines))
        lines.append(line)
        for name in PRINTED:
            if line.startswith(f"{name}: "):
                found[name] = line.split(": ", 1)[1].split()[0]
    if len(found) < len(PRINTED):
        process.kill()
        raise RuntimeError("the hub did not print its addresses in time:\n" + "".join(lines))
    threading.Thread(target=lambda: [lines.append(x) for x in process.stdout], daemon=True).start()
    return Hub(process, found["hub"].rstrip("/"), found["join"], found["instructor"], found["instructor password"],
               lines)


class Learner:
    """One learner, as a browser talks to the hub: cookies, XSRF tokens, REST and a websocket."""

    def __init__(self, hub: Hub, name: str):
        import requests

        self.hub, self.name = hub, name
        self.session = requests.Session()
        self.server = f"{hub.url}/user/{name}"

    def log_in(self, password: str | None = None, via: str | None = None) -> bool:
        """The hub's log-in form, as a browser that came from `via` (default: the join link for a
        learner, the instructor's page for the instructor) posts it; True when let in."""
        if password is None:
            password = self.hub.instructor_password if self.name == INSTRUCTOR else password_of(self.name)
        if via is None:
            via = self.hub.instructor if self.name == INSTRUCTOR else self.hub.join
        after = urlparse(via)
        login = f"{self.hub.url}/hub/login?" + urlencode({"next": after.path + (f"?{after.query}" if after.query else "")})
        self.session.get(login).raise_for_status()
        answer = self.session.post(login, data={
            "username": self.name, "password": password, "_xsrf": self.session.cookies.get("_xsrf", path="/hub/")},
            allow_redirects=False)
        if answer.status_code != 302:
            return False
        return any(c.name.startswith("jupyterhub-hub-login") for c in self.session.cookies)

    def join(self, link: str | None = None, seconds: float = 180) -> None:
        """Open the join link: wait for the server the hub spawns, then pull as nbgitpuller's page does."""
        link = link or self.hub.join
        deadline = time.monotonic() + seconds
        while True:
            answer = self.session.get(link)
            answer.raise_for_status()
            if "/git-pull" in urlparse(answer.url).path and "/hub/" not in urlparse(answer.url).path:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: the server did not start ({answer.url})")
            with self.session.get(f"{self.hub.url}/hub/api/users/{self.name}/server/progress",
                                  headers=self._xsrf("/hub/"), stream=True, timeout=seconds) as progress:
                for raw in progress.iter_lines(decode_unicode=True):
                    if raw and raw.startswith("data:") and json.loads(raw[5:]).get("failed"):
                        raise RuntimeError(f"{self.name}: the server failed to start: {raw[5:]}")
        query = urlparse(answer.url).query
        with self.session.get(f"{self.server}/git-pull/api?{query}", stream=True, timeout=seconds) as events:
            for raw in events.iter_lines(decode_unicode=True):
                if raw and raw.startswith("data:"):
                    event = json.loads(raw[5:])
                    if event.get("phase") == "error":
                        raise RuntimeError(f"{self.name}: nbgitpuller: {event.get('message') or event}")
                    if event.get("phase") == "finished":
                        return
        raise RuntimeError(f"{self.name}: nbgitpuller's pull did not finish")

    def _xsrf(self, path: str) -> dict:
        token = self.session.cookies.get("_xsrf", path=path) or self.session.cookies.get("_xsrf")
        return {"X-XSRFToken": token} if token else {}

    def api(self, method: str, path: str, **options):
        if not self.session.cookies.get("_xsrf", path=f"/user/{self.name}/"):
            self.session.get(f"{self.server}/lab")  # the server sets its own XSRF cookie
        answer = self.session.request(method, f"{self.server}/api/{path}", headers=self._xsrf(f"/user/{self.name}/"),
                                      **options)
        answer.raise_for_status()
        return answer.json() if answer.content else None

    def notebook(self, path: str) -> dict:
        return self.api("GET", f"contents/{path}")["content"]

    def kernel(self) -> "Kernel":
        return Kernel(self, self.api("POST", "kernels", json={"name": "python3"})["id"])


class Kernel:
    """A kernel of a learner's server, driven over its websocket as JupyterLab does."""

    def __init__(self, learner: Learner, kernel_id: str):
        self.learner, self.id, self.session = learner, kernel_id, uuid.uuid4().hex
        self.reconnects = 0
        self.socket = self.connect()

    def connect(self):
        """The kernel's websocket, with a session id: after a lost connection the server
        replays what it buffered for this session, as JupyterLab relies on when it reconnects."""
        import websocket

        learner, hub = self.learner, urlparse(self.learner.hub.url)
        cookies = "; ".join(f"{c.name}={c.value}" for c in learner.session.cookies)
        return websocket.create_connection(
            f"ws://{hub.netloc}/user/{learner.name}/api/kernels/{self.id}/channels?session_id={self.session}",
            header=[f"Cookie: {cookies}", *[f"{k}: {v}" for k, v in learner._xsrf(f'/user/{learner.name}/').items()]],
            origin=f"http://{hub.netloc}", timeout=300)

    def send(self, text: str) -> None:
        import websocket

        try:
            self.socket.send(text)
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            self.reconnects += 1
            self.socket = self.connect()
            self.socket.send(text)

    def receive(self) -> dict:
        import websocket

        for attempt in range(3):
            try:
                return json.loads(self.socket.recv())
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                self.reconnects += 1
                time.sleep(1 + attempt)
                self.socket = self.connect()
        return json.loads(self.socket.recv())

    def run(self, code: str) -> tuple[bool, str, float]:
        """Execute `code`; (no error, text output, seconds)."""
        message_id = uuid.uuid4().hex
        self.send(json.dumps({
            "header": {"msg_id": message_id, "msg_type": "execute_request", "username": self.learner.name,
                       "session": self.session, "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        started, text, ok, replied, idle = time.monotonic(), [], True, False, False
        while not (replied and idle):  # the reply and the last output travel on different channels
            message = self.receive()
            if message.get("parent_header", {}).get("msg_id") != message_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                text.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                text.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                ok = False
                text.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                ok, replied = ok and content["status"] == "ok", True
        return ok, "".join(text), time.monotonic() - started

    def close(self) -> None:
        self.socket.close()


def answers(key: str) -> tuple[str, str]:
    """Python source of a wrong and of the right answer to exercise `key`."""
    from tutorial.notebook.exercises import get, python_literal

    exercise = get(key)
    right = exercise.expected()
    if exercise.choices:
        wrong = next(letter for letter in sorted(exercise.choices) if letter != right)
    else:
        wrong = exercise.wrong if exercise.wrong is not None else "not the answer"
    return python_literal(wrong), python_literal(right)


def exercise_cells(source: str) -> tuple[str, str] | None:
    """(key, source with the answer left as {answer}) for an exercise cell, else None."""
    found = re.search(r'check\("([0-9a-z_.]+)", my_guess\)', source)
    if not found or not EXERCISE.search(source):
        return None
    return found.group(1), EXERCISE.sub("my_guess = {answer}", source.replace("{", "{{").replace("}", "}}"))


@dataclass
class Work:
    cells: int = 0
    failed: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    verdicts: dict[str, list[str]] = field(default_factory=dict)  # exercise -> ["wrong", "right"]
    first_cell: float = 0.0  # seconds from opening the link to the first executed cell
    reconnects: int = 0  # kernel websockets lost and opened again (JupyterLab does the same)


def work_through(learner: Learner, chapters: list[str], attempts: tuple[str, ...] = ("wrong", "right"),
                 lang: str = "", started: float | None = None) -> Work:
    """Every code cell of each chapter, in order, in one kernel per chapter; each exercise
    answered as `attempts` says: ("wrong", "right"), ("right",), ("wrong",) (stuck). `started`:
    when the learner opened the link (time.monotonic()), for Work.first_cell."""
    work = Work()
    folder = "tutorial/notebooks/" + (f"{lang}/" if lang else "")
    listing = {item["name"]: item["path"] for item in learner.api("GET", f"contents/{folder}")["content"]}
    for chapter in chapters:
        name = next(n for n in sorted(listing) if n.startswith(f"{chapter}_") and n.endswith(".ipynb"))
        notebook = learner.notebook(listing[name])
        kernel = learner.kernel()
        try:
            kernel.run(f"import os; os.chdir({os.path.dirname(listing[name])!r})")
            for cell in notebook["cells"]:
                if cell["cell_type"] != "code" or not cell["source"].strip():
                    continue
                found = exercise_cells(cell["source"])
                tries = [cell["source"]]
                if found:
                    key, template = found
                    wrong, right = answers(key)
                    given = {"wrong": wrong, "right": right}
                    tries = [template.format(answer=given[a]) for a in attempts]
                    work.verdicts[key] = list(attempts)
                for code in tries:
                    ok, text, seconds = kernel.run(code)
                    if started is not None and not work.first_cell:
                        work.first_cell = time.monotonic() - started
                    work.cells += 1
                    work.latencies.append(seconds)
                    if not ok:
                        work.failed.append(f"{learner.name} {name}: {text[-300:]}")
                    if found and "✓" not in text and "✗" not in text:
                        work.failed.append(f"{learner.name} {name} {found[0]}: no verdict shown ({text[-200:]})")
            kernel.run("from tutorial.notebook import progress; progress.flush()")
        finally:
            work.reconnects += kernel.reconnects
            kernel.close()
            learner.api("DELETE", f"kernels/{kernel.id}")
    return work


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def browser_log_in(page, hub: Hub, name: str, password: str | None = None, seconds: float = 60,
                   link: str | None = None) -> None:
    """Open `link` (the join link for a learner, the instructor's page for the instructor) and
    fill the hub's log-in form it leads to, as a person does."""
    if password is None:
        password = hub.instructor_password if name == INSTRUCTOR else password_of(name)
    page.goto(link or (hub.instructor if name == INSTRUCTOR else hub.join), timeout=seconds * 1000)
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    page.click("#login_submit")
    page.wait_for_load_state("load", timeout=seconds * 1000)


def browser_join(page, hub: Hub, name: str, link: str | None = None, seconds: float = 180) -> float:
    """Open the join link, log in on the form it leads to, and wait until JupyterLab shows
    chapter 00; the seconds from opening the link to the chapter on screen (typing included)."""
    started = time.monotonic()
    browser_log_in(page, hub, name, link=link, seconds=seconds)
    page.wait_for_selector(".lm-TabBar-tab:has-text('00_index.ipynb')", timeout=seconds * 1000)
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=seconds * 1000)
    return time.monotonic() - started


def browser_session(learner: Learner, context) -> None:
    """Give a REST learner the browser's cookies, so both act as one person."""
    for cookie in context.cookies():
        learner.session.cookies.set(cookie["name"], cookie["value"], path=cookie["path"])


# --- the benchmark ------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Sampler(threading.Thread):
    """Every few seconds: each learner's memory (server + kernels, unique set size, summed over
    the processes inside the learner's sandbox) and the CPU of the hub's own processes."""

    def __init__(self, hub: Hub, homes: Path, every: float = 2.0):
        super().__init__(daemon=True)
        self.hub, self.homes, self.every = hub, str(homes), every
        self.peak: dict[str, int] = {}
        self.hub_cpu: dict[int, float] = {}
        self.learner_cpu: dict[int, float] = {}  # every process in a sandbox, last seen (kernels that end
        # between two samples lose up to `every` seconds: a lower bound)
        self.running = True

    def run(self) -> None:
        import psutil

        top = psutil.Process(self.hub.process.pid)
        while self.running:
            try:
                for process in [top, *top.children(recursive=True)]:
                    try:
                        command = process.cmdline()
                        if command and command[0].endswith("bwrap"):
                            name = next(Path(command[i + 1]).name for i, part in enumerate(command)
                                        if part == "--bind" and command[i + 1].startswith(self.homes))
                            inside = [process, *process.children(recursive=True)]
                            used = sum(p.memory_full_info().uss for p in inside if p.is_running())
                            self.peak[name] = max(self.peak.get(name, 0), used)
                            for member in inside:
                                times = member.cpu_times()
                                self.learner_cpu[member.pid] = times.user + times.system
                        elif not any(self.homes in part for part in command):
                            if not any(p.cmdline()[:1] and p.cmdline()[0].endswith("bwrap") for p in process.parents()):
                                times = process.cpu_times()
                                self.hub_cpu[process.pid] = times.user + times.system
                    except (psutil.NoSuchProcess, psutil.AccessDenied, StopIteration):
                        continue
            except psutil.NoSuchProcess:
                return
            time.sleep(self.every)


def benchmark(learners: int, browsers: int, chapters: list[str], state: Path) -> dict:
    import psutil  # noqa: F401 - fail early when it is missing

    port = free_port()
    hub = start_hub([sys.executable, str(ROOT / "hub" / "run.py")], port, state)
    sampler = Sampler(hub, state / "homes")
    sampler.start()
    started_run = time.monotonic()
    names = [f"learner{i:02d}" for i in range(learners)]
    results: dict[str, Work] = {}
    joins: dict[str, float] = {}
    failures: list[str] = []

    def learn(name: str, index: int, learner: Learner | None = None, opened: float | None = None) -> None:
        try:
            if learner is None:
                learner = Learner(hub, name)
                opened = time.monotonic()
                if not learner.log_in():
                    raise RuntimeError("the hub refused the log-in")
                learner.join()
            attempts = ("wrong", "right") if index % 2 == 0 else ("right",)
            results[name] = work_through(learner, chapters, attempts, started=opened)
        except Exception as problem:  # noqa: BLE001 - counted and shown
            import traceback

            failures.append(f"{name}: {problem!r} at {traceback.extract_tb(problem.__traceback__)[-1].name}")

    threads = []
    for index, name in enumerate(names[browsers:], browsers):
        threads.append(threading.Thread(target=learn, args=(name, index)))
        threads[-1].start()
    if browsers:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for index, name in enumerate(names[:browsers]):
                context = browser.new_context()
                learner = Learner(hub, name)
                opened = time.monotonic()
                try:
                    joins[name] = browser_join(context.new_page(), hub, name)
                    opened = time.monotonic() - joins[name]
                    browser_session(learner, context)
                except Exception as problem:  # noqa: BLE001
                    failures.append(f"{name} (browser): {problem!r}")
                    continue
                threads.append(threading.Thread(target=learn, args=(name, index, learner, opened)))
                threads[-1].start()
            for thread in threads:
                thread.join()
            browser.close()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started_run
    time.sleep(3)  # the last events on their way
    teacher = Learner(hub, INSTRUCTOR)
    if not teacher.log_in():
        raise RuntimeError("the hub refused the instructor's log-in")
    data = teacher.session.get(hub.instructor.split("?")[0] + "api/summary").json()
    sampler.running = False
    hub_cpu_seconds = sum(sampler.hub_cpu.values())
    learner_cpu_seconds = sum(sampler.learner_cpu.values())
    hub.stop()
    sent = {name: sum(len(v) for v in work.verdicts.values()) for name, work in results.items()}
    stored = {name: sum(cell["attempts"] for cell in data["grid"].get(name, {}).values()) for name in results}
    cells = [seconds for work in results.values() for seconds in work.latencies]
    firsts = [work.first_cell for work in results.values() if work.first_cell]
    memory = sorted(sampler.peak.values())
    return {
        "learners": learners, "browsers": browsers, "chapters": chapters, "cpus": os.cpu_count(),
        "seconds": round(elapsed, 1),
        "failures": failures,
        "link_to_first_cell_p50": round(percentile(firsts, 0.5), 2),
        "link_to_first_cell_p95": round(percentile(firsts, 0.95), 2),
        "browser_link_to_chapter_shown": {k: round(v, 2) for k, v in joins.items()},
        "memory_per_learner_mib_median": round(percentile(memory, 0.5) / 2**20, 1) if memory else None,
        "memory_per_learner_mib_max": round(memory[-1] / 2**20, 1) if memory else None,
        "cells": len(cells),
        "cell_latency_p50": round(percentile(cells, 0.5), 3),
        "cell_latency_p95": round(percentile(cells, 0.95), 3),
        "failed_cells": sum(len(work.failed) for work in results.values()),
        "websocket_reconnects": sum(work.reconnects for work in results.values()),
        "failed_examples": [f for work in results.values() for f in work.failed][:5],
        "events_sent": sum(sent.values()),
        "events_lost": sum(max(0, sent[n] - stored[n]) for n in results),
        "hub_cpu_percent_of_a_core": round(100 * hub_cpu_seconds / elapsed, 1),
        "learners_cpu_percent_of_a_core": round(100 * learner_cpu_seconds / elapsed, 1),
        "load_before": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--browsers", type=int, default=2)
    parser.add_argument("--chapters", nargs="+", default=["01", "02", "03", "04", "05"])
    parser.add_argument("--output", help="write the figures as JSON here too")
    given = parser.parse_args(argv)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="hub-load-") as scratch:
        figures = benchmark(given.learners, given.browsers, given.chapters, Path(scratch) / "state")
    figures["load_before"] = [round(x, 2) for x in load]
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    if given.output:
        Path(given.output).parent.mkdir(parents=True, exist_ok=True)
        Path(given.output).write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if not figures["failures"] and not figures["failed_cells"] and not figures["events_lost"] else 1


if __name__ == "__main__":
    sys.exit(main())
