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
        zh={
            "question": "tools_to_chat_tools(body[\"tools\"]) 对 README 示例返回什么？",
            "hint": "外层包装是对的。聊天模板和 OpenAI 风格的工具格式从另一个键下读取 JSON Schema。",
            "explanation": "每个工具被包装成 {'type': 'function', 'function': {...}}；name 和 description 保留，"
            "input_schema 改名为 parameters，值原封不动。",
            "form": "一个工具列表；body[\"tools\"][0][\"input_schema\"] 就是 schema",
        },
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
        zh={
            "question": "同一个请求去掉 tools 键之后，tools_schema 是什么？",
            "hint": "不是空容器：工具路径用一个根本不是列表的值来表示“没有工具”。",
            "explanation": "是 None，不是空列表：本包和 Slime 的适配器一样用 None 表示“没有工具”，于是模板的 `"
            "{% if tools %}` 完全不会写出工具部分。",
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
        zh={
            "question": "body[\"tools\"] = ["
            "{\"type\": \"web_search_20250305\", \"name\": \"web_search\", \"max_uses\": 3}]，这是一个由 Anthropic "
            "在自己的服务器上运行的工具。默认目标格式怎么处理它？",
            "choices": {
                "a": "以 RequestError 拒绝这个请求",
                "b": "一声不响地把它去掉",
                "c": "保留为 schema 为空的函数工具，丢失报告说明只有 Anthropic 的服务器能运行它",
                "d": "自己执行搜索，把结果放进 prompt",
            },
            "feedback": {
                "a": "服务端工具是合法的 Anthropic 工具，所以契约接受它。",
                "b": "去掉它是 openai 目标格式的做法，而且那里的丢失报告也会说明；没有什么会一声不响地消失。"
                "默认目标格式的做法与 Slime 的适配器相同。",
                "d": "Action 2 只改变数据的形状；它里面没有任何东西会调用网络服务。",
            },
            "hint": "Slime 的 _tools_to_chat_tools 对每个有名字的工具一视同仁。",
            "explanation": "默认目标格式跟随 Slime：每个有名字的工具都变成函数工具，所以模型仍能看到这个名字。"
            "丢失报告会警告：本地没有任何东西能运行它。",
        },
    )
)
