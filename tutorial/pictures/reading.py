"""Reading a trace for the pictures: which input piece gave which output, through which
helper, and which runs of a long request to draw as one summary row.

The trace records steps and outputs in body order and the loss report lists losses in
body order, so a message's entries are found by binary search (`Reading`): no
per-message scan of all steps, outputs or losses, and a long request's summary rows
cost one pass over the runs they stand for.

    Reading(trace)              the index
    reading.message_pieces(i)   the input pieces of message i (the whole message, or its
                                blocks) with the outputs each fed and the helpers used
    plan(count, keep, ...)      which items to draw and which runs to fold into one row
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from operator import itemgetter
from dataclasses import dataclass, field
from typing import Any, Optional

from ..watch.trace import Trace
from . import text as t
from .dot import span
from ..watch.losses import reason_in

PATHS = {  # the function each path runs, as the walk-through names it
    "chat_template": ("translate_messages(messages, system)", "tools_to_chat_tools(tools)"),
    "openai": ("openai_messages(messages, system)", "openai_tools(tools)"),
}
MOST_MESSAGES = 12  # a request with more messages is drawn with runs collapsed
HEAD_MESSAGES = 3  # always drawn: the first messages (the task and the first turn) ...
TAIL_MESSAGES = 2  # ... and the last ones (the turn being translated now)
MOST_BLOCKS = 8  # a message with more blocks shows the first and last ones
HEAD_BLOCKS, TAIL_BLOCKS = 3, 2
MOST_OUTPUTS = 6  # one piece giving more messages (a split result) shows the first and last
HEAD_OUTPUTS, TAIL_OUTPUTS = 3, 2
MOST_TOOLS = 8
HEAD_TOOLS, TAIL_TOOLS = 2, 1


@dataclass
class Piece:
    """One input box: a system prompt, a message, one block of a message, or a run of
    messages or blocks drawn as one summary box (`run` = (first, last))."""

    location: tuple
    lines: list[str]
    outputs: tuple[int, ...] = ()
    via: tuple[str, ...] = ()  # helper names; empty = taken directly
    dropped: bool = False  # the whole piece stays behind
    run: Optional[tuple[int, int]] = None
    losses: list = field(default_factory=list)  # the losses drawn beside this piece
    lost_count: int = 0  # for a run: how many values stay behind inside it


class Box:
    """One input box being built: its rows of cells, and per piece the port it leaves by."""

    def __init__(self, node_id: str):
        self.node_id = node_id
        self.rows: list[list] = []  # of dot.Cell
        self.pieces: list[tuple[Piece, str]] = []  # (piece, port)
        self.tags: tuple = ()  # what lights the whole box


def short_reason(reason: str) -> str:
    """The first clause of a loss's reason (up to a semicolon, or the end of a Chinese
    sentence), in the current language: the loss report has the rest."""
    return re.split("[;；。]", reason_in(reason), maxsplit=1)[0]


def unique(names) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def plan(count: int, keep: set[int], most: int, head: int, tail: int, shortest: int = 2) -> list[tuple[int, int, bool]]:
    """Segments (first, last, drawn) covering range(count) in order. With `count` <= `most`
    everything is drawn one by one; otherwise the first `head`, the last `tail` and every
    index in `keep` are, and each run between them of `shortest` or more is one summary
    (a shorter one is drawn: a summary of one message takes as much room as the message)."""
    if count <= most:
        return [(i, i, True) for i in range(count)]
    shown = sorted({*range(min(head, count)), *range(max(count - tail, 0), count), *(i for i in keep if 0 <= i < count)})
    segments: list[tuple[int, int, bool]] = []
    previous = -1
    for i in shown + [count]:  # costs what is shown, not what is folded
        first, last = previous + 1, i - 1
        if last - first + 1 >= shortest:
            segments.append((first, last, False))
        else:
            segments += [(k, k, True) for k in range(first, last + 1)]
        if i < count:
            segments.append((i, i, True))
        previous = i
    return segments


_INDEX = re.compile(r"(messages|translated|tools|tools_schema)\[(\d+)\](?:\.content\[(\d+)\])?")


def wanted_indexes(highlight: Optional[str], reading: "Reading") -> dict[str, set]:
    """Which messages, blocks and tools a highlight asks to keep drawn."""
    keep: dict[str, set] = {"messages": set(), "blocks": set(), "tools": set()}
    if not highlight:
        return keep
    found = _INDEX.match(highlight)
    if not found:
        return keep
    kind, number, block = found.group(1), int(found.group(2)), found.group(3)
    if kind == "messages":
        keep["messages"].add(number)
        if block is not None:
            keep["blocks"].add((number, int(block)))
    elif kind == "translated":
        source = reading.source_of(number)
        if source is not None and source[:1] == ("messages",):
            keep["messages"].add(source[1])
            if len(source) >= 4:
                keep["blocks"].add((source[1], source[3]))
    else:
        keep["tools"].add(number)  # tools_schema[k] is close enough: the same order
    return keep


_AFTER = float("inf")


def _message_of(entry) -> float:
    """Where a step, a Produced or a loss sits, by message: its index; before every
    message for the system prompt, after them for the rest (the whole lists, the tools)."""
    location = entry.location
    if location[:1] == ("messages",) and len(location) > 1:
        return location[1]
    return -1 if location[:1] == ("system",) else _AFTER


class _ByMessage:
    """Entries recorded in body order (the trace's steps and outputs, the loss report's
    messages section), looked up by message with a binary search: no pass over them."""

    def __init__(self, entries: list):
        self.entries = entries

    def between(self, first: int, last: int) -> list:
        start = bisect_left(self.entries, first, key=_message_of)
        return self.entries[start : bisect_right(self.entries, last, lo=start, key=_message_of)]


class Reading:
    """A trace, read for drawing. The trace records steps and outputs in the order the
    body's messages were walked, and the loss report lists losses in body order, so the
    entries of any message are found by binary search: reading costs nothing per
    message, and a picture of a long request costs little more than a short one's."""

    def __init__(self, trace: Trace):
        self.trace = trace
        self.messages = trace.preprocessed["messages"]
        self.produced = _ByMessage(trace.produced)
        self.steps = _ByMessage(trace.steps)
        losses = trace.losses
        # the loss report walks the body's keys in order: the messages' losses are one run
        first = next((n for n, loss in enumerate(losses) if loss.location[:1] == ("messages",)), len(losses))
        end = len(losses)  # the body's keys after "messages" (tools, parameters) are few
        while end > first and losses[end - 1].location[:1] != ("messages",):
            end -= 1
        self.message_losses = _ByMessage(losses[first:end])
        self.losses_by_tool: dict[int, list] = {}
        self.top_losses: list = []  # the body's own fields, and the system prompt's
        for loss in losses[:first] + losses[end:]:
            if loss.location[:1] == ("tools",) and len(loss.location) > 1:
                self.losses_by_tool.setdefault(loss.location[1], []).append(loss)
            else:
                self.top_losses.append(loss)
        self.system_produced = [p for p in self.produced.between(-1, -1) if p.location == ("system",)]

    def produced_in(self, i: int) -> list:
        return self.produced.between(i, i)

    def losses_in(self, i: int) -> list:
        return self.message_losses.between(i, i)

    def source_of(self, output: int) -> Optional[tuple]:
        """Where translated[output] came from (looked up only for a highlight)."""
        return next((p.location for p in self.trace.produced if output in p.outputs), None)

    # -- pieces ---------------------------------------------------------------

    def system_piece(self, words: dict) -> Optional[Piece]:
        system = self.trace.preprocessed.get("system")
        if system is None:
            return None
        if isinstance(system, str):
            kind, texts = words["a string"], system
        else:
            kind = words["n text blocks"](len(system))
            texts = "\n".join(b.get("text", "") if isinstance(b, dict) else "" for b in system[:50])
        piece = Piece(("system",), [f"system · {kind}", *t.preview(texts)])
        if self.system_produced:
            found = self.system_produced[0]
            piece.outputs, piece.via = found.outputs, unique(found.via)
        return piece

    def message_pieces(self, i: int, words: dict, keep_blocks: set = frozenset()) -> list[Piece]:
        """The input pieces of message i and the outputs each piece fed."""
        here = ("messages", i)
        message = self.messages[i]
        content, role = message["content"], t.bare(message.get("role"))
        produced = self.produced_in(i)
        lost = {loss.location for loss in self.losses_in(i)}
        whole = [p for p in produced if p.location == here]
        whole_outputs = tuple(o for p in whole for o in p.outputs)
        whole_via = unique(name for p in whole for name in p.via)
        steps = self.steps.between(i, i)
        takes_whole = any(s.name in whole_via and s.location in (here, here + ("content",)) for s in steps)

        if isinstance(content, str) or not content or takes_whole:
            summary = t.preview(content) if isinstance(content, str) else content_lines(content, 2)
            header = f"messages[{i}] · {role}" + ("" if produced else " · " + words["gives no message"])
            outputs = tuple(o for p in produced for o in p.outputs)
            return [Piece(here, [header, *summary], outputs, unique(n for p in produced for n in p.via))]

        # Block by block. Blocks a unit of their own produced are attributed directly; the
        # rest were gathered by the message itself: consecutive ones form a group, and the
        # groups match the message-level outputs in order when their numbers agree.
        by_block: dict[tuple, list] = {}
        for p in produced:
            if len(p.location) >= 4:
                by_block.setdefault(p.location[:4], []).append(p)
        helpers: dict[tuple, list] = {}
        for s in steps:
            if s.name in whole_via and len(s.location) >= 4:
                helpers.setdefault(s.location[:4], []).append(s.name)
        groups, current = [], []
        for j in range(len(content)):
            location = here + ("content", j)
            if location in by_block:
                groups, current = groups + ([current] if current else []), []
            elif location not in lost:
                current.append(j)
        groups += [current] if current else []
        group_of = {j: n for n, members in enumerate(groups) for j in members}
        paired = len(groups) == len(whole_outputs)

        pieces = []
        for j, block in enumerate(content):
            location = here + ("content", j)
            piece = Piece(location, [f"content[{j}] · {block_kind(block, words)}", *block_lines(block)])
            if location in by_block:
                piece.outputs = tuple(o for p in by_block[location] for o in p.outputs)
                piece.via = unique(n for p in by_block[location] for n in p.via)
            elif location in lost:
                piece.dropped = True
            else:
                piece.outputs = (whole_outputs[group_of[j]],) if paired else whole_outputs
                piece.via = unique(helpers.get(location, ()))
            pieces.append(piece)
        if whole_outputs and not groups:  # every block stayed behind, yet a message was made
            pieces.append(Piece(here, [words["nothing carried over"]], whole_outputs, (words["an empty message"],)))
        if len(content) > MOST_BLOCKS:
            pieces = self._fold_blocks(i, pieces, keep_blocks, words)
        return pieces

    def _fold_blocks(self, i: int, pieces: list[Piece], keep: set, words: dict) -> list[Piece]:
        """A message with many blocks: the first and last blocks drawn, runs between them
        (and not highlighted) as one summary piece."""
        blocks = [p for p in pieces if len(p.location) == 4]
        rest = [p for p in pieces if len(p.location) != 4]
        wanted = {j for (m, j) in keep if m == i}
        folded = []
        for first, last, drawn in plan(len(blocks), wanted, MOST_BLOCKS, HEAD_BLOCKS, TAIL_BLOCKS):
            if drawn:
                folded.append(blocks[first])
                continue
            run = blocks[first : last + 1]
            kinds = count_kinds(kind_of(block, words) for block in self.messages[i]["content"][first : last + 1])
            summary = Piece(
                ("messages", i, "content", first),
                [words["more blocks"](last - first + 1), span("content", first, last), *t.wrap(kinds, t.WIDTH, 1)],
                unique(o for p in run for o in p.outputs),
                unique(n for p in run for n in p.via),
                run=(first, last),
            )
            summary.dropped = all(p.dropped for p in run)
            folded.append(summary)
        return folded + rest

    def run_piece(self, first: int, last: int, words: dict) -> Piece:
        """Messages first..last as one summary piece."""
        produced = self.produced.between(first, last)
        outputs = range(produced[0].outputs[0], produced[-1].outputs[-1] + 1) if produced and produced[-1].outputs else ()
        via = dict.fromkeys(name for p in produced for name in (p.via or ("direct",)))  # "direct": text taken as is
        lost = len(self.message_losses.between(first, last))
        count = last - first + 1
        mix = roles(self.messages[first : last + 1])
        lines = [words["more messages"](count), span("messages", first, last), *t.wrap(mix, t.WIDTH, 1)]
        if lost:
            lines.append(words["n stay behind"](lost))
        piece = Piece(("messages", first), lines, tuple(outputs), tuple(via), run=(first, last))
        piece.lost_count = lost
        return piece


def count_kinds(kinds) -> str:
    """"3 tool_result, 1 text": how many of each kind, in order of first appearance.
    Kinds are counted as given (at C speed) and shortened once each."""
    kinds = list(kinds)
    try:
        return _counted(Counter(kinds))
    except TypeError:  # a kind that is a list or an object: counted as its text
        return _counted(Counter(kind if isinstance(kind, str) else t.one(kind, 16) for kind in kinds))


def _counted(counted: Counter) -> str:
    shown: dict[str, int] = {}
    for kind, n in counted.items():
        name = t.bare(kind, 16)
        shown[name] = shown.get(name, 0) + n
    return ", ".join(f"{n} {name}" for name, n in shown.items())


def roles(messages: list) -> str:
    """count_kinds of the messages' roles."""
    try:
        return _counted(Counter(map(itemgetter("role"), messages)))  # every message has one
    except (KeyError, TypeError):
        return count_kinds(m.get("role") if isinstance(m, dict) else None for m in messages)


def kind_of(block, words: Optional[dict] = None) -> object:
    if isinstance(block, str):
        return words["string kind"] if words else "string"
    return block.get("type") if isinstance(block, dict) else type(block).__name__


# ---------------------------------------------------------------------------
# What a block or a chat message says, in two or three short lines


def block_kind(block: Any, words: Optional[dict] = None) -> str:
    if isinstance(block, str):
        return words["string kind"] if words else "string"
    return t.bare(block.get("type")) if isinstance(block, dict) else t.bare(type(block).__name__)


def block_lines(block: Any, width: int = t.WIDTH) -> list[str]:
    """What a block says, in two or three short lines."""
    if not isinstance(block, dict):
        return t.preview(block, width)
    kind = block.get("type")
    if kind == "text":
        return t.preview(block.get("text"), width)
    if kind == "thinking":
        return t.preview(block.get("thinking"), width)
    if kind == "tool_use":
        return [
            f"{t.bare(block.get('name'), 14)} · id {t.one(block.get('id'), 14)}",
            "input " + t.one(block.get("input"), width - 6),
        ]
    if kind == "tool_result":
        lines = ["tool_use_id " + t.one(block.get("tool_use_id"), width - 12)]
        return lines + content_lines(block.get("content"), 1, width)
    if kind == "image":
        source = block.get("source") if isinstance(block.get("source"), dict) else {}
        return [t.bare(source.get("url") or source.get("media_type") or source.get("type"), width)]
    if kind == "tool_reference":
        return ["tool_name " + t.one(block.get("tool_name") or block.get("name"), width - 10)]
    text = block.get("text") if isinstance(block.get("text"), str) else None
    return t.preview(text, width, 1) if text is not None else []


def content_lines(content: Any, lines: int = 2, width: int = t.WIDTH) -> list[str]:
    """Content as a reader would summarise it: a string quoted, a list as its parts."""
    if isinstance(content, list):
        shown, size = [], 0
        for part in content:
            if size > width * lines:  # enough for the label: the rest is cut anyway
                shown.append("…")
                break
            if isinstance(part, str):
                shown.append(t.one(part, width * lines))
            elif isinstance(part, dict) and part.get("type") == "text":
                shown.append(t.one(part.get("text"), width * lines))
            elif isinstance(part, dict) and part.get("type") == "tool_reference":
                shown.append(f"[tool_reference {t.bare(part.get('name') or part.get('tool_name'))}]")
            else:
                shown.append(f"[{block_kind(part)}]")
            size += len(shown[-1])
        return t.wrap(" + ".join(shown) if shown else "[]", width, lines)
    return t.preview(content if content is not None else "", width, lines)


def message_lines(index: int, message: dict, width: int = t.WIDTH, words: Optional[dict] = None) -> list[str]:
    """A produced chat message: its index and role, then a preview of what it carries."""
    lines = [f"translated[{index}] · {t.bare(message.get('role'))}"]
    if "tool_call_id" in message:
        lines.append("tool_call_id " + t.one(message["tool_call_id"], width - 13))
    lines += content_lines(message.get("content"), 2, width)
    if message.get("reasoning_content"):
        lines.append("reasoning_content " + t.one(message["reasoning_content"], width - 18))
    calls = message.get("tool_calls") or []
    for call in calls[:3]:
        function = (call.get("function") or {}) if isinstance(call, dict) else {}
        lines.append("tool_call " + t.bare(function.get("name"), width - 10))
        lines.append("  arguments " + t.one(function.get("arguments"), width - 12))
    if len(calls) > 3:
        lines.append(words["more tool calls"](len(calls) - 3) if words else f"… {len(calls) - 3} more tool_calls")
    return lines
