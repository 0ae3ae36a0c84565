"""Check your understanding: the questions that close chapters 01–11 and 13, with model answers.

Each chapter ends with a few questions answered from memory, in a sentence or a value. The
chapter shows the questions in markdown (the English texts below, word for word; the test
checks that) and a cell tagged `reveal` that prints the model answers only when asked:

    print(recall("02", show=False))  # set show=True to see the model answers

The answers are written here, in English and Chinese, not stored as a cell's output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...words import current, using, words_for


@dataclass(frozen=True)
class Recall:
    question: str
    answer: str
    zh_question: str
    zh_answer: str


RECALL: dict[str, tuple[Recall, ...]] = {
    "01": (
        Recall(
            "Which top-level fields of a body does Action 2 read, and what becomes of the others?",
            "system, messages and tools. Settings such as max_tokens stay in the body for the sampling step "
            "(Action 3), and the loss report lists each one with its reason.",
            "Action 2 读取请求体的哪些顶层字段，其余字段又怎么样了？",
            "读取 system、messages 和 tools 这三个字段。max_tokens 之类的设置留在请求体里交给采样阶段（Action 3）"
            "，丢失报告把这些字段逐一列出并写明原因。",
        ),
        Recall(
            "Besides its message, what does a RequestError tell you, and in which two forms?",
            "The exact place of the problem: the message starts with it, written as you would index it "
            "(messages[2].content[0].tool_use_id), and error.location holds it as a tuple.",
            "除了错误信息本身，RequestError 还告诉你什么，以哪两种形式告诉你？",
            "它还告诉你问题的确切位置，错误信息开头就是这个位置，写法和你用下标取值时一样（messages[2].content[0].tool_use_id）"
            "，error.location 则把同一个位置保存成元组。",
        ),
        Recall(
            "Why does the contract let a block of an unknown type through, yet refuse a tool_result without its "
            "tool_use_id?",
            "The protocol keeps adding block types, so an unknown type (with a string type) is accepted and "
            "becomes a placeholder; a result that does not name its call breaks the protocol itself, whatever "
            "a target keeps.",
            "为什么契约放行类型未知的内容块，却拒绝没有 tool_use_id 的 tool_result？",
            "协议一直在增加新的内容块类型，所以类型未知（但 type 是字符串）的内容块会被接受，变成占位符。不指明回答哪次调用的结果则违反了协议本身，"
            "目标格式保留什么都改变不了这一点。",
        ),
        Recall(
            "What does preprocess do, and why does it run before translate?",
            "It folds a system message found inside the list into the user message before it, as "
            "<system-reminder> text, because many chat templates refuse a system turn after the first message. "
            "It returns a new body and leaves the caller's alone.",
            "preprocess 做什么，为什么要在 translate 之前运行？",
            "preprocess 把列表中间的 system 消息包成 <system-reminder> 文本，折进前一条 user 消息，"
            "因为很多聊天模板不接受第一条消息之后的 system 消息。preprocess 返回一个新的请求体，调用方的请求体原样不动。",
        ),
    ),
    "02": (
        Recall(
            "How many chat messages does a user message with three blocks give, and in which order?",
            "Three, in the order of the blocks: the default target gives one chat message per user block (a "
            "tool_result becomes a tool message, a text a user message, anything else a placeholder).",
            "一条带三个内容块的 user 消息会产生多少条聊天消息，按什么顺序？",
            "产生三条，顺序与内容块相同，因为默认目标格式为每个 user 内容块产生一条聊天消息。tool_result 变成 tool 消息，"
            "文本变成 user 消息，其他类型变成占位符。",
        ),
        Recall(
            "Where is flatten_content called, and where is it not needed?",
            "Where a value may be a list of blocks: the system prompt and a tool result's content. A text "
            "block's text is taken straight from block['text'].",
            "flatten_content 在哪里被调用，哪里又不需要它？",
            "凡是值可能是内容块列表的地方都要调用，也就是系统提示词和工具结果的 content。文本块用不着 flatten_content，文本直接从 block['text'] 取得。",
        ),
        Recall(
            "What does tool_call_dict keep of a tool_use block, and what does it leave out?",
            "The name and the input, renamed arguments and still a dict. The id is left out: the function has "
            "no parameter it could arrive through.",
            "tool_call_dict 保留了 tool_use 块的什么，又舍弃了什么？",
            "保留 name 和 input，input 改名为 arguments，仍然是字典。id 被丢掉了，因为这个函数根本没有接收 id 的参数。",
        ),
        Recall(
            "Why do the arguments stay a dict in the default target?",
            "Qwen-style templates iterate over them as a mapping, and the trajectory store compares turns with "
            "==, which ignores a dict's key order where two JSON texts would differ.",
            "为什么在默认目标格式里 arguments 保持为字典？",
            "Qwen 风格的模板把 arguments 当作映射来遍历，轨迹存储又用 == 比较轮次。== 不在乎字典的键顺序，"
            "两段 JSON 文本却可能因为键序或空白而不同。",
        ),
        Recall(
            "Without ids, how does a ChatML- or Qwen-style template show which call a result answers?",
            "By position: the tool message comes right after the assistant turn that made the call, results in "
            "the order of the calls.",
            "没有 id，ChatML 或 Qwen 风格的模板如何表明一个结果回答的是哪次调用？",
            "模板靠位置配对，tool 消息紧跟在发出调用的 assistant 轮次之后，多个结果按调用的顺序排列。",
        ),
    ),
    "03": (
        Recall(
            "What does tools_to_chat_tools do to each tool definition?",
            "It wraps it as {'type': 'function', 'function': {...}}, keeps name and description, and renames "
            "input_schema to parameters, passing the schema on untouched.",
            "tools_to_chat_tools 对每个工具定义做了什么？",
            "把每个工具定义包装成 {'type': 'function', 'function': {...}}，保留 name 和 description，"
            "把 input_schema 改名为 parameters，schema 本身原封不动。",
        ),
        Recall(
            "What is tools_schema for a request without tools, and why that value?",
            "None, not []: the package says \"no tools\" as Slime's adapter does, and a template's "
            "{% if tools %} then writes no tools section.",
            "没有工具的请求，tools_schema 是什么，为什么是这个值？",
            "是 None 而不是 []，因为本包和 Slime 的适配器一样用 None 表示“没有工具”，模板的 {% if tools %} 于是不会写出工具那一段。",
        ),
        Recall(
            "How does an entry of tool_calls in the history differ from an entry of tools_schema?",
            "A tool_calls entry records a call already made (a name and its arguments); a tools_schema entry "
            "offers what may be called next (a name, a description and parameters).",
            "对话历史中 tool_calls 的一项与 tools_schema 的一项有什么不同？",
            "tool_calls 的一项记录已经发生的调用，包括名字和参数。tools_schema 的一项则是接下来可以调用的工具，"
            "包括名字、描述和参数定义。",
        ),
        Recall(
            "What does the default target do with a server tool such as web_search_20250305, and what is the risk?",
            "It offers it as a function with an empty schema and the loss report warns; the model may call it, "
            "but nothing local can run it.",
            "默认目标格式如何处理 web_search_20250305 这样的服务端工具，风险在哪里？",
            "把服务端工具当作 schema 为空的函数提供给模型，丢失报告同时给出警告。风险在于模型可能真的去调用，本地却没有谁能运行这个工具。",
        ),
    ),
    "04": (
        Recall(
            "How do translated and tools_schema reach _run_turn?",
            "As the tuple that self._translate(body) returns: an ordinary Python call on the same object, "
            "with no second request.",
            "translated 和 tools_schema 这两个列表是怎样到达 _run_turn 的？",
            "作为 self._translate(body) 返回的元组到达，这是同一对象上的一次普通 Python 调用，中间没有第二个请求。",
        ),
        Recall(
            "Which places of the README body are carried by neither list, and why is each one left behind?",
            "messages[1].content[1].id and messages[2].content[0].tool_use_id, dropped on purpose so that "
            "echoed turns compare equal; and max_tokens, a sampling setting that Action 3 reads from the body.",
            "README 请求体中哪些位置两个列表都没有包含，各自为什么未进入输出？",
            "messages[1].content[1].id 和 messages[2].content[0].tool_use_id 是有意丢掉的，"
            "好让回传的历史轮次与本轮记录用 == 比较时相等。max_tokens 也没有进入两个列表，因为这是 Action 3 从请求体里读取的采样设置。",
        ),
        Recall(
            "Where does a ChatML-style template write the tool offers, and where the calls of the history?",
            "The offers in the system turn, before the history; each call inside the assistant turn that made "
            "it, from tool_calls.",
            "ChatML 风格的模板把提供给模型的工具写在哪里，又把对话历史中的调用写在哪里？",
            "提供给模型的工具写在 system 消息里，排在对话历史之前。对话历史中的每次调用取自 tool_calls，写在发出这次调用的 assistant 轮次里。",
        ),
        Recall(
            "What is the loss report for, when the losses are deliberate?",
            "It makes every difference between the body and the output explicit, with a reason, so nothing "
            "goes without a word and a reader can tell a choice from a bug.",
            "既然这些丢失是有意的，丢失报告又有什么用？",
            "丢失报告把请求体与输出之间的每一处差异都写明，并附上原因。这样就没有什么会静默消失，读者也能分清哪些是有意的选择、哪些是缺陷。",
        ),
    ),
    "05": (
        Recall(
            "How many chat messages does a user turn give, and how many an assistant turn?",
            "A user turn gives one message per block (user_block_message); an assistant turn gives one message, "
            "with its text as content and every tool_use in tool_calls (assistant_message).",
            "一条 user 消息产生多少条聊天消息，一个 assistant 轮次呢？",
            "user 消息的每个内容块各产生一条消息（user_block_message）。assistant 轮次只产生一条消息，"
            "文本放进 content，每个 tool_use 放进 tool_calls（assistant_message）。",
        ),
        Recall(
            "Name two traps where implementations differ, and what the package chooses in each.",
            "Any two of: flatten_content joins texts with \"\\n\" (not \"\"); no tools gives None (not []); ids "
            "are dropped (not kept); arguments stay a dict (not JSON text); an unknown block becomes a placeholder "
            "(not an error, not a repr).",
            "举出两个各家实现处理方式不同的陷阱，说说本包在这两处各选了哪种做法。",
            "从下面五个陷阱里任选两个都可以。flatten_content 用 \"\\n\" 而不是 \"\" 连接文本，没有工具时给出 None 而不是 []，"
            "id 丢掉而不保留，arguments 保持为字典而不写成 JSON 文本，未知内容块变成占位符，既不报错也不写 repr。",
        ),
        Recall(
            "Why does check_stage try your function on generated variations as well as on the README example?",
            "The README example passes many wrong rules; generated variations (odd block types, empty contents, "
            "several calls) reach branches the example never touches.",
            "为什么 check_stage 除了 README 示例，还要在生成的变体上运行你的函数？",
            "很多错误的规则也能通过 README 示例。生成的变体带着少见的内容块类型、空的 content 和多次调用，会走到示例从未触及的分支。",
        ),
        Recall(
            "In the openai target, when does tool_result_messages start a new tool message?",
            "Whenever a part switches between a tool_reference and anything else; every run keeps the same "
            "tool_call_id, in the original order.",
            "在 openai 目标格式中，tool_result_messages 什么时候另起一条新的 tool 消息？",
            "相邻两个 content part 只要在 tool_reference 和其他类型之间切换，就另起一条 tool 消息。"
            "每一段都带着同一个 tool_call_id，并保持原来的顺序。",
        ),
    ),
    "06": (
        Recall(
            "Which two calls does _translate make, and what does each receive?",
            "translate_messages gets the history with the system prompt; tools_to_chat_tools gets the tool "
            "definitions. The two are independent: neither reads the other's input.",
            "_translate 做了哪两次调用，各自接收什么？",
            "translate_messages 接收对话历史和系统提示词，tools_to_chat_tools 接收工具定义。"
            "两次调用互不相干，谁也不读取对方的输入。",
        ),
        Recall(
            "Why do a tool result and the text after it become two chat messages?",
            "The chat shape has a tool role: the result becomes a tool message and the text a user message, in "
            "their original order.",
            "为什么一个工具结果和紧随其后的文本会变成两条聊天消息？",
            "聊天格式有 tool 角色，所以结果变成一条 tool 消息，后面的文本另成一条 user 消息，两者保持原来的顺序。",
        ),
        Recall(
            "Is there an HTTP request between _translate and _run_turn?",
            "No. The hand-over is a return value on the same object; the only HTTP request is the CLI's POST "
            "/v1/messages, answered after sampling.",
            "_translate 把结果交给 _run_turn 时，两者之间有 HTTP 请求吗？",
            "没有，返回只是同一对象上的一个返回值。唯一的 HTTP 请求是 CLI 发出的 POST /v1/messages，"
            "要等采样结束后才得到响应。",
        ),
        Recall(
            "What does an image in a user message become, and what records it?",
            "A user message '[image omitted]' in the image's place, and the loss report names the image's path.",
            "user 消息中的图片会变成什么，又由什么记录下来？",
            "图片的位置上出现一条内容为 '[image omitted]' 的 user 消息，丢失报告则点出这张图片在请求体里的路径。",
        ),
    ),
    "07": (
        Recall(
            "What does the playground do with a request it cannot translate?",
            "It shows the located error above the editor and keeps the last good result on screen, marked "
            "stale; it never raises.",
            "交互练习场遇到无法翻译的请求时怎么做？",
            "交互练习场在编辑器上方显示带位置的错误，上一次成功的结果留在屏幕上并标为已过时，整个过程从不抛出异常。",
        ),
        Recall(
            "Why is tool_use_id required even though the default target drops it?",
            "The contract follows the protocol, not a target's output: every tool_result must name its call, "
            "so the request is refused before anything is translated.",
            "既然默认目标格式会丢掉 tool_use_id，为什么它仍是必需的？",
            "契约依据的是协议，而不是某个目标格式的输出。每个 tool_result 都必须指明回答的是哪次调用，所以缺了 tool_use_id 的请求在翻译之前就被拒绝。",
        ),
        Recall(
            "What does each target do with a block type nobody knows?",
            "chat_template writes a placeholder such as '[hologram omitted]' and reports it; openai refuses "
            "with a located error, as an endpoint answers 400.",
            "两种目标格式分别怎样处理未知类型的内容块？",
            "chat_template 写入 '[hologram omitted]' 这样的占位符，并在丢失报告里记一条。openai 则以带位置的错误拒绝请求，"
            "就像端点返回 400 一样。",
        ),
        Recall(
            "Renaming a tool everywhere in the README request changes how many leaves of the output, and why?",
            "Two: the name of the historical call in translated and the name of the offered tool in "
            "tools_schema; each path copies the name it sees.",
            "在 README 请求中把一个工具的名字全部改掉，输出会有几个叶子节点改变，原因是什么？",
            "两个叶子节点会变，一个是 translated 中历史调用的名字，一个是 tools_schema 中所提供工具的名字。"
            "两条路径各自复制自己看到的名字。",
        ),
    ),
    "08": (
        Recall(
            "Which keys does the openai translation carry that the default one lacks, and why?",
            "id on each tool call and tool_call_id on each tool message: the Chat Completions wire pairs a "
            "result with its call by id.",
            "openai 的翻译结果带有哪些默认翻译结果中没有的键，为什么要带这些键？",
            "每个工具调用上的 id，以及每条 tool 消息上的 tool_call_id。Chat Completions 的传输格式靠这两个 id 把结果和调用配成对。",
        ),
        Recall(
            "Which target's translation of an echoed reply equals the adapter's record, and why?",
            "The default one: it drops the freshly minted id and keeps the arguments a dict, as the record has "
            "them. The openai echo differs in the id and in the arguments, which it writes as text.",
            "用哪种目标格式翻译回传的历史轮次，得到的结果等于本轮记录，原因是什么？",
            "默认目标格式的翻译等于本轮记录，因为这种格式丢掉新生成的 id，arguments 也和记录里一样保持为字典。openai 回传的历史轮次在 id 和 arguments 两处都不同，"
            "arguments 被写成了文本。",
        ),
        Recall(
            "Why does the openai target split a tool result that mixes text and a tool_reference?",
            "A GLM-style template picks its branch by the first part of a tool message; split into runs, each "
            "run is rendered by the right branch, so the schema and both texts appear.",
            "为什么 openai 目标格式要拆分混有文本和 tool_reference 的工具结果？",
            "GLM 风格的模板只看 tool 消息的第一个 content part 来选分支。拆成若干段之后，每段都走对的分支，"
            "schema 和两段文本因此都会出现。",
        ),
        Recall(
            "What does a template that always writes arguments | tojson print when the arguments arrive as "
            "JSON text?",
            "The text encoded a second time: a quoted string with escaped quotes, where the model was trained to "
            "see an object. Nothing fails, so the mistake is silent.",
            "一个总是写 arguments | tojson 的模板，在 arguments 以 JSON 文本形式到达时会打印什么？",
            "会打印被再编码一次的文本，也就是一个带引号、内部引号被转义的字符串，而模型训练时在这里看到的是一个对象。整个过程不报任何错，"
            "所以这个错误是静默的。",
        ),
    ),
    "09": (
        Recall(
            "In what order does build_reply put the blocks, and when is the stop_reason tool_use?",
            "thinking, then text, then one tool_use per call; the stop reason is tool_use whenever the reply "
            "holds calls, whatever ended the sampling.",
            "build_reply 按什么顺序放置内容块，stop_reason 又在什么时候是 tool_use？",
            "先 thinking，再 text，然后每次调用一个 tool_use。只要回复里有调用，停止原因就是 tool_use，"
            "不管采样是因为什么结束的。",
        ),
        Recall(
            "How many stream events does a reply of n blocks give?",
            "3n + 3: message_start, three per block (content_block_start, one content_block_delta, "
            "content_block_stop), then message_delta with the stop reason and message_stop.",
            "含 n 个内容块的回复，事件流里有多少个事件？",
            "共 3n + 3 个，开头是 message_start，每个内容块三个（content_block_start、一个 content_block_delta 和 content_block_stop）"
            "，最后是带停止原因的 message_delta 和 message_stop。",
        ),
        Recall(
            "What goes wrong when results come back in another order and no ids are kept?",
            "to_anthropic pairs them with the calls by position, so a result can claim to answer the wrong "
            "call, and nothing fails.",
            "当结果以另一种顺序返回、又没有保留 id 时，会出什么问题？",
            "to_anthropic 按位置把结果和调用配对，于是一个结果可能声称回答的是另一次调用，而且整个过程不报任何错。",
        ),
        Recall(
            "Why must a signed thinking block go back word for word?",
            "The API verifies the signature; a thinking block that was changed or rebuilt is rejected, so the "
            "saved blocks go back exactly as Anthropic wrote them.",
            "为什么带签名的 thinking 块必须一字不差地发回去？",
            "API 会验证签名，被改动或重建的 thinking 块会被拒绝。所以保存下来的内容块要完全按 Anthropic 写出的样子发回去。",
        ),
    ),
    "10": (
        Recall(
            "Which stacks keep a user turn's text around a tool result in the order it was sent, and what do "
            "the others do?",
            "Slime, SGLang and both our targets (user, tool, user); vLLM and LiteLLM put the tool message first "
            "and join the notes after it.",
            "哪些系统按发送时的顺序保留工具结果前后的用户文本，其他系统又怎么做？",
            "Slime、SGLang 和本包的两种目标格式都保持 user、tool、user 的顺序。vLLM 和 LiteLLM 则把 tool 消息提前，"
            "再把两段备注连起来放在 tool 消息后面。",
        ),
        Recall(
            "Why does a rollout adapter accept what a serving endpoint refuses?",
            "It must keep the trajectory going whatever arrives, so it changes what it cannot carry (and should "
            "report it); an endpoint has a client that can fix the request after a 400.",
            "为什么 rollout 适配器接受推理服务端点会拒绝的请求？",
            "适配器无论收到什么都必须让轨迹继续下去，所以只能改动自己承载不了的内容（并且应当报告）。端点的客户端则可以在收到 400 之后自己修正请求。",
        ),
        Recall(
            "Which stack keeps a thinking block's signature, and why that one?",
            "LiteLLM alone, in thinking_blocks: its output is a request to another provider, where a signature "
            "can still be checked.",
            "哪个系统保留了 thinking 块的签名，为什么偏偏是它？",
            "只有 LiteLLM 保留签名，放在 thinking_blocks 里，因为 LiteLLM 的输出是发给另一个服务商的请求，"
            "签名到了那里仍可能被检查。",
        ),
        Recall(
            "How many rules explain the table of deliberate differences, and why does it have more entries?",
            "Five; each entry repeats one of them in another recorded case or for another peer.",
            "有意偏差表背后有多少条规则，表中的项为什么比规则多？",
            "背后只有五条规则，表中每一项都是其中某条规则在另一个录制用例里、或在另一个真实系统上的又一次出现。",
        ),
    ),
    "11": (
        Recall(
            "What does a capture keep of the header that carries the API key?",
            "Only its name, listed in headers_withheld; the value never enters the capture.",
            "对于携带 API 密钥的请求头，捕获记录保留了什么？",
            "只保留请求头的名字，列在 headers_withheld 里，请求头的值从不进入捕获记录。",
        ),
        Recall(
            "Which of Claude Code's ten top-level fields reach the template?",
            "messages, system and tools; the other seven are settings or bookkeeping, and the loss report names "
            "each with its reason.",
            "Claude Code 的十个顶层字段中，哪些到达了模板？",
            "只有 messages、system 和 tools 到达模板，其余七个是设置或元数据，丢失报告逐一点出并写明原因。",
        ),
        Recall(
            "What becomes of the system message in the middle of Claude Code's message list?",
            "preprocess folds it into the user message before it as <system-reminder> text, so it comes out as "
            "a user message.",
            "Claude Code 消息列表中间的那条 system 消息最后变成了什么？",
            "preprocess 把这条 system 消息包成 <system-reminder> 文本，折进前一条 user 消息，"
            "所以这条 system 消息最后成了那条 user 消息的一部分。",
        ),
        Recall(
            "Which record does the openai echo of a reply equal, and which does the default one equal?",
            "The openai echo equals response_to_message's message (id kept, arguments as JSON text); the "
            "default echo equals build_reply's manager message (no id, arguments a dict).",
            "一条回复回传后，openai 目标格式的翻译等于哪份记录？默认目标格式的翻译又等于哪份？",
            "openai 回传的历史轮次等于 response_to_message 生成的消息，保留 id，arguments 是 JSON 文本。"
            "默认目标格式回传的历史轮次等于 build_reply 返回的本轮记录，没有 id，arguments 是字典。",
        ),
    ),
    "13": (
        Recall(
            "Which tokens of a sample carry loss_mask 1, and which carry 0?",
            "1: the ids the model generated in a turn whose answer is still in the strip as the model wrote it. "
            "0: the rest of the response region, that is the later prompts (tool results, new user text, the "
            "re-rendered history) and any answer a realign overwrote. The first prompt is outside the mask.",
            "样本里哪些 token 的 loss_mask 是 1，哪些是 0？",
            "模型在某一轮生成、并且仍按原样留在 token 串里的 token 记 1。第一个 prompt 之后的其余 token 都记 0，"
            "包括后面各轮的 prompt（工具结果、新的用户文本、重新渲染的历史），也包括被 realign 覆盖掉的回答。"
            "第一个 prompt 不在掩码覆盖的范围之内。",
        ),
        Recall(
            "When does the manager realign a turn rather than fork it, and what does each cost the training run?",
            "Realign when the prompt parts from the held ids at or after the start of the last answer and the "
            "new answer is shorter than fork_threshold_tokens (1,024): the last answer is overwritten by the "
            "prompt's own ids at mask 0 and is never trained. Anything else forks: the strip is closed and a new "
            "sample starts, which holds the shared prefix again, so training computes it twice.",
            "manager 什么时候把一轮归为 realign 而不是 fork，两种做法各让训练付出什么代价？",
            "prompt 在上一个回答的起点或更靠后的位置与已持有的 token 分开，而且新回答短于 fork_threshold_tokens"
            "（1,024）时，归为 realign。上一个回答被 prompt 自己的 token 以掩码 0 覆盖，从此不参与训练。"
            "其余情况都归为 fork，当前 token 串到此结束，新样本又从共同前缀开始，训练时这段前缀要再算一遍。",
        ),
        Recall(
            "What does a server that re-renders the whole history every turn do to an earlier answer, and why "
            "do the prompts then part?",
            "It writes the answer back the way the template writes history, not the way the model wrote it: "
            "Qwen3's template gives no think block to an answer before the last user query, and a tool call "
            "comes back with the template's newlines and json.dumps' spacing. The new prompt then parts from "
            "the held ids inside that answer.",
            "每轮都重新渲染整个历史的服务端，会把较早的回答写成什么样，两个 prompt 为什么因此分开？",
            "服务端按模板书写历史的方式写回这个回答，而不是照模型当初写下的样子。Qwen3 的模板不给最后一次用户提问之前的回答写"
            " think 块，工具调用写回历史时也换成了模板自己的换行和 json.dumps 的空格。新 prompt 于是在这个回答之内就与已持有的"
            " token 分开了。",
        ),
        Recall(
            "What does token in, token out gain over re-rendering, and what does it give up?",
            "The next prompt is the held ids followed by the rendering of the new messages only, so nothing "
            "drifts and every generated id is trained, in one sample. It gives up the template's prompt: the "
            "model is trained on a history that a server which re-renders will never show it.",
            "token in, token out 比每轮重新渲染多得到了什么，又放弃了什么？",
            "下一轮的 prompt 是已持有的 token 接上只为新消息渲染出的 token，所以不会漂移，每个生成的 token 都在同一个样本里参与训练。"
            "代价是放弃了模板写出的 prompt：模型在训练中看到的历史，是每轮重新渲染的服务端永远不会给它看的版本。",
        ),
        Recall(
            "How is tutorial.trajectory held to the samples Slime's own manager makes?",
            "Slime's TrajectoryManager (THUDM/slime at commit 624b824, slime/agent/trajectory.py) was run on nine "
            "recorded sessions, kept in tutorial/peers/data/trajectory. tests/test_trajectory_conformance.py feeds "
            "the same turns to tutorial.trajectory and requires every sample and every drift decision to be "
            "equal; the differences on purpose are listed in trajectory.DEVIATIONS.",
            "tutorial.trajectory 生成的样本，是怎样与 Slime 自己的 manager 生成的样本对上的？",
            "Slime 的 TrajectoryManager（THUDM/slime 在 commit 624b824 的 slime/agent/trajectory.py）在九个录制会话上跑过一遍，"
            "结果保存在 tutorial/peers/data/trajectory 里。tests/test_trajectory_conformance.py 把同样的各轮交给"
            " tutorial.trajectory，要求每个样本、每一步判断都与 Slime 的完全相同。有意偏差列在 trajectory.DEVIATIONS 里。",
        ),
    ),
}

TEXT = {
    "en": {
        "hidden": "set show=True in this cell to see the model answers",
        "answer": "model answer: ",
        "unknown": "Chapter {chapter} has no recall questions. The chapters that have them: {chapters}.",
        "separator": ", ",
    },
    "zh": {
        "hidden": "把本单元格中的 show 改为 True，即可查看参考答案。",
        "answer": "参考答案：",
        "unknown": "第 {chapter} 章没有思考题，有思考题的是第 {chapters} 章。",
        "separator": "、",
    },
}


def recalled(chapter: str) -> tuple[Recall, ...]:
    """A chapter's recall questions. A chapter whose questions live beside its exercises
    (ch04b.py registers RECALL["04b"]) has that module loaded first, so a fresh kernel that
    has checked nothing yet finds them too."""
    if chapter not in RECALL:
        import importlib

        try:
            importlib.import_module(f"{__package__}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if chapter not in RECALL:
        raise KeyError(f"no recall questions for chapter {chapter!r}; the chapters are {', '.join(sorted(RECALL))}")
    return RECALL[chapter]


def questions(chapter: str) -> list[str]:
    """The chapter's questions in the current language."""
    zh = current() == "zh"
    return [item.zh_question if zh else item.question for item in recalled(chapter)]


def chapters() -> list[str]:
    """Every chapter that has recall questions, in order ("04b" after "04"). Every chapter's module
    is loaded first, so a chapter that registers its own (ch04b.py) is counted in a fresh kernel."""
    from . import all_exercises

    all_exercises()
    return sorted(RECALL)


def recall(chapter: str, show: bool = False, lang: Optional[str] = None) -> str:
    """For the cell after a chapter's questions: the model answers, only when asked. An entry
    point: a chapter's cell may name its edition (`lang="zh"`); None: the current language.
    A chapter without questions is told so, in that language, with the chapters that have them
    (not a KeyError: the learner typed a chapter, the cell answers in words). A whole number is
    read as a chapter's two digits: recall(8) is recall("08")."""
    with using(lang):
        return _recall(f"{chapter:02d}" if isinstance(chapter, int) else str(chapter), show)


def _recall(chapter: str, show: bool) -> str:
    from . import Shown

    lang = current()
    text = TEXT[lang]
    try:
        recalled(chapter)
    except KeyError:
        return Shown(words_for(TEXT, "unknown", chapter=chapter, chapters=text["separator"].join(chapters())))
    if not show:
        return Shown(text["hidden"])
    zh = lang == "zh"
    lines = []
    for number, item in enumerate(recalled(chapter), 1):
        lines.append(f"{number}. {item.zh_question if zh else item.question}")
        lines.append(f"   {text['answer']}{item.zh_answer if zh else item.answer}")
        lines.append("")
    return Shown("\n".join(lines).rstrip())


__all__ = ["RECALL", "Recall", "chapters", "questions", "recall", "recalled"]
