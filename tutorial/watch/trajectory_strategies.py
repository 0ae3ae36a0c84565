"""Three ways to keep a session's training tokens, measured on the same sessions.

`tutorial.trajectory` is Slime's way: every turn's prompt is the chat template's full
rendering of the history (the "canonical" prompt), and when it does not extend the tokens
already held the manager realigns or forks. Two other ways, run here beside it:

- "never_realign": the same manager with `fork_threshold_tokens=0`. A prompt that parts
  from the held tokens always forks (and a rewritten answer is never merged), so every
  generated token is trained once; the price is a new sample that computes again the
  prefix it shares with the earlier one.
- "token_in_token_out": the prompt is never re-rendered. The next prompt is the tokens held
  (last prompt + the model's own output) followed by the rendering of the new messages
  only (`IncrementalRenderer`). Nothing drifts, every token is trained; the price is a
  prompt the chat template would not have written (`canonical` says for how many turns it
  would). A request that does not extend a held line of messages (a changed system
  prompt, a rewritten answer) cannot be continued: it is rendered in full, a new sample.

`strategy_table()` gives, per recorded session (tutorial/peers/data/trajectory) and per
strategy, plain rows: turns, samples, generated tokens, trained tokens, prompt tokens
recomputed (a sample's prefix shared with an earlier sample of the session, computed twice
in training) and how many prompts equal the canonical rendering. `readme_session()`
builds the README example's two turns with Qwen3's real template and vocabulary, so that

    slime_trajectory(readme_session())     # [Sample]: 223 tokens, 10 trained

is the README example's turn-1 loss in one line.

The output ids of a turn stand for what a Qwen3 model writes: the template's own rendering
of the answer as the last turn, up to its end-of-turn token (`answer_ids`), as the recording
made them. A strategy that changes the prompt would in reality change the answer; here
the answer is held fixed, so that only the strategy differs.

Needs the `real` extra (jinja2, tokenizers) and the sdist set-up fetches.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from .. import trajectory
from ..examples import readme_request
from ..translation import translate
from ..way_back import manager_message
from .families import family
from .rendering import render

DATA = Path(__file__).resolve().parent.parent / "peers" / "data" / "trajectory" / "slime_cases.json"
STRATEGIES = ("slime", "never_realign", "token_in_token_out")

# A stand-in first message, rendered before the new messages and cut off again: a template
# may refuse a list without a user query (Qwen3 does), and its rendering of a message can
# depend on the one before it (Qwen3 opens a block of tool results after a non-tool message).
_ANCHOR = {"role": "user", "content": "\u00b7"}


# ---------------------------------------------------------------------------
# Token ids with a family's real template and vocabulary


@lru_cache(maxsize=None)
def _tokenizer(template: str):
    from .tokenizer import backend_tokenizer

    return backend_tokenizer(family(template).vocabulary)


def tokenize(text: str, template: str = "qwen3") -> list[int]:
    return _tokenizer(template).encode(text, add_special_tokens=False).ids


def canonical_ids(messages: list[dict], tools: Optional[list[dict]] = None, template: str = "qwen3") -> list[int]:
    """The prompt as the adapter renders it: the whole history through the chat template."""
    return render(messages, tools, template=template, tokenize=True)


def answer_ids(response_message: dict, template: str = "qwen3") -> list[int]:
    """What the model writes for `response_message`: the template's rendering of it as the
    last turn, after the generation prompt, through its end-of-turn token."""
    before = render([_ANCHOR], template=template)
    whole = render([_ANCHOR, response_message], template=template, add_generation_prompt=False)
    if not whole.startswith(before):
        raise ValueError(f"the {template!r} template does not render the answer after its generation prompt")
    return tokenize(whole[len(before) :].rstrip("\n"), template)  # the line break after the end token is the template's


@lru_cache(maxsize=None)
def _anchor_alone(template: str) -> str:
    return render([_ANCHOR], template=template, add_generation_prompt=False)


def new_messages_ids(new_messages: list[dict], held: list[int], template: str = "qwen3") -> list[int]:
    """The rendering of `new_messages` alone, as it continues `held` (ids that end with the
    model's output): what the template writes after that output's end token, then the new
    messages, then the generation prompt. The cost does not grow with the history."""
    alone = _anchor_alone(template)
    more = render([_ANCHOR, *new_messages], template=template)
    if not more.startswith(alone):
        raise ValueError(f"the {template!r} template renders a message differently when others follow it")
    # Cut after the stand-in's content, and after the end token if the output holds it
    # already (a truncated output holds none: then the template's own end of turn is kept).
    cut = alone.rindex(_ANCHOR["content"]) + len(_ANCHOR["content"])
    end = _tokenizer(template).decode(held[-1:], skip_special_tokens=False) if held else ""
    if end and alone.startswith(end, cut):
        cut += len(end)
    return tokenize(more[cut:], template)


class IncrementalRenderer:
    """Token-in-token-out prompts: keep every line of messages with its ids, and render only
    what a request adds to the longest line it extends (`prompt`); `record` the answer."""

    def __init__(self, tools: Optional[list[dict]] = None, template: str = "qwen3"):
        self.tools, self.template = tools, template
        self.lines: list[tuple[list[dict], list[int]]] = []  # (messages through an answer, their ids)

    def prompt(self, messages: list[dict], canonical: Optional[list[int]] = None) -> tuple[list[int], Optional[int]]:
        """`(ids, line)`: the prompt, and the index of the line it extends; None when it extends
        none, and the prompt is the full rendering (`canonical`, when the caller has it already)."""
        best = None
        for index, (held_messages, _) in enumerate(self.lines):
            if messages[: len(held_messages)] == held_messages and len(held_messages) < len(messages):
                if best is None or len(held_messages) > len(self.lines[best][0]):
                    best = index
        if best is None:
            if canonical is None:
                canonical = canonical_ids(messages, self.tools, self.template)
            return canonical, None
        held_messages, held = self.lines[best]
        return held + new_messages_ids(messages[len(held_messages) :], held, self.template), best

    def record(self, messages: list[dict], prompt_ids: list[int], response: dict, output_ids: list[int]) -> None:
        self.lines.append((messages + [response], prompt_ids + output_ids))


# ---------------------------------------------------------------------------
# Sessions: the README example, the recorded cases


def readme_session(template: str = "qwen3") -> list[dict]:
    """The README example as two turns, rendered with `template`'s real template and vocabulary.

    Turn 1 asks (system + first user message) and the model calls read_file; turn 2 is the
    whole README request (the result and a new question), answered with one sentence (the
    answer the recording uses). Each turn: prompt_messages, response_message, prompt_ids,
    output_ids, output_log_probs, finish_reason, tools."""
    whole = readme_request()
    first = dict(whole, messages=whole["messages"][:1])
    translated_whole, tools = translate(whole)
    answers = (translated_whole[2], manager_message(None, "这是一个学习项目的说明。", []))
    turns = []
    for body, answer in zip((first, whole), answers):
        messages, _ = translate(body)
        output = answer_ids(answer, template)
        turns.append({"prompt_messages": messages, "response_message": answer, "tools": tools,
                      "prompt_ids": canonical_ids(messages, tools, template), "output_ids": output,
                      "output_log_probs": [-0.5] * len(output), "finish_reason": "stop"})  # fmt: skip
    return turns


def tool_loop(turns: int, *, reasoning: bool = True, reminder: bool = False) -> tuple[list[tuple], list[dict]]:
    """A made-up agent session of `turns` turns, for the cost curve: the README example's
    question, then the model reads one file a turn and the client sends the result back.
    `(turns as (prompt_messages, response_message), tools)`.

    `reasoning`: every answer thinks first. `reminder`: every result comes with a short text
    beside it (as agent CLIs add one), which the translation makes a user message of. With
    reasoning and no reminder, Qwen3's template re-renders history exactly as the model
    wrote it, and an incremental prompt stays equal to the full rendering; a reminder is a
    new query to Qwen3, which then drops earlier reasoning from history, and they part."""
    messages, tools = translate(dict(readme_request(), messages=readme_request()["messages"][:1]))
    session = []
    for index in range(turns):
        path = f"docs/part{index}.md"
        answer = manager_message(f"第 {index} 步：看 {path}。" if reasoning else None, f"读取 {path}。",
                                 [{"name": "read_file", "input": {"path": path}}])  # fmt: skip
        session.append((list(messages), answer))
        messages.append(answer)
        messages.append({"role": "tool", "content": f"# Part {index}\n" + "这一节说明一个模块的用法。" * 4})
        if reminder:
            messages.append({"role": "user", "content": "<system-reminder>继续。</system-reminder>"})
    return session, tools


def with_reminder(turns: list[dict], text: str = "<system-reminder>文件较短。</system-reminder>") -> list[dict]:
    """The same session, but the last request's tool result comes with a reminder text beside
    it, as agent CLIs send it: the translation makes a user message of the text, after the tool
    message. The last prompt is rendered again (Qwen3, the README example's tools); the
    answers stay as recorded, so that only the split differs."""
    changed = [dict(turn) for turn in turns]
    last = changed[-1]
    last["prompt_messages"] = [*last["prompt_messages"], {"role": "user", "content": text}]
    last["prompt_ids"] = canonical_ids(last["prompt_messages"], translate(readme_request())[1])
    return changed


def recorded_sessions() -> dict[str, dict]:
    """The nine sessions Slime's manager was run on: name -> case (see the data's README)."""
    return json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def _record(turn: dict, prompt_ids: Optional[list[int]] = None) -> trajectory.TurnRecord:
    return trajectory.TurnRecord(turn["prompt_ids"] if prompt_ids is None else prompt_ids, turn["output_ids"],
                                 turn.get("finish_reason", "stop"), turn.get("output_log_probs") or [])  # fmt: skip


def slime_trajectory(turns: list[dict], fork_threshold: Optional[int] = None) -> list[trajectory.Sample]:
    """Slime's samples for one session's turns (all under one session id)."""
    manager = trajectory.TrajectoryManager(fork_threshold_tokens=fork_threshold)
    for turn in turns:
        manager.record_turn("s", turn=_record(turn), prompt_messages=turn["prompt_messages"],
                            response_message=turn["response_message"])  # fmt: skip
    return manager.get_trajectory("s")


# ---------------------------------------------------------------------------
# The strategies, each: turns -> (samples, the prompt ids each turn was given)


def run_slime(turns: list[dict], fork_threshold: Optional[int] = None):
    return slime_trajectory(turns, fork_threshold), [turn["prompt_ids"] for turn in turns]


def run_never_realign(turns: list[dict], fork_threshold: Optional[int] = None):
    return slime_trajectory(turns, 0), [turn["prompt_ids"] for turn in turns]


def run_token_in_token_out(turns: list[dict], fork_threshold: Optional[int] = None, template: str = "qwen3"):
    """Each turn continues the longest line of messages it extends, with that line's own
    tokens; a turn that extends none starts a sample from the canonical rendering."""
    renderer = IncrementalRenderer(turns[0].get("tools") if turns else None, template)
    strips: list[trajectory.SampleBuilder] = []
    strip_of_line: dict[int, trajectory.SampleBuilder] = {}  # the strip a line's tokens end
    prompts = []
    for turn in turns:
        messages = turn["prompt_messages"]
        ids, line = renderer.prompt(messages, turn["prompt_ids"])
        strip = strip_of_line.pop(line, None) if line is not None else None
        if strip is None:  # nothing to continue, or that line was continued already: a new sample
            strip = trajectory.SampleBuilder(1 << 62)
            strips.append(strip)
        strip.append(_record(turn, ids), trajectory.CLEAN)  # the prompt extends the strip by construction
        renderer.record(messages, ids, turn["response_message"], turn["output_ids"])
        strip_of_line[len(renderer.lines) - 1] = strip
        prompts.append(ids)
    samples = [strip.to_sample({}) for strip in strips]
    return samples, prompts


RUNNERS = {"slime": run_slime, "never_realign": run_never_realign, "token_in_token_out": run_token_in_token_out}


def recomputed_prefix(samples: list[trajectory.Sample]) -> int:
    """Tokens a session's training computes twice: each sample's longest prefix shared with
    an earlier sample of the session."""
    return sum(
        max((trajectory.common_prefix(sample.tokens, earlier.tokens) for earlier in samples[:i]), default=0)
        for i, sample in enumerate(samples)
    )


def measure(turns: list[dict], strategy: str, fork_threshold: Optional[int] = None) -> dict:
    """One row: how `strategy` keeps this session."""
    samples, prompts = RUNNERS[strategy](turns, fork_threshold)
    canonical = sum(given == turn["prompt_ids"] for given, turn in zip(prompts, turns))
    return {"strategy": strategy, "turns": len(turns), "samples": len(samples),
            "generated": sum(len(turn["output_ids"]) for turn in turns),
            "trained": sum(sum(sample.loss_mask) for sample in samples),
            "tokens": sum(len(sample.tokens) for sample in samples),
            "recomputed": recomputed_prefix(samples), "canonical_prompts": canonical}  # fmt: skip


def strategy_table(sessions: Optional[dict[str, Any]] = None) -> list[dict]:
    """Rows `{"case", "strategy", "turns", "samples", "generated", "trained", "tokens",
    "recomputed", "canonical_prompts"}` for every session and every strategy, in order.

    `sessions` maps a name to a recorded case (a dict with "turns" and "fork_threshold") or
    to a list of turns (`readme_session()`); by default the nine recorded sessions, whose
    first, "readme_two_turns", is the README example."""
    if sessions is None:
        sessions = recorded_sessions()
    rows = []
    for name, case in sessions.items():
        turns = case["turns"] if isinstance(case, dict) else case
        threshold = case.get("fork_threshold") if isinstance(case, dict) else None
        for strategy in STRATEGIES:
            rows.append({"case": name, **measure(turns, strategy, threshold)})
    return rows


__all__ = ["IncrementalRenderer", "STRATEGIES", "answer_ids", "canonical_ids", "measure", "new_messages_ids",
           "readme_session", "recorded_sessions", "with_reminder", "recomputed_prefix", "slime_trajectory", "strategy_table",
           "tokenize", "tool_loop"]  # fmt: skip
