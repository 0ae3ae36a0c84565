"""Run the app with uvicorn in a background thread, from a notebook or a test.

    import tutorial.serve

    with tutorial.serve.start() as server:          # loopback, a free port
        client = anthropic.Anthropic(base_url=server.url, api_key="unused")
        client.messages.create(...)
        server.captures()                           # every request, oldest first

The socket is bound here, before uvicorn starts, so the port is known at once (port 0
picks a free one) and a port already taken fails in the caller, not in the thread.
`start` returns once the server accepts connections.

Stopping (`.stop()`, or SIGINT/SIGTERM to `python -m tutorial serve`): the server stops
accepting, tells the bridge first (open streams end at once with an `overloaded_error`
event, their engine requests closed; see forward.py), then gives what is still running
SHUTDOWN_GRACE_SECONDS to finish before uvicorn cancels it.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
import time
from typing import Optional

import uvicorn

from tutorial.words import using, words_for

from .app import DEFAULT_MAX_BODY_BYTES, Log, create_app
from .captures import DEFAULT_MAX_CAPTURES
from .responder import Responder
from .words import WORDS

STARTUP_TIMEOUT = 20.0  # seconds
SHUTDOWN_GRACE_SECONDS = 5  # for requests still running once the bridge has ended its streams


class BridgeServer(uvicorn.Server):
    """uvicorn's server, which tells the app it is stopping before it waits for the
    connections, so the streams it relays end with an error event instead of being cut."""

    async def shutdown(self, sockets=None) -> None:
        endpoints = getattr(getattr(self.config.app, "state", None), "endpoints", None)
        if endpoints is not None:
            endpoints.shut_down()
        await super().shutdown(sockets)


def start(
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    forward=None,
    save=None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    responder: Optional[Responder] = None,
    max_captures: int = DEFAULT_MAX_CAPTURES,
    log: Optional[Log] = None,
    lang: Optional[str] = None,
    body_timeout: Optional[float] = None,
) -> "RunningServer":
    """Start the server in a background thread and return once it accepts connections.

    `forward` is an OpenAI-compatible engine's URL (or a `Forwarder`); `responder`
    replaces the teaching responder; `save` appends every capture to a JSON Lines file;
    `log` gets one line per request (nothing is printed by default); `lang` ("en", "zh") is the
    language of replies, summaries and errors when a request's Accept-Language names neither
    (default: the current language, so a Chinese chapter's server answers in Chinese);
    `body_timeout` the seconds a body may take after its headers (default: app.DEFAULT_BODY_TIMEOUT)."""
    with using(lang):
        warn_unless_loopback(host)
    app = create_app(
        responder=responder, forward=forward, save=save, max_body_bytes=max_body_bytes, max_captures=max_captures, log=log,
        lang=lang, **({} if body_timeout is None else {"body_timeout": body_timeout}),
    )  # fmt: skip
    sock = bind(host, port)
    server = BridgeServer(server_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="tutorial-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise RuntimeError("the tutorial server did not start (its startup failed or took too long)")
        time.sleep(0.005)
    return RunningServer(app, server, thread, sock)


class RunningServer:
    """A server running in a background thread. Stop it with `.stop()` or a `with` block."""

    def __init__(self, app, server: uvicorn.Server, thread: threading.Thread, sock: socket.socket):
        self.app = app
        self._server, self._thread, self._socket = server, thread, sock
        address = sock.getsockname()
        self.host, self.port = address[0], address[1]
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{shown}:{self.port}"

    def captures(self) -> list[dict]:
        """Every capture kept, oldest first (the server's own dicts: read them, do not change them)."""
        return self.app.state.captures.all()

    def capture(self, capture_id: str) -> Optional[dict]:
        return self.app.state.captures.get(capture_id)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop accepting, finish the requests in flight, and wait for the thread to end."""
        self._server.should_exit = True
        self._thread.join(timeout)
        self._socket.close()

    def __enter__(self) -> "RunningServer":
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<RunningServer {self.url} {state}, {len(self.app.state.captures)} captures>"


def server_config(app) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        log_config=None,  # leave the process's logging alone (a notebook's, a test's)
        access_log=False,  # the app logs its own line per request, with secrets left out
        lifespan="on",
        ws="none",
        server_header=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )


def bind(host: str, port: int) -> socket.socket:
    """A bound socket for `host:port`; uvicorn makes it listen."""
    family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, protocol)
    if os.name != "nt":  # lets a restarted server take its port back at once (on Windows it would share it)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def warn_unless_loopback(host: str) -> None:
    if not is_loopback(host):
        print(words_for(WORDS, "not_loopback", host=host), file=sys.stderr)
