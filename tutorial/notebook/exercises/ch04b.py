"""Chapter 04b, Action 3 for real: where real templates put things, and what they refuse.

Every right answer is computed by rendering with the real templates (llama.cpp's sdist), so
an exercise cannot drift from what the templates do. The chapter's recall questions are
registered here too (`understanding.RECALL["04b"]`), beside the exercises they follow.
"""

from __future__ import annotations

from ...examples import readme_request
from . import Exercise, Mistake, add
from .understanding import RECALL, Recall

QWEN_LINE = ("qwen2.5", "qwen3", "qwen3-coder", "qwen3.5")


def _render(messages, tools, name):
    from ...watch.rendering import render

    return render(messages, tools, template=name)


def _refusers(messages, tools, names) -> list[str]:
    from ...watch.rendering import RenderError

    refused = []
    for name in names:
        try:
            _render(messages, tools, name)
        except RenderError:
            refused.append(name)
    return refused


def _translated(target: str = "chat_template"):
    from ...translation import translate

    return translate(readme_request(), target=target)


def _llama_tools_place() -> str:
    messages, tools = _translated()
    prompt = _render(messages, tools, "llama-3.3")
    schema_at = prompt.index('"name": "read_file"')
    first_user = prompt.index("<|start_header_id|>user<|end_header_id|>")
    first_text = prompt.index("读取 README.md 并概括内容。")
    return "b" if first_user < schema_at < first_text else "?"


def _mid_system_refusers() -> list[str]:
    messages, tools = _translated()
    with_system = messages[:4] + [{"role": "system", "content": "回答要简短。"}] + messages[4:]
    return _refusers(with_system, tools, QWEN_LINE)


def _text_arguments_refusers() -> list[str]:
    return _refusers(*_translated("openai"), QWEN_LINE)


def _tool_call_token_count() -> int:
    from ...watch.rendering import render

    ids = render([{"role": "user", "content": "<tool_call>"}], template="qwen3", tokenize=True, add_generation_prompt=False)
    return len(ids) - len(render([{"role": "user", "content": ""}], template="qwen3", tokenize=True, add_generation_prompt=False))


def _spelt(value):
    """A family name written with or without spaces (case and newlines count, as everywhere)."""
    return value.replace(" ", "") if isinstance(value, str) else value


def _names(answer) -> set:
    return {_spelt(item) for item in answer}


add(
    Exercise(
        key="04b.where_tools",
        question="Llama 3.3's template is given the README example and its one tool. Where in the prompt does "
        "the tool's schema land?",
        choices={
            "a": "in the system turn, after the system prompt",
            "b": "inside the first user turn, before the user's own words",
            "c": "in a turn of its own that declares the tools, before any other",
            "d": "nowhere: Llama 3.3's template has no place for tools",
        },
        expected=_llama_tools_place,
        wrong="a",
        feedback={
            "a": "That is where the Qwen templates put it. Llama 3.3's system turn holds 'Environment: ipython', "
            "the dates and the text of the system message, but not the schema.",
            "c": "That is Kimi-K2's tool_declare turn.",
            "d": "It has a place: look for 'Given the following functions' in its prompt.",
        },
        hint="Find the schema's text in the rendered prompt and read which header comes before it.",
        explanation="With tools_in_user_message (true unless the caller says otherwise) the template moves the "
        "schema into the first user message, before the user's words.",
        zh={
            "question": "把 README 示例连同其中唯一的工具交给 Llama 3.3 的模板，工具的 schema 会出现在 prompt 的哪里？",
            "choices": {
                "a": "在 system 消息里，系统提示词之后",
                "b": "在第一条 user 消息里，用户自己的话之前",
                "c": "在一个专门声明工具的独立轮次里，排在所有其他轮次之前",
                "d": "哪里都没有：Llama 3.3 的模板没有放工具的位置",
            },
            "feedback": {
                "a": "放在那里的是 Qwen 系列的模板，Llama 3.3 的 system 消息里只有 'Environment: ipython'、日期和系统提示词（你是代码助手），并没有 schema。",
                "c": "单独声明工具的轮次是 Kimi-K2 的 tool_declare，Llama 3.3 的模板没有这样的轮次。",
                "d": "schema 其实有位置，在 Llama 3.3 的 prompt 里找找 'Given the following functions' 就能看到。",
            },
            "hint": "在渲染出的 prompt 里找到 schema 的文本，看看这段文本前面是哪个 header。",
            "explanation": "tools_in_user_message 为 true 时（调用方不另外指定就是 true），模板把 schema 挪进第一条 user "
            "消息，放在用户的话之前。",
        },
    )
)

add(
    Exercise(
        key="04b.mid_system",
        question="A system message is put in the middle of the README example (after the tool result). Which of "
        "qwen2.5, qwen3, qwen3-coder and qwen3.5 refuse to render it? Give a list of names.",
        expected=_mid_system_refusers,
        any_order=True,
        spelling=_spelt,
        mistakes=(
            Mistake(
                list(QWEN_LINE),
                "Not every Qwen template refuses: render the message list with qwen2.5 and with qwen3.",
                "并不是每个 Qwen 模板都拒绝，分别用 qwen2.5 和 qwen3 渲染这个消息列表就能看出来。",
                matches=lambda answer: _names(answer) == set(QWEN_LINE),
            ),
            Mistake(
                [],
                "One of them does refuse, with its own raise_exception: the newest.",
                "其中确实有一个会拒绝，而且用的是模板自己的 raise_exception，就是最新的那个。",
            ),
        ),
        hint="Render the list with each of the four names and keep those that raise RenderError.",
        explanation="Of the four, only Qwen3.5 checks where a system message stands ('System message must be at "
        "the beginning.'); Qwen2.5, Qwen3 and Qwen3-Coder render a second system turn where it is. Outside the "
        "Qwen line, Mistral-Small-3.2 refuses one too, through its rule that roles alternate.",
        form="a list of family names, e.g. ['qwen3']",
        zh={
            "question": "在 README 示例中间（工具结果之后）插入一条 system 消息，qwen2.5、qwen3、qwen3-coder、"
            "qwen3.5 中哪些会拒绝渲染？",
            "hint": "用这四个名字分别渲染，挑出抛出 RenderError 的那些。",
            "explanation": "四个里只有 Qwen3.5 检查 system 消息的位置（'System message must be at the beginning.'）。"
            "Qwen2.5、Qwen3 和 Qwen3-Coder 会在原位置再渲染一条 system 消息。Qwen 系列之外，Mistral-Small-3.2 也拒绝，"
            "靠的是角色必须交替的规则。",
            "form": "模型家族名字的列表，例如 ['qwen3']",
        },
    )
)

add(
    Exercise(
        key="04b.text_arguments",
        question="The 'openai' target writes a tool call's arguments as JSON text. Which of qwen2.5, qwen3, "
        "qwen3-coder and qwen3.5 refuse the README example in that form? Give a list of names.",
        expected=_text_arguments_refusers,
        any_order=True,
        spelling=_spelt,
        mistakes=(
            Mistake(
                ["qwen3", "qwen3-coder", "qwen3.5"],
                "Qwen3's template has a branch for arguments that are a string: it prints them as they are.",
                "Qwen3 的模板有一个处理字符串参数的分支，会原样输出。",
                matches=lambda answer: _names(answer) == {"qwen3", "qwen3-coder", "qwen3.5"},
            ),
            Mistake(
                list(QWEN_LINE),
                "Qwen2.5 does not refuse: its |tojson encodes the text once more, so the prompt shows an escaped "
                "string. Wrong, but no error.",
                "Qwen2.5 并不拒绝，而是由模板里的 |tojson 把文本再编码一次，于是 prompt 里出现转义后的字符串，"
                "结果错了却不报错。",
                matches=lambda answer: _names(answer) == set(QWEN_LINE),
            ),
        ),
        hint="Translate with target='openai' and render with each of the four names.",
        explanation="Qwen3-Coder and Qwen3.5 iterate the arguments as a mapping (|items) and fail on text; Qwen3 "
        "prints a string as it is; Qwen2.5 renders without error but encodes the text twice, as DeepSeek-V3.1, "
        "gpt-oss, Kimi-K2, Llama 3.3 and Mistral-Small-3.2 do too.",
        form="a list of family names, e.g. ['qwen3']",
        zh={
            "question": "'openai' 目标格式把工具调用的参数写成 JSON 文本，那么对这种形式的 README 示例，qwen2.5、qwen3、"
            "qwen3-coder、qwen3.5 中哪些会拒绝渲染？",
            "hint": "用 target='openai' 翻译，再用这四个名字分别渲染。",
            "explanation": "Qwen3-Coder 和 Qwen3.5 把参数当作映射来遍历（|items），遇到文本就失败。"
            "Qwen3 原样输出字符串，Qwen2.5 不报错，却把文本编码了两次，DeepSeek-V3.1、gpt-oss、Kimi-K2、"
            "Llama 3.3 和 Mistral-Small-3.2 也一样。",
            "form": "模型家族名字的列表，例如 ['qwen3']",
        },
    )
)

add(
    Exercise(
        key="04b.tool_call_tokens",
        question="In Qwen3's vocabulary, how many token ids does the text <tool_call> become?",
        expected=_tool_call_token_count,
        mistakes=(
            Mistake(
                4,
                "That is how a vocabulary without Qwen3's added tokens splits it (<, tool, _call, >). Qwen3 adds "
                "<tool_call> as one token of its own.",
                "没有 Qwen3 附加 token 的词表会这样切分（<、tool、_call、>）。Qwen3 把 <tool_call> 作为一个附加 token 单独加进了词表。",
            ),
            Mistake(
                11,
                "That is its length in characters. A tokenizer does not read characters one by one: it matches "
                "added tokens whole, then merges bytes into the longest pieces its vocabulary knows.",
                "那是字符数，可分词器并不逐个字符读，而是先整体匹配附加 token，再把字节合并成词表里尽可能长的 token。",
            ),
        ),
        hint="Render a user message whose content is '<tool_call>' with tokenize=True and compare with an empty one.",
        explanation="<tool_call> is an added token (id 151657): the tokenizer matches it whole before the BPE "
        "runs, so the model reads one id where a template writes the marker.",
        form="an integer",
        zh={
            "question": "在 Qwen3 的词表里，文本 <tool_call> 变成几个 token id？",
            "hint": "用 tokenize=True 渲染一条内容为 '<tool_call>' 的 user 消息，再和一条空消息比较。",
            "explanation": "<tool_call> 是一个附加 token（id 151657），分词器在 BPE 之前就整体匹配这个标记，"
            "所以在模板写出 <tool_call> 的地方，模型读到的只是一个 id。",
            "form": "一个整数",
        },
    )
)

RECALL["04b"] = (
    Recall(
        "Where does the README example's tool schema go in Qwen3's prompt, in Llama 3.3's and in Kimi-K2's?",
        "Qwen3: the system turn, inside <tools>; Llama 3.3: the first user turn; Kimi-K2: a tool_declare turn "
        "of its own before everything else.",
        "在 Qwen3、Llama 3.3 和 Kimi-K2 的 prompt 中，README 示例的工具 schema 分别放在哪里？",
        "Qwen3 放在 system 消息里的 <tools> 标签中，Llama 3.3 放在第一条 user 消息里，"
        "Kimi-K2 则单独排一个 tool_declare 轮次，放在最前面。",
    ),
    Recall(
        "Which Qwen templates refuse a system message in the middle of the list, and which fail on arguments "
        "written as text?",
        "Of the Qwen line only Qwen3.5 refuses the mid-list system message (Mistral-Small-3.2 refuses it too, "
        "through alternation). Qwen3-Coder and Qwen3.5 fail on text arguments; Qwen3 prints them as they are; "
        "Qwen2.5 encodes them twice without an error, as DeepSeek-V3.1, gpt-oss, Kimi-K2, Llama 3.3 and "
        "Mistral-Small-3.2 do.",
        "哪些 Qwen 模板会拒绝列表中间的 system 消息，哪些遇到写成文本的参数会失败？",
        "Qwen 系列里只有 Qwen3.5 拒绝中间的 system 消息（Mistral-Small-3.2 也拒绝，因为这个模板要求角色交替），"
        "而遇到写成文本的参数，Qwen3-Coder 和 Qwen3.5 会失败，Qwen3 原样输出，Qwen2.5 不报错却编码两次，"
        "DeepSeek-V3.1、gpt-oss、Kimi-K2、Llama 3.3 和 Mistral-Small-3.2 与 Qwen2.5 相同。",
    ),
    Recall(
        "Which template needs tool-call ids, and what does it demand of them?",
        "Mistral-Small-3.2: every call and every tool result carries an id that is a string of length 9, else "
        "'Tool call IDs should be alphanumeric strings with length 9!'. Only the length is checked: toolu_123 "
        "and !!!!!!!!! pass.",
        "哪个模板需要工具调用 id，对 id 又有什么要求？",
        "Mistral-Small-3.2 要求每个调用和每个工具结果都带一个长度为 9 的字符串 id，否则报 'Tool call IDs should be alphanumeric strings with length 9!'。"
        "这个模板只检查长度，toolu_123 和 !!!!!!!!! 都能通过。",
    ),
    Recall(
        "Why does the prompt of the same conversation have a different number of tokens in different families?",
        "Each family writes its own markers and instructions around the messages, and each vocabulary splits text "
        "differently; a marker that is an added token is one id.",
        "为什么同一段对话的 prompt，在不同家族里的 token 数不一样？",
        "每个家族都在消息周围写自己的标记和说明，各家词表切分文本的方式也不同。标记如果是附加 token，在 prompt 里只占一个 id。",
    ),
)
