"""The stage-by-stage walk of one request, as text: what `python -m tutorial walk` prints.

It is read straight off a `Trace`: for each piece of the body, its input, the helper
calls it went through, and the messages it produced; then the tools path, the
hand-back, and what stays behind.
"""

from __future__ import annotations

import json

from ..errors import format_location
from .show import as_json
from ..watch.trace import Trace


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def walk_text(t: Trace) -> str:
    lines = [f"Action 2 for target {t.target!r}: translated, tools_schema = translate(body)", ""]
    folded = t.preprocessed["messages"] != t.body["messages"]
    lines += [
        "1. Entry: body, a dict with keys " + ", ".join(t.body) + ".",
        "   preprocess folded a system message from inside the list into a user message."
        if folded
        else "   preprocess changed nothing (no system message inside the list).",
        "",
        "2. Messages path: translate_messages(body['messages'], body.get('system'))",
    ]
    groups: dict[tuple, list] = {}  # one section per system prompt or input message
    for produced in t.produced:
        groups.setdefault(produced.location[:2], []).append(produced)
    for number, (location, parts) in enumerate(groups.items(), start=1):
        outputs = [t.translated[i] for part in parts for i in part.outputs]
        roles = " + ".join(message["role"] for message in outputs)
        lines += ["", f"2.{number} {format_location(location)} -> {roles}", "  input:", _indent(as_json(t.at(location)))]
        for part in parts:
            how = ", ".join(part.via) if part.via else "text taken directly, no helper"
            if len(parts) > 1 or part.location != location:
                lines.append(f"  {part.source} -> {' + '.join(t.translated[i]['role'] for i in part.outputs)} ({how})")
            for step in t.steps:
                if step.location[: len(part.location)] == part.location and step.name in part.via:
                    lines += [f"  {step.name} got ({step.path}):", _indent(as_json(step.input)), "  and returned:", _indent(as_json(step.output))]
        lines += ["  output:", _indent(as_json(outputs))]
    lines += ["", f"   translate_messages returned {len(t.translated)} messages:", _indent(as_json(t.translated))]
    lines += ["", "3. Tools path: tools_to_chat_tools(body.get('tools'))", "  input:", _indent(as_json(t.preprocessed.get("tools")))]
    lines += ["  output (tools_schema):", _indent(as_json(t.tools_schema))]
    tools = "None" if t.tools_schema is None else f"a list of {len(t.tools_schema)}"
    lines += [
        "",
        f"4. Hand-back: translate returns (translated, tools_schema) = (a list of {len(t.translated)}, {tools})",
        "   to BaseAdapter._run_turn as a plain Python return value: no HTTP request is made here.",
        "   Next, Action 3 renders both with the model's chat template into token ids (tokenizer-specific).",
        "",
        "5. What stays behind:" if t.losses else "5. What stays behind: nothing.",
    ]
    for loss in t.losses:
        lines += [f"   {loss.path} = {json.dumps(loss.value, ensure_ascii=False)[:80]}", f"      {loss.reason}"]
    return "\n".join(lines) + "\n"

