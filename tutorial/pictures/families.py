"""families_picture: Action 3 with the models' own templates, one message list fanned out to
every family's template, and what comes out of each: token ids where the sdist ships the
family's vocabulary, the prompt's length where it does not, the refusal where the template
refuses (chapter 04b).

It runs the real templates (`tutorial.render` with a family name), so it needs llama.cpp's
sdist in the cache; without it the picture is one note saying how to fetch it.
"""

from __future__ import annotations

import datetime

from ..llama_cpp import sdist
from ..watch import families
from ..watch.conventions import frozen_today
from ..watch.rendering import RenderError, render
from .captions import words
from .dot import CODE, INPUT, NOTE, OUTPUT, Dot, Graph

# gpt-oss and Mistral print today's date: one fixed day keeps the picture the same every run.
DAY = datetime.datetime(2026, 1, 1)
REFUSAL_CHARS = 48  # the start of a refusal; the chapter prints it whole


def families_picture(messages: list, tools: list) -> Dot:
    w = words()
    graph = Graph("real_templates", [w["families title"]], rankdir="LR")
    graph.node("messages", [w["families messages"](len(messages)), w["families tools"](len(tools or []))], INPUT)
    if not sdist.is_fetched():
        graph.node("missing", [w["not fetched"], sdist.FETCH_COMMAND], NOTE)
        graph.edge("messages", "missing")
        return graph.text()
    with frozen_today(DAY):
        for number, name in enumerate(families.template_families()):
            chosen = families.family(name)
            template, result = f"t{number}", f"p{number}"  # node ids are plain; the family's name is a label
            graph.node(template, [name, chosen.template_file], CODE)
            graph.edge("messages", template)
            graph.node(result, *_outcome(name, chosen, messages, tools, w))
            graph.edge(template, result)
    return graph.text()


def _outcome(name: str, chosen, messages: list, tools: list, w: dict) -> tuple[list[str], dict]:
    try:
        text = render(messages, tools, template=name)
    except RenderError as error:
        refusal = error.refusal or error.problem  # the template's own words (data), else what went wrong
        return [w["refused"], refusal[:REFUSAL_CHARS] + ("…" if len(refusal) > REFUSAL_CHARS else "")], NOTE
    if not chosen.vocabulary:
        return [w["characters"](len(text)), w["no vocabulary"]], OUTPUT
    ids = render(messages, tools, template=name, tokenize=True)
    return [w["characters"](len(text)), w["token ids"](len(ids))], OUTPUT
