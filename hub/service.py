"""The progress service: learners' verdicts in, the instructor's page out.

JupyterHub starts it as a managed service (hub/jupyterhub_config.py) and gives it its
environment: JUPYTERHUB_API_TOKEN, JUPYTERHUB_SERVICE_PREFIX (/services/progress/),
JUPYTERHUB_SERVICE_URL. Every request is authenticated by the hub, as JupyterHub services are:
a learner's kernel posts with its server's token (tutorial/notebook/progress.py), the instructor
opens the page through the hub's OAuth log-in. The name an event is stored under is the
token's owner, never a name in the event, so no learner can post as another.

    POST {prefix}api/events     one verdict: {"id", "exercise", "verdict", "mistake", "at"[, "answer"]}
    GET  {prefix}api/summary    the instructor's page as JSON (instructor or admin only)
    GET  {prefix}               the instructor's page (?lang=zh: in Chinese)

Events are stored in SQLite (--database), one row each, so nothing is lost when the service
or the hub restarts; an event sent twice (the kernel retried) is stored once. The learner's
answer is stored only when the hub was started with --record-answers.

It survives its learners: only exercises the chapters have (--exercises), bounded texts, at
most BODY_BYTES a request, a rate limit per learner (RATE events a second, BURST at once),
strict JSON in and out (no NaN or Infinity, no lone surrogates, no deep nesting); anything
else is a 4xx with the reason, never a 500.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import re
import sqlite3
import time
from collections import Counter
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import ioloop, web

SCHEMA = """
create table if not exists events (
    id text primary key, learner text not null, exercise text not null, verdict text not null,
    mistake text, answer text, at real not null, received real not null
);
create index if not exists events_learner on events (learner);
"""
LIMITS = {"id": 64, "exercise": 64, "mistake": 200, "answer": 2000}
BODY_BYTES = 8192  # one event with the longest answer fits several times over
RATE, BURST = 2.0, 60  # a learner running a whole chapter at once sends a few dozen verdicts
EVENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
FIELDS = {"id", "exercise", "verdict", "mistake", "at", "answer"}


def strict_json(body: bytes):
    """JSON as RFC 8259 has it: UTF-8, no NaN/Infinity, no lone surrogates; a ValueError else."""
    def refuse(constant):
        raise ValueError(f"the body: {constant} is not JSON")

    try:
        value = json.loads(body.decode("utf-8"), parse_constant=refuse)
    except RecursionError:
        raise ValueError("the body: nested too deeply") from None
    except UnicodeDecodeError:
        raise ValueError("the body: not UTF-8") from None
    return value


class Store:
    """Events in SQLite: one connection, written from the one IOLoop thread."""

    def __init__(self, path: str):
        self.connection = sqlite3.connect(path)
        self.connection.execute("pragma journal_mode=wal")
        self.connection.executescript(SCHEMA)

    def add(self, learner: str, event: dict, keep_answer: bool) -> bool:
        row = (event["id"], learner, event["exercise"], event["verdict"], event.get("mistake"),
               event.get("answer") if keep_answer else None, event["at"], time.time())
        with self.connection:
            cursor = self.connection.execute("insert or ignore into events values (?, ?, ?, ?, ?, ?, ?, ?)", row)
        return cursor.rowcount == 1

    def events(self) -> list[dict]:
        columns = ("learner", "exercise", "verdict", "mistake", "answer", "at")
        rows = self.connection.execute(f"select {', '.join(columns)} from events order by at")
        return [dict(zip(columns, row)) for row in rows]


def checked(event, exercises: frozenset | None = None) -> dict:
    """An event as posted, or a located ValueError."""
    if not isinstance(event, dict):
        raise ValueError("the body: expected a JSON object")
    unknown = sorted(set(event) - FIELDS)
    if unknown:
        raise ValueError(f"{unknown[0]}: not a field of an event")
    for name in ("id", "exercise", "verdict"):
        if not isinstance(event.get(name), str) or not event[name]:
            raise ValueError(f"{name}: expected a non-empty string")
    for name in ("id", "exercise", "verdict", "mistake", "answer"):
        if isinstance(event.get(name), str):
            try:
                event[name].encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(f"{name}: a lone surrogate is not text") from None
    if not EVENT_ID.match(event["id"]):
        raise ValueError("id: expected 1-64 of A-Z a-z 0-9 _ -")
    if exercises is not None and event["exercise"] not in exercises:
        raise ValueError(f"exercise: no exercise called {event['exercise'][:64]!r}")
    if event["verdict"] not in ("right", "wrong"):
        raise ValueError(f"verdict: expected \"right\" or \"wrong\", got {event['verdict']!r}")
    for name in ("mistake", "answer"):
        if event.get(name) is not None and not isinstance(event[name], str):
            raise ValueError(f"{name}: expected a string or null")
    if not isinstance(event.get("at"), (int, float)) or isinstance(event["at"], bool) or not math.isfinite(event["at"]):
        raise ValueError("at: expected seconds since the epoch (a number)")
    if not 1e9 < event["at"] < 1e10:
        raise ValueError("at: not a time of this century")
    for name, limit in LIMITS.items():
        if isinstance(event.get(name), str) and len(event[name]) > limit:
            raise ValueError(f"{name}: longer than {limit} characters")
    return event


def summary(events: list[dict], learners: list[str], people: dict | None = None) -> dict:
    """What the instructor's page shows: learners x exercises, most failed exercises, most made
    mistakes, who has not started, and where each learner is. A cell is "right" once any
    attempt was right, else "wrong". `people`: {name: {"server": running|starting|failed|None,
    "why": the failure's cause, "last_activity": seconds since the epoch or None}}."""
    people = people or {}
    everyone = sorted(set(learners) | {e["learner"] for e in events})
    exercises = sorted({e["exercise"] for e in events})
    grid: dict[str, dict[str, dict]] = {name: {} for name in everyone}
    wrong_attempts, mistakes, latest = Counter(), Counter(), {}
    for event in events:
        cell = grid[event["learner"]].setdefault(event["exercise"], {"verdict": "wrong", "attempts": 0, "last": None})
        cell["attempts"] += 1
        cell["last"] = event["at"]
        latest[event["learner"]] = event
        if event["verdict"] == "right":
            cell["verdict"] = "right"
        else:
            wrong_attempts[event["exercise"]] += 1
            if event["mistake"]:
                mistakes[(event["exercise"], event["mistake"])] += 1
    stuck = Counter(key for cells in grid.values() for key, cell in cells.items() if cell["verdict"] == "wrong")
    most_failed = [{"exercise": key, "learners_stuck": stuck[key], "wrong_attempts": wrong_attempts[key]}
                   for key in sorted(wrong_attempts, key=lambda k: (-stuck[k], -wrong_attempts[k], k))]
    where = {}
    for name in everyone:
        person, last = people.get(name, {}), latest.get(name)
        times = [t for t in (person.get("last_activity"), last and last["at"]) if t]
        if person.get("server") == "failed":
            status = {"status": "failed", "why": person.get("why") or ""}
        elif last and grid[name][last["exercise"]]["verdict"] == "wrong":
            status = {"status": "stuck", "at": last["exercise"]}
        elif person.get("server") in ("running", "starting") or last:
            status = {"status": "reading" if person.get("server") != "starting" else "starting"}
        else:
            status = {"status": "not started"}
        where[name] = {**status, "chapter": last["exercise"].split(".")[0] if last else None,
                       "last_activity": max(times) if times else None}
    return {
        "learners": everyone,
        "exercises": exercises,
        "grid": grid,
        "where": where,
        "most_failed": most_failed,
        "mistakes": [{"exercise": k, "mistake": m, "count": n} for (k, m), n in mistakes.most_common()],
        "not_started": [name for name in everyone if not grid[name]],
        "events": len(events),
    }


WORDS = {
    "en": {"title": "The class", "learners": "learners", "events": "verdicts", "learner": "learner",
           "failed": "Exercises most failed", "stuck": "learners stuck", "wrong": "wrong attempts",
           "mistakes": "Mistakes most made", "exercise": "exercise", "mistake": "mistake", "count": "times",
           "not_started": "Not started yet", "none": "nobody", "note": "✓ right at least once, ✗ not yet right "
           "(attempts in brackets). The page updates itself every 10 seconds.",
           "chapter": "chapter", "activity": "last activity", "state": "status", "ago": "{} s ago",
           "not started": "not started", "starting": "server starting", "reading": "reading",
           "stuck": "stuck at {}", "failed": "server failed: {}"},
    "zh": {"title": "全班进度", "learners": "名学员", "events": "条判定", "learner": "学员",
           "failed": "错得最多的练习", "stuck": "卡住的人数", "wrong": "答错次数",
           "mistakes": "最常见的错误", "exercise": "练习", "mistake": "错误", "count": "次数",
           "not_started": "还没开始的学员", "none": "没有", "note": "✓ 至少答对过一次，✗ 还没答对（括号里是尝试次数）。"
           "页面每 10 秒自动更新。",
           "chapter": "章节", "activity": "最近活动", "state": "状态", "ago": "{} 秒前",
           "not started": "还没开始", "starting": "服务器启动中", "reading": "在读",
           "stuck": "卡在 {}", "failed": "服务器启动失败：{}"},
}


def state_text(where: dict, words: dict, now: float) -> tuple[str, str, str]:
    """(status, chapter, last activity) as the page shows them."""
    status = where["status"]
    shown = words[status]
    if status == "stuck":
        shown = shown.format(where["at"])
    elif status == "failed":
        shown = shown.format(where["why"][:300])
    ago = words["ago"].format(max(0, round(now - where["last_activity"]))) if where.get("last_activity") else ""
    return shown, where.get("chapter") or "", ago


def page(data: dict, lang: str, now: float | None = None) -> str:
    words, esc = WORDS[lang], html.escape
    now = time.time() if now is None else now
    head = (f"<th>{words['state']}</th><th>{words['chapter']}</th><th>{words['activity']}</th>"
            + "".join(f"<th>{esc(key)}</th>" for key in data["exercises"]))
    rows = []
    for name in data["learners"]:
        where = data.get("where", {}).get(name, {"status": "not started"})
        status, chapter, ago = state_text(where, words, now)
        cells = [f'<td class="status {esc(where["status"]).replace(" ", "-")}">{esc(status)}</td>',
                 f"<td>{esc(chapter)}</td><td>{esc(ago)}</td>"]
        for key in data["exercises"]:
            cell = data["grid"][name].get(key)
            if cell is None:
                cells.append("<td></td>")
            else:
                mark = "✓" if cell["verdict"] == "right" else "✗"
                cells.append(f'<td class="{cell["verdict"]}">{mark} ({cell["attempts"]})</td>')
        rows.append(f"<tr><th>{esc(name)}</th>{''.join(cells)}</tr>")
    failed = "".join(f"<tr><td>{esc(f['exercise'])}</td><td>{f['learners_stuck']}</td><td>{f['wrong_attempts']}</td></tr>"
                     for f in data["most_failed"][:10])
    mistakes = "".join(f"<tr><td>{esc(m['exercise'])}</td><td>{esc(m['mistake'])}</td><td>{m['count']}</td></tr>"
                       for m in data["mistakes"][:10])
    waiting = ", ".join(esc(n) for n in data["not_started"]) or words["none"]
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="10"><title>{words['title']}</title>
<style>body{{font-family:sans-serif;margin:1.5em}} table{{border-collapse:collapse;margin-bottom:1.5em}}
td,th{{border:1px solid #ccc;padding:.2em .5em}} .right{{background:#dfd}} .wrong{{background:#fdd}}
.stuck{{background:#fed}} .failed{{background:#f99}}</style></head>
<body><h1>{words['title']}</h1>
<p id="counts">{len(data['learners'])} {words['learners']}, {data['events']} {words['events']}. {words['note']}</p>
<table id="grid"><tr><th>{words['learner']}</th>{head}</tr>{''.join(rows)}</table>
<h2>{words['failed']}</h2><table id="failed"><tr><th>{words['exercise']}</th><th>{words['stuck']}</th><th>{words['wrong']}</th></tr>{failed}</table>
<h2>{words['mistakes']}</h2><table id="mistakes"><tr><th>{words['exercise']}</th><th>{words['mistake']}</th><th>{words['count']}</th></tr>{mistakes}</table>
<h2>{words['not_started']}</h2><p id="not-started">{waiting}</p></body></html>"""


class Base(HubOAuthenticated, web.RequestHandler):
    def check_xsrf_cookie(self):  # token-authenticated API calls carry no XSRF cookie
        return

    @property
    def settings_(self):
        return self.application.settings

    def instructor_only(self) -> None:
        user = self.current_user
        if not user:
            raise web.HTTPError(403)
        if user.get("kind", "user") != "user" or not (user.get("admin") or user["name"] in self.settings_["instructors"]):
            raise web.HTTPError(403, "only the instructor sees the class")


class Answering(Base):
    def answer(self, data: dict) -> None:
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(json.dumps(data, ensure_ascii=False, allow_nan=False))

    def write_error(self, status_code, **kwargs):  # the reason, as JSON, never a traceback
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(json.dumps({"status": status_code, "message": self._reason}, ensure_ascii=False))


@web.stream_request_body
class Events(Answering):
    """POST one event. The body is read as it arrives and kept only up to BODY_BYTES, so a huge
    one costs the service nothing and still gets its answer (413), not a dropped connection."""

    def prepare(self):
        self.request.connection.set_max_body_size(64 * 2**20)  # past this tornado drops the connection
        self.body, self.too_big = bytearray(), False

    def data_received(self, chunk: bytes) -> None:
        if len(self.body) + len(chunk) > BODY_BYTES:
            self.too_big = True
            self.body.clear()
        elif not self.too_big:
            self.body += chunk

    @web.authenticated
    def post(self):
        user = self.current_user
        if user.get("kind", "user") != "user":
            raise web.HTTPError(403, "events come from learners' servers")
        if self.too_big:
            raise web.HTTPError(413, f"the body: more than {BODY_BYTES} bytes")
        if not self.settings_["rate"].allow(user["name"]):
            raise web.HTTPError(429, f"more than {RATE:g} events a second: wait a little")
        try:
            event = checked(strict_json(bytes(self.body) or b"null"), self.settings_["exercises"])
        except ValueError as problem:
            raise web.HTTPError(400, str(problem)) from None
        added = self.settings_["store"].add(user["name"], event, self.settings_["keep_answers"])
        self.set_status(201 if added else 200)
        self.answer({"stored": added})


class Summary(Answering):
    @web.authenticated
    async def get(self):
        self.instructor_only()
        names, people = await self.settings_["roster"]()
        data = summary(self.settings_["store"].events(), names, people)
        if self.request.path.endswith("/summary"):
            self.answer(data)
        else:
            lang = "zh" if self.get_argument("lang", "") == "zh" else "en"
            self.finish(page(data, lang))


class Rate:
    """A token bucket per learner: RATE events a second on average, BURST at once."""

    def __init__(self, rate: float = RATE, burst: int = BURST):
        self.rate, self.burst, self.buckets = rate, burst, {}

    def allow(self, name: str) -> bool:
        now = time.monotonic()
        tokens, then = self.buckets.get(name, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[name] = (tokens, now)
            return False
        self.buckets[name] = (tokens - 1, now)
        return True


def servers_of(path: str) -> dict:
    """What the hub's spawner recorded (hub/spawner.py): {learner: {"status", "why", "at"}}."""
    try:
        return json.loads(open(path, encoding="utf-8").read()) if path else {}
    except (OSError, ValueError):
        return {}


def roster_of(hub_auth: HubOAuth, instructors: set[str], servers_file: str = ""):
    """A function: everyone with an account on the hub (instructors and admins left out), and
    for each, their server's state and last activity as the hub knows them."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    async def roster() -> tuple[list[str], dict]:
        request = HTTPRequest(url_path_join(hub_auth.api_url, "users"),
                              headers={"Authorization": f"token {hub_auth.api_token}"})
        answer = await AsyncHTTPClient().fetch(request)
        users = [u for u in json.loads(answer.body) if not u.get("admin") and u["name"] not in instructors]
        recorded, people = servers_of(servers_file), {}
        for user in users:
            server = (user.get("servers") or {}).get("")
            state = None
            if server:
                state = "running" if server.get("ready") else "starting"
            elif recorded.get(user["name"], {}).get("status") == "failed":
                state = "failed"
            people[user["name"]] = {"server": state, "why": recorded.get(user["name"], {}).get("why", ""),
                                    "last_activity": seconds(user.get("last_activity"))}
        return sorted(people), people

    return roster


def seconds(stamp: str | None) -> float | None:
    """An ISO 8601 time from the hub's API as seconds since the epoch."""
    from datetime import datetime

    if not stamp:
        return None
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--instructor", action="append", default=[])
    parser.add_argument("--record-answers", action="store_true")
    parser.add_argument("--servers", default="", help="the spawner's record of servers (hub/spawner.py)")
    parser.add_argument("--exercises", default="", help="a JSON file with the list of exercises under \"exercises\"")
    parser.add_argument("--ip", default="", help="the address to listen on (default: the host of the service's URL; "
                        "in a pod: 0.0.0.0)")
    return parser


def main() -> None:
    options = parser().parse_args()
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/progress/")
    hub_auth = HubOAuth(cache_max_age=60)
    instructors = set(options.instructor)
    exercises = None
    if options.exercises:
        exercises = frozenset(json.loads(open(options.exercises, encoding="utf-8").read())["exercises"])
    application = web.Application([
        (prefix, Summary), (url_path_join(prefix, "api/summary"), Summary),
        (url_path_join(prefix, "api/events"), Events),
        (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
    ], hub_auth=hub_auth, cookie_secret=os.urandom(32), store=Store(options.database), rate=Rate(),
        exercises=exercises, keep_answers=options.record_answers, instructors=instructors,
        roster=roster_of(hub_auth, instructors, options.servers))
    where = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    application.listen(where.port, options.ip or where.hostname, max_body_size=64 * 1024)  # Events allows more
    try:
        ioloop.IOLoop.current().start()
    except KeyboardInterrupt:  # JupyterHub stops its services with SIGINT
        pass


if __name__ == "__main__":
    main()
