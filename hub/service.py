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
"""

from __future__ import annotations

import argparse
import html
import json
import os
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


def checked(event) -> dict:
    """An event as posted, or a located ValueError."""
    if not isinstance(event, dict):
        raise ValueError("the body: expected a JSON object")
    for name in ("id", "exercise", "verdict"):
        if not isinstance(event.get(name), str) or not event[name]:
            raise ValueError(f"{name}: expected a non-empty string")
    if event["verdict"] not in ("right", "wrong"):
        raise ValueError(f"verdict: expected \"right\" or \"wrong\", got {event['verdict']!r}")
    for name in ("mistake", "answer"):
        if event.get(name) is not None and not isinstance(event[name], str):
            raise ValueError(f"{name}: expected a string or null")
    if not isinstance(event.get("at"), (int, float)) or isinstance(event["at"], bool):
        raise ValueError("at: expected seconds since the epoch (a number)")
    for name, limit in LIMITS.items():
        if isinstance(event.get(name), str) and len(event[name]) > limit:
            raise ValueError(f"{name}: longer than {limit} characters")
    return event


def summary(events: list[dict], learners: list[str]) -> dict:
    """What the instructor's page shows: learners x exercises, most failed exercises, most made
    mistakes, who has not started. A cell is "right" once any attempt was right, else "wrong"."""
    everyone = sorted(set(learners) | {e["learner"] for e in events})
    exercises = sorted({e["exercise"] for e in events})
    grid: dict[str, dict[str, dict]] = {name: {} for name in everyone}
    wrong_attempts, mistakes = Counter(), Counter()
    for event in events:
        cell = grid[event["learner"]].setdefault(event["exercise"], {"verdict": "wrong", "attempts": 0, "last": None})
        cell["attempts"] += 1
        cell["last"] = event["at"]
        if event["verdict"] == "right":
            cell["verdict"] = "right"
        else:
            wrong_attempts[event["exercise"]] += 1
            if event["mistake"]:
                mistakes[(event["exercise"], event["mistake"])] += 1
    stuck = Counter(key for cells in grid.values() for key, cell in cells.items() if cell["verdict"] == "wrong")
    most_failed = [{"exercise": key, "learners_stuck": stuck[key], "wrong_attempts": wrong_attempts[key]}
                   for key in sorted(wrong_attempts, key=lambda k: (-stuck[k], -wrong_attempts[k], k))]
    return {
        "learners": everyone,
        "exercises": exercises,
        "grid": grid,
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
           "(attempts in brackets). Reload the page to update it."},
    "zh": {"title": "全班进度", "learners": "名学员", "events": "条判定", "learner": "学员",
           "failed": "错得最多的练习", "stuck": "卡住的人数", "wrong": "答错次数",
           "mistakes": "最常见的错误", "exercise": "练习", "mistake": "错误", "count": "次数",
           "not_started": "还没开始的学员", "none": "没有", "note": "✓ 至少答对过一次，✗ 还没答对（括号里是尝试次数）。"
           "刷新页面即可更新。"},
}


def page(data: dict, lang: str) -> str:
    words, esc = WORDS[lang], html.escape
    head = "".join(f"<th>{esc(key)}</th>" for key in data["exercises"])
    rows = []
    for name in data["learners"]:
        cells = []
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
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{words['title']}</title>
<style>body{{font-family:sans-serif;margin:1.5em}} table{{border-collapse:collapse;margin-bottom:1.5em}}
td,th{{border:1px solid #ccc;padding:.2em .5em}} .right{{background:#dfd}} .wrong{{background:#fdd}}</style></head>
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


class Events(Base):
    @web.authenticated
    def post(self):
        user = self.current_user
        if user.get("kind", "user") != "user":
            raise web.HTTPError(403, "events come from learners' servers")
        try:
            event = checked(json.loads(self.request.body or b"null"))
        except (ValueError, UnicodeDecodeError) as problem:
            raise web.HTTPError(400, str(problem)) from None
        added = self.settings_["store"].add(user["name"], event, self.settings_["keep_answers"])
        self.set_status(201 if added else 200)
        self.finish({"stored": added})


class Summary(Base):
    @web.authenticated
    async def get(self):
        self.instructor_only()
        data = summary(self.settings_["store"].events(), await self.settings_["roster"]())
        if self.request.path.endswith("/summary"):
            self.finish(data)
        else:
            lang = "zh" if self.get_argument("lang", "") == "zh" else "en"
            self.finish(page(data, lang))


def roster_of(hub_auth: HubOAuth, instructors: set[str]):
    """A function: everyone with an account on the hub, instructors and admins left out."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    async def roster() -> list[str]:
        request = HTTPRequest(url_path_join(hub_auth.api_url, "users"),
                              headers={"Authorization": f"token {hub_auth.api_token}"})
        answer = await AsyncHTTPClient().fetch(request)
        return sorted(u["name"] for u in json.loads(answer.body) if not u.get("admin") and u["name"] not in instructors)

    return roster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--instructor", action="append", default=[])
    parser.add_argument("--record-answers", action="store_true")
    options = parser.parse_args()
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/progress/")
    hub_auth = HubOAuth(cache_max_age=60)
    instructors = set(options.instructor)
    application = web.Application([
        (prefix, Summary), (url_path_join(prefix, "api/summary"), Summary),
        (url_path_join(prefix, "api/events"), Events),
        (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
    ], hub_auth=hub_auth, cookie_secret=os.urandom(32), store=Store(options.database),
        keep_answers=options.record_answers, instructors=instructors, roster=roster_of(hub_auth, instructors))
    where = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    application.listen(where.port, where.hostname)
    try:
        ioloop.IOLoop.current().start()
    except KeyboardInterrupt:  # JupyterHub stops its services with SIGINT
        pass


if __name__ == "__main__":
    main()
