"""`.venv/bin/python -m tutorial trajectory CAPTURES... [--json]`: the training samples of the token path's sessions.

    python -m tutorial serve --engine --tokens --save turns.jsonl     (a client runs its session)
    python -m tutorial trajectory turns.jsonl                         each session, each sample, what is trained
    python -m tutorial trajectory turns.jsonl --json                  the same as JSON, every id

A capture file is what `serve --save` writes (JSON Lines), or a JSON list of captures. The
captures the token path made (`tokens.turn`, tutorial/serve/token_path.py) are fed, in the
order they were kept, to a fresh `tutorial.trajectory.TrajectoryManager`, one session per
digest of the client's key (never the key), as the server's own manager received them.

`--json` prints {"sessions": [...]}, one entry per session in order of first appearance:

    session      the key's digest ("key:3f9a0c1d2e4b5a69", or "default")
    family       the template and vocabulary the prompts were rendered with
    turns        how many turns were recorded
    drift        what the manager decided, in order (`TrajectoryManager.drift_log`)
    samples      one per strip of tokens the manager made, each:
      tokens              every id of the strip, the first prompt included
      prompt_length       how many of them the first prompt is
      response_length     the rest: len(tokens) - prompt_length
      loss_mask           response_length values, 1 where a generated token is trained
      rollout_log_probs   response_length values: the engine's log-probability of each
                          trained token, 0.0 where the mask is 0 (Slime's Sample shape)
      trained             sum(loss_mask)
      metadata            the manager's: truncated, use_tool, ill_formed
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Optional

from ..words import os_problem, words_for

# What this command writes for people, per language: few, and all here.
WORDS = {
    "en": {
        "help": "print the training samples of the token path's sessions (reads the captures serve --tokens --save writes)",
        "files": "capture files: JSON Lines (serve --save) or a JSON list",
        "json": "print JSON: every sample's tokens, loss mask and log-probs",
        "fork": "the manager's fork threshold in tokens (default: Slime's 1024)",
        "unreadable": "{path}: {why}",
        "line": "{path}, line {number}: not a JSON object",
        "captures_metavar": "CAPTURES",
        "threshold_metavar": "TOKENS",
        "none": "no capture in {paths} was made by the token path (serve --engine --tokens)",
        "session": "session {session} ({family}): {turns} turn(s) -> {samples} sample(s)",
        "sample": "  sample {number}: {tokens} tokens (first prompt {prompt}, response {response}), {trained} trained",
        "span": "    trained tokens[{start}:{end}] ({length} tokens): {text}",
        "drift": "  drift: {kinds}",
        "joiner": ", ",
    },
    "zh": {
        "help": "打印 token 路径上各会话的训练样本（读取 serve --tokens --save 写出的捕获文件）",
        "files": "捕获文件，可以是 JSON Lines（serve --save 写出的）或一个 JSON 列表",
        "json": "以 JSON 输出每个样本的 token、loss mask 和 log-prob",
        "fork": "manager 的 fork 阈值，单位是 token（默认与 Slime 相同，为 1024）",
        "unreadable": "无法读取 {path}（{why}）",
        "line": "{path} 第 {number} 行不是 JSON 对象",
        "captures_metavar": "捕获文件",
        "threshold_metavar": "token 数",
        "none": "{paths} 中没有 token 路径（serve --engine --tokens）产生的捕获记录",
        "session": "会话 {session}（{family}）共 {turns} 轮，得到 {samples} 个样本",
        "sample": "  样本 {number} 有 {tokens} 个 token（第一个 prompt 占 {prompt} 个，其后 {response} 个），其中 {trained} 个参与训练",
        "span": "    参与训练的 tokens[{start}:{end}]（{length} 个 token）是 {text}",
        "drift": "  manager 的判断依次为 {kinds}",
        "joiner": "、",
    },
}  # fmt: skip


def help_line() -> str:
    """The command's one line in `python -m tutorial --help`."""
    return words_for(WORDS, "help")


class Unreadable(ValueError):
    """A capture file that was read but holds no captures: the sentence to print, in the current language."""


def read_captures(path: Path, name: Optional[str] = None) -> list[dict]:
    """The captures in a file: JSON Lines, a JSON list, or GET /captures/{id}'s single object.
    Text that is not UTF-8 or not JSON raises `Unreadable`, worded as `translate` words it
    (tutorial/cli/words.py); a file that cannot be opened raises the OSError."""
    from .words import not_json, not_utf8

    name = str(path) if name is None else name
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise Unreadable(not_utf8(error, name)) from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as error:
        whole, first_error = None, error
    else:
        if isinstance(whole, list):
            return [c for c in whole if isinstance(c, dict)]
        if isinstance(whole, dict):
            return [whole]
    lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if whole is None and len(lines) <= 1 and text.strip():  # one document, not JSON Lines
        raise Unreadable(not_json(text, first_error, name))
    starts = [0]  # where each line begins in the text
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    captures = []
    for number, line in lines:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:  # placed in the whole text: the file's line and column
            placed = json.JSONDecodeError(error.msg, text, starts[number - 1] + error.pos)
            raise Unreadable(not_json(text, placed, name, "JSON Lines")) from None
        if not isinstance(value, dict):
            raise Unreadable(words_for(WORDS, "line", path=name, number=number))
        captures.append(value)
    return captures


def token_turns(captures: Iterable[dict]) -> list[dict]:
    """The token path's records of the captures that completed a turn, in order."""
    return [c["tokens"] for c in captures if isinstance(c.get("tokens"), dict) and isinstance(c["tokens"].get("turn"), dict)]


def trajectories(captures: Iterable[dict], fork_threshold_tokens: Optional[int] = None) -> list[dict]:
    """Each session's samples, as `--json` prints them (see the module's docstring)."""
    from tutorial.trajectory import TrajectoryManager, TurnRecord

    manager = TrajectoryManager(fork_threshold_tokens=fork_threshold_tokens)
    sessions: dict[str, dict] = {}
    for record in token_turns(captures):
        session = sessions.setdefault(record["session"], {"session": record["session"], "family": record.get("family"), "turns": 0})
        session["turns"] += 1
        manager.record_turn(record["session"], turn=TurnRecord(**record["turn"]),
                            prompt_messages=record["prompt_messages"], response_message=record["response_message"])  # fmt: skip
    for sid, session in sessions.items():
        samples = manager.get_trajectory(sid)
        session["drift"] = manager.drift_log(sid)
        session["samples"] = [sample_json(sample) for sample in samples]
    return list(sessions.values())


def sample_json(sample) -> dict:
    prompt_length = len(sample.tokens) - sample.response_length
    return {
        "tokens": list(sample.tokens),
        "prompt_length": prompt_length,
        "response_length": sample.response_length,
        "loss_mask": list(sample.loss_mask),
        "rollout_log_probs": list(sample.rollout_log_probs),
        "trained": sum(sample.loss_mask),
        "metadata": dict(sample.metadata),
    }


def trained_spans(sample: dict) -> list[tuple[int, int]]:
    """(start, end) in `tokens`, end excluded, of each run of trained tokens."""
    spans, start = [], None
    offset = sample["prompt_length"]
    for i, bit in enumerate(sample["loss_mask"] + [0]):
        if bit and start is None:
            start = i
        elif not bit and start is not None:
            spans.append((offset + start, offset + i))
            start = None
    return spans


def report(sessions: list[dict]) -> str:
    """The plain-text view: per session, per sample, the trained spans decoded."""
    from tutorial.watch.families import FAMILIES
    from tutorial.watch.tokenizer import backend_tokenizer

    lines = []
    for session in sessions:
        lines.append(words_for(WORDS, "session", session=session["session"], family=session["family"],
                                             turns=session["turns"], samples=len(session["samples"])))  # fmt: skip
        kinds = [entry["classified"] for entry in session["drift"] if "classified" in entry]  # turn 2 onwards
        lines.append(words_for(WORDS, "drift", kinds=words_for(WORDS, "joiner").join(kinds) or "-"))
        decode = backend_tokenizer(FAMILIES[session["family"]].vocabulary).decode
        for number, sample in enumerate(session["samples"], 1):
            lines.append(words_for(WORDS, "sample", number=number, tokens=len(sample["tokens"]), prompt=sample["prompt_length"],
                                                response=sample["response_length"], trained=sample["trained"]))  # fmt: skip
            for start, end in trained_spans(sample):
                text = decode(sample["tokens"][start:end], skip_special_tokens=False)
                lines.append(words_for(WORDS, "span", start=start, end=end, length=end - start, text=json.dumps(text, ensure_ascii=False)))
    return "\n".join(lines) + "\n"


def main(argv: list[str], fail) -> int:
    """`fail(message)` prints one located line and returns the exit status."""
    import argparse

    from . import words  # the CLI's help formatter: Chinese lines wrapped by their width on screen

    commands = argparse.ArgumentParser(prog="python -m tutorial trajectory", description=words_for(WORDS, "help"),
                                       formatter_class=words.formatter())
    commands.add_argument("files", nargs="+", metavar=words_for(WORDS, "captures_metavar"), help=words_for(WORDS, "files"))
    commands.add_argument("--json", action="store_true", help=words_for(WORDS, "json"))
    commands.add_argument("--fork-threshold", type=int, default=None, metavar=words_for(WORDS, "threshold_metavar"),
                          help=words_for(WORDS, "fork"))  # fmt: skip
    commands.add_argument("--lang", choices=("en", "zh"), help=argparse.SUPPRESS)  # every command takes it
    arguments = commands.parse_args(argv)
    captures: list[dict] = []
    for name in arguments.files:
        try:
            captures.extend(read_captures(Path(name), name))
        except OSError as error:
            return fail(words_for(WORDS, "unreadable", path=name, why=os_problem(error)))
        except Unreadable as error:
            return fail(str(error))
    sessions = trajectories(captures, arguments.fork_threshold)
    if not sessions:
        return fail(words_for(WORDS, "none", paths=words_for(WORDS, "joiner").join(arguments.files)))
    if arguments.json:
        print(json.dumps({"sessions": sessions}, ensure_ascii=False))
    else:
        print(report(sessions), end="")
    return 0
