"""JupyterHub's configuration for a class on one machine; hub/run.py writes the settings it
reads (settings.json in the hub's state folder, named by CLASS_HUB_SETTINGS)."""

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
settings = json.loads(Path(os.environ["CLASS_HUB_SETTINGS"]).read_text(encoding="utf-8"))
c = get_config()  # noqa: F821 - JupyterHub provides it
state = Path(settings["state"])
python = settings["python"]
instructor = settings["instructor"]

scheme = "https" if settings["ssl_cert"] else "http"
c.JupyterHub.bind_url = f"{scheme}://{settings['ip']}:{settings['port']}"
if settings["ssl_cert"]:  # beyond loopback: the password and cookies never cross the room in clear
    c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = settings["ssl_cert"], settings["ssl_key"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = settings["hub_port"]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings['proxy_api_port']}"
c.ConfigurableHTTPProxy.command = [settings["proxy"]]
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")  # new at each start (run.py)
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every learner's server
c.JupyterHub.log_level = settings.get("log_level", "WARN")
c.JupyterHub.active_server_limit = settings["seats"]
# The instructor lands on the class's page, and never gets a server of their own.
c.JupyterHub.default_url = lambda handler: ("/services/progress/" if handler.current_user
                                            and handler.current_user.name == instructor else "")

# Log-in: FirstUseAuthenticator, new names only through the join link (hub/auth.py); the
# instructor, whose password run.py stored, is the only admin.
c.JupyterHub.authenticator_class = "auth.ClassAuthenticator"
c.ClassAuthenticator.dbm_path = str(state / "passwords.dbm")
c.ClassAuthenticator.class_code = settings["class_code"]
c.ClassAuthenticator.seats = settings["seats"]
c.ClassAuthenticator.min_password_length = 8
c.ClassAuthenticator.check_passwords_on_startup = False  # names are normalised before they are stored
c.Authenticator.allow_all = True
c.Authenticator.admin_users = {instructor}

# Each learner's server: this environment's Jupyter, in a bubblewrap sandbox (hub/spawner.py).
c.JupyterHub.spawner_class = "spawner.SandboxSpawner"
c.SandboxSpawner.homes = str(state / "homes")
c.SandboxSpawner.hidden = settings["sandbox"]["hidden"]
c.SandboxSpawner.shown = settings["sandbox"]["shown"]
c.SandboxSpawner.private_home = settings["sandbox"]["private_home"]
c.SandboxSpawner.visible = settings["sandbox"]["visible"]
c.SandboxSpawner.class_user = settings["sandbox"]["class_user"]
c.SandboxSpawner.tmp_bytes = settings["sandbox"]["tmp_bytes"]
c.SandboxSpawner.memory_bytes = settings["memory_bytes"]
c.SandboxSpawner.servers_file = str(state / "servers.json")
c.SandboxSpawner.logs = str(state / "logs")
c.SandboxSpawner.signed_from = str(state / "class-copy")
c.SandboxSpawner.no_server = [instructor]
c.SandboxSpawner.server_command = [python, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60
c.Spawner.environment = {
    "TUTORIAL_PROGRESS_URL": f"http://127.0.0.1:{settings['service_port']}/services/progress/api/events",
    "TUTORIAL_PROGRESS_ANSWERS": "1" if settings["record_answers"] else "0",
    "PATH": os.path.dirname(python) + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
    "JUPYTERHUB_SINGLEUSER_EXTENSION": "1",
    "SHELL": "/bin/bash" if os.path.exists("/bin/bash") else "/bin/sh",  # the terminal's (not the class user's nologin)
    "GIT_CONFIG_GLOBAL": settings["gitconfig"],  # lets git read the class copy, owned by the hub's user (run.py)
}
c.Spawner.args = [
    "--ServerApp.jpserver_extensions=notebook_shim=False",  # as tasks.py lab: nothing here uses it
    "--LabApp.news_url=None",
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    "--ServerApp.tornado_settings=ws_ping_timeout=30000",
    "--KernelManager.transport=ipc",  # Unix sockets in the sandbox's /tmp (hub/spawner.py), no TCP ports
]
if settings.get("curve"):  # kernels talk to the server over encrypted ZeroMQ, as in tasks.py lab
    c.Spawner.args.append("--MappingKernelManager.transport_encryption=auto")
# The server's token may also post verdicts to the progress service.
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", "access:services!service=progress"]

c.JupyterHub.load_roles = [
    {"name": "user", "scopes": ["self", "access:services!service=progress"]},
    {"name": "progress", "services": ["progress"],
     "scopes": ["list:users", "read:users:name", "read:users:activity", "read:servers"]},
    {"name": "idle-culler", "services": ["idle-culler"],
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
]
progress = [python, str(HERE / "service.py"), "--database", str(state / "progress.sqlite"), "--instructor", instructor,
            "--servers", str(state / "servers.json"), "--exercises", str(state / "settings.json")]
c.JupyterHub.services = [
    {"name": "progress", "url": f"http://127.0.0.1:{settings['service_port']}", "command": progress
     + (["--record-answers"] if settings["record_answers"] else []), "oauth_no_confirm": True,
     "display": True},
    {"name": "idle-culler", "command": [python, "-m", "jupyterhub_idle_culler",
                                         f"--timeout={settings['cull_seconds']}", "--cull-every=60"]},
]
