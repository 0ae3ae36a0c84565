"""The class's log-in: FirstUseAuthenticator, with a class code for new names.

jupyterhub-firstuseauthenticator is what one-room workshops use: a learner's first log-in
claims a name with a password of their own (bcrypt-hashed in a dbm file in the hub's folder),
and every later log-in under that name needs that password, so nobody can borrow a name.
What this class adds to it:

- a new name is claimed only through the join link: the link carries the class code (in the
  `next` address the log-in form posts back), so a stranger on the network who finds the hub
  cannot open accounts, and the log-in page still asks only for a name and a password;
- the instructor's name is never free: `run.py` stores its password (printed at start) before
  the hub answers anyone;
- `seats`: at most this many learner accounts;
- names are 1-32 of `a-z 0-9 - _` (each is also the learner's home folder);
- wrong passwords are slowed, not locked out: each failure for a name makes the next attempt at
  that name wait longer (up to `slowest_seconds`), one attempt at a time, so guessing costs
  seconds per guess while the real owner still gets in.
"""

from __future__ import annotations

import asyncio
import dbm
import hmac
import re
import time
from urllib.parse import parse_qs, urlparse

from firstuseauthenticator import FirstUseAuthenticator
from traitlets import Float, Integer, Unicode

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
BCRYPT_BYTES = 72  # bcrypt reads no further; bcrypt 5 refuses longer passwords outright


def class_code_in(handler) -> str:
    """The class code the log-in came with: in the `next` address (the join link) or given alone."""
    direct = handler.get_argument("code", "")
    if direct:
        return direct
    after = urlparse(handler.get_argument("next", ""))
    return (parse_qs(after.query).get("code") or [""])[0]


class ClassAuthenticator(FirstUseAuthenticator):
    class_code = Unicode(config=True, help="The code the join link carries; only it admits new names.")
    seats = Integer(60, config=True, help="At most this many learner accounts.")
    slowest_seconds = Float(4.0, config=True, help="The longest wait before trying a name again after failures.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._failures: dict[str, tuple[int, float]] = {}
        self._turns: dict[str, asyncio.Lock] = {}

    def normalize_username(self, username: str) -> str:
        return username.strip().lower()

    def validate_username(self, username: str) -> bool:
        return bool(NAME.match(username))

    def _known(self, name: str) -> bool:
        with dbm.open(self.dbm_path, "c", 0o600) as db:
            return name.encode() in db

    def _learners(self) -> int:
        with dbm.open(self.dbm_path, "c", 0o600) as db:
            return sum(1 for key in db.keys() if key.decode() not in self.admin_users)

    def _refuse(self, handler, name: str, why: str, shown: str | None = None) -> None:
        self.log.warning("log-in refused for %r: %s", name, why)
        if shown:
            handler.custom_login_error = shown

    async def authenticate(self, handler, data):
        name = self.normalize_username(data.get("username") or "")
        password = data.get("password") or ""
        if not self.validate_username(name):
            return self._refuse(handler, name, "not a usable name",
                                "A name is 1-32 letters a-z, digits, - or _ (starting with a letter or digit).")
        if len(password.encode()) > BCRYPT_BYTES:
            return self._refuse(handler, name, "password too long", f"A password is at most {BCRYPT_BYTES} bytes.")
        turn = self._turns.setdefault(name, asyncio.Lock())
        async with turn:  # one attempt at a time per name, after the wait its failures earned
            failures, last = self._failures.get(name, (0, 0.0))
            if failures:
                wait = min(self.slowest_seconds, 0.25 * 2 ** (failures - 1)) - (time.monotonic() - last)
                if wait > 0:
                    await asyncio.sleep(wait)
            if not self._known(name):
                if not self.class_code or not hmac.compare_digest(class_code_in(handler).encode(), self.class_code.encode()):
                    return self._fail(handler, name, "a new name without the class code",
                                      "New names join through the class's join link.")
                if self._learners() >= self.seats:
                    return self._fail(handler, name, f"the class is full ({self.seats} seats)",
                                      "The class is full: ask the instructor.")
            accepted = await super().authenticate(handler, {"username": name, "password": password})
            if accepted is None:
                return self._fail(handler, name, "wrong password")
            self._failures.pop(name, None)
            return accepted

    def _fail(self, handler, name: str, why: str, shown: str | None = None) -> None:
        failures, _ = self._failures.get(name, (0, 0.0))
        self._failures[name] = (failures + 1, time.monotonic())
        return self._refuse(handler, name, why, shown)
