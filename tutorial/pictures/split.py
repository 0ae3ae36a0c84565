"""One tool_result, several tool messages: the split of a result that mixes text with
tool_reference parts.

With the openai target, a result whose parts alternate between tool_reference and other
parts gives one tool message per run of parts, all with the same tool_call_id; with
chat_template, one flattened message. Left to right: the result's parts, then the tool
messages. At most `MOST_RESULTS` results are drawn (those that split first), and a
result with many parts shows its first and last ones; `Dot.collapsed` says what was left
out.
"""

from __future__ import annotations

from ..errors import format_location
from ..watch.losses import reason_in
from ..watch.trace import Trace
from . import reading as r
from . import text as t
from .captions import words
from .dot import BLUE, GREEN, INPUT, LOST, LOST_EDGE, NOTE, OUTPUT, SUMMARY_IN, Collapsed, Dot, Graph, span

MOST_RESULTS = 3
MOST_PARTS = 8
HEAD_PARTS, TAIL_PARTS = 3, 2


def mixed_result_request() -> dict:
    """A small request whose tool_result mixes text with a tool_reference: the case the
    openai target splits. The assistant searched for tools; the result names one."""
    return {
        "system": [{"type": "text", "text": "你是代码助手。"}],
        "messages": [
            {"role": "user", "content": "找一个能读文件的工具。"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_search", "name": "tool_search", "input": {"query": "read file"}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_search",
                        "content": [
                            {"type": "text", "text": "找到 1 个工具："},
                            {"type": "tool_reference", "tool_name": "read_file"},
                            {"type": "text", "text": "现在可以调用它。"},
                        ],
                    }
                ],
            },
        ],
        "tools": [
            {
                "name": "tool_search",
                "description": "按关键词查找工具",
                "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}},
            },
            {
                "name": "read_file",
                "description": "读取文件",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        ],
        "max_tokens": 128,
    }


def runs(items: list) -> list[list[int]]:
    """Indexes of the non-empty items, grouped into runs of tool_reference / other parts."""
    found: list[list[int]] = []
    previous = None
    for k, item in enumerate(items):
        if item == "" or (isinstance(item, dict) and item.get("type") == "text" and not item.get("text")):
            continue  # an empty text part is skipped by both targets
        is_reference = isinstance(item, dict) and item.get("type") == "tool_reference"
        if not found or is_reference != previous:
            found.append([])
        found[-1].append(k)
        previous = is_reference
    return found


def _is_tool_result(body: dict, location: tuple) -> bool:
    value = body
    try:
        for key in location:
            value = value[key]
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(value, dict) and value.get("type") == "tool_result"


def mixed_result_split(trace: Trace) -> Dot:
    """Each tool_result of the request (the first few, those that split first) and the
    tool messages it became."""
    w = words()
    split = trace.target == "openai"
    title = w["split title openai"] if split else w["split title chat"]
    g = Graph("mixed_result_split", [title], None, rankdir="LR", nodesep="0.3", compound="true", mclimit="0", remincross="false")
    results = [p for p in trace.produced if len(p.location) == 4 and _is_tool_result(trace.preprocessed, p.location)]
    chosen = sorted(sorted(range(len(results)), key=lambda n: len(results[n].outputs) < 2)[:MOST_RESULTS])
    if len(results) > len(chosen):
        left_out = [n for n in range(len(results)) if n not in set(chosen)]
        for first, last in _spans(left_out):
            g.note_collapsed(Collapsed("tool_results", first, last))
    if not results:
        g.node("none", [w["no tool_result"]], NOTE)
    lost = {loss.location: loss for loss in trace.losses}
    for n in chosen:
        _draw_one_result(g, trace, n, results[n], split, lost, w)
    if len(results) > len(chosen):
        g.node("more", [w["more results"](len(results) - len(chosen))], SUMMARY_IN)
    if split and chosen:
        g.node("why", w["why split"], NOTE)
        first = results[chosen[0]]
        g.edge("why", f"r{chosen[0]}_out{first.outputs[0]}", style="dotted", arrowhead="none", constraint="false", color="#b59b3b")
    return g.text()


def _spans(numbers: list[int]) -> list[tuple[int, int]]:
    spans: list[list[int]] = []
    for n in numbers:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return [(a, b) for a, b in spans]


def _draw_one_result(g: Graph, trace: Trace, n: int, produced, split: bool, lost: dict, w: dict) -> None:
    block = trace.at(produced.location)
    items = block.get("content")
    path = t.where(produced.location)
    via = r.unique(produced.via)
    with g.cluster(f"cluster_r{n}", [f"{path} · tool_result", "tool_use_id " + t.one(block.get("tool_use_id"))], color=BLUE):
        parts: list[tuple[str, list[int]]] = []  # (node, the item indexes it stands for)
        if not isinstance(items, list):
            g.node(f"r{n}_p", ["content", *t.preview(items if items is not None else "")], INPUT)
            parts.append((f"r{n}_p", []))
        else:
            kept = {k for run in runs(items) for k in run}
            for first, last, one in r.plan(len(items), set(), MOST_PARTS, HEAD_PARTS, TAIL_PARTS):
                if not one:
                    node_id = f"r{n}_p{first}_{last}"
                    kinds = r.count_kinds(r.kind_of(item, w) for item in items[first : last + 1])
                    g.node(node_id, [w["more blocks"](last - first + 1), span("content", first, last), t.fit(kinds)], SUMMARY_IN)
                    g.note_collapsed(Collapsed(format_location(produced.location) + ".content", first, last))
                    parts.append((node_id, list(range(first, last + 1))))
                    continue
                item = items[first]
                lines = [f"content[{first}] · {r.block_kind(item, w)}", *r.block_lines(item)]
                skipped = first not in kept
                gone = produced.location + ("content", first) in lost
                g.node(f"r{n}_p{first}", lines + ([w["empty skipped"]] if skipped else []), LOST if skipped or gone else INPUT)
                parts.append((f"r{n}_p{first}", [first]))
    outputs = list(produced.outputs)
    shown = outputs if len(outputs) <= MOST_PARTS else outputs[:HEAD_PARTS] + outputs[-TAIL_PARTS:]
    with g.cluster(f"cluster_r{n}_out", [w["tool messages"]], color=GREEN):
        for index in shown:
            g.node(f"r{n}_out{index}", r.message_lines(index, trace.translated[index], words=w), OUTPUT)
        if len(shown) < len(outputs):
            middle = outputs[HEAD_PARTS:-TAIL_PARTS]
            g.node(f"r{n}_out{middle[0]}_{middle[-1]}", [w["more outputs"](len(middle)), span("translated", middle[0], middle[-1])], SUMMARY_IN)
            g.note_collapsed(Collapsed("translated", middle[0], middle[-1], (middle[0], middle[-1])))
    g.column([node for node, _ in parts])
    node_of = {index: f"r{n}_out{index}" for index in shown}
    if len(shown) < len(outputs):
        middle = outputs[HEAD_PARTS:-TAIL_PARTS]
        node_of.update({index: f"r{n}_out{middle[0]}_{middle[-1]}" for index in middle})
    g.column(list(dict.fromkeys(node_of[index] for index in outputs)))

    label = [", ".join(via)] if via else [w["direct"]]
    if not isinstance(items, list):
        for head in dict.fromkeys(node_of[index] for index in outputs):
            g.edge(parts[0][0], head, label)
        return
    found = runs(items)
    run_of = {k: number for number, run in enumerate(found) for k in run}
    pairs = len(found) == len(outputs)
    for node_id, members in parts:
        drawn = set()
        for k in members:
            if produced.location + ("content", k) in lost:
                if len(members) == 1:
                    loss = lost[produced.location + ("content", k)]
                    g.node(f"r{n}_lost{k}", [t.where(loss.location, 36), *t.prose(reason_in(loss.reason), 36, 3)], LOST)
                    g.edge(node_id, f"r{n}_lost{k}", **LOST_EDGE)
                continue
            if k not in run_of:
                continue
            heads = [node_of[outputs[run_of[k]]]] if pairs else list(dict.fromkeys(node_of[o] for o in outputs))
            for head in heads:
                if head in drawn:
                    continue
                drawn.add(head)
                if split and pairs and len(members) == 1:
                    kind = "tool_reference" if isinstance(items[k], dict) and items[k].get("type") == "tool_reference" else w["visible parts"]
                    g.edge(node_id, head, [w["run"](run_of[k] + 1, kind)])
                else:
                    g.edge(node_id, head, label)

