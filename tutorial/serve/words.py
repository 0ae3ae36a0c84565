"""What the server writes for people to read, in English and Chinese.

The teaching reply, the capture summaries, the messages of its error envelopes, the banner
and the log lines. Each request is answered in the language its `Accept-Language` header
prefers (`zh-CN,zh;q=0.9` → Chinese), else the server's own (`serve --lang zh`,
`start(lang="zh")`), else the process's current language (`tutorial.use_language`). The
language of the request being answered lives in a context variable, so a responder and the
engine bridge, which are called without it, still write in it.

The lesson's own located errors keep their location and give their reason in the request's
language, framed under Chinese with the place then a comma (`tutorial.words.located`, the command
line's words too: 「请求无效：messages[2]… 是必填项（…）」). Data stays
data: the engine's own error text, the names of fields and targets, stop reasons.
"""

from __future__ import annotations

from typing import Optional

from tutorial import words


def choose(accept_language: Optional[str], server_lang: Optional[str]) -> str:
    """The language to answer a request in (see the module's docstring); the server sets it
    with `tutorial.words.use_language_here`."""
    if server_lang is not None:
        words.check(server_lang)
    return words.from_accept_language(accept_language) or server_lang or words.current()


def count(number: int, noun: str) -> str:
    """"1 message", "2 messages"; 「1 条消息」, in the current language. `noun` is a key of NOUNS."""
    if words.current() == "zh":
        return f"{number} {NOUNS[noun][1]}"
    singular = NOUNS[noun][0]
    return f"{number} {singular if number == 1 else singular + 's'}"


NOUNS = {  # key: (English singular, Chinese with its measure word)
    "message": ("message", "条消息"),
    "tool": ("tool", "个工具"),
    "chat message": ("chat message", "条聊天消息"),
    "place": ("place", "处"),
    "more place": ("more place", "处"),
    "more reason": ("more reason", "条原因"),
    "input token": ("input token", "个输入 token"),
    "more character": ("more character", "个字符"),
}

WORDS = {
    "en": {
        # the teaching reply
        "intro": "Tutorial server, no model here. This is what the translation made of your request:",
        "target": "- {target} target: {outcome}",
        "refused": "refused. {message}",
        "outcome": "{messages} ({by_role}) and {tools}.",
        "role_count": "{count} {role}",
        "role_join": ", ",
        "no_roles": "none",
        "nothing_behind": "Nothing stays behind on the chat_template target.",
        "behind": "What stays behind on the chat_template target ({places}):",
        "loss": "- {path}{more}: {reason}",
        "loss_more": " and {places} like it",
        "hidden": "- and {reasons} (see the capture)",
        "footer": "Every request this server receives is kept: GET /captures lists them, GET /captures/<id> shows one.",
        "yours": "Your translator: {line}",
        "tool_returned": "The {tool} tool returned:\n{returned}",
        "cut": "\n[... {characters}]",
        # capture summaries
        "summary": "{messages}, {tools} -> {chat}; {how}, {stop_reason}",
        "streamed": "stream",
        "not_streamed": "json",
        "summary_count_tokens": "count_tokens: about {tokens}",
        "summary_error": "{kind}: {message}",
        "summary_mid_stream": "{kind} mid-stream: {message}",
        "summary_gone": "the client went away; the engine's request was closed",
        # error envelopes: the server's own
        "invalid_request": "{message}",
        "not_an_object": "body: the request body must be a JSON object, got {kind}",
        "model_type": "model: must be a string, got {kind}",
        "stream_type": "stream: must be true or false, got {kind}",
        "max_tokens_type": "max_tokens: must be a positive integer, got {value}",
        "max_tokens_too_big": "max_tokens: {value} is more than any engine reads (at most {limit})",
        "body_timeout": "body: it did not arrive within {seconds:g} s ({size} bytes came); send it faster or in one piece",
        "stop_sequences_type": "stop_sequences: must be a list of strings",
        "too_large": "body: {size} bytes, over this server's limit of {limit} bytes",
        "too_large_at_least": "body: more than {size} bytes, over this server's limit of {limit} bytes",
        "no_capture": "captures/{id}: no such capture (the server keeps the newest {kept}; GET /captures lists them)",
        "no_route": "{method} {path}: no such route here (see GET /)",
        "no_method": "{method} {path}: method not allowed",
        "internal": "internal error: {kind}",
        "responder_failed": "the responder failed: {kind}: {error}",
        "not_streamable": "the reply cannot be streamed: {error}",
        "not_a_message": "the reply is not a valid message: {error}",
        # error envelopes: the engine behind --forward
        "not_open": "the forwarder is not open (the server's startup did not run)",
        "shutting_down": "the bridge is shutting down, so this request was stopped; try again once it is back",
        "engine_late": "the engine at {url} did not answer within {seconds:g} s",
        "engine_unreachable": "cannot reach the engine at {url} ({why})",
        "engine_broke": "the connection to the engine at {url} failed ({why})",
        "engine_refused": "the engine refused the request (HTTP {status}): {message}",
        "engine_busy": "the engine is busy (HTTP {status}): {message}",
        "engine_status": "the engine answered HTTP {status}: {message}",
        "engine_no_body": "(no body)",
        "engine_silent": "the engine's stream ended without a single chunk",
        "chunk_not_json": "the engine's stream sent a chunk that is not JSON: {data}",
        "chunk_not_object": "the engine's stream sent a chunk that is not an object: {data}",
        "engine_failed_streaming": "the engine failed while streaming: {message}",
        "answer_not_json": "the engine's answer is not JSON ({error}): {text}",
        "answer_no_choices": "the engine's answer has no choices: {text}",
        "answer_no_message": "the engine's answer has no choices[0].message",
        "no_reply": "the engine's answer cannot be turned into a reply: {where}: {problem}",
        "no_reply_located": "the engine's answer cannot be turned into a reply: choices[0].{error}",
        "arguments_not_json": "is not valid JSON ({error})",
        "arguments_not_object": "must be a JSON object",
        "went_back": "the engine's stream went back to tool call {index} after starting another block",
        # the command line's banner and log
        "listening": "tutorial serve: listening on {url}, {answers}",
        "forwarding": "forwarding to {url}",
        "teaching": "answering with the teaching responder",
        "point": "  point a client at it:  ANTHROPIC_BASE_URL={url}",
        "captures_at": "  captures:              {url}/captures",
        "appended": "  (and appended to {file})",
        "translator_banner": "  your translator:       {origin}, compared with the package's on every request",
        "stop": "  stop with Ctrl-C",
        "log_yours": "  your translator: {line}",
        "log_mid_stream": ", then an error event mid-stream: {kind}: {message}",
        "log_gone": ", then the client went away before the end",
        "not_loopback": "warning: the tutorial server is binding {host}, so other machines may reach it. It keeps every "
        "request it receives (prompts, file contents) and answers anyone; bind 127.0.0.1 unless you mean it.",
    },
    "zh": {
        "intro": "这是教程服务器，这里没有模型。翻译把你的请求变成了这样：",
        "target": "- {target} 目标格式：{outcome}",
        "refused": "拒绝翻译这个请求：{message}",
        "outcome": "{messages}（{by_role}），{tools}。",
        "role_count": "{count} 条 {role}",
        "role_join": "、",
        "no_roles": "无",
        "nothing_behind": "chat_template 目标格式把请求的内容全部带入了输出。",
        "behind": "chat_template 目标格式未进入输出的内容（{places}）：",
        "loss": "- {path}{more}：{reason}",
        "loss_more": "（同样的还有 {places}）",
        "hidden": "- 另有 {reasons}（见捕获记录）",
        "footer": "服务器保存收到的每个请求，GET /captures 列出全部捕获记录，GET /captures/<id> 显示其中一条。",
        "yours": "你的翻译器：{line}",
        "tool_returned": "工具 {tool} 返回了：\n{returned}",
        "cut": "\n[…… 另有 {characters}]",
        "summary": "{messages}，{tools} → {chat}；{how}，{stop_reason}",
        "streamed": "流式",
        "not_streamed": "非流式",
        "summary_count_tokens": "count_tokens：约 {tokens}",
        "summary_error": "{kind}：{message}",
        "summary_mid_stream": "流式传输中途出错，{kind}：{message}",
        "summary_gone": "客户端已经离开，所以发给引擎的请求已关闭",
        "invalid_request": "请求无效：{message}",
        "not_an_object": "请求无效：请求体必须是 JSON 对象，收到的是 {kind}",
        "model_type": "请求无效：model 必须是字符串，收到的是 {kind}",
        "stream_type": "请求无效：stream 必须是 true 或 false，收到的是 {kind}",
        "max_tokens_type": "请求无效：max_tokens 必须是正整数，收到的是 {value}",
        "max_tokens_too_big": "请求无效：max_tokens 的值 {value} 超出了任何引擎能读取的范围（最多 {limit}）",
        "body_timeout": "请求体没有在 {seconds:g} 秒内传完（只收到 {size} 字节），请更快地发送，或一次发完",
        "stop_sequences_type": "请求无效：stop_sequences 必须是字符串列表",
        "too_large": "请求体有 {size} 字节，超过了这个服务器 {limit} 字节的上限",
        "too_large_at_least": "请求体超过 {size} 字节，而这个服务器的上限是 {limit} 字节",
        "no_capture": "captures/{id}：没有这条捕获记录（服务器只保留最新的 {kept} 条，GET /captures 可以列出全部）",
        "no_route": "{method} {path}：这里没有这个路由（见 GET /）",
        "no_method": "{method} {path}：不支持这个方法",
        "internal": "内部错误：{kind}",
        "responder_failed": "应答器出错：{kind}: {error}",
        "not_streamable": "回复无法以流式发送（{error}）",
        "not_a_message": "回复不是有效的消息（{error}）",
        "not_open": "转发器没有打开（服务器的启动步骤没有运行）",
        "shutting_down": "桥接服务正在关闭，所以这个请求被中止了，请等服务重新运行后再试",
        "engine_late": "{url} 上的引擎没有在 {seconds:g} 秒内回答",
        "engine_unreachable": "无法连接 {url} 上的引擎（{why}）",
        "engine_broke": "与 {url} 上的引擎的连接中断了（{why}）",
        "engine_refused": "引擎拒绝了这个请求（HTTP {status}）：{message}",
        "engine_busy": "引擎正忙（HTTP {status}）：{message}",
        "engine_status": "引擎返回了 HTTP {status}：{message}",
        "engine_no_body": "（没有响应体）",
        "engine_silent": "引擎的流没有发来任何数据块就结束了",
        "chunk_not_json": "引擎的流发来了一个不是 JSON 的数据块（{data}）",
        "chunk_not_object": "引擎的流发来了一个不是 JSON 对象的数据块（{data}）",
        "engine_failed_streaming": "引擎在流式传输中出错：{message}",
        "answer_not_json": "引擎的回答不是 JSON（{error}），收到的是 {text}",
        "answer_no_choices": "引擎的回答没有 choices，收到的是 {text}",
        "answer_no_message": "引擎的回答没有 choices[0].message",
        "no_reply": "引擎的回答无法变成回复，{where} {problem}",
        "no_reply_located": "引擎的回答无法变成回复：choices[0].{error}",
        "arguments_not_json": "不是有效的 JSON（{error}）",
        "arguments_not_object": "必须是 JSON 对象",
        "went_back": "引擎的流已经开始另一个内容块，又回到了第 {index} 个工具调用",
        "listening": "tutorial serve：正在监听 {url}，{answers}",
        "forwarding": "转发给 {url}",
        "teaching": "由示范应答程序回答（背后没有模型）",
        "point": "  让客户端连接它：  ANTHROPIC_BASE_URL={url}",
        "captures_at": "  捕获记录：        {url}/captures",
        "appended": "（同时追加到 {file}）",
        "translator_banner": "  你的翻译器：      {origin}，每个请求都与本包的翻译对照",
        "stop": "  按 Ctrl-C 停止",
        "log_yours": "  你的翻译器：{line}",
        "log_mid_stream": "，随后在流式传输中途发出错误事件（{kind}，{message}）",
        "log_gone": "，随后客户端在结束前离开了",
        "not_loopback": "警告：tutorial 服务器绑定在 {host}，其他机器可能访问得到。这个服务器会保存收到的每个请求（prompt、文件内容），"
        "并回答任何人，所以除非确有需要，请绑定 127.0.0.1。",
    },
}
