"""The token path (tutorial/serve/token_path.py) against the real engine: Slime's turn, whole.

The anthropic SDK and Claude Code run multi-turn tool sessions through `serve --tokens` in
front of llama.cpp's server running the hand-wired tiny model (Qwen3's template and
vocabulary). Each turn is rendered to ids by the package, generated from those ids by the
engine (`/completion`, with log-probs), parsed back and recorded per session. The
trajectories are then checked against the ids themselves: `expected_samples` applies Slime's
token rules (clean / realign / fork) to the recorded prompt and output ids of one line of
conversation, independently of the manager's message tree, and the samples must equal it;
the tokens must decode to the template's own rendering of the last prompt plus what the
engine wrote; every trained token must be one the engine generated, with its log-prob.

The expectations that follow from the templates (stated where asserted): the tiny model
writes its tool call in a form the Qwen3 template does not re-render byte for byte, and Qwen3
drops the think block of an answer once a new question follows, so each of those turns is
realigned (Slime's rule) and only the last answer is trained.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

anthropic = pytest.importorskip("anthropic")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402
from tutorial.cli.trajectory import token_turns, trajectories  # noqa: E402
from tutorial.llama_cpp import engine as llama, tiny_model  # noqa: E402
from tutorial.serve.recorded_session import PROMPTS, run_session  # noqa: E402
from tutorial.serve.sessions import session_of  # noqa: E402
from tutorial.serve.token_path import TokenPath, parse_qwen3  # noqa: E402

from test_agent_cli import agent_cli  # noqa: E402
from test_engine import ANSWER, READ_TOOL, REASONING, USER, started, unavailable  # noqa: E402

FORK_THRESHOLD = 1024  # Slime's default, the manager's too
END = "<|im_end|>"


# ---------------------------------------------------------------------------
# Slime's token rules for one line of conversation, from the ids alone


def common_prefix(a: list, b: list) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def expected_samples(turns: list[dict], fork_threshold: int = FORK_THRESHOLD) -> tuple[list[dict], list[str]]:
    """(samples, the kinds) for turns that continue one another, as Slime's manager would make them."""
    samples, kinds, strip = [], [], None
    for turn in turns:
        prompt, output = turn["prompt_ids"], turn["output_ids"]
        log_probs = turn["output_log_probs"] or [0.0] * len(output)
        kind = "fork"
        if strip is not None:
            held = common_prefix(strip["tokens"], prompt)
            if held == len(strip["tokens"]):
                kind = "clean"
            elif held >= strip["start"] and len(output) < fork_threshold:
                kind = "realign"
            kinds.append(kind)
        if kind == "fork":
            if strip is not None:
                samples.append(strip)
            strip = {"tokens": list(prompt), "mask": [0] * len(prompt), "log_probs": [0.0] * len(prompt), "first": len(prompt)}
        elif kind == "realign":  # the last response is overwritten by the prompt's tokens, untrained
            start = strip["start"]
            strip["tokens"][start:] = prompt[start:]
            strip["mask"][start:] = [0] * (len(prompt) - start)
            strip["log_probs"][start:] = [0.0] * (len(prompt) - start)
        else:
            tail = prompt[len(strip["tokens"]):]
            strip["tokens"] += tail
            strip["mask"] += [0] * len(tail)
            strip["log_probs"] += [0.0] * len(tail)
        strip["start"] = len(strip["tokens"])
        strip["tokens"] += output
        strip["mask"] += [1] * len(output)
        strip["log_probs"] += log_probs
    samples.append(strip)
    shaped = [{"tokens": s["tokens"], "prompt_length": s["first"], "loss_mask": s["mask"][s["first"]:],
               "rollout_log_probs": s["log_probs"][s["first"]:]} for s in samples if any(s["mask"][s["first"]:])]  # fmt: skip
    return shaped, kinds


def continues(earlier: dict, later: dict) -> bool:
    """`later`'s prompt messages are `earlier`'s, then its answer, then more (one line of conversation)."""
    held = earlier["prompt_messages"] + [earlier["response_message"]]
    return later["prompt_messages"][: len(held)] == held


def check_line(records: list[dict], session: dict) -> list[str]:
    """The session's samples equal Slime's rules applied to its ids; every sample is well formed.
    Returns the kinds, for the caller's own expectation."""
    for earlier, later in zip(records, records[1:]):
        assert continues(earlier, later), "the session's turns are one line of conversation"
    wanted, kinds = expected_samples([r["turn"] for r in records])
    got = session["samples"]
    assert len(got) == len(wanted), (len(got), len(wanted), session["drift"])
    for sample, expected in zip(got, wanted):
        assert sample["tokens"] == expected["tokens"]
        assert sample["prompt_length"] == expected["prompt_length"]
        assert sample["loss_mask"] == expected["loss_mask"]
        assert sample["rollout_log_probs"] == expected["rollout_log_probs"]
        assert len(sample["loss_mask"]) == len(sample["rollout_log_probs"]) == sample["response_length"]
        assert sample["prompt_length"] + sample["response_length"] == len(sample["tokens"])
        assert sample["trained"] == sum(sample["loss_mask"])
    assert [e["classified"] for e in session["drift"] if "classified" in e] == kinds
    return kinds


def check_trained_tokens_are_generated(records: list[dict], session: dict) -> int:
    """Every run of trained tokens is one turn's output ids, with that turn's log-probs; the count."""
    outputs = [(r["turn"]["output_ids"], r["turn"]["output_log_probs"]) for r in records]
    trained = 0
    for sample in session["samples"]:
        mask, start = sample["loss_mask"] + [0], None
        for i, bit in enumerate(mask):
            if bit and start is None:
                start = i
            elif not bit and start is not None:
                at = sample["prompt_length"]
                run = (sample["tokens"][at + start: at + i], sample["rollout_log_probs"][start:i])
                assert run in outputs, f"trained tokens {start}..{i} are no turn's output"
                trained += i - start
                start = None
    return trained


def decode(ids: list[int]) -> str:
    from tutorial.watch.tokenizer import backend_tokenizer

    return backend_tokenizer("qwen3").decode(ids, skip_special_tokens=False)


def check_log_probs(records: list[dict]) -> None:
    for record in records:
        turn = record["turn"]
        assert len(turn["output_log_probs"]) == len(turn["output_ids"]) > 0
        assert all(math.isfinite(p) and p <= 0.0 for p in turn["output_log_probs"])


# ---------------------------------------------------------------------------
# The SDK: a three-turn tool session (a call, its result, a new question)


@pytest.fixture(scope="module")
def engine():
    with started("tiny") as running:
        yield running


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    return tmp_path_factory.mktemp("tokens") / "captures.jsonl"


@pytest.fixture(scope="module")
def bridge(engine, saved):
    log: list[str] = []
    with serve.start(forward=TokenPath(engine.url), save=saved, log=log.append) as running:
        running.log = log
        yield running


def sdk_session(url: str, stream: bool, **auth) -> list:
    """Three requests: Read is called; its result comes back; a new question follows the answer."""
    client = anthropic.Anthropic(base_url=url, max_retries=0, **auth)

    def ask(messages):
        if stream:
            with client.messages.stream(model="tiny", max_tokens=200, messages=messages, tools=[READ_TOOL]) as events:
                return events.get_final_message()
        return client.messages.create(model="tiny", max_tokens=200, messages=messages, tools=[READ_TOOL])

    first = ask([USER])
    result = {"type": "tool_result", "tool_use_id": first.content[-1].id, "content": "Meeting notes: ship it"}
    history = [USER, {"role": "assistant", "content": first.content}, {"role": "user", "content": [result]}]
    second = ask(history)
    history += [{"role": "assistant", "content": second.content}, {"role": "user", "content": "Thanks. Anything else?"}]
    third = ask(history)
    return [first, second, third]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
def test_an_sdk_tool_session_through_the_token_path(bridge, stream):
    key = f"sdk-session-{'streamed' if stream else 'json'}"
    replies = sdk_session(bridge.url, stream, api_key=key)
    assert [r.stop_reason for r in replies] == ["tool_use", "end_turn", "end_turn"]
    use = replies[0].content[-1]
    assert (use.type, use.name, use.input) == ("tool_use", "Read", {"file_path": "notes.txt"})
    for reply in replies[1:]:
        assert [b.type for b in reply.content] == ["thinking", "text"]
        assert (reply.content[0].thinking, reply.content[1].text) == (REASONING, ANSWER)

    digest = session_of({"x-api-key": key})
    captures = [c for c in bridge.captures() if c.get("tokens", {}).get("session") == digest]
    records = token_turns(captures)
    assert len(records) == 3
    check_log_probs(records)
    assert [r["output_text"] for r in records] == [tiny_model.TOOL_TEXT + END] + [tiny_model.ANSWER_TEXT + END] * 2
    for capture, reply in zip(captures, replies):
        assert capture["tokens"]["prompt_tokens"] == reply.usage.input_tokens == len(capture["tokens"]["turn"]["prompt_ids"])

    [session] = trajectories(captures)
    kinds = check_line(records, session)
    # The model's call is not the template's rendering of it ("\n\n" and compact JSON), and
    # Qwen3 drops the answer's think block once a new question follows: both realign.
    assert kinds == ["realign", "realign"]
    [sample] = session["samples"]
    last = records[-1]
    assert sample["trained"] == len(last["turn"]["output_ids"]) == check_trained_tokens_are_generated(records, session)
    rendered = tutorial.render(last["prompt_messages"], last["tools"], template="qwen3")
    assert decode(sample["tokens"]) == rendered + tiny_model.ANSWER_TEXT + END


def test_the_sessions_are_told_apart_by_bearer_token_and_key_and_never_kept(bridge, saved):
    replies = sdk_session(bridge.url, False, auth_token="bearer-session-token")
    assert replies[-1].stop_reason == "end_turn"
    digest = session_of({"authorization": "Bearer bearer-session-token"})
    assert digest.startswith("key:") and digest != session_of({"x-api-key": "sdk-session-json"})
    sessions = {s["session"]: s for s in trajectories(bridge.captures())}
    assert digest in sessions and sessions[digest]["turns"] == 3
    kept = saved.read_text(encoding="utf-8") + "\n".join(bridge.log)
    for secret in ("bearer-session-token", "sdk-session-json", "sdk-session-streamed"):
        assert secret not in kept


def test_the_export_command_rebuilds_the_live_managers_trajectories(bridge, saved):
    sdk_session(bridge.url, False, api_key="sdk-session-export")
    digest = session_of({"x-api-key": "sdk-session-export"})
    finished = subprocess.run([sys.executable, "-m", "tutorial", "trajectory", str(saved), "--json"],
                              capture_output=True, text=True, encoding="utf-8", timeout=120)  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    exported = {s["session"]: s for s in json.loads(finished.stdout)["sessions"]}
    live = bridge.app.state.endpoints.forwarder.manager.get_trajectory(digest)
    assert [s["tokens"] for s in exported[digest]["samples"]] == [s.tokens for s in live]
    assert [s["loss_mask"] for s in exported[digest]["samples"]] == [s.loss_mask for s in live]
    assert [s["rollout_log_probs"] for s in exported[digest]["samples"]] == [s.rollout_log_probs for s in live]
    text = subprocess.run([sys.executable, "-m", "tutorial", "trajectory", str(saved)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)  # fmt: skip
    assert text.returncode == 0 and f"session {digest} (qwen3): 3 turn(s) -> 1 sample(s)" in text.stdout, text.stdout


def test_the_parser_reads_qwen3s_output_and_marks_a_broken_call():
    assert parse_qwen3(tiny_model.ANSWER_TEXT + END) == ({"reasoning": REASONING, "text": ANSWER, "tool_uses": []}, False)
    parsed, ill = parse_qwen3(tiny_model.TOOL_TEXT + END)
    assert parsed["tool_uses"] == [{"name": "Read", "input": {"file_path": "notes.txt"}}] and not ill
    assert parse_qwen3('<tool_call>\n{"name": "Read", "arguments": {"file\n</tool_call>')[1] is True


# ---------------------------------------------------------------------------
# Claude Code: two runs of the CLI, one conversation (a Read, its answer, a new question)


@pytest.fixture(scope="module")
def claude_code(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("tokens_agent_cli")
    cli = agent_cli(scratch)
    reason = llama.unavailable()
    if reason:
        unavailable(reason)  # skipped, or failed under CI, with the reason
    return run_session(cli, scratch)


def test_claude_code_runs_a_multi_turn_session_through_the_token_path(claude_code):
    runs, captures = claude_code["runs"], claude_code["captures"]
    listing = "\n".join(f"{c['path']} -> {c.get('status')}: {c.get('summary')}" for c in captures)
    context = "\n".join(f"{r['command']}: exit {r['returncode']}\n{r['stderr'][-1500:]}" for r in runs) + "\n" + listing
    assert [r["returncode"] for r in runs] == [0, 0], context
    assert ANSWER in runs[0]["stdout"] and ANSWER in runs[1]["stdout"], context
    messages = [c for c in captures if c["path"].startswith("/v1/messages?") or c["path"] == "/v1/messages"]
    records = token_turns(messages)
    assert len(records) == len(messages) >= 3, context  # every request made a turn
    check_log_probs(records)
    assert [c["reply"]["stop_reason"] for c in messages] == ["tool_use", "end_turn", "end_turn"], context
    assert PROMPTS[1] in json.dumps(messages[-1]["body"]["messages"][-1], ensure_ascii=False)

    [session] = trajectories(captures)  # one key, one session
    assert session["session"] == session_of({"x-api-key": "sk-ant-api03-dummy-key-for-the-trajectory-recording"})
    kinds = check_line(records, session)
    assert kinds == ["realign", "realign"], session["drift"]
    trained = check_trained_tokens_are_generated(records, session)
    [sample] = session["samples"]
    assert trained == sample["trained"] == len(records[-1]["turn"]["output_ids"])
    last = records[-1]
    rendered = tutorial.render(last["prompt_messages"], last["tools"], template="qwen3")
    assert decode(sample["tokens"]) == rendered + last["output_text"]
    print(f"Claude Code through the token path: {len(records)} turns, 1 sample of {len(sample['tokens'])} tokens, "
          f"{sample['trained']} trained; runs took {[r['seconds'] for r in runs]} s")  # fmt: skip
