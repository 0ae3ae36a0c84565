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
from . import Exercise, Mistake, add


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
        zh={
            "question": "反正默认目标格式的输出也不保留 tool_use_id，那么删掉 messages[2] 中工具结果的这个 id，"
            "会发生什么？",
            "choices": {
                "a": "照旧翻译，结果和之前完全一样：默认目标格式本来就丢掉这个 id，请求里有没有它都一样。",
                "b": "在 messages[2].content[0].tool_use_id 处被拒绝，上次成功的输出保留并标为已过时。",
                "c": "能够翻译，但没有 id 的 tool 消息会被排除在输出之外。",
                "d": "交互练习场抛出 KeyError traceback 并停止，直到重新运行单元格。",
            },
            "feedback": {
                "a": "输出保留什么、请求必须包含什么，是两个问题。id 是协议的一部分（每个结果都要指明自己回答的调用），"
                "所以不管目标格式保留什么，翻译之前都要先按契约检查 id。",
                "c": "这里没有什么会静默丢掉，要么内容块被翻译（丢失的部分会报告），要么整个请求被拒绝，"
                "并指出出错的位置。",
                "d": "交互练习场遇到错误的请求从不抛出异常，而是在编辑器上方显示带位置的错误，"
                "并让上一次成功的结果留在屏幕上。",
            },
            "hint": "在翻译之前，translate() 会按契约检查请求体（第 01 章）。",
            "explanation": "无论目标格式保留什么，契约都要求每个 tool_result 带有 tool_use_id，所以请求被拒绝，"
            "错误指出确切的位置，而交互练习场继续显示上一次成功的结果，并标为已过时。",
        },
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
        question="A user message holds a block of an unknown type, {'type': 'hologram', ...}. What does "
        "each target do with it?",
        expected=lambda: {("placeholder", "refused"): "a"}.get((_hologram()["chat_template"], _hologram()["openai"]), "?"),
        wrong="c",
        choices={
            "a": "chat_template writes a placeholder and reports it; openai refuses, as an endpoint answers 400.",
            "b": "Both keep it as a placeholder text, '[hologram omitted]', and report it as lost.",
            "c": "Both refuse it: a block type that is not in the protocol is an error for every target and stack.",
            "d": "chat_template drops it without a word; openai passes the block through unchanged.",
        },
        feedback={
            "b": "the openai target has no placeholder: its user content is a list of typed parts, and a part of "
            "an unknown type would be a lie, so it refuses.",
            "c": "the contract lets unknown block types through (the protocol keeps adding them); it is the "
            "openai target that refuses what its message shape cannot carry.",
            "d": "neither target loses a block silently: one reports what it replaced, the other names the block "
            "it refuses.",
        },
        hint="The two targets imitate two different kinds of stack: a rollout adapter that must keep the "
        "trajectory going, and a serving endpoint that can answer 400.",
        explanation="the default target keeps the turn's shape with '[hologram omitted]' and the loss report "
        "names the block; the openai target refuses with the located reason, as an OpenAI-compatible endpoint "
        "answers 400.",
        zh={
            "question": "一条 user 消息里有一个未知类型的内容块 {'type': 'hologram', ...}，"
            "两种目标格式分别怎么处理这个内容块？",
            "choices": {
                "a": "chat_template 写入占位符并报告，openai 则拒绝，就像端点返回 400。",
                "b": "都保留为占位文本 '[hologram omitted]'，并报告为丢失。",
                "c": "都拒绝，因为不在协议里的内容块类型，对每个目标格式、每个系统都是错误。",
                "d": "chat_template 静默丢掉这个内容块，openai 则原样传递。",
            },
            "feedback": {
                "b": "openai 目标格式没有占位符，这种格式的 user content 是带类型的 content part 列表，"
                "硬塞进一个类型未知的 content part 只会误导引擎，所以只能拒绝。",
                "c": "契约放行未知的内容块类型（协议一直在增加新类型），会拒绝的是 openai 目标格式，"
                "因为这种格式的消息结构承载不了这样的内容。",
                "d": "两种目标格式都不会静默丢掉内容块，一个报告自己替换了什么，另一个指出自己拒绝了哪个内容块。",
            },
            "hint": "两种目标格式模仿两类不同的系统，一类是必须让轨迹继续下去的 rollout 适配器，"
            "另一类是可以返回 400 的推理服务端点。",
            "explanation": "默认目标格式用 '[hologram omitted]' 保住这一轮的结构，丢失报告点出这个内容块，"
            "openai 目标格式则以带位置的原因拒绝，就像兼容 OpenAI 的端点返回 400。",
        },
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
        mistakes=(
            Mistake(
                1,
                "One too few. The name appears in the body twice: on the historical tool_use and in the tool "
                "definition, and each path copies the name it sees.",
                "少了一处，这个名字在请求体里出现两次，一次在历史中的 tool_use 上，一次在工具定义里，"
                "而每条路径都复制自己看到的名字。",
            ),
            Mistake(
                3,
                "One too many. The tool_result does not name the tool (only its id), and the tool message carries "
                "no name at all: count the leaves that hold the name in the output.",
                "多了一处，因为 tool_result 不写工具名（只有调用的 id），tool 消息也根本不带名字。"
                "请数一数输出中装着这个名字的叶子节点。",
            ),
            Mistake(
                0,
                "The translation copies names, it does not keep a fixed list of them: a renamed tool comes out renamed.",
                "翻译会复制名字，而不是维护一份固定的名字表，所以改了名的工具，出来时也是新名字。",
            ),
        ),
        hint="Count the JSON leaves of translated and tools_schema that hold the tool's name.",
        explanation="two leaves: the name of the historical call in translated[2]['tool_calls'] and the name of "
        "the offered tool in tools_schema. The two paths are independent, so each copies the name it sees.",
        form="a whole number",
        zh={
            "question": "在 README 请求中把工具 read_file 全部改名为 open_file 之后，translated 和 tools_schema "
            "会在多少处（JSON 叶子节点）发生变化？",
            "hint": "数一数 translated 和 tools_schema 中装着工具名的 JSON 叶子节点。",
            "explanation": "两个叶子节点，一个是 translated[2]['tool_calls'] 中历史调用的名字，"
            "一个是 tools_schema 中所提供工具的名字。两条路径相互独立，各自照抄自己看到的名字。",
            "form": "一个整数",
        },
    )
)
