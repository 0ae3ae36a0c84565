"""Claude Code through the bridge to the real engine: `claude -p ... --allowedTools Read` with
ANTHROPIC_BASE_URL at `tutorial serve --forward <llama-server>`, the hand-wired tiny model
answering. Its first answer is the wired Read call on notes.txt (relative: the CLI reads it
in its working folder), its second, once the file's content is in as a tool result, the wired
answer, which the CLI prints. The CLI and its set-up are tests/test_agent_cli.py's; the
engine's are tests/test_engine.py's (skipped outside CI when missing, failed under CI)."""

from __future__ import annotations

import subprocess
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_agent_cli import NOTES, KEY, agent_cli, clean_env  # noqa: E402
from test_engine import ANSWER, started  # noqa: E402

from tutorial import serve  # noqa: E402

RUN_TIMEOUT = 300  # seconds: the engine reads a prompt of about 20,000 tokens twice


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("agent_cli_engine")
    project, home = scratch / "project", scratch / "home"
    project.mkdir()
    home.mkdir()
    cli = agent_cli(home)
    (project / "notes.txt").write_text(NOTES, encoding="utf-8")
    log: list[str] = []
    with started("tiny") as engine, serve.start(forward=serve.Forwarder(engine.url, model="tiny"), log=log.append) as bridge:
        env = clean_env(home, ANTHROPIC_BASE_URL=bridge.url, ANTHROPIC_API_KEY=KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
        begun = time.perf_counter()
        finished = subprocess.run(
            [str(cli), "-p", "Read the file notes.txt and summarise it", "--allowedTools", "Read"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=RUN_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - begun
        captures = [c for c in bridge.captures() if c["path"].startswith("/v1/messages")]
    print(f"Claude Code through the bridge to llama-server: {seconds:.1f} s, {len(captures)} requests")
    return finished, captures, log


def test_claude_code_completes_a_read_turn_against_the_engine(session):
    finished, captures, log = session
    listing = "\n".join(f"{c['path']} -> {c.get('status')}: {c.get('summary')}" for c in captures)
    context = f"exit {finished.returncode}\n{finished.stderr[-2000:]}\n{listing}\n" + "\n".join(log)
    assert finished.returncode == 0, context
    assert ANSWER in finished.stdout, context
    calls = [c for c in captures if c.get("reply", {}).get("stop_reason") == "tool_use"]
    assert calls, context
    [use] = [b for b in calls[0]["reply"]["content"] if b["type"] == "tool_use"]
    assert (use["name"], use["input"]) == ("Read", {"file_path": "notes.txt"})
    answered = captures[-1]["body"]["messages"][-1]["content"]
    results = [b for b in answered if isinstance(b, dict) and b.get("type") == "tool_result"]
    assert results and "ship the tutorial server" in str(results[0]["content"]), context
