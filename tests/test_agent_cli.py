"""A real agent CLI against the local server: Claude Code, pinned, over loopback.

`claude -p "Read the file notes.txt and summarise it" --allowedTools Read` runs in a scratch
project with a scratch HOME and a clean environment, pointed at `tutorial.serve` by
ANTHROPIC_BASE_URL. The server answers with `tool_then_text("Read", ...)`: the first request
gets a streamed call of the CLI's own Read tool on notes.txt, the second (which carries the
file's content as a tool_result) gets a streamed text, and the CLI prints that text and exits.
The test then reads both captures: what a real agent sends, that both targets translate it,
and that the API key is nowhere in them.

The CLI is `@anthropic-ai/claude-code` at AGENT_CLI_VERSION, which the set-up installs with
`npm install --prefix .agent-cli @anthropic-ai/claude-code@<version>`; TUTORIAL_AGENT_CLI
names another binary of the same version. Without it the test is skipped locally, with the
reason, and fails under CI (when the CI variable is set). Nothing here talks to Anthropic:
CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 turns off the CLI's own calls home, and the two
requests it sends are the only ones the server receives.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AGENT_CLI_VERSION = "2.1.332"
INSTALLED = ROOT / ".agent-cli" / "node_modules" / ".bin" / ("claude.cmd" if os.name == "nt" else "claude")
PROMPT = "Read the file notes.txt and summarise it"
NOTES = "Meeting notes\n- ship the tutorial server\n- record a Claude Code session\n"
KEY = "sk-ant-api03-dummy-key-for-the-agent-cli-test"  # not a real key: it must only never be kept
RUN_TIMEOUT = 120  # seconds; the run takes about a second


def unavailable(reason: str) -> None:
    """A missing CLI fails the test under CI and skips it elsewhere, with the reason."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"agent CLI test cannot run under CI: {reason}")
    pytest.skip(reason)


def agent_cli(home: Path) -> Path:
    """The pinned CLI: TUTORIAL_AGENT_CLI, else the one the set-up installs in .agent-cli/."""
    named = os.environ.get("TUTORIAL_AGENT_CLI")
    path = Path(named) if named else INSTALLED
    if not path.is_file():
        where = f"TUTORIAL_AGENT_CLI={named}" if named else str(INSTALLED.relative_to(ROOT))
        unavailable(
            f"the agent CLI is not installed ({where} is missing); install it with "
            f"npm install --prefix .agent-cli @anthropic-ai/claude-code@{AGENT_CLI_VERSION}"
        )
    try:
        version = subprocess.run(
            [str(path), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            env=clean_env(home),
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as error:
        unavailable(f"{path} does not run: {error}")
    if not version.startswith(AGENT_CLI_VERSION + " "):
        unavailable(f"{path} is {version or 'of an unknown version'}, and this test is pinned to {AGENT_CLI_VERSION}")
    return path


def clean_env(home: Path, **extra: str) -> dict:
    """Nothing from the caller's environment but PATH: no proxy, no real key, no user config."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "TERM": "dumb", **extra}
    if os.name == "nt":  # what a Windows process needs to start at all
        env.update(SYSTEMROOT=os.environ.get("SYSTEMROOT", ""), USERPROFILE=str(home))
    return env


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """One run of the CLI against the server: (the finished process, the captures, the server's log, seconds)."""
    scratch = tmp_path_factory.mktemp("agent_cli")
    project, home = scratch / "project", scratch / "home"
    project.mkdir()
    home.mkdir()
    cli = agent_cli(home)
    notes = project / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    log: list[str] = []
    responder = serve.tool_then_text("Read", {"file_path": str(notes)})
    with serve.start(responder=responder, log=log.append) as server:
        env = clean_env(
            home,
            ANTHROPIC_BASE_URL=server.url,
            ANTHROPIC_API_KEY=KEY,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        )
        started = time.perf_counter()
        try:
            finished = subprocess.run(
                [str(cli), "-p", PROMPT, "--allowedTools", "Read"],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                timeout=RUN_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as error:
            log_text = "\n".join(log)
            pytest.fail(f"the agent CLI did not finish within {RUN_TIMEOUT} s\nserver log:\n{log_text}\n{error.stderr}")
        seconds = time.perf_counter() - started
        captures = server.captures()
    print(f"the agent CLI ran for {seconds:.1f} s and sent {len(captures)} requests")
    return finished, captures, log, seconds


def report(session) -> str:
    finished, captures, log, _ = session
    listing = "\n".join(f"  {c['method']} {c['path']} -> {c.get('status')}: {c.get('summary')}" for c in captures)
    log_text = "\n".join(log)
    stderr = finished.stderr[-2000:]
    return f"exit {finished.returncode}\nstderr:\n{stderr}\nserver log:\n{log_text}\ncaptures:\n{listing}"


def text_of(message: dict) -> str:
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def test_the_cli_finishes_and_prints_the_responders_final_text(session):
    finished, captures, _, _ = session
    assert finished.returncode == 0, report(session)
    assert len(captures) == 2, report(session)
    final = text_of(captures[1]["reply"])  # what the tool returned, in tool_then_text's words
    assert "Meeting notes" in final and "ship the tutorial server" in final, final
    assert finished.stdout.rstrip("\n") == final.rstrip("\n"), report(session)


def test_both_requests_are_streamed_beta_messages_calls(session):
    _, captures, _, _ = session
    assert [(c["method"], c["path"], c["status"]) for c in captures] == [("POST", "/v1/messages?beta=true", 200)] * 2
    assert [c["body"]["stream"] for c in captures] == [True, True]
    assert [c["reply"]["stop_reason"] for c in captures] == ["tool_use", "end_turn"]
    for capture in captures:
        assert capture["headers"]["user-agent"].startswith(f"claude-cli/{AGENT_CLI_VERSION} ")
        assert "anthropic-beta" in capture["headers"] and "anthropic-version" in capture["headers"]


def test_the_requests_carry_what_a_real_agent_sends(session):
    _, captures, _, _ = session
    for capture in captures:
        body = capture["body"]
        names = [tool["name"] for tool in body["tools"]]
        assert 8 <= len(names) <= 20 and "Read" in names, names  # about a dozen
        assert isinstance(body["system"], list) and any("cache_control" in block for block in body["system"])
        assert "thinking" in body and "context_management" in body and "metadata" in body
        roles = [message["role"] for message in body["messages"]]
        assert "system" in roles[1:], f"no role: system message in the list: {roles}"


def test_the_second_request_carries_the_files_content_as_a_tool_result(session):
    _, captures, _, _ = session
    first, second = captures
    [call] = [block for block in first["reply"]["content"] if block["type"] == "tool_use"]
    assert call["name"] == "Read" and call["input"]["file_path"].endswith("notes.txt")
    messages = second["body"]["messages"]
    echoed = {"role": "assistant", "content": first["reply"]["content"]}
    assert messages[-2] == echoed, "the reply is echoed as it was sent"
    [result] = [block for block in messages[-1]["content"] if block["type"] == "tool_result"]
    assert result["tool_use_id"] == call["id"]
    returned = tutorial.flatten_content(result["content"])
    for line in NOTES.splitlines():  # the Read tool numbers the lines: "1\tMeeting notes"
        assert line in returned, returned


@pytest.mark.parametrize("which", [0, 1], ids=["first", "second"])
def test_both_targets_translate_every_request(session, which):
    _, captures, _, _ = session
    capture = captures[which]
    body = capture["body"]
    for target in ("chat_template", "openai"):
        messages, tools = tutorial.translate(body, target=target)
        assert len(tools) == len(body["tools"]) and messages[0]["role"] == "system"
        traced = tutorial.trace(body, target=target)
        assert capture["translated"][target] == {"translated": traced.translated, "tools_schema": traced.tools_schema}
        assert {"thinking", "context_management", "metadata"} <= {loss.path for loss in traced.losses}
    roles = [message["role"] for message in tutorial.trace(body).translated]
    assert "system" not in roles[1:], "preprocess folds the system message inside the list"
    if which == 1:
        assert roles[-2:] == ["assistant", "tool"]


def test_the_api_key_is_never_kept(session):
    _, captures, log, _ = session
    kept = json.dumps(captures, ensure_ascii=False, default=str) + "\n".join(log)
    assert KEY not in kept
    for capture in captures:
        assert "x-api-key" in capture["headers_withheld"] and "x-api-key" not in capture["headers"]
