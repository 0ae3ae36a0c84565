"""The drift table: does turn k+1's prompt extend turn k's prompt plus the answer the model wrote?

    from tutorial.watch import drift
    drift.table()                      # one Cell per family × scenario
    drift.rows()                       # the same as plain rows (chapter 13); cells_json(): whole (`--json`)
    drift.marks()                      # the grid: [family, "✗ ✗", "✓ ·", ...] per family
    drift.summary("readme")            # extends in N of 11 families, at text and at token level
    python -m tutorial drift [--json] [--family F] [--scenario S]

A trainer that keeps a session's tokens (Slime's TrajectoryManager, tutorial.trajectory) holds
turn k's prompt ids and the ids the model generated; turn k+1 arrives as messages, which the
adapter renders again with the chat template. Only when the new prompt starts with exactly what
is held does the session stay one clean sequence. Here, for every family `render` knows and every
scenario of drift_scenarios.py (Anthropic bodies, translated by `translate`):

- turn k's prompt is `render(translated_k, tools)` with the generation prompt;
- the answer is what the model writes after that prompt: the template's own rendering of the
  assistant message as the final turn (`render(translated_k + [answer], add_generation_prompt=False)`),
  from where that rendering and the prompt part, up to and including the model's stop token
  (`STOPS`; what the template writes after it, such as Qwen's "\\n", the model never writes).
  The answer message is the one the next request echoes, translated. This is the rule
  ../shared/peers/trajectory/README.md states for Qwen3's `output_ids` ("the template's own
  rendering of that message as the final turn, after the generation prompt, <|im_end|>
  included"), applied to each family: a thinking family's think block is in it as the model
  emits it (Qwen3's `<think>\\n\\n</think>\\n\\n` when it did not reason). Where the generation
  prompt already wrote part of the message differently (GLM-4.7's prompt ends in `<think>`, its
  rendering of a message without reasoning starts `</think>`), the model continues the prompt
  with the rest of the rendering: the held text is the prompt, then that rest. GLM's templates
  write no end of turn: the model stops by writing the next turn's opening token, which GLM's
  generation config lists among its end tokens (<|endoftext|>, <|user|>, <|observation|>) —
  `<|observation|>` after a call, else `<|user|>`;
- turn k+1's prompt extends when it starts with turn k's prompt + answer — as text, and as
  token ids where the sdist ships the vocabulary: `ids(prompt) + ids(answer)` against
  `ids(next prompt)`, the prompt's ids as `render(..., tokenize=True)` gives them and the
  answer's as its text alone tokenizes (the ids an engine hands back are the model's own
  choice of tokens; these are the ones the vocabulary gives that text);
- where they part: the offset (characters, or tokens), whether it lies in turn k's prompt or in
  its answer, a short excerpt of both sides, and the template lines that wrote the first
  differing character on each side (turn k+1's prompt; turn k's prompt or answer), found by
  running the template's compiled code piece by piece (template_lines.py);
- a template that refuses the messages is a verdict too: "refused", with its own words and the
  render (which turn's prompt or answer) it refused.

A scenario of three turns checks 1→2 and 2→3; a cell reports the first step that parts (or
refuses), in the order the session would meet it: turn k's prompt, its answer, turn k+1's
prompt (and the step k -> k+1), turn k+1's answer, ... Templates that print the date see
`DATE`, so the table is the same on any day.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Optional

from ..translation import translate, translate_messages
from ..words import columns, current, pad, words_for
from . import families
from .conventions import frozen_today
from .drift_scenarios import SCENARIOS, requests, scenario_names
from .rendering import RenderError, render
from .template_lines import Line, line_at

__all__ = [
    "Cell", "Part", "STOPS", "answer_text", "cell", "cells_json", "marks", "report", "rows", "summary", "summary_line",
    "table",
]  # fmt: skip

DATE = datetime.datetime(2026, 1, 1)
EXCERPT = 24  # characters (or 6 tokens) shown from where the two sides part
CONTEXT = 12  # characters (or 2 tokens) shown before it

# What each family's model ends its turn with: the end-of-turn tokens its generation config
# (`eos_token_id`) lists, as text. gpt-oss ends a final answer with <|return|> and a call with
# <|call|> (its <|end|> closes one channel and the model goes on); GLM's list is
# <|endoftext|>, <|user|>, <|observation|>, which its templates never write after an answer.
STOPS: dict[str, tuple[str, ...]] = {
    "qwen2.5": ("<|im_end|>",),
    "qwen3": ("<|im_end|>",),
    "qwen3-coder": ("<|im_end|>",),
    "qwen3.5": ("<|im_end|>",),
    "glm-4.6": (),
    "glm-4.7": (),
    "deepseek-v3.1": ("<｜end▁of▁sentence｜>",),
    "kimi-k2": ("<|im_end|>",),
    "llama-3.3": ("<|eot_id|>", "<|eom_id|>"),
    "mistral-small-3.2": ("</s>",),
    "gpt-oss": ("<|return|>", "<|call|>"),
}
GLM_STOP_AFTER_CALL, GLM_STOP = "<|observation|>", "<|user|>"

EXTENDS, PARTS, REFUSED = "extends", "parts", "refused"


@dataclass(frozen=True)
class Part:
    """Where turn k's prompt + answer (held) and turn k+1's prompt (new) part."""

    turn: int  # k: the step k -> k+1 (1-based)
    offset: int  # characters (text) or tokens (ids) from the start of the prompts
    within: str  # "prompt" or "answer": which part of the held side the offset falls in ("end": past it)
    shared: Any  # what both sides hold just before the offset: text, or 2 tokens (decoded one by one)
    held: Any  # the held side from the offset: text ("…" when it goes on), or 6 tokens
    new: Any  # turn k+1's prompt from the offset, the same way


@dataclass(frozen=True)
class Cell:
    family: str
    scenario: str
    text: str  # EXTENDS, PARTS or REFUSED
    tokens: Optional[str]  # the same for token ids; None when the sdist ships no vocabulary
    text_part: Optional[Part] = None
    token_part: Optional[Part] = None
    new_line: Optional[Line] = None  # the line that wrote turn k+1's first differing character
    held_line: Optional[Line] = None  # the line that wrote the held side's (None: the model's own stop token)
    refusal: Optional[str] = None  # the template's own words
    refused_in: Optional[tuple[str, int]] = None  # ("prompt" or "answer", the turn)

    @property
    def turn(self) -> Optional[int]:
        """The turn whose successor parts from it (or that was refused)."""
        if self.refused_in:
            return self.refused_in[1]
        part = self.text_part or self.token_part
        return part.turn if part else None


# ---------------------------------------------------------------------------
# The answer as the model writes it


def answer_text(family: str, prompt: str, rendered: str, message: dict) -> tuple[str, int]:
    """What the model writes after `prompt`, and where that text starts in `rendered`.

    `rendered` is the template's rendering of the history with `message` as its final turn
    (no generation prompt). The model continues `prompt` with the rest of `rendered` from
    where the two part, and stops at its end-of-turn token (kept); GLM's, which the template
    does not write, is added.
    """
    start = len(os.path.commonprefix([prompt, rendered]))
    rest = rendered[start:]
    ends = [rest.index(stop) + len(stop) for stop in STOPS[family] if stop in rest]
    if ends:
        return rest[: min(ends)], start
    if family.startswith("glm"):
        return rest + (GLM_STOP_AFTER_CALL if message.get("tool_calls") else GLM_STOP), start
    return rest, start


# ---------------------------------------------------------------------------
# One cell


class _Refused(Exception):
    def __init__(self, error: RenderError, where: tuple[str, int]):
        self.words = error.refusal if error.refusal is not None else error.problem
        self.where = where


@dataclass
class _Turn:
    messages: list
    tools: Optional[list]
    prompt: str
    answer: Optional[dict] = None  # the chat message the next request echoes
    answer_text: str = ""
    answer_start: int = 0  # where answer_text starts in `rendered`
    rendered: str = ""  # the history with the answer as its final turn


def _render(family: str, messages: list, tools: Optional[list], where: tuple[str, int], **options: Any) -> str:
    try:
        with frozen_today(DATE):
            return render(messages, tools, template=family, **options)
    except RenderError as error:
        raise _Refused(error, where) from None


def _turns(family: str, scenario: str):
    """Each turn with its prompt rendered (a refusal is raised there); its answer comes from `_answer`."""
    for number, (body, answer_blocks) in enumerate(requests(SCENARIOS[scenario]), start=1):
        messages, tools = translate(body)
        turn = _Turn(messages, tools, _render(family, messages, tools, ("prompt", number)))
        if answer_blocks is not None:
            turn.answer = translate_messages([{"role": "assistant", "content": answer_blocks}])[0]
        yield number, turn


def _answer(family: str, number: int, turn: _Turn) -> None:
    """Render the turn's answer as the final turn and cut what the model writes from it."""
    if turn.answer is not None:
        messages = turn.messages + [turn.answer]
        turn.rendered = _render(family, messages, turn.tools, ("answer", number), add_generation_prompt=False)
        turn.answer_text, turn.answer_start = answer_text(family, turn.prompt, turn.rendered, turn.answer)


def _first_difference(held: list, new: list) -> int:
    """How many items (characters or ids) `new` shares with `held` from the start."""
    shared = 0
    for left, right in zip(held, new):
        if left != right:
            break
        shared += 1
    return shared


def _within(offset: int, prompt_length: int, held_length: int) -> str:
    return "prompt" if offset < prompt_length else "answer" if offset < held_length else "end"


@lru_cache(maxsize=None)
def cell(family: str, scenario: str) -> Cell:
    """The verdict for one family on one scenario."""
    chosen = families.family(family)
    if scenario not in SCENARIOS:
        raise KeyError(scenario)
    chosen.template_text  # not fetched: sdist.SdistMissing, naming the set-up command (never a "refused" cell)
    tokenizer = _tokenizer(chosen.vocabulary) if chosen.vocabulary else None
    text_part = token_part = None
    new_line = held_line = None
    previous: Optional[_Turn] = None
    try:
        for number, turn in _turns(family, scenario):
            if previous is not None:
                step = number - 1
                held = previous.prompt + previous.answer_text
                if text_part is None and not turn.prompt.startswith(held):
                    offset = _first_difference(held, turn.prompt)
                    within = _within(offset, len(previous.prompt), len(held))
                    text_part = Part(step, offset, within, held[max(0, offset - CONTEXT) : offset],
                                     _excerpt(held, offset), _excerpt(turn.prompt, offset))  # fmt: skip
                    new_line, held_line = _lines(family, previous, turn, offset)
                if tokenizer is not None and token_part is None:
                    prompt_ids = _ids(tokenizer, previous.prompt)
                    held_ids = prompt_ids + _ids(tokenizer, previous.answer_text)
                    new_ids = _ids(tokenizer, turn.prompt)
                    if new_ids[: len(held_ids)] != held_ids:
                        offset = _first_difference(held_ids, new_ids)
                        within = _within(offset, len(prompt_ids), len(held_ids))
                        token_part = Part(step, offset, within, _decoded(tokenizer, held_ids[max(0, offset - 2) : offset]),
                                          _decoded(tokenizer, held_ids[offset : offset + 6]),
                                          _decoded(tokenizer, new_ids[offset : offset + 6]))  # fmt: skip
                if text_part is not None and (tokenizer is None or token_part is not None):
                    break
            _answer(family, number, turn)
            previous = turn
    except _Refused as refused:
        # Whatever parted before the refusal came first in the session: it stands.
        if text_part is None:
            return Cell(family, scenario, REFUSED, REFUSED if tokenizer is not None and token_part is None else
                        _verdict(token_part, tokenizer), token_part=token_part, refusal=refused.words,
                        refused_in=refused.where)  # fmt: skip
    return Cell(family, scenario, _verdict(text_part, True), _verdict(token_part, tokenizer), text_part, token_part,
                new_line, held_line)  # fmt: skip


def _verdict(part: Optional[Part], measured: Any) -> Optional[str]:
    if measured is None:
        return None
    return EXTENDS if part is None else PARTS


def _excerpt(text: str, offset: int) -> str:
    piece = text[offset : offset + EXCERPT]
    return piece + ("…" if len(text) > offset + EXCERPT else "")


# ---------------------------------------------------------------------------
# Token ids


@lru_cache(maxsize=None)
def _tokenizer(vocabulary: str):
    from .tokenizer import backend_tokenizer

    return backend_tokenizer(vocabulary)


def _ids(tokenizer: Any, text: str) -> list[int]:
    # What render(..., tokenize=True) does with the text it rendered.
    return tokenizer.encode(text, add_special_tokens=False).ids


def _decoded(tokenizer: Any, ids: list[int]) -> list[str]:
    """Each id as the text it stands for."""
    return [tokenizer.decode([token], skip_special_tokens=False) for token in ids]


# ---------------------------------------------------------------------------
# Which template line wrote a character


def _lines(family: str, previous: _Turn, turn: _Turn, offset: int) -> tuple[Optional[Line], Optional[Line]]:
    """The lines that wrote turn k+1's character at `offset` and the held side's."""
    with frozen_today(DATE):
        new_line = line_at(family, turn.messages, turn.tools, True, offset)
        if offset < len(previous.prompt):
            return new_line, line_at(family, previous.messages, previous.tools, True, offset)
        at = previous.answer_start + offset - len(previous.prompt)
        if at >= len(previous.rendered):  # the stop token the model adds (GLM): no line wrote it
            return new_line, None
        return new_line, line_at(family, previous.messages + [previous.answer], previous.tools, False, at)


# ---------------------------------------------------------------------------
# The whole table


def table(family_names: Optional[list[str]] = None, scenarios: Optional[list[str]] = None) -> list[Cell]:
    """Every cell, families in `template_families()` order, scenarios in the table's (a, b, ...)."""
    names = family_names or families.template_families()
    chosen = scenarios or scenario_names()
    return [cell(name, scenario) for name in names for scenario in chosen]


def rows(family_names: Optional[list[str]] = None, scenarios: Optional[list[str]] = None) -> list[dict]:
    """The table as plain rows, one per cell, every value a string, a number or None (chapter 13's table):

    {"family": "qwen3", "scenario": "readme", "letter": "b", "text": "parts", "tokens": "parts",
     "turn": 1, "within": "answer", "offset": 658, "token_offset": 157,
     "new_line": 46, "held_line": 41, "refusal": None}
    """
    found = []
    for one in table(family_names, scenarios):
        part = one.text_part
        found.append({
            "family": one.family, "scenario": one.scenario, "letter": SCENARIOS[one.scenario].letter,
            "text": one.text, "tokens": one.tokens, "turn": one.turn,
            "within": part.within if part else one.refused_in[0] if one.refused_in else None,
            "offset": part.offset if part else None,
            "token_offset": one.token_part.offset if one.token_part else None,
            "new_line": one.new_line.number if one.new_line else None,
            "held_line": one.held_line.number if one.held_line else None,
            "refusal": one.refusal,
        })  # fmt: skip
    return found


def cells_json(family_names: Optional[list[str]] = None, scenarios: Optional[list[str]] = None) -> list[dict]:
    """Every cell whole, as JSON values (what `--json` prints): parts with their excerpts, lines with their text."""
    found = []
    for one in table(family_names, scenarios):
        cell_json = asdict(one)
        cell_json["turn"] = one.turn
        cell_json["refused_in"] = list(one.refused_in) if one.refused_in else None
        found.append(cell_json)
    return found


def marks(family_names: Optional[list[str]] = None, scenarios: Optional[list[str]] = None) -> list[list[str]]:
    """The grid as the terminal shows it: [family, mark for a, mark for b, ...] per family
    ("✓ ✗": text extends, token ids part; "·": no vocabulary; the refusal word)."""
    chosen = scenarios or scenario_names()
    return [[name] + [_mark(cell(name, s)) for s in chosen] for name in family_names or families.template_families()]


def summary(scenario: str = "readme", family_names: Optional[list[str]] = None) -> dict:
    """How many families' turn 2 extends turn 1 + answer on `scenario`, at text and at token level.

    {"scenario": "readme", "families": 11, "text_extends": [...], "text_parts": [...],
     "refused": [...], "with_vocabulary": 5, "tokens_extend": [...]}
    """
    cells = table(family_names, [scenario])
    return {
        "scenario": scenario,
        "families": len(cells),
        "text_extends": [c.family for c in cells if c.text == EXTENDS],
        "text_parts": [c.family for c in cells if c.text == PARTS],
        "refused": [c.family for c in cells if c.text == REFUSED],
        "with_vocabulary": sum(c.tokens is not None for c in cells),
        "tokens_extend": [c.family for c in cells if c.tokens == EXTENDS],
    }


# ---------------------------------------------------------------------------
# The table in words (the command line, chapter 13)

# Everything this module writes for people, per language (tutorial.words picks which).
WORDS = {
    "en": {
        "title": "Does turn k+1's prompt start with turn k's prompt + the answer the model wrote? "
                 "(text, then token ids)",
        "key": "✓ extends   ✗ parts   {refused}: the template refuses the messages   · the sdist ships no vocabulary",
        "refused": "refused",
        "family": "family",
        "summary": "{scenario} ({letter}): turn 2 extends turn 1 + answer in {text} of {families} families "
                   "as text{refused}; "
                   "as token ids in {tokens} of the {vocabularies} whose vocabulary the sdist ships",
        "summary refused": " ({count} refuses the messages)",
        "readme": "the README example",
        "where": "Where they part (or are refused):",
        "none part": "Nothing parts.",
        "cell": "{family} · {letter} {scenario} · turn {turn}→{next}",
        "text part": "at character index {offset} (the first {offset} agree), in turn {turn}'s {within}",
        "token part": "at token index {offset} (the first {offset} agree), in turn {turn}'s {within}",
        "text extends": "the text extends",
        "held": "turn {turn} + answer:",
        "new": "turn {next}'s prompt:",
        "line new": "template line {number} (turn {next}'s prompt): {source}",
        "line held": "template line {number} (turn {turn}'s {within}): {source}",
        "model stop": "the model's own stop token (the template writes none)",
        "refused cell": "{family} · {letter} {scenario} · refused rendering turn {turn}'s {within}: {words}",
        "prompt": "prompt",
        "answer": "answer",
        "end": "end",
    },
    "zh": {
        "title": "第 k+1 轮的 prompt 是否以第 k 轮的 prompt 加上模型写出的回答开头？（先看文本，再看 token id）",
        "key": "✓ 接续   ✗ 分开   {refused}：模板拒绝这些消息   · sdist 没有附带词表",
        "refused": "拒绝",
        "family": "模型家族",
        "summary": "{scenario}（{letter}）：按文本比较，{families} 个家族中有 {text} 个的第 2 轮 prompt "
                   "接续了“第 1 轮 prompt + 回答”{refused}；按 token id 比较，sdist 附带词表的 {vocabularies} 个家族中有 "
                   "{tokens} 个接续",
        "summary refused": "（另有 {count} 个家族拒绝这些消息）",
        "readme": "README 示例",
        "where": "在哪里分开（或被拒绝）：",
        "none part": "没有分开。",
        "cell": "{family} · {letter} {scenario} · 第 {turn}→{next} 轮",
        "text part": "从字符下标 {offset} 起分开（前 {offset} 个字符相同），位于第 {turn} 轮的{within}",
        "token part": "从 token 下标 {offset} 起分开（前 {offset} 个 token 相同），位于第 {turn} 轮的{within}",
        "text extends": "文本接续",
        "held": "第 {turn} 轮 + 回答：",
        "new": "第 {next} 轮的 prompt：",
        "line new": "模板第 {number} 行（第 {next} 轮的 prompt）：{source}",
        "line held": "模板第 {number} 行（第 {turn} 轮的{within}）：{source}",
        "model stop": "模型自己的停止 token（模板不写它）",
        "refused cell": "{family} · {letter} {scenario} · 第 {turn} 轮的{within}，渲染时被拒绝：{words}",
        "prompt": "prompt",
        "answer": "回答",
        "end": "末尾",
    },
}  # fmt: skip


SYMBOLS = {EXTENDS: "✓", PARTS: "✗", None: "·"}


def _part_words(within: str) -> str:
    """"prompt", "answer" or "end" in the current language, a space before a Latin word that
    follows Chinese (第 1 轮的 prompt, zh review 2, L14)."""
    said = words_for(WORDS, within)
    return " " + said if current() == "zh" and said.isascii() else said


def _mark(one: Cell) -> str:
    if one.text == REFUSED:
        return words_for(WORDS, "refused")
    return f"{SYMBOLS[one.text]} {SYMBOLS[one.tokens]}"


def _shown(text: str) -> str:
    """An excerpt on one line: newlines and tabs as \\n and \\t."""
    return text.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def summary_line(scenario: str = "readme", family_names: Optional[list[str]] = None) -> str:
    """One sentence: "the README example (b): turn 2 extends turn 1 + answer in 7 of 11 families as text; ..."."""
    found = summary(scenario, family_names)
    refused = words_for(WORDS, "summary refused", count=len(found["refused"])) if found["refused"] else ""
    name = words_for(WORDS, "readme") if scenario == "readme" else scenario
    return words_for(WORDS, "summary", scenario=name, letter=SCENARIOS[scenario].letter, text=len(found["text_extends"]),
                families=found["families"], refused=refused, tokens=len(found["tokens_extend"]),
                vocabularies=found["with_vocabulary"])  # fmt: skip


def report(family_names: Optional[list[str]] = None, scenarios: Optional[list[str]] = None) -> str:
    """The table as a terminal shows it: families × scenarios, the legend, the README count,
    then where each cell that does not extend parts (or what its template said)."""
    lang = current()
    names = family_names or families.template_families()
    chosen = scenarios or scenario_names()
    cells = {(c.family, c.scenario): c for c in table(names, chosen)}
    first = max(columns(words_for(WORDS, "family")), *(len(name) for name in names)) + 2
    width = max(columns(words_for(WORDS, "refused")), 3) + 2
    lines = [words_for(WORDS, "title"), words_for(WORDS, "key", refused=words_for(WORDS, "refused")), ""]
    heading = [words_for(WORDS, "family")] + [SCENARIOS[s].letter for s in chosen]
    for row in [heading] + [[name] + [_mark(cells[name, s]) for s in chosen] for name in names]:
        lines.append((pad(row[0], first) + "".join(pad(mark, width) for mark in row[1:])).rstrip())
    lines.append("")
    for s in chosen:
        lines.append(f"{SCENARIOS[s].letter}  {pad(s, 12)}{SCENARIOS[s].words[lang]}")
    lines.append("")
    if "readme" in chosen and len(names) > 1:
        lines += [summary_line("readme", names), ""]
    details = [line for name in names for s in chosen for line in _details(cells[name, s])]
    lines.append(words_for(WORDS, "where"))
    lines += details or [words_for(WORDS, "none part")]
    return "\n".join(lines) + "\n"


def _details(one: Cell) -> list[str]:
    letter = SCENARIOS[one.scenario].letter
    if one.text == REFUSED:
        where, turn = one.refused_in
        return [words_for(WORDS, "refused cell", family=one.family, letter=letter, scenario=one.scenario, turn=turn,
                     within=_part_words(where), words=one.refusal)]  # fmt: skip
    if one.text == EXTENDS and one.tokens != PARTS:
        return []
    turn = one.turn
    lines = [words_for(WORDS, "cell", family=one.family, letter=letter, scenario=one.scenario, turn=turn, next=turn + 1)]
    part = one.text_part
    if part is not None:
        held, new = words_for(WORDS, "held", turn=turn), words_for(WORDS, "new", next=turn + 1)
        label = max(columns(held), columns(new)) + 2
        lines.append("  " + words_for(WORDS, "text part", offset=part.offset, turn=turn, within=_part_words(part.within)))
        lines.append("    " + pad(held, label) + "…" + _shown(part.shared) + "▸" + _shown(part.held))
        lines.append("    " + pad(new, label) + "…" + _shown(part.shared) + "▸" + _shown(part.new))
        if one.new_line:
            line = one.new_line
            lines.append("    " + words_for(WORDS, "line new", number=line.number, next=turn + 1, source=line.source))
        if one.held_line:
            lines.append("    " + words_for(WORDS, "line held", number=one.held_line.number, turn=turn, within=_part_words(part.within),
                                     source=one.held_line.source))  # fmt: skip
        elif part.within != "prompt":
            lines.append("    " + words_for(WORDS, "model stop"))
    else:
        lines.append("  " + words_for(WORDS, "text extends"))
    token = one.token_part
    if token is not None:
        lines.append("  " + words_for(WORDS, "token part", offset=token.offset, turn=token.turn, within=_part_words(token.within)))
        shared = " ".join(map(repr, token.shared))
        lines.append(f"    {shared} ▸ {' '.join(map(repr, token.held))} …")
        lines.append(f"    {shared} ▸ {' '.join(map(repr, token.new))} …")
    return lines
