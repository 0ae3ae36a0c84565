"""The class hub's parts that need no running hub: the port check after a stop, the room's
certificate, the sandbox's command line, the progress service's refusals and the instructor
page's statuses. The whole hub is in tests/test_hub.py and tests/test_hub_attacks.py."""

from __future__ import annotations

import shutil
import socket
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hub"))


def test_a_port_left_in_time_wait_is_free_for_the_next_hub():
    """Stopping a hub leaves its port in TIME-WAIT for up to a minute; the next start may use it."""
    import run

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the proxy (Node.js) listens
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    served, _ = listener.accept()
    served.close()  # the server's side closes first: its port goes to TIME-WAIT
    client.close()
    listener.close()
    with socket.socket() as plain:  # what the old check did: refused
        with pytest.raises(OSError):
            plain.bind(("127.0.0.1", port))
    run.check_port("127.0.0.1", port)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(run.Problem, match="cannot listen"):
            run.check_port("127.0.0.1", taken.getsockname()[1])


def test_a_room_gets_a_certificate_and_its_fingerprint(tmp_path):
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    import ssl

    import run

    cert, key, fingerprint = run.self_signed(tmp_path, "192.168.1.20")
    assert len(fingerprint) == 64 and int(fingerprint, 16)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)  # the pair fits
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert run.self_signed(tmp_path, "192.168.1.20")[2] == fingerprint  # kept, not made anew


def test_the_sandbox_shows_the_checkout_after_hiding_tmp_and_the_home():
    from spawner import sandbox_command

    command = sandbox_command(home="/srv/hub/homes/ana", hidden="/srv/hub", shown={"/srv/hub/class.git": ""},
                              private_home="/root", visible=["/tmp/x/main", "/root/.pyenv/versions/3.11.7"],
                              class_user="nobody", tmp_bytes=2**30)
    flat = " ".join(command)
    assert flat.index("--tmpfs /tmp") < flat.index("--ro-bind /tmp/x/main")
    assert flat.index("--tmpfs /root") < flat.index("--ro-bind /root/.pyenv/versions/3.11.7")
    assert "--perms 0755 --dir /tmp/x" in flat and "--perms 0755 --dir /root/.pyenv/versions" in flat
    assert flat.index("--tmpfs /srv/hub") < flat.index("--ro-bind /srv/hub/class.git") < flat.index("--bind /srv/hub/homes/ana")
    assert "--size 1073741824 --tmpfs /tmp" in flat
    if any(part.endswith("setpriv") for part in command):  # as root: a non-root user, nothing kept
        assert {"--clear-groups", "--bounding-set=-all", "--no-new-privs", "--inh-caps=-all"} <= set(command)
    else:
        assert {"--unshare-user", "--disable-userns"} <= set(command) and "ALL" in command


def test_a_clone_sharing_another_checkouts_venv_shows_that_venv_to_learners(tmp_path, monkeypatch):
    """A clone whose .venv is a link into another checkout (as the newcomer test makes one, under
    /tmp, the other checkout in a hidden home): the link's target is shown, or bwrap finds no python."""
    import run

    checkout, elsewhere = tmp_path / "clone", tmp_path / "home" / "main" / ".venv"
    (checkout / "tutorial").mkdir(parents=True)
    elsewhere.mkdir(parents=True)
    (checkout / ".venv").symlink_to(elsewhere, target_is_directory=True)
    (checkout / "inside").symlink_to(checkout / "tutorial", target_is_directory=True)
    monkeypatch.setattr(run, "ROOT", checkout)
    shown = run.visible_to_learners()
    assert str(checkout) in shown and str(elsewhere) in shown
    assert str(checkout / "tutorial") not in shown  # a link inside the checkout needs no bind of its own
    assert len(shown) == len(set(shown))


def test_the_service_refuses_what_it_cannot_keep():
    from service import Rate, checked, strict_json

    known = frozenset({"02.count"})
    good = {"id": "a1", "exercise": "02.count", "verdict": "wrong", "mistake": "m", "at": 1.8e9}
    assert checked(dict(good), known) == good
    refused = {
        b'{"id": "a", "exercise": "02.count", "verdict": "wrong", "at": Infinity}': "Infinity",
        b'{"id": "a", "exercise": "02.count", "verdict": "wrong", "at": NaN}': "NaN",
        b"[" * 4000 + b"]" * 4000: "nested",
        b'{"id": "a", "exercise": "02.count", "verdict": "wrong", "mistake": "\\ud800", "at": 1.8e9}': "surrogate",
        b'{"id": "a", "exercise": "flood.00001", "verdict": "wrong", "at": 1.8e9}': "no exercise called",
        b'{"id": "a", "exercise": "02.count", "verdict": "wrong", "at": 1.8e9, "learner": "ana"}': "not a field",
        b'{"id": "a b", "exercise": "02.count", "verdict": "wrong", "at": 1.8e9}': "^id: ",
        b'{"id": "a", "exercise": "02.count", "verdict": "wrong", "at": 1e300}': "^at: ",
        b'\xff': "UTF-8",
    }
    for body, reason in refused.items():
        with pytest.raises(ValueError, match=reason):
            checked(strict_json(body), known)
    rate = Rate(rate=0.0, burst=3)
    assert [rate.allow("mallory") for _ in range(5)] == [True, True, True, False, False]
    assert rate.allow("ana")  # a bucket each


def test_the_page_tells_apart_who_is_where():
    from service import page, summary

    events = [{"learner": "ben", "exercise": "02.count", "verdict": "wrong", "mistake": "m", "at": 1_800_000_000},
              {"learner": "chen", "exercise": "03.tools", "verdict": "right", "mistake": None, "at": 1_800_000_010}]
    people = {"ana": {"server": None}, "ben": {"server": "running", "last_activity": 1_800_000_005},
              "chen": {"server": "running"}, "dana": {"server": "failed", "why": "exit 1: bwrap: execvp"},
              "eve": {"server": "starting"}}
    data = summary(events, list(people), people)
    where = data["where"]
    assert where["ana"] == {"status": "not started", "chapter": None, "last_activity": None}
    assert where["ben"] == {"status": "stuck", "at": "02.count", "chapter": "02", "last_activity": 1_800_000_005}
    assert where["chen"]["status"] == "reading" and where["chen"]["chapter"] == "03"
    assert where["dana"] == {"status": "failed", "why": "exit 1: bwrap: execvp", "chapter": None, "last_activity": None}
    assert where["eve"]["status"] == "starting"
    shown = page(data, "en", now=1_800_000_020)
    assert "stuck at 02.count" in shown and "server failed: exit 1: bwrap: execvp" in shown
    assert "15 s ago" in shown and 'http-equiv="refresh"' in shown
    assert "卡在 02.count" in page(data, "zh", now=1_800_000_020)
