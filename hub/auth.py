"""The workshop's log-in: one class password, any learner name.

Whoever knows the class password (printed by `tasks.py hub`) and types a name gets an account
of that name; the instructor logs in the same way under the instructor's name and is the hub's
admin. Names are folded to lower case and must be 1-32 letters, digits, `-` or `_`, so each
one is also a safe folder name for the learner's home.
"""

from __future__ import annotations

import hmac
import re

from jupyterhub.auth import Authenticator
from traitlets import Unicode

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


class ClassPasswordAuthenticator(Authenticator):
    class_password = Unicode(config=True, help="The one password every learner of the class types.")

    def normalize_username(self, username: str) -> str:
        return username.strip().lower()

    def validate_username(self, username: str) -> bool:
        return bool(NAME.match(username))

    async def authenticate(self, handler, data):
        name = self.normalize_username(data.get("username", ""))
        given = (data.get("password") or "").encode()
        if not self.class_password or not hmac.compare_digest(given, self.class_password.encode()):
            self.log.warning("class log-in refused for %r: wrong class password", name)
            return None
        if not self.validate_username(name):
            self.log.warning("class log-in refused for %r: not a usable name", name)
            return None
        return name
