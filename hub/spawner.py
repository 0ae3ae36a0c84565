"""Each learner's Jupyter server in a bubblewrap sandbox, never as root.

Who the learner is, as the machine sees it:

- hub started by an ordinary user: bubblewrap (`bwrap`, Debian's `bubblewrap`) runs unprivileged,
  in a user namespace of that user; the learner's server has no capabilities, and the mounts
  that hide things were made by the namespace's parent, so they cannot be undone from inside
  (`--disable-userns`: no nested namespace to try from either);
- hub started by root: bwrap runs as root only to build the sandbox's mounts, then `setpriv`
  switches to the class's system user (`run.py` creates it: no login, no home) with no
  capabilities, an empty bounding set and no_new_privs (so set-uid programs such as `umount`
  or `su` gain nothing). A user namespace would not do here: its "unprivileged" user is root
  to the machine, which can still read /etc/shadow.

What the sandbox shows: the machine read-only, minus the hub's folder (its databases, cookie
secret, password file and the other learners' homes, hidden by an empty folder; the class
copy read-only and the learner's own home writable are put back); no home of whoever started
the hub; a private /tmp of bounded size, process table and System V IPC. The project and the
Python its environment was made from are bound in *after* /tmp and the home are hidden, so a
checkout under /tmp or in root's home works, and their parents are made traversable by
bubblewrap, so a checkout inside a 0700 folder works too.

Kernels talk to their server over Unix sockets (ZeroMQ's ipc transport) in the sandbox's own
/tmp: no TCP port another learner could reach. The network is shared otherwise (the proxy
reaches each server on 127.0.0.1, and lets only its owner in).

A server that fails to start is recorded with its cause (the end of its log) in the hub's
`servers.json`, which the instructor's page shows; the instructor gets no server at all.

Memory: every process of a learner's server gets an address-space limit (RLIMIT_AS, set before
bwrap starts, inherited by the server and each kernel); /tmp is a tmpfs of `tmp_bytes`.
"""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import resource
import shutil
import subprocess
import time
from pathlib import Path

from jupyterhub.spawner import SimpleLocalProcessSpawner
from traitlets import Dict, Integer, List, Unicode
from tornado import web

BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"


def sandbox_command(*, home: str, hidden: str, shown: dict, private_home: str, visible: list[str],
                    class_user: str, tmp_bytes: int, writable: list[str] = ()) -> list[str]:
    """The bwrap (and, as root, setpriv) command line that wraps a learner's server."""
    command = [BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    empty = []  # the folders replaced by an empty tmpfs, in order

    def hide(folder: str, *size: str) -> None:
        nonlocal command
        command += [*parents(folder), "--perms", "1777" if folder == "/tmp" else "0755", *size, "--tmpfs", folder]
        empty.append(folder.rstrip("/"))

    def parents(folder: str) -> list[str]:
        """Folders bwrap must make inside a tmpfs on the way to `folder`: made 0755 here (bwrap
        would make them 0700, root's, which a learner's user could not pass through)."""
        made = []
        below = [root for root in empty if folder.startswith(root + "/")]
        if below:
            path = Path(max(below, key=len))
            for part in Path(folder).relative_to(path).parts[:-1]:
                path = path / part
                made += ["--perms", "0755", "--dir", str(path)]
        return made

    def bind(option: str, folder: str) -> None:
        command.extend([*parents(folder), option, folder, folder])

    hide("/tmp", *(["--size", str(tmp_bytes)] if tmp_bytes else []))
    if os.path.isdir("/run/user"):
        hide("/run/user")
    if private_home and private_home != "/" and os.path.isdir(private_home):
        hide(private_home)
    for folder in visible:  # after /tmp and the home are hidden: a checkout there stays visible
        bind("--ro-bind", folder)
    hide(hidden)
    for inside in sorted(shown):
        bind("--ro-bind", inside)
    for folder in [home, *writable]:
        bind("--bind", folder)
    command += ["--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session", "--chdir", home]
    if os.geteuid() == 0:
        entry = pwd.getpwnam(class_user)
        return [*command, "--", SETPRIV, f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups",
                "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return [*command, "--unshare-user", "--disable-userns", "--cap-drop", "ALL", "--"]


class SandboxSpawner(SimpleLocalProcessSpawner):
    """SimpleLocalProcessSpawner, each server inside bubblewrap, as a non-root user."""

    homes = Unicode(config=True, help="The folder holding one home per learner (inside the hub's state folder).")
    hidden = Unicode(config=True, help="The hub's state folder, hidden from learners except their own home.")
    shown = Dict(config=True, help="Folders put back read-only inside hidden ones: {path: path}.")
    private_home = Unicode("", config=True, help="The hub user's home, hidden from learners ('' for none).")
    visible = List(Unicode(), config=True, help="Folders shown read-only: the project, the Python it was made from.")
    server_command = List(Unicode(), config=True, help="The single-user server's command (this environment's).")
    memory_bytes = Integer(0, config=True, help="RLIMIT_AS per process of a learner's server (0: no limit).")
    tmp_bytes = Integer(0, config=True, help="The size of each learner's /tmp (0: the kernel's default, half the RAM).")
    class_user = Unicode("", config=True, help="As root: the system user learners' servers run as.")
    servers_file = Unicode(config=True, help="Where each learner's server state is recorded for the instructor's page.")
    logs = Unicode(config=True, help="The folder of the servers' own logs (hub side, hidden from learners).")
    no_server = List(Unicode(), config=True, help="Names that never get a server (the instructor).")
    signed_from = Unicode("", config=True, help="The class copy: its notebooks are trusted in each learner's server.")

    def _home(self) -> str:
        return os.path.join(self.homes, self.user.name)

    def _log_file(self) -> str:
        return os.path.join(self.logs, f"{self.user.name}.log")

    def record(self, status: str, why: str = "") -> None:
        """servers.json: {learner: {"status": starting|running|failed|stopped, "why", "at"}}."""
        path = Path(self.servers_file)
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = {}
        known[self.user.name] = {"status": status, "why": why, "at": time.time()}
        fresh = path.with_suffix(".tmp")
        fresh.write_text(json.dumps(known, ensure_ascii=False), encoding="utf-8")
        fresh.replace(path)

    def user_env(self, env):
        env = super().user_env(env)
        env["HOME"] = self._home()
        env["USER"] = env["LOGNAME"] = self.user.name
        env["JUPYTER_RUNTIME_DIR"] = "/tmp/jupyter-runtime"  # the sandbox's own /tmp: connection files, kernel sockets
        env.pop("XDG_RUNTIME_DIR", None)
        return env

    def make_preexec_fn(self, name):
        limit = self.memory_bytes

        def preexec():
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        return preexec

    def _why(self) -> str:
        try:
            lines = Path(self._log_file()).read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(lines[-3:])[-600:]

    def _trust(self) -> str:
        return os.path.join(self.hidden, "trust", self.user.name)

    def sign_class_copy(self) -> Path:
        """JupyterLab shows stored diagrams (SVG) only in notebooks it trusts: the class copy is
        signed, as `jupyter trust` does, in a Jupyter data folder made new at each start for this
        learner (never in their home: as root, writing where a learner could plant a symlink
        would let them aim root's write), then given to the learner's server."""
        import nbformat
        from nbformat.sign import NotebookNotary

        data = Path(self._trust())
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(mode=0o700, parents=True)
        notary = NotebookNotary(data_dir=str(data))
        for path in sorted(Path(self.signed_from).rglob("*.ipynb")) if self.signed_from else []:
            notary.sign(nbformat.read(path, as_version=4))
        notary.store.close()
        return data

    def get_args(self):
        return [*super().get_args(), f"--NotebookNotary.data_dir={self._trust()}"]

    async def start(self):
        if self.user.name in self.no_server:
            raise web.HTTPError(403, "the instructor has no server: the class's page is at /services/progress/")
        home = Path(self._home())
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
        # signing the class copy takes about a second: in a thread, not on the hub's event loop,
        # so thirty learners joining at once do not queue behind each other's signatures
        trust = await asyncio.get_running_loop().run_in_executor(None, self.sign_class_copy)
        if os.geteuid() == 0:  # the learner's folders belong to the user their server runs as
            entry = pwd.getpwnam(self.class_user)
            for path in [home, trust, *trust.iterdir()]:
                os.lchown(path, entry.pw_uid, entry.pw_gid)
        Path(self.logs).mkdir(mode=0o700, parents=True, exist_ok=True)
        self.popen_kwargs = {"stdout": open(self._log_file(), "ab"), "stderr": subprocess.STDOUT}
        self.cmd = [*sandbox_command(home=str(home), hidden=self.hidden, shown=self.shown,
                                     private_home=self.private_home, visible=self.visible,
                                     class_user=self.class_user, tmp_bytes=self.tmp_bytes,
                                     writable=[str(trust)]), *self.server_command]
        self.record("starting")
        try:
            return await super().start()
        finally:
            self.popen_kwargs["stdout"].close()  # the child has its own copy

    async def poll(self):
        status = await super().poll()
        if status is not None and self._spawn_pending:
            self.record("failed", f"exit {status}: {self._why()}")
        return status

    async def stop(self, now=False):
        failed = self._spawn_pending  # stopped before it ever answered: the hub gave up on it
        exited = self.proc is not None and self.proc.poll() not in (None, 0)
        await super().stop(now)
        if failed or exited:
            self.record("failed", self._why() or "it did not answer in time")
        else:
            self.record("stopped")
