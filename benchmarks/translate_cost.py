"""What does Action 2 cost next to reading the request at all?

Two kinds of body, measured the same way:

- the agent session (`tutorial.examples.agent_request`) at about 0.05, 0.5 and 5 MB: turns of
  text, thinking with signatures, tool_use and tool_result, and 30 short tools;
- a Claude-Code-shaped body (`tutorial.examples.claude_code_request`) of about 0.55 MB: the
  recorded CLI's long system prompt blocks with cache_control, its mid-list system message,
  20 tools with long descriptions and schemas up to seven levels deep, then 155 rounds of
  thinking, text, a tool call and a tool_result of numbered file lines.

For each body, in rounds (every case once per round, so a busy neighbour slows all of them
alike), on the same bytes:

    json.loads                      the baseline every server pays
    json.loads + paths, unchecked   the two paths with no contract: what an adapter that
                                    checks nothing (Slime's translate) pays
    json.loads + translate          validation included, each target
    translate_json                  the bytes entry point (reading included)
    json.loads + trace              the recording walk used by notebooks and playground

It prints the median of each as a ratio to json.loads of that body (flat ratios across the
sizes mean linear cost), then the peak memory of translate and trace as a ratio to the
parsed body's own. Times are this process's CPU time (`time.process_time`), not the wall
clock: on a machine shared with other jobs, waiting for a core then slows no case.
Run: python benchmarks/translate_cost.py [ROUNDS]

Beside Slime (issue 37): with `--slime CHECKOUT` (a git clone of THUDM/slime holding commit
624b824a898a) it times only Slime's translate, ours (both targets) and trace on the shared body
`../shared/bench/peer_body.json` and on that body with its messages ten times over, the same way
(interleaved rounds, CPU time, medians, × `json.loads`), and prints ours ÷ Slime.
Run: python benchmarks/translate_cost.py [ROUNDS] --slime ../slime
"""

from __future__ import annotations

import ast
import gc
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial import targets, trace, translate, translate_json  # noqa: E402
from tutorial.examples import agent_request, claude_code_request, claude_code_session  # noqa: E402


def unchecked(raw: bytes, target: str = "chat_template"):
    """The two paths alone, on a body nobody checked."""
    body, chosen = json.loads(raw), targets.get(target)
    return chosen.messages_path(body["messages"], body.get("system")), chosen.tools_path(body.get("tools"))


CASES = {
    "json.loads": json.loads,
    "json.loads + paths, unchecked": unchecked,
    "json.loads + translate (chat_template)": lambda r: translate(json.loads(r)),
    "json.loads + translate (openai)": lambda r: translate(json.loads(r), target="openai"),
    "translate_json (bytes, chat_template)": translate_json,
    "json.loads + trace (chat_template)": lambda r: trace(json.loads(r)),
}
def schema_heavy_request(tools: int = 60, turns: int = 200) -> dict:
    """Tools that dominate the body: 60 tools with long descriptions and wide, nested schemas,
    four system blocks, and tool_results whose content is a list of several text parts (the
    shapes a coding agent with many MCP servers sends). About 0.44 MB."""
    def schema(i: int) -> dict:
        fields = {f"field_{k}": {"type": "string", "description": f"Field {k} of tool {i}: " + "what it holds and when to set it. " * 3}
                  for k in range(12)}  # fmt: skip
        fields["filters"] = {"type": "array", "items": {"type": "object", "properties": {
            "key": {"type": "string"}, "op": {"type": "string", "enum": ["eq", "ne", "lt", "gt", "in"]},
            "value": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "array", "items": {"type": "string"}}]}}}}  # fmt: skip
        return {"type": "object", "properties": fields, "required": ["field_0"], "additionalProperties": False}

    system = [{"type": "text", "text": f"System part {n}. " + "Follow the project's rules; 遵守项目约定。 " * 40} for n in range(4)]
    system[-1]["cache_control"] = {"type": "ephemeral"}
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": "Audit the repository."}]}]
    for turn in range(turns):
        call_id = f"toolu_{turn:020x}"
        messages.append({"role": "assistant", "content": [
            {"type": "text", "text": f"Querying with tool {turn % tools}."},
            {"type": "tool_use", "id": call_id, "name": f"mcp__server__tool_{turn % tools}",
             "input": {"field_0": f"value {turn}", "filters": [{"key": "path", "op": "in", "value": ["src", "tests"]}]}},
        ]})  # fmt: skip
        parts = [{"type": "text", "text": f"row {r}: 结果 {turn}-{r} " + "x" * 60} for r in range(8)]
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": parts}]})
    return {"model": "m", "max_tokens": 1024, "system": system, "messages": messages,
            "tools": [{"name": f"mcp__server__tool_{i}", "description": f"Tool {i}. " + "It queries the server. " * 20,
                       "input_schema": schema(i)} for i in range(tools)]}  # fmt: skip


BODIES = {
    "Claude Code, recorded request 1": lambda: claude_code_session()["requests"][0]["body"],
    "Claude Code, recorded request 2": lambda: claude_code_session()["requests"][1]["body"],
    "long tool schemas, 0.44 MB": schema_heavy_request,
    "agent session, 0.05 MB": lambda: agent_request(40),
    "agent session, 0.5 MB": lambda: agent_request(400),
    "agent session, 5 MB": lambda: agent_request(4000),
    "Claude Code shape, 0.55 MB": claude_code_request,
}
TARGETS = {  # the goals of issues 23 and 30, as a ratio to json.loads (trace: to translate)
    "json.loads + translate (chat_template)": 2.0,
    "json.loads + translate (openai)": 2.0,
    "translate_json (bytes, chat_template)": 1.5,
}


def interleaved(raw: bytes, rounds: int, calls: int, cases: dict = CASES) -> dict[str, float]:
    """Median seconds per call of each case: `rounds` rounds, each running every case
    `calls` times in a row (the median resists a busy neighbour core)."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, function in cases.items():
            gc.collect()  # each case starts from the same heap, not from the previous one's garbage
            start = time.process_time()
            for _ in range(calls):
                function(raw)
            times[name].append((time.process_time() - start) / calls)
    return {name: statistics.median(values) for name, values in times.items()}


def peak_bytes(function, *arguments) -> int:
    tracemalloc.start()
    try:
        function(*arguments)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(rounds: int = 15) -> dict:
    results = {}
    for label, build in BODIES.items():
        raw = json.dumps(build(), ensure_ascii=False).encode()
        calls = max(1, int(2e6 // len(raw)))  # about 2 MB of text per case and round
        for function in CASES.values():  # warm up: pydantic builds its validators lazily
            function(raw)
        seconds = interleaved(raw, rounds, calls)
        results[label] = seconds
        base = seconds["json.loads"]
        print(f"{label}: {len(raw) / 1e6:.2f} MB, {len(json.loads(raw)['messages'])} messages, "
              f"median of {rounds} interleaved rounds of {calls} call(s)")  # fmt: skip
        for name, value in seconds.items():
            goal = f"   (goal <= {TARGETS[name]:.1f}x)" if name in TARGETS else ""
            print(f"  {name:<42} {value * 1e3:8.2f} ms   {value / base:5.2f}x json.loads{goal}")
        translated, traced = seconds["json.loads + translate (chat_template)"], seconds["json.loads + trace (chat_template)"]
        print(f"  trace / translate, json.loads in both       {traced / translated:5.2f}x              (goal <= 2.0x)")
    raw = json.dumps(agent_request(400), ensure_ascii=False).encode()
    body_peak = peak_bytes(json.loads, raw)
    body = json.loads(raw)
    print("peak memory (0.5 MB agent session), as a ratio to the parsed body's own peak:")
    print(f"  json.loads                 {body_peak / 1e6:6.2f} MB   1.00x")
    for name, function in {"translate": translate, "trace": trace}.items():
        peak = peak_bytes(function, body)
        print(f"  {name:<26} {peak / 1e6:6.2f} MB   {peak / body_peak:4.2f}x")
    return results


# ---------------------------------------------------------------------------
# Beside Slime

PEER_BODY = Path(__file__).resolve().parents[2] / "shared" / "bench" / "peer_body.json"
SLIME_COMMIT = "624b824a898a"
SLIME_FUNCTIONS = {  # file at SLIME_COMMIT -> the functions its translate runs
    "slime/agent/adapters/common.py": ("flatten_content", "tool_call_dict"),
    "slime/agent/adapters/anthropic.py": ("_translate_messages", "_tools_to_chat_tools"),
}


def slime_translate(checkout: str):
    """Slime's translate as its adapter runs it (`_translate`: the two paths, no checks), from a
    git clone of Slime: the four functions are read out of SLIME_COMMIT's files with `ast` and
    run as they are written there, without importing Slime (aiohttp, its trajectory manager)."""
    namespace: dict = {"Any": object}  # the one name their signatures use at run time
    for path, names in SLIME_FUNCTIONS.items():
        source = subprocess.run(["git", "-C", checkout, "show", f"{SLIME_COMMIT}:{path}"],
                                capture_output=True, text=True, check=True).stdout  # fmt: skip
        wanted = [node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef) and node.name in names]
        assert len(wanted) == len(names), f"{path} at {SLIME_COMMIT} lacks one of {names}"
        exec(compile(ast.Module(wanted, type_ignores=[]), path, "exec"), namespace)

    def translate_like_slime(raw: bytes):
        body = json.loads(raw)
        messages = namespace["_translate_messages"](body.get("messages") or [], body.get("system"))
        return messages, namespace["_tools_to_chat_tools"](body.get("tools"))

    return translate_like_slime


def beside_slime(checkout: str, rounds: int = 31) -> dict:
    cases = {
        "json.loads": json.loads,
        "Slime's translate": slime_translate(checkout),
        "json.loads + translate (chat_template)": CASES["json.loads + translate (chat_template)"],
        "json.loads + translate (openai)": CASES["json.loads + translate (openai)"],
        "json.loads + trace (chat_template)": CASES["json.loads + trace (chat_template)"],
    }
    peer = json.loads(PEER_BODY.read_bytes())
    results = {}
    for label, times in {"peer body": 1, "peer body, messages x10": 10}.items():
        raw = json.dumps({**peer, "messages": peer["messages"] * times}, ensure_ascii=False).encode()
        calls = max(1, int(2e6 // len(raw)))
        for function in cases.values():
            function(raw)
        seconds = results[label] = interleaved(raw, rounds, calls, cases)
        base = seconds["json.loads"]
        print(f"{label}: {len(raw) / 1e6:.2f} MB, median of {rounds} interleaved rounds of {calls} call(s)")
        for name, value in seconds.items():
            print(f"  {name:<42} {value * 1e3:8.2f} ms   {value / base:5.2f}x json.loads")
        ours, slime = seconds["json.loads + translate (chat_template)"], seconds["Slime's translate"]
        print(f"  ours (chat_template) / Slime's              {ours / slime:5.2f}x              (aim <= 1.36x)")
    return results


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if "--slime" in arguments:
        at = arguments.index("--slime")
        checkout = arguments[at + 1]
        del arguments[at : at + 2]
        beside_slime(checkout, int(arguments[0]) if arguments else 31)
    else:
        main(int(arguments[0]) if arguments else 15)
