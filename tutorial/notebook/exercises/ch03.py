"""Chapter 03, the tools path: the schema, no tools, a server tool."""

from __future__ import annotations

from ...examples import readme_request
from ...translation import translate
from . import Exercise, add


def _without_tools() -> dict:
    return {key: value for key, value in readme_request().items() if key != "tools"}


add(
    Exercise(
        key="03.schema",
        question='What does tools_to_chat_tools(body["tools"]) return for the README example?',
        expected=lambda: translate(readme_request())[1],
        wrong=[
            {
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "读取文件",
                    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
                },
            }
        ],
        hint="The wrapper is right. Chat templates and the OpenAI-style tool format read the JSON Schema under another key.",
        explanation="each tool is wrapped as {'type': 'function', 'function': {...}}; name and description "
        "are kept and input_schema is renamed parameters, its value untouched.",
        form='a list of tools; body["tools"][0]["input_schema"] is the schema',
    )
)

add(
    Exercise(
        key="03.no_tools",
        question="The same request without its tools key: what is tools_schema?",
        expected=lambda: translate(_without_tools())[1],
        wrong=[],
        hint="Not an empty container: the tools path says \"no tools\" with a value that is not a list at all.",
        explanation="None, not an empty list: the package says \"no tools\" with None, as Slime's adapter does, "
        "and a template's `{% if tools %}` then writes no tools section at all.",
        form="a Python value",
    )
)

add(
    Exercise(
        key="03.server_tool",
        question='body["tools"] = [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}], '
        "a tool that Anthropic runs on its own servers. What does the default target do with it?",
        choices={
            "a": "refuses the request with a RequestError",
            "b": "leaves it out without a word",
            "c": "keeps it as a function tool with an empty schema, and the loss report says that only "
            "Anthropic's servers can run it",
            "d": "runs the search itself and puts the results in the prompt",
        },
        expected=lambda: "c",
        wrong="b",
        feedback={
            "a": "A server tool is a valid Anthropic tool, so the contract accepts it.",
            "b": "Leaving it out is what the openai target does, and the loss report says so there too; "
            "nothing goes without a word. The default target does what Slime's adapter does.",
            "d": "Action 2 only reshapes data; nothing in it calls a network service.",
        },
        hint="Slime's _tools_to_chat_tools treats every named tool alike.",
        explanation="the default target follows Slime: every named tool becomes a function tool, so the model "
        "still sees the name. The loss report warns that nothing local can run it.",
    )
)
