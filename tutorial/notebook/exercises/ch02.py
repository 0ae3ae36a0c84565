"""Chapter 02, the messages path: a prediction before each stage, and why the id goes."""

from __future__ import annotations

from ...examples import readme_request
from ...translation import translate
from . import Exercise, add


def _translated() -> list[dict]:
    return translate(readme_request())[0]


def _flattens_first_user() -> bool:
    from ...watch.trace import trace  # the trace is apparatus: load it only when checked

    return any(step.path.startswith("messages[0]") for step in trace(readme_request()).steps if step.name == "flatten_content")


add(
    Exercise(
        key="02.system_message",
        question='body["system"] is a list holding one text block. Which chat message does it become?',
        expected=lambda: _translated()[0],
        wrong={"role": "system", "content": [{"type": "text", "text": "你是代码助手。"}]},
        hint="The chat template prints a system turn's content as text.",
        explanation="flatten_content turns the block list into one string, and that string becomes the "
        "content of a message with the role system, first in the list.",
        form='a dict such as {"role": ..., "content": ...}; you may write body["system"][0]["text"] for the text',
    )
)

add(
    Exercise(
        key="02.first_user_flatten",
        question="The first user message holds one text block. Is flatten_content called for it?",
        expected=_flattens_first_user,
        wrong=True,
        hint="A user message gives one chat message per block. What does a text block need before its text can be used?",
        explanation="a text block's text is taken straight from block['text']; flatten_content is only needed "
        "where a value may be a list of blocks (the system prompt, a tool result's content).",
        form="True or False",
    )
)

add(
    Exercise(
        key="02.tool_call",
        question='What does the tool_use block in body["messages"][1] become, as one entry of tool_calls?',
        expected=lambda: _translated()[2]["tool_calls"][0],
        wrong={
            "id": "toolu_demo",
            "type": "function",
            "function": {"name": "read_file", "arguments": {"path": "README.md"}},
        },
        hint="Look at what tool_call_dict(name, arguments) takes: only two of the block's fields reach it.",
        explanation="tool_call_dict gets the name and the input, renames input to arguments and keeps it a "
        "dict; the id has no parameter to arrive through, so it is gone.",
        form='a dict {"type": ..., "function": {...}}; body["messages"][1]["content"][1]["input"] is the input',
    )
)

add(
    Exercise(
        key="02.why_dict",
        question="Why do the arguments stay a dict instead of becoming JSON text?",
        choices={
            "a": "The OpenAI Chat Completions API requires a dict there.",
            "b": "Qwen-style templates iterate over the arguments as a mapping, and the adapter compares "
            "recorded turns with ==, which ignores a dict's key order.",
            "c": "json.dumps would turn the Chinese characters into \\u escapes.",
            "d": "A dict takes fewer tokens than JSON text.",
        },
        expected=lambda: "b",
        wrong="a",
        feedback={
            "a": "The Chat Completions wire carries arguments as a JSON *string*; that is why the openai target "
            "encodes them (chapter 08). The default target feeds a template directly.",
            "c": "json.dumps(..., ensure_ascii=False) keeps them readable; the openai target does exactly that.",
            "d": "The template writes the arguments out as text either way; the type decides whether the template "
            "can read them and whether two turns compare equal.",
        },
        hint="Two readers use the arguments: the chat template, and the code that matches a recorded turn with its echo.",
        explanation="a template that does `arguments | items` fails on a string, and two dicts with the same "
        "content are equal whatever their key order, where two JSON texts may not be.",
    )
)

add(
    Exercise(
        key="02.split_roles",
        question='body["messages"][2] holds a tool_result and then a text block. Write the roles of the chat '
        "messages it becomes, in order.",
        expected=lambda: [message["role"] for message in _translated()[3:]],
        wrong=["user"],
        hint="A user message gives one chat message per block, and the chat shape has its own role for a tool's result.",
        explanation="the tool_result becomes a tool message and the text after it a user message, in the order "
        "they had in the block list.",
        form='a list of role names, such as ["assistant"]',
    )
)

add(
    Exercise(
        key="02.pairing",
        question="The tool message keeps no tool_use_id. How does a ChatML- or Qwen-style template show which "
        "call a result answers?",
        choices={
            "a": "the id survives in a hidden field of the message",
            "b": "by position: the result comes right after the assistant turn that made the call, results in "
            "the order of the calls",
            "c": "by the tool's name, which the tool message repeats",
            "d": "it cannot; the model has to guess",
        },
        expected=lambda: "b",
        wrong="a",
        feedback={
            "a": "Look at translated[3]: it has a role and a content, nothing more.",
            "c": "The tool message carries no name, and two calls to read_file would be ambiguous anyway.",
            "d": "The order of the history says it: a call, then its result.",
        },
        hint="Read the five messages of translated in order.",
        explanation="these templates write a tool's response right after the call and never print an id, so "
        "order is all they need. Templates that do print ids (Mistral-style) need the openai target's shape.",
    )
)

add(
    Exercise(
        key="02.count",
        question="The README example has a system prompt and 3 messages. How many chat messages does the messages path produce?",
        expected=lambda: len(_translated()),
        wrong=4,
        hint="Count the system prompt, then ask how many chat messages each input message gives: "
        "a user message gives one per block.",
        explanation="the system prompt gives one, messages[0] and messages[1] one each, and messages[2] two "
        "(a tool message for its tool_result, then a user message for its text).",
        form="a whole number",
    )
)
