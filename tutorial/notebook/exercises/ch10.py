"""Chapter 10, where real stacks disagree: predictions about the recorded peers.

The right answers are read from the recorded outputs (`tutorial/peers/data/`) through the same
tables the chapter shows, and from our own pipelines run on the same requests.
"""

from __future__ import annotations

import functools
from typing import Any

from ...peers import deviations as dv
from ...peers import tables as pt
from . import Exercise, Mistake, add


@functools.cache
def _data() -> dv.PeerData:
    return dv.load_peer_data()


def _case(number: str) -> str:
    return next(case_id for case_id in _data().cases if case_id.startswith(number + "_"))


def _wire_order() -> str:
    roles = pt.request_table([("roles", _case("09"), pt.roles())], _data()).column("roles")
    kept = sorted(row for row, value in roles.items() if value == roles["sglang"])
    return "c" if kept == sorted(["slime", "sglang", "ours: chat_template", "ours: openai"]) else "?"


add(
    Exercise(
        key="10.wire_order",
        question="Case 09 ends with a user turn [text 'note before', tool_result, text 'note after']. Which "
        "stacks keep the three parts in the order they were sent?",
        expected=_wire_order,
        wrong="a",
        choices={
            "a": "All six rows: the order of a message's blocks is the one thing every stack has to keep.",
            "b": "Only vLLM and LiteLLM: the others move the note so the call and its result stay adjacent.",
            "c": "Slime, SGLang and both our targets; vLLM and LiteLLM put the tool message first.",
            "d": "None: every stack joins the two notes and puts them after the tool message.",
        },
        feedback={
            "a": "two of the four peers reorder on purpose: they emit every tool message first and the user's "
            "text after it, in one user message.",
            "b": "the other way round: vLLM and LiteLLM are the ones that keep the call and its result "
            "adjacent, and they do it by moving the note, not by keeping it.",
            "d": "Slime, SGLang and our two targets flush the note before the result: user, tool, user.",
        },
        hint="Read the roles column of the table: where does the first user message after the call sit?",
        explanation="Slime, SGLang and our targets give user → tool → user (wire order); vLLM 0.33.0 and "
        "LiteLLM 1.110.2 give tool → user, with both notes joined after the result.",
        zh={
            "question": "用例 09 以一条 user 消息 [text 'note before', tool_result, text 'note after'] 结束，"
            "哪些系统按发送时的顺序保留这三个内容块？",
            "choices": {
                "a": "全部六行，因为消息中内容块的顺序是每个系统都必须保留的东西。",
                "b": "只有 vLLM 和 LiteLLM 保持原来的顺序，其他系统都会移动备注，好让每次调用和调用的结果保持相邻。",
                "c": "Slime、SGLang 和本包的两种目标格式，而 vLLM 和 LiteLLM 把 tool 消息提前。",
                "d": "一个也没有，每个系统都把两条备注连起来，放在 tool 消息之后。",
            },
            "feedback": {
                "a": "四个真实系统中有两个是有意重排的，这两个系统先输出每条 tool 消息，再把用户的文本放在后面，"
                "合成一条 user 消息。",
                "b": "正好相反，让调用和结果保持相邻的是 vLLM 和 LiteLLM，做法是移动备注，而不是保留备注的位置。",
                "d": "Slime、SGLang 和本包的两种目标格式都先输出第一条备注，再输出结果，顺序是 user、tool、user。",
            },
            "hint": "读一读表格的“角色序列”列，看看调用之后的第一条 user 消息排在哪里。",
            "explanation": "Slime、SGLang 和本包的目标格式给出 user → tool → user（发送时的顺序），而 "
            "vLLM 0.33.0 和 LiteLLM 1.110.2 给出 tool → user，两条备注连起来放在结果之后。",
        },
    )
)


def _vllm_separator() -> str:
    body = _data().cases[_case("02")]
    texts = [block["text"] for block in body["system"]]
    joined = pt.request_table([("system", _case("02"), pt.message_field(0, "content", 200))], _data()).value("vllm", "system")
    return joined[len(texts[0]) : len(joined) - len(texts[1])]


add(
    Exercise(
        key="10.system_join",
        question="Case 02 sends the system prompt as two text blocks, 'Block A' and 'Block B'. What string does "
        "vLLM 0.33.0 put between them? (Write it as a Python string.)",
        expected=_vllm_separator,
        mistakes=(
            Mistake(
                "\n",
                "A newline is what Slime, SGLang and our targets use. Look at vLLM's own cell in the '02 system' "
                "column: is there anything between the two texts?",
                "用换行符的是 Slime、SGLang 和本包的目标格式。再看看“02 system 消息”列中 vLLM 自己的单元格，"
                "两段文本之间有什么吗？",
            ),
            Mistake(
                " ",
                "Look closely at vLLM's cell: 'Block A' and 'Block B' touch, with not even a space between them.",
                "仔细看 vLLM 的单元格，'Block A' 和 'Block B' 紧挨着，中间连一个空格都没有。",
            ),
            Mistake(
                None,
                "The question asks for a string, the one vLLM puts between the texts, even if it holds no characters.",
                "问题要的是一个字符串，即 vLLM 放在两段文本之间的那个，哪怕这个字符串一个字符也没有。",
                matches=lambda answer: answer is None,
            ),
        ),
        hint="Slime, SGLang and our targets use a newline. Look at vLLM's cell in the '02 system' column: is "
        "there anything between the two texts?",
        explanation="nothing: vLLM joins system blocks with the empty string and renders 'Block ABlock B', so "
        "two sentences run into one word at the very start of the prompt.",
        form="a Python string such as ' ' or '\\n'",
        zh={
            "question": "用例 02 把系统提示词作为两个文本块 'Block A' 和 'Block B' 发送。vLLM 0.33.0 "
            "在两者之间放了什么字符串？",
            "hint": "Slime、SGLang 和本包的目标格式用的是换行符，那么看看“02 system 消息”列中 vLLM 的单元格，"
            "两段文本之间有什么吗？",
            "explanation": "两者之间什么也没有，因为 vLLM 用空字符串连接系统提示词的各个内容块，渲染出 'Block ABlock B'，"
            "于是在 prompt 的最开头，两句话连成了一个词。",
            "form": "一个 Python 字符串，例如 ' ' 或 '\\n'",
        },
    )
)


def _signature_keepers() -> str:
    case_id = _case("06")
    signature = _data().cases[case_id]["messages"][1]["content"][0]["signature"]
    kept = pt.request_table([("kept", case_id, pt.carries(signature))], _data()).column("kept")
    return "d" if [row for row, value in kept.items() if value is True] == ["litellm"] else "?"


add(
    Exercise(
        key="10.signature",
        question="Case 06 replays an assistant turn whose thinking block carries a signature. Which stack keeps "
        "the signature in the request object it builds?",
        expected=_signature_keepers,
        wrong="c",
        choices={
            "a": "None of them: a local engine has no use for a signature, so all four drop it.",
            "b": "Slime, since a trajectory store has to keep every field of a turn it records.",
            "c": "SGLang and vLLM, because a serving endpoint must be able to replay it later.",
            "d": "LiteLLM alone, in a thinking_blocks field beside reasoning_content.",
        },
        feedback={
            "a": "one of them does keep it: the one whose output is a request to another provider rather than a "
            "prompt for a local model.",
            "b": "Slime keeps the thinking text as reasoning_content and drops the signature, as our default "
            "target does (and our loss report says so).",
            "c": "both serving engines drop it with the rest of the block's metadata; only the reasoning text "
            "reaches their message.",
        },
        hint="A signature matters only where the request may still reach Anthropic's servers. Which of the four "
        "builds a request for another provider instead of a prompt?",
        explanation="only LiteLLM keeps it, in thinking_blocks; Slime, SGLang and vLLM drop it, as both our "
        "targets do. A local model neither checks nor makes signatures.",
        zh={
            "question": "用例 06 重放一个 thinking 块带着签名的 assistant 轮次，"
            "哪个系统在自己构造的请求对象里保留了签名？",
            "choices": {
                "a": "一个也没有，因为本地引擎用不着签名，所以四个系统全都把签名丢掉。",
                "b": "Slime，因为轨迹存储必须保留所记录轮次的每个字段。",
                "c": "SGLang 和 vLLM，因为推理服务端点必须能在之后原样重放这个签名给上游。",
                "d": "仅 LiteLLM，放在自己的 thinking_blocks 字段里。",
            },
            "feedback": {
                "a": "确实有一个保留了签名，这个系统的输出是发给另一个服务商的请求，而不是本地模型的 prompt。",
                "b": "Slime 把 thinking 文本保留为 reasoning_content，丢掉签名，"
                "本包的默认目标格式也这样做，并在丢失报告里记下一条。",
                "c": "两个推理服务引擎都把签名和内容块的其他元数据一起丢掉，只有推理文本进入引擎的消息。",
            },
            "hint": "只有当请求仍可能到达 Anthropic 的服务器时，签名才有意义。"
            "四者中哪一个构造的是发给另一个服务商的请求，而不是 prompt？",
            "explanation": "只有 LiteLLM 保留签名，放在 thinking_blocks 里，而 Slime、SGLang 和 vLLM 丢掉签名，"
            "本包的两种目标格式也丢掉签名，因为本地模型既不检查签名，也不生成签名。",
        },
    )
)


def _anyone_keeps_is_error() -> bool:
    kept = pt.request_table([("is_error", _case("08"), pt.carries("is_error"))], _data()).column("is_error")
    return any(value is True for value in kept.values())


add(
    Exercise(
        key="10.is_error",
        question="Case 08: a tool answers with is_error: true (a text part and a screenshot). Does any of the "
        "six rows carry is_error into its output? (True or False)",
        expected=_anyone_keeps_is_error,
        mistakes=(
            Mistake(
                True,
                "Look at the 'is_error kept' column: is there a True anywhere? Then ask where a chat message would "
                "put such a flag.",
                "看看“是否带上 is_error”列，哪里有 True 吗？再想想聊天消息能把这样的标志放在哪里。",
            ),
            Mistake(
                "litellm",
                "The question asks whether any row does, True or False, not which one.",
                "问题问的是有没有哪一行这样做（True 或 False），而不是哪一行。",
                matches=lambda answer: isinstance(answer, str) and answer.strip().lower() in ("litellm", "slime", "sglang", "vllm"),
            ),
        ),
        hint="Where would a chat message put an error flag? Look at the keys a tool message has in the "
        "OpenAI shape: role, tool_call_id, content.",
        explanation="none does: the chat shape has no error flag for a tool result, so the model learns that "
        "the tool failed only if the tool's own text says so.",
        form="True or False",
        zh={
            "question": "用例 08 里，一个工具以 is_error: true 回答（一个文本 content part 和一张截图），六行中有没有哪一行把 "
            "is_error 带进了输出？",
            "hint": "聊天消息能把错误标志放在哪里？看看 OpenAI 格式中 tool 消息有哪些键，即 role、tool_call_id、"
            "content。",
            "explanation": "一行也没有，因为聊天格式没有表示工具结果出错的标志，所以只有当工具自己的文本这么说时，"
            "模型才会知道工具失败了。",
            "form": "True 或 False",
        },
    )
)


def _never_refuse() -> str:
    bad = ["05", "07", "13", "16", "17"]
    outcomes = pt.request_table([(n, _case(n), pt.outcome()) for n in bad], _data())
    accepting = [row for row in outcomes.keys if all(outcomes.value(row, n) == "ok" for n in bad)]
    return "d" if accepting == ["slime", "litellm", "ours: chat_template"] else "?"


add(
    Exercise(
        key="10.never_refuse",
        question="Five recorded requests carry something a chat template cannot take as it is (a PDF, redacted "
        "thinking, server-tool history, a tool choice no tool can meet, a tool without input_schema). Which rows "
        "accept all five?",
        expected=_never_refuse,
        wrong="a",
        choices={
            "a": "None: a request that a template cannot render has to be refused by everyone.",
            "b": "SGLang and vLLM, because a serving engine must answer every request it is sent.",
            "c": "Every row except our openai target, which is stricter than the stacks it imitates.",
            "d": "Slime, LiteLLM and our default target; the serving endpoints refuse some or all.",
        },
        feedback={
            "a": "a rollout adapter cannot refuse: it has to keep the trajectory going, so it accepts and "
            "changes what it cannot carry (our default target reports each change).",
            "b": "serving endpoints are the ones that can answer 400, and they do: SGLang refuses all five.",
            "c": "our openai target refuses where SGLang does, except case 16 (a documented deviation); vLLM "
            "refuses several too.",
        },
        hint="Which kind of stack has a client that can fix its request after a 400, and which has to keep a "
        "rollout going whatever arrives?",
        explanation="Slime, LiteLLM and our default target accept all five; SGLang refuses all five, vLLM and "
        "our openai target some. Between the two lies the real risk: input accepted and changed without a word.",
        zh={
            "question": "有五个录制的请求带着聊天模板无法原样接收的内容，分别是一个 PDF、redacted thinking、"
            "服务端工具的历史、一个没有工具能满足的 tool choice 和一个没有 input_schema 的工具，"
            "哪些行五个全都接受？",
            "choices": {
                "a": "一个也没有，因为模板无法渲染的请求，每个系统都必须拒绝。",
                "b": "SGLang 和 vLLM，因为推理服务引擎必须回应收到的每个请求。",
                "c": "除了本包的 openai 目标格式以外的每一行，因为这个目标格式比所模仿的系统更严格。",
                "d": "Slime、LiteLLM 和本包的默认目标格式，而服务端点拒绝其中几个或全部。",
            },
            "feedback": {
                "a": "rollout 适配器不能拒绝，因为适配器必须让轨迹继续下去，所以接受请求，"
                "并改动自己承载不了的内容，本包的默认目标格式会把每一处改动写进丢失报告。",
                "b": "能够返回 400 的正是推理服务端点，这些端点也确实这样做了，SGLang 五个全部拒绝。",
                "c": "本包的 openai 目标格式在 SGLang 拒绝的地方也拒绝（用例 16 是一处有记录的偏差，不在此列），"
                "vLLM 也拒绝了好几个。",
            },
            "hint": "哪类系统的客户端可以在收到 400 之后修正请求？哪类系统无论收到什么，都必须让 rollout 继续下去？",
            "explanation": "Slime、LiteLLM 和本包的默认目标格式接受全部五个，SGLang 全部拒绝，"
            "vLLM 和本包的 openai 目标格式拒绝其中几个。真正的风险在两者之间，也就是输入被接受了，却被静默改动。",
        },
    )
)


def _rule_count() -> int:
    return len({entry.kind for entry in dv.DEVIATIONS})


add(
    Exercise(
        key="10.rules",
        question=f"The table of deliberate differences (tutorial.peers.deviations.DEVIATIONS) has "
        f"{len(dv.DEVIATIONS)} entries, one per case, peer and place. How many distinct rules (reasons) stand "
        "behind them?",
        expected=_rule_count,
        mistakes=(
            Mistake(
                len(dv.DEVIATIONS),
                "That is the number of entries. Many repeat the same difference in another recorded case: group "
                "them by their kind and count the groups.",
                "这是表中的项数，可很多项只是在另一个录制用例里重复同一个差异，所以要按 kind 分组，再数组数。",
            ),
            Mistake(
                len({entry.peer for entry in dv.DEVIATIONS}),
                "That is the number of peers that differ from us. Count the reasons (the kinds) instead.",
                "这是与本包有差异的真实系统的个数，要数的是原因（kind）有几种。",
            ),
        ),
        hint="Many entries repeat the same difference in another recorded case. Group the entries by their "
        "'what differs' text (their kind).",
        explanation="a handful of rules, each repeated wherever a recorded case touches it: a placeholder for an "
        "image, one for a document, content '' beside tool calls, no strict: false on tools, and accepting a "
        "tool choice that only sampling can check.",
        form="a whole number",
        zh={
            "question": f"有意偏差表（tutorial.peers.deviations.DEVIATIONS）共有 {len(dv.DEVIATIONS)} 项，每个用例、"
            "真实系统和位置各一项，这些项背后有多少条不同的规则（原因）？",
            "hint": "很多项只是在另一个录制用例里重复同一个差异，所以按各项的 kind（说明有何不同的那段文字）分组。",
            "explanation": "只有几条规则，每条都在涉及这条规则的录制用例里重复出现，这几条规则是图片占位符、"
            "文档占位符、工具调用旁的 content ''、工具上不加 strict: false，以及接受只有采样才能检验的 tool choice。",
            "form": "一个整数",
        },
    )
)


def _reference_messages() -> int:
    answers = pt.request_table([("tool messages", _case("11"), pt.transcript(2, limit=120))], _data()).column("tool messages")
    return len(answers["sglang"])


add(
    Exercise(
        key="10.reference",
        question="Case 11: a tool search answers [text, tool_reference 'Bash', text]. How many tool messages "
        "does SGLang 0.5.23 make of that one tool_result?",
        expected=_reference_messages,
        mistakes=(
            Mistake(
                1,
                "One tool_result, but SGLang cuts its parts into runs where a part switches between a reference "
                "and anything else, as our openai target does (chapter 08).",
                "只有一个 tool_result，但 SGLang 会把结果切成若干段，content part 每在引用和非引用之间切换一次，"
                "就开始新的一段，本包的 openai 目标格式也是这样切的（第 08 章）。",
            ),
            Mistake(
                2,
                "Count the switches: text to reference, then reference back to text. Each switch starts a new run.",
                "数一数切换的次数，先从文本到引用，再从引用回到文本，每次切换都开始新的一段。",
            ),
        ),
        hint="Chapter 08 section 2 followed the same shape through the openai target, which imitates SGLang "
        "here.",
        explanation="three: SGLang cuts the result into runs (text, reference, text), one tool message per run, "
        "all with the same tool_call_id, as our openai target does.",
        form="a whole number",
        zh={
            "question": "用例 11 里，一次工具搜索回答 [text, tool_reference 'Bash', text]，那么 SGLang 0.5.23 会把这一个 "
            "tool_result 变成多少条 tool 消息？",
            "hint": "第 08 章第 2 节用 openai 目标格式跟踪过同样的结构，而 openai 目标格式在这里模仿的正是 SGLang。",
            "explanation": "一共三条，因为 SGLang 把结果切成若干段（文本、引用、文本），每段一条 tool 消息，"
            "tool_call_id 全都相同，与本包的 openai 目标格式一样。",
            "form": "一个整数",
        },
    )
)


def _reminder() -> str:
    table = pt.request_table([("roles", _case("14"), pt.roles())], _data()).column("roles")
    merged = sorted(row for row, roles in table.items() if roles == ["system", "user", "user"])
    return "b" if merged == sorted(["sglang", "vllm", "ours: openai"]) else "?"


add(
    Exercise(
        key="10.reminder",
        question="Case 14: between two user turns sits {'role': 'system', 'content': 'skills reminder'}, the way "
        "Claude Code sends reminders. Where does each stack put it?",
        expected=_reminder,
        wrong="a",
        choices={
            "a": "Every stack keeps it where it was sent, as a system message between the two user turns.",
            "b": "SGLang, vLLM and our openai target merge it into the system prompt; others keep its place.",
            "c": "Every stack moves it into the first system message, since most templates want one system turn.",
            "d": "Every stack drops it: a system message inside the list is not part of the Messages API at all.",
        },
        feedback={
            "a": "no row keeps a system role in the middle: some merge it into the leading system prompt, the "
            "others fold it into a user turn at its place (Slime and our preprocess wrap it in <system-reminder>).",
            "c": "Slime, LiteLLM and our default target keep its position, inside a user turn; only the two "
            "serving engines (with this recorded setting) and our openai target merge it.",
            "d": "nobody drops it; they disagree about where it goes, which changes the first tokens of the prompt "
            "for those that merge.",
        },
        hint="Look at the roles column: which rows have one user message fewer, and what does their first "
        "message hold?",
        explanation="SGLang (setting inline_system='merge'), vLLM and our openai target merge it into the "
        "leading system message, so the prompt's first tokens change whenever a reminder arrives; Slime, "
        "LiteLLM and our default target keep it in place inside a user turn.",
        zh={
            "question": "用例 14 的两条 user 消息之间夹着 {'role': 'system', 'content': 'skills reminder'}，这是 "
            "Claude Code 发送提醒的方式，每个系统把这条提醒放在哪里？",
            "choices": {
                "a": "每个系统都把提醒留在发送时的位置，作为两条 user 消息之间的 system 消息。",
                "b": "SGLang、vLLM 和本包的 openai 目标格式并入系统提示词，其余的保留原位。",
                "c": "每个系统都把提醒移进第一条 system 消息，因为多数模板只接受一条 system 消息。",
                "d": "每个系统都丢掉提醒，因为列表内部的 system 消息根本不属于 Messages API。",
            },
            "feedback": {
                "a": "没有哪一行把 system 角色留在中间，有的并入开头的系统提示词，"
                "其余的在原位置折进一条 user 消息（Slime 和本包的 preprocess 用 <system-reminder> 包起来）。",
                "c": "Slime、LiteLLM 和本包的默认目标格式保留提醒的位置，放在一条 user 消息里。把提醒合并进去的，"
                "只有两个推理服务引擎（在录制时的这项设置下）和本包的 openai 目标格式。",
                "d": "没有谁丢掉提醒，分歧在于放在哪里，而对做合并的那些系统来说，这会改变 prompt 开头的 token。",
            },
            "hint": "看“角色序列”列里哪些行少了一条 user 消息，再看这些行的第一条消息里装着什么。",
            "explanation": "SGLang（设置 inline_system='merge'）、"
            "vLLM 和本包的 openai 目标格式把提醒并入开头的 system 消息，于是每来一条提醒，"
            "prompt 开头的 token 就会改变。Slime、LiteLLM 和本包的默认目标格式则把提醒留在原位，"
            "放在一条 user 消息里。",
        },
    )
)


def _offers_web_search() -> str:
    names = pt.request_table([("tools", _case("13"), pt.tool_names())], _data()).column("tools")
    offering = sorted(row for row, value in names.items() if value == ["web_search"])
    return "a" if offering == sorted(["slime", "ours: chat_template"]) else "?"


add(
    Exercise(
        key="10.server_tool",
        question="Case 13 declares Anthropic's server tool web_search_20250305 (it runs on Anthropic's servers). "
        "Which rows offer web_search to the local model as an ordinary function tool?",
        expected=_offers_web_search,
        wrong="d",
        choices={
            "a": "Slime and our default target: a function with an empty schema, and nothing local runs it.",
            "b": "SGLang and vLLM, which know the server tools by their names and forward them as functions.",
            "c": "LiteLLM alone, which turns every tool type it does not know into an ordinary function tool.",
            "d": "None of them: a tool that only Anthropic's servers can run is left out by every stack.",
        },
        feedback={
            "b": "both serving engines refuse this request outright (its history holds server-tool blocks), so "
            "they offer nothing.",
            "c": "LiteLLM maps a web-search tool to its own web_search_options and leaves it out of the tools.",
            "d": "two rows do offer it: the ones that accept everything and copy each tool's name into a "
            "function (our default target's loss report says so).",
        },
        hint="Look at the '13 tools' column: which rows show [\"web_search\"]?",
        explanation="Slime and our default target turn it into a function with an empty schema; the local model "
        "may call it, but nothing local can run it, and the call goes back to a client that expects the server "
        "to have searched.",
        zh={
            "question": "用例 13 声明了在 Anthropic 的服务器上运行的服务端工具 web_search_20250305，"
            "哪些行把 web_search 作为普通函数工具提供给本地模型？",
            "choices": {
                "a": "Slime 和本包的默认目标格式，变成 schema 为空的函数，本地没人运行",
                "b": "SGLang 和 vLLM，这两个引擎认得服务端工具的名字，并当作函数转发出去。",
                "c": "只有 LiteLLM，因为 LiteLLM 把每个不认识的工具类型都变成普通函数工具。",
                "d": "一个也没有，只有 Anthropic 服务器能运行的工具，每个系统都会去掉。",
            },
            "feedback": {
                "b": "两个推理服务引擎都直接拒绝这个请求（请求的历史里有服务端工具的内容块），所以什么也没提供。",
                "c": "LiteLLM 把网页搜索工具映射为自己的 web_search_options，不放进 tools。",
                "d": "有两行确实提供了这个工具，这两个系统什么都接受，"
                "并把每个工具的名字复制进一个函数（本包默认目标格式的丢失报告也写明了这一点）。",
            },
            "hint": "看“13 工具”列，哪些行显示 [\"web_search\"]？",
            "explanation": "Slime 和本包的默认目标格式把这个工具变成一个 schema 为空的函数，本地模型可以调用，"
            "但本地没有谁能运行，而这次调用会回到一个以为服务器已经搜索过的客户端那里。",
        },
    )
)


def _stop_sequence_rows() -> str:
    reasons = pt.reply_table([("r4", "r4_stop_sequence", pt.reply_field("stop_reason"))], _data()).column("r4")
    rows = [row for row, reason in reasons.items() if reason == "stop_sequence"]
    return "a" if rows == ["vllm", "ours: way back"] else "?"


add(
    Exercise(
        key="10.stop_sequence",
        question="Reply r4 ended because the model produced the stop string 'STOP'. Which rows tell the client "
        "stop_reason: 'stop_sequence'?",
        expected=_stop_sequence_rows,
        wrong="c",
        choices={
            "a": "vLLM and our build_reply; Slime, SGLang and LiteLLM answer end_turn.",
            "b": "None of them: engines report 'stop' for both, so every stack answers end_turn.",
            "c": "All of them: a matched stop string is exactly what stop_sequence was made to report.",
            "d": "Slime and SGLang, which read matched_stop; vLLM and LiteLLM answer end_turn.",
        },
        feedback={
            "b": "an engine can say which stop string matched (vLLM's stop_reason, SGLang's matched_stop); one "
            "peer and our way back use it.",
            "c": "three of the four peers never emit it: they map the engine's 'stop' to end_turn whatever "
            "was matched.",
            "d": "Slime and SGLang both answer end_turn here; reading matched_stop is what vLLM (and our "
            "build_reply) do with the engine's report.",
        },
        hint="Look at the 'r4 stop_reason' column.",
        explanation="only vLLM 0.33.0 and our build_reply answer stop_sequence (with the matched string); the "
        "others say end_turn, so a client cannot tell a cut from a finished thought.",
        zh={
            "question": "回复 r4 结束的原因是模型生成了停止字符串 'STOP'。哪些行告诉客户端 stop_reason: "
            "'stop_sequence'？",
            "choices": {
                "a": "vLLM 和本包的 build_reply，而 Slime、SGLang 和 LiteLLM 回答 end_turn。",
                "b": "一个也没有，因为引擎对两者都报告 'stop'，所以每个系统都回答 end_turn。",
                "c": "全部，因为匹配到停止字符串正是 stop_sequence 要报告的情况。",
                "d": "Slime 和 SGLang，这两个系统读取 matched_stop，而 vLLM 和 LiteLLM 回答 end_turn。",
            },
            "feedback": {
                "b": "引擎能说出匹配到的是哪个停止字符串（vLLM 的 stop_reason、SGLang 的 matched_stop），"
                "有一个真实系统和本包的返回路径用到了这个信息。",
                "c": "四个真实系统中有三个从不输出 stop_sequence，不管匹配到了什么，"
                     "这三个系统都把引擎的 'stop' 映射为 end_turn。",
                "d": "Slime 和 SGLang 在这里都回答 end_turn，"
                "读取引擎报告里 matched_stop 的是 vLLM（以及本包的 build_reply）。",
            },
            "hint": "看“r4 stop_reason”列里哪些行写的是 stop_sequence。",
            "explanation": "只有 vLLM 0.33.0 和本包的 build_reply 回答 stop_sequence（并附上匹配到的字符串），"
            "其他的都说 end_turn，于是客户端无法分辨回答是被截断了，还是已经说完了。",
        },
    )
)


def _empty_content() -> str:
    values = pt.request_table([("19", _case("19"), pt.message_field(1, "content"))], _data()).column("19")
    absent = [row for row, value in values.items() if value is pt.ABSENT]
    empty = [row for row, value in values.items() if value == ""]
    return "c" if absent == ["vllm"] and len(empty) == len(values) - 1 else "?"


add(
    Exercise(
        key="10.empty",
        question="Case 19 replays an assistant turn made of one empty text block. What does each row write "
        "for that message's content?",
        expected=_empty_content,
        wrong="b",
        choices={
            "a": "\"\" in every row: an empty text block is simply the empty string.",
            "b": "None (null) in every row, since the turn has no text at all.",
            "c": "\"\" in five rows; vLLM leaves the content key out altogether.",
            "d": "Every row drops the whole message, since it holds nothing.",
        },
        feedback={
            "a": "one row differs: it drops empty text blocks and then writes no content key at all.",
            "b": "no row writes null for this case; null would render as the word None in some templates.",
            "d": "dropping the turn would break the alternation of roles; every row keeps the assistant message.",
        },
        hint="Look at the '19 empty text' column; '(absent)' means the key is missing, which is not \"\".",
        explanation="Slime, SGLang, LiteLLM and both our targets write \"\"; vLLM 0.33.0 writes a message with "
        "no content key. An absent key can make a template raise where \"\" renders as nothing.",
        zh={
            "question": "用例 19 重放一个由单个空文本块组成的 assistant 轮次。每一行为这条消息的 content 写了什么？",
            "choices": {
                "a": "每一行都是 \"\"，因为空文本块就是空字符串。",
                "b": "每一行都是 None（null），因为这一轮根本没有任何文本。",
                "c": "五行是 \"\"，而 vLLM 完全省略了 content 键。",
                "d": "每一行都丢掉整条消息，因为这条消息什么也没装。",
            },
            "feedback": {
                "a": "有一行不同，那个系统丢掉空文本块，然后完全不写 content 键。",
                "b": "在这个用例里没有哪一行写 null，只是在某些模板里，null 会被渲染成单词 None。",
                "d": "丢掉这一轮会破坏角色的交替，所以每一行都保留了这条 assistant 消息。",
            },
            "hint": "看“19 空文本”列，其中 '(absent)' 表示键不存在，这和 \"\" 不一样。",
            "explanation": "Slime、SGLang、LiteLLM 和本包的两种目标格式写 \"\"，"
            "vLLM 0.33.0 写出的消息则没有 content 键。缺失的键可能让模板抛出异常，而 \"\" 只会渲染成空。",
        },
    )
)
