"""A Claude Code session through the token path, and its trajectory, recorded for chapter 13.

    python -m tutorial.serve.recorded_session update    run the session again, rewrite the JSON
    from tutorial.serve.recorded_session import load     the recording, without an engine

The session: Claude Code (the pinned CLI the set-up installs in .agent-cli/) in a scratch
project holding notes.txt, its ANTHROPIC_BASE_URL at `tutorial serve --tokens` in front of
llama.cpp's server running the hand-wired tiny model (Qwen3's template and vocabulary). Two
runs of the CLI make one conversation: `claude -p FIRST --allowedTools Read` (the model calls
Read, the CLI sends the file back, the model answers), then `claude -c -p SECOND` (the same
conversation continued with a new question). Every request goes through the token path, and
the recording keeps, per turn, what the engine read and wrote, and the samples Slime's rules
make of the session (`.venv/bin/python -m tutorial trajectory`'s JSON).

`run_session` is also what tests/test_engine_tokens.py runs, so the recording and the test
are one session made the same way. Needs the engine (`python3 tasks.py engine`), the serve
extra and the agent CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Optional

RECORDING = Path(__file__).with_name("chapter_13_trajectory.json")
ROOT = Path(__file__).resolve().parents[2]  # the checkout: .agent-cli/ is there
AGENT_CLI = ROOT / ".agent-cli" / "node_modules" / ".bin" / ("claude.cmd" if os.name == "nt" else "claude")
NOTES = "Meeting notes\n- ship the tutorial server\n- record a Claude Code session\n"
PROMPTS = ("Read the file notes.txt and summarise it", "Thanks. What is the second item on the list?")
KEY = "sk-ant-api03-dummy-key-for-the-trajectory-recording"  # not a real key; only its digest is kept
RUN_TIMEOUT = 300  # seconds a run may take: the engine reads a prompt of about 12,000 tokens per turn


def cli_environment(home: Path, **extra: str) -> dict:
    """Nothing from the caller's environment but PATH: no proxy, no real key, no user config."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "TERM": "dumb", **extra}
    if os.name == "nt":
        env.update(SYSTEMROOT=os.environ.get("SYSTEMROOT", ""), USERPROFILE=str(home))
    return env


def run_session(cli: Path, scratch: Path, *, log=None) -> dict:
    """Start the tiny engine and a token-path bridge, run the CLI's two runs, stop both.
    Returns {"runs": [{"command", "returncode", "stdout", "stderr", "seconds"}], "captures": [...]}."""
    from tutorial import serve
    from tutorial.serve.token_path import TokenPath

    from tutorial.llama_cpp import engine as llama

    project, home = scratch / "project", scratch / "home"
    project.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    (project / "notes.txt").write_text(NOTES, encoding="utf-8")
    runs = []
    with llama.start("tiny") as running, serve.start(forward=TokenPath(running.url), log=log) as bridge:
        env = cli_environment(home, ANTHROPIC_BASE_URL=bridge.url, ANTHROPIC_API_KEY=KEY,
                              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")  # fmt: skip
        for command in ([str(cli), "-p", PROMPTS[0], "--allowedTools", "Read"],
                        [str(cli), "-c", "-p", PROMPTS[1], "--allowedTools", "Read"]):  # fmt: skip
            begun = time.perf_counter()
            finished = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, encoding="utf-8",
                                      timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)  # fmt: skip
            runs.append({"command": ["claude", *command[1:]], "returncode": finished.returncode, "stdout": finished.stdout,
                         "stderr": finished.stderr, "seconds": round(time.perf_counter() - begun, 1)})  # fmt: skip
            if finished.returncode != 0:
                break
        captures = bridge.captures()
    return {"runs": runs, "captures": captures}


def recording(session: dict) -> dict:
    """What the chapter shows: the runs, each turn as the engine saw it, the trajectory."""
    from tutorial.cli.trajectory import token_turns, trajectories

    turns = []
    for capture, record in zip([c for c in session["captures"] if "tokens" in c and "turn" in c["tokens"]],
                               token_turns(session["captures"])):  # fmt: skip
        turn = record["turn"]
        turns.append({
            "capture": capture["id"],
            "messages": [m.get("role") for m in record["prompt_messages"]],
            "prompt_tokens": len(turn["prompt_ids"]),
            "output_ids": turn["output_ids"],
            "output_text": record["output_text"],
            "output_log_probs": turn["output_log_probs"],
            "finish_reason": turn["finish_reason"],
            "stop_reason": capture["reply"]["stop_reason"],
        })  # fmt: skip
    return {
        "recorded": date.today().isoformat(),
        "how": "python -m tutorial.serve.recorded_session update",
        "runs": [{key: run[key] for key in ("command", "returncode", "stdout")} for run in session["runs"]],
        "turns": turns,
        "sessions": trajectories(session["captures"]),
    }


def load() -> dict:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    if argv[:1] != ["update"]:
        print("usage: python -m tutorial.serve.recorded_session update   (run the session again, rewrite the JSON)")
        return 2
    cli: Optional[str] = os.environ.get("TUTORIAL_AGENT_CLI") or (str(AGENT_CLI) if AGENT_CLI.is_file() else None)
    if cli is None:
        print(f"error: the agent CLI is not installed ({AGENT_CLI.relative_to(ROOT)}): python3 tasks.py setup installs it",
              file=sys.stderr)  # fmt: skip
        return 1
    with tempfile.TemporaryDirectory(prefix="trajectory-recording-") as scratch:
        session = run_session(Path(cli), Path(scratch), log=lambda line: print(line, file=sys.stderr))
    failed = [run for run in session["runs"] if run["returncode"] != 0]
    if failed or len(session["runs"]) != len(PROMPTS):
        print(f"error: the CLI failed: {failed[-1]['stderr'][-2000:] if failed else session['runs']}", file=sys.stderr)
        return 1
    RECORDING.write_text(json.dumps(recording(session), ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {RECORDING}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
