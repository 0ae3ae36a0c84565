"""Chapter 07, the playground: predictions about three edits of a request.

Each right answer is computed by running the same edit through `translate` directly (not
through the playground), so the verdict depends only on the lesson.
"""

from __future__ import annotations

import json

from ...errors import RequestError
from ...examples import readme_request
from ...translation import translate
from ...watch.jsondiff import differences
from . import Exercise, add


def _without_tool_use_id() -> str:
    """What translating the README example without its tool_use_id does: 'refused' or 'translated'."""
    body = readme_request()
    del body["messages"][2]["content"][0]["tool_use_id"]
    try:
        translate(body)
    except RequestError as error:
        return "refused" if error.location == ("messages", 2, "content", 0, "tool_use_id") else "refused elsewhere"
    return "translated"


add(
    Exercise(
        key="07.missing_id",
        question="Delete tool_use_id from the tool result in messages[2]. The default target does not keep that "
        "id in its output anyway. What happens?",
        expected=lambda: {"refused": "b", "translated": "a"}.get(_without_tool_use_id(), "?"),
        wrong="a",
        choices={
            "a": "It translates exactly as before: the default target drops that id, so the request never needed it.",
            "b": "It is refused at messages[2].content[0].tool_use_id; the last good outputs stay, marked stale.",
            "c": "It translates, but without its id the tool message is left out of the output.",
            "d": "The playground stops with a KeyError traceback until the cell is run again.",
        },
        feedback={
            "a": "what the output keeps and what the request must hold are two questions. The id is part of the "
            "protocol (every result names its call), so the contract checks it before anything is translated.",
            "c": "nothing is dropped without a word here: either a block is translated (and its losses reported) "
            "or the whole request is refused with the place that is wrong.",
            "d": "the playground never raises on a bad request: it shows the located error above the editor and "
            "keeps the last good result on screen.",
        },
        hint="Before translating, translate() checks the body against the contract (chapter 01).",
        explanation="the contract requires tool_use_id on every tool_result, whatever the target keeps, so the "
        "request is refused with the exact place; the playground keeps showing the last good result, marked stale.",
    )
)


def _hologram() -> dict:
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "Look at this:"}, {"type": "hologram", "data": "…"}]}]}
    outcome = {}
    for target in ("chat_template", "openai"):
        try:
            messages, _ = translate(json.loads(json.dumps(body)), target=target)
            outcome[target] = "placeholder" if messages[-1]["content"] == "[hologram omitted]" else "other"
        except RequestError:
            outcome[target] = "refused"
    return outcome


add(
    Exercise(
        key="07.hologram",
        question="A user message holds a block of a type nobody knows yet, {'type': 'hologram', ...}. What does "
        "each target do with it?",
        expected=lambda: {("placeholder", "refused"): "c"}.get((_hologram()["chat_template"], _hologram()["openai"]), "?"),
        wrong="a",
        choices={
            "a": "Both refuse it: a block type that is not in the protocol is an error for every target and stack.",
            "b": "Both keep it as a placeholder text, '[hologram omitted]', and report it as lost.",
            "c": "chat_template writes a placeholder and reports it; openai refuses, as an endpoint answers 400.",
            "d": "chat_template drops it without a word; openai passes the block through unchanged.",
        },
        feedback={
            "a": "the contract lets unknown block types through (the protocol keeps adding them); it is the "
            "openai target that refuses what its message shape cannot carry.",
            "b": "the openai target has no placeholder: its user content is a list of typed parts, and a part of "
            "an unknown type would be a lie, so it refuses.",
            "d": "neither target loses a block silently: one reports what it replaced, the other names the block "
            "it refuses.",
        },
        hint="The two targets imitate two different kinds of stack: a rollout adapter that must keep the "
        "trajectory going, and a serving endpoint that can answer 400.",
        explanation="the default target keeps the turn's shape with '[hologram omitted]' and the loss report "
        "names the block; the openai target refuses with the located reason, as an OpenAI-compatible endpoint "
        "answers 400.",
    )
)


def _renamed_leaves() -> int:
    body = readme_request()
    renamed = json.loads(json.dumps(body).replace("read_file", "open_file"))
    before, after = translate(body), translate(renamed)
    return len(differences(before[0], after[0])) + len(differences(before[1], after[1]))


add(
    Exercise(
        key="07.rename",
        question="Rename the tool read_file to open_file everywhere in the README request. In how many places "
        "(JSON leaves) do translated and tools_schema change?",
        expected=_renamed_leaves,
        wrong=1,
        hint="The name appears in the body twice: on the historical tool_use and in the tool definition. Each "
        "path copies the name it sees.",
        explanation="two leaves: the name of the historical call in translated[2]['tool_calls'] and the name of "
        "the offered tool in tools_schema. The two paths are independent, so each copies its own.",
        form="a whole number",
    )
)
