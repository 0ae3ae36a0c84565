"""Each learner's Jupyter server in a sandbox of its own (bubblewrap), under one system user.

Why bubblewrap and not one system user per learner: creating users needs root, and the class
hub should run as an ordinary user (a laptop, a lab machine, CI). bubblewrap (`bwrap`, Debian's
`bubblewrap` package) builds each server a private view of the machine with unprivileged user
namespaces, which Debian 12's kernel allows. What a learner's server sees:

- the machine read-only (Python, the package, the chapters), minus the hub's own folder: the
  hub's database, its cookie secret, the progress database and every other learner's home are
  hidden behind an empty folder; only the class copy (read-only) and the learner's own home
  (writable) are put back into it;
- the home of the user running the hub is hidden the same way (only this project, and the
  Python its environment was made from, stay);
- its own process table (`--unshare-pid`): no other learner's server or kernel is visible, so
  neither their environment (tokens) nor their command lines can be read;
- its own /tmp and System V IPC.

Kernels talk to their server over Unix sockets (ZeroMQ's ipc transport), not TCP ports, in the
sandbox's own /tmp: no other learner can reach them, and thirty servers starting kernels at
once no longer race for the same free port (with TCP they did: "Address already in use", and
the kernel restarted). The network is shared otherwise, so the hub's proxy reaches each server
on 127.0.0.1; the proxy lets only a server's owner in.

Memory: every process of a learner's server gets an address-space limit (RLIMIT_AS, set before
bwrap starts, inherited by the server and each kernel). It is per process, not per learner;
on Kubernetes (hub/z2jh/config.yaml) the container's cgroup limit is per learner.
"""

from __future__ import annotations

import os
import resource
import shutil
from pathlib import Path

from jupyterhub.spawner import SimpleLocalProcessSpawner
from traitlets import Dict, Integer, List, Unicode

BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"


class SandboxSpawner(SimpleLocalProcessSpawner):
    """SimpleLocalProcessSpawner (no system users), each server inside bubblewrap."""

    homes = Unicode(config=True, help="The folder holding one home per learner (inside the hub's state folder).")
    hidden = Unicode(config=True, help="The hub's state folder, hidden from learners except their own home.")
    shown = Dict(config=True, help="Folders put back read-only inside hidden ones: {path: path}.")
    private_home = Unicode("", config=True, help="The hub user's home, hidden from learners ('' for none).")
    visible = List(Unicode(), config=True, help="Folders shown read-only even inside private_home: the project, "
                   "the Python the environment was made from.")
    server_command = List(Unicode(), config=True, help="The single-user server's command (this environment's).")
    memory_bytes = Integer(0, config=True, help="RLIMIT_AS per process of a learner's server (0: no limit).")

    def _home(self) -> str:
        return os.path.join(self.homes, self.user.name)

    def user_env(self, env):
        env = super().user_env(env)
        home = self._home()
        env["HOME"] = home
        env["JUPYTER_RUNTIME_DIR"] = "/tmp/jupyter-runtime"  # the sandbox's own /tmp: connection files, kernel sockets
        env.pop("XDG_RUNTIME_DIR", None)
        return env

    def sandbox(self) -> list[str]:
        """The bwrap command line that wraps this learner's server."""
        home = self._home()
        command = [BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        if os.path.isdir("/run/user"):
            command += ["--tmpfs", "/run/user"]
        if self.private_home and os.path.isdir(self.private_home) and self.private_home != "/":
            command += ["--tmpfs", self.private_home]
            for folder in self.visible:
                if folder.startswith(self.private_home.rstrip("/") + "/"):
                    command += ["--ro-bind", folder, folder]
        command += ["--tmpfs", self.hidden]
        for inside in sorted(self.shown):
            command += ["--ro-bind", inside, inside]
        command += ["--bind", home, home]
        command += ["--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session", "--chdir", home, "--"]
        return command

    def make_preexec_fn(self, name):
        home, limit = self._home(), self.memory_bytes

        def preexec():
            os.makedirs(home, 0o700, exist_ok=True)
            os.chdir(home)
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        return preexec

    async def start(self):
        Path(self._home()).mkdir(mode=0o700, parents=True, exist_ok=True)
        root = ["--allow-root"] if os.geteuid() == 0 else []  # bwrap drops root's capabilities anyway
        self.cmd = [*self.sandbox(), *self.server_command, *root]
        return await super().start()
