"""Chapter 03, the tools path: the schema, no tools, a server tool."""

from __future__ import annotations

from ...examples import readme_request
from ...translation import translate
import json

from . import Exercise, Mistake, add


_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def _without_tools() -> dict:
    return {key: value for key, value in readme_request().items() if key != "tools"}


add(
    Exercise(
        key="03.schema",
        question='What does tools_to_chat_tools(body["tools"]) return for the README example?',
        expected=lambda: translate(readme_request())[1],
        mistakes=(
            Mistake(
                [{"type": "function", "function": {"name": "read_file", "description": "读取文件", "input_schema": _SCHEMA}}],
                "The wrapper is right, but the schema keeps its Anthropic key. Chat templates and the OpenAI-style "
                "tool format read the JSON Schema under another key.",
                "外层包装是对的，但 schema 仍用着 Anthropic 的键名。聊天模板和 OpenAI 风格的工具格式从另一个键下读取 "
                "JSON Schema。",
                matches=lambda answer: "input_schema" in answer[0]["function"],
                right=((0, "type"),),  # "The wrapper is right"
            ),
            Mistake(
                {"type": "function", "function": {"name": "read_file", "description": "读取文件", "parameters": _SCHEMA}},
                "That is one tool, but tools_to_chat_tools returns a list of tools, even when there is only one: "
                "wrap it in [...].",
                "这是一个工具，但 tools_to_chat_tools 返回的是工具列表，哪怕只有一个工具也是如此，所以请用 [...] 包起来。",
                matches=lambda answer: isinstance(answer, dict),
            ),
            Mistake(
                [{"name": "read_file", "description": "读取文件", "parameters": _SCHEMA}],
                "The renaming is right, but each tool is wrapped: {'type': 'function', 'function': {...}}, as the "
                "OpenAI-style tool format has it.",
                "改名是对的，但每个工具还要包一层 {'type': 'function', 'function': {...}}，"
                "和 OpenAI 风格的工具格式一样。",
                matches=lambda answer: "function" not in answer[0] and "name" in answer[0],
                right=(lambda answer, expected: "parameters" in answer[0] and "parameters" in expected[0]["function"],),
            ),
            Mistake(
                [{"type": "function", "function": {"name": "read_file", "description": "读取文件", "parameters": json.dumps(_SCHEMA)}}],
                "The schema is JSON text here. It passes through untouched, as the dict it was.",
                "这里的 schema 成了 JSON 文本，其实 schema 是原样传过去的，仍是原来那个字典。",
                matches=lambda answer: isinstance(answer[0]["function"]["parameters"], str),
            ),
        ),
        hint="Each tool becomes one entry of the OpenAI-style tool format, a function wrapper; its name, description "
        "and schema pass through with their values as they are.",
        explanation="each tool is wrapped as {'type': 'function', 'function': {...}}; name and description "
        "are kept and input_schema is renamed parameters, its value untouched.",
        form='a list of tools; body["tools"][0]["input_schema"] is the schema',
        zh={
            "question": "tools_to_chat_tools(body[\"tools\"]) 对 README 示例返回什么？",
            "hint": "每个工具变成 OpenAI 风格工具格式中的一项，外面包一层 function，而名字、"
                    "描述和 schema 的值都原样传过去。",
            "explanation": "每个工具被包装成 {'type': 'function', 'function': {...}}，其中 name 和 description 保留，"
            "input_schema 改名为 parameters，值原封不动。",
            "form": "一个工具列表，其中 body[\"tools\"][0][\"input_schema\"] 就是 schema",
        },
    )
)

add(
    Exercise(
        key="03.no_tools",
        question="The same request without its tools key: what is tools_schema?",
        expected=lambda: translate(_without_tools())[1],
        mistakes=(
            Mistake(
                [],
                "Not an empty list: the tools path says \"no tools\" with a value that is not a list at all, so "
                "that a template's `{% if tools %}` and a caller's `is None` agree.",
                "答案不是空列表，工具路径用一个根本不是列表的值表示“没有工具”，"
                "这样模板的 `{% if tools %}` 和调用方的 `is None` 判断结果一致。",
                matches=lambda answer: isinstance(answer, (list, tuple)) and len(answer) == 0,
            ),
            Mistake(
                {},
                "Not an empty dict either: the tools path says \"no tools\" with a value that is no container at all.",
                "答案也不是空字典，工具路径用一个根本不是容器的值表示“没有工具”。",
                matches=lambda answer: isinstance(answer, dict) and not answer,
            ),
            Mistake(
                "None",
                "That is text, in quotes. Write the value itself, without quotes.",
                "你写的是带引号的文本，请写出这个值本身，不要加引号。",
                matches=lambda answer: isinstance(answer, str) and answer.strip().lower() in ("none", "null", "nil"),
            ),
            Mistake(
                False,
                "Close: an `if` takes it as false, as it takes the right value, but it is not that value. The package "
                "says \"no tools\" with the value Slime's adapter uses, the one Python writes for \"nothing here\".",
                "已经很接近了，`if` 会把这个值当作假，正确的值也是如此，但两者不是同一个值。本包和 Slime 的适配器一样，"
                "用 Python 里表示“什么也没有”的那个值来表示“没有工具”。",
                matches=lambda answer: answer is not None and not isinstance(answer, (list, tuple, dict)) and answer in (False, 0, ""),
            ),
        ),
        hint="The tools path says \"no tools\" with one particular Python value.",
        explanation="None, not an empty list: the package says \"no tools\" with None, as Slime's adapter does, "
        "and a template's `{% if tools %}` then writes no tools section at all.",
        form="a Python value",
        zh={
            "question": "同一个请求去掉 tools 键之后，tools_schema 是什么？",
            "hint": "工具路径用一个特定的 Python 值来表示“没有工具”。",
            "explanation": "答案是 None 而不是空列表，因为本包和 Slime 的适配器一样用 None 表示“没有工具”，于是模板的 `"
            "{% if tools %}` 根本不会写出工具部分。",
            "form": "一个 Python 值",
        },
    )
)

add(
    Exercise(
        key="03.server_tool",
        question='body["tools"] = [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}], '
        "a tool that Anthropic runs on its own servers. What does the default target do with it?",
        choices={
            "a": "refuses the whole request with a RequestError: the type is not a custom tool",
            "b": "leaves it out of tools_schema without a word, since nothing local can run it",
            "c": "offers it as a function with an empty schema, and the loss report warns",
            "d": "runs the search itself, before sampling, and puts the results in the prompt",
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
        zh={
            "question": "body[\"tools\"] = ["
            "{\"type\": \"web_search_20250305\", \"name\": \"web_search\", \"max_uses\": 3}]，这是一个由 Anthropic "
            "在自己的服务器上运行的工具。默认目标格式会怎样处理这个工具？",
            "choices": {
                "a": "以 RequestError 拒绝整个请求，因为这个工具的类型不是自定义工具",
                "b": "静默地把这个工具从 tools_schema 中去掉，因为本地没有谁能运行",
                "c": "作为 schema 为空的函数提供出去，丢失报告给出警告",
                "d": "在采样之前自己执行搜索，把结果放进 prompt",
            },
            "feedback": {
                "a": "服务端工具是合法的 Anthropic 工具，所以契约予以接受。",
                "b": "去掉这个工具是 openai 目标格式的做法，而且丢失报告会说明，没有什么会静默消失。"
                "默认目标格式的做法与 Slime 的适配器相同。",
                "d": "Action 2 只改变数据的结构，不调用任何网络服务。",
            },
            "hint": "Slime 的 _tools_to_chat_tools 对每个有名字的工具一视同仁。",
            "explanation": "默认目标格式跟随 Slime，每个有名字的工具都变成函数工具，所以模型仍能看到这个名字。"
            "丢失报告会警告本地没有谁能运行这个工具。",
        },
    )
)
