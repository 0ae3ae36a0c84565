"""Every word the playground shows, in one table per language: `LABELS["en"]`, `LABELS["zh"]`.

`worded(key, **values)` fills a label's `{placeholders}`, in the current language (a playground
speaks its own: `Model.label` calls it under `using(its lang)`). Labels may hold simple HTML
(`<b>`, `<code>`); the values put into them are escaped by whoever builds HTML from them.
A `RequestError` keeps its location and gives its reason in the playground's language
(`tutorial.watch.error_words`).
JSON's own messages ("Expecting property name ...") come from Python's json module; in
Chinese `json_message` says them in Chinese. Where a bracket is missing, the label names it
and where its object began.
"""

from __future__ import annotations

from ...words import current, json_message, using  # noqa: F401  (json_message: json's own messages, in Chinese too)

LANGUAGES = ("en", "zh")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        # the controls
        "preset": "preset",
        "captured": "captured",
        "refresh": "Refresh the list of captured requests",
        "translate": "Translate",
        "translate_tip": "Translate now (typing also translates after a short pause)",
        "target_tip_chat_template": "the rollout adapter's shape (the walk-through)",
        "target_tip_openai": "an OpenAI-compatible engine's /v1/messages endpoint",
        "zoom_readable": "readable",
        "zoom_whole": "whole",
        "zoom_tip_readable": "text at a readable size; scroll to follow the flow",
        "zoom_tip_whole": "the whole picture shrunk into the pane (small text)",
        "family": "family",
        "family_tip": "the model family whose real chat template renders the prompt",
        "edited_from": "your own request (started from <b>{preset}</b>)",
        "edited": "your own request",
        # the tabs
        "tab_translated": "translated",
        "tab_tools": "tools_schema",
        "tab_stages": "stages",
        "tab_diagram": "diagram",
        "tab_prompt": "prompt",
        "tab_losses": "stays behind",
        "tab_changes": "vs README",
        "tab_peers": "peers",
        # the status line
        "ok": "✓ target <b>{target}</b>: {messages} message(s), {tools}, {stages} stage(s); {losses} thing(s) stay behind.",
        "no_tools": "no tools",
        "tools_count": "{count} tool(s)",
        "shown_stale": "the tabs keep the last good result (stale)",
        "shown_nothing": "nothing has been translated yet",
        "from_capture": "loaded from capture {capture}",
        # the panes
        "nothing_yet": "Nothing translated yet.",
        "stale": "Stale: the request in the editor has an error, so this is the result of the last good request "
        "(target {target}).",
        "translated_chat_template": "translated: {count} message(s), for the chat template's <code>messages</code>.",
        "translated_openai": "messages: {count} message(s), the <code>messages</code> an OpenAI-compatible engine "
        "builds for its chat template.",
        "tools_chat_template": "tools_schema: {count} function tool(s), for the chat template's <code>tools</code>.",
        "tools_openai": "tools: {count} function tool(s), the <code>tools</code> an OpenAI-compatible engine "
        "builds for its chat template.",
        "tools_none": "tools_schema is <code>None</code>: the request has no usable tools.",
        "stages_note": 'Every stage of <code>trace(body, target="{target}")</code>, in the order it ran: input → output.',
        "preprocess_step": "preprocess</b> folded a system message from inside the list (body.messages → body.messages)",
        "cut": "… {count} more characters not shown here (the model's results hold all of them)",
        "diagram_readable": "Readable size (no text under 10 px): scroll to follow the flow, or choose <b>whole</b> "
        "for an overview.",
        "diagram_whole": "The whole picture, shrunk into the pane; switch to <b>readable</b> to read it.",
        "diagram_drawing": "Drawing the diagram of the current request…",
        "diagram_old": "The diagram below is of an earlier request; the new one is being drawn.",
        "diagram_collapsed": "Drawn in short: {runs} are each drawn as one summary row (the other tabs show every "
        "item).",
        "diagram_missing": "The pictures module (tutorial.pictures) is not available.",
        "diagram_failed": "The diagram could not be drawn: {error}",
        "losses_none": "Nothing stays behind: the outputs carry everything in the body.",
        "losses_note": "{count} thing(s) in the body that the outputs do not carry, and why.",
        "where": "where",
        "value": "value",
        "why": "why",
        "changes_same": "The same outputs as the README example (for this target).",
        "changes_note": "What this request gives differently from the README example, same target "
        "(- README, + this request).",
        "changes_from": "README example: {part}",
        "changes_to": "this request: {part}",
        "peers_choose": 'Choose a preset named "peer: …" to see what the recorded implementations built from the '
        "same body, beside our result.",
        "peers_missing": "No recorded peer outputs for {case} (tutorial/peers/data/outputs_requests.json is missing).",
        "peers_note": "Case <code>{case}</code>, as recorded from each implementation.",
        "peers_edited": " You have edited the body: the recordings are for the preset as given.",
        "peer": "peer",
        "version": "version",
        "against_ours": "against ours ({target})",
        "closest": " (closest to this target)",
        "ours": "ours ({target})",
        "nothing": "nothing yet",
        "verdict_not_compared": "built messages (not compared: the body was edited)",
        "verdict_same": "✓ the same messages and tools as ours",
        "verdict_differs": "≠ differs from ours",
        "refused": "refused at {stage}",
        # the prompt tab
        "prompt_rendering": "Rendering the prompt with the <b>{family}</b> chat template…",
        "prompt_old": "The prompt below is of an earlier request; the new one is being rendered.",
        "prompt_note": "What the <b>{family}</b> model reads: <code>render(translated, tools_schema, "
        "template=\"{family}\")</code>: the real template as the serving stacks apply it. "
        "{characters} characters, {tokens}.",
        "prompt_tokens": "<b>{count}</b> tokens",
        "prompt_tokens_unknown": "token count unknown ({why})",
        "prompt_refused": "The <b>{family}</b> template refuses these messages, in its own words:",
        "prompt_refused_note": "A serving stack using this template would answer the request with an error.",
        "prompt_missing": "The prompt cannot be rendered here: {how}",
        "prompt_needs_extra": "rendering a real template needs the Python package {module}; "
        "python3 tasks.py setup installs it",
        "prompt_no_tokenizer": "this version of tutorial.render cannot tokenize",
        "prompt_failed": "The <b>{family}</b> template could not render these messages:",
        # the learner's translator ("yours")
        "reference": "the package's",
        "yours": "yours",
        "yours_same": "✓ yours gives the same translated and tools_schema as the package.",
        "yours_differs": "≠ yours first differs at <code>{where}</code>.",
        "yours_differs_text": "≠ yours differs {line}",
        "yours_where": "the package: <code>{ours}</code> · yours: <code>{theirs}</code> · the rule: {rule}",
        "yours_no_request": "yours: not run (the request in the editor does not translate).",
        "yours_target": "yours: not compared on target {target} (your translate builds the {shape} shape).",
        "yours_raised": "yours raised {error}",
        "yours_unusable": "yours cannot be used: {problem}",
        "yours_not_callable": "yours must be a function or the path of a .py file, not a {kind}",
        "status_yours": "yours: {verdict}",
        "status_yours_same": "✓ the same",
        "status_yours_differs": "≠ differs at {where}",
        "status_yours_other": "see the translated tab",
        # captured requests
        "captures_none": "No requests captured yet: point a client at the server, then refresh.",
        "captures_count": "{count} captured request(s), newest first.",
        "captures_failed": "Could not list the captured requests: {error}",
        "capture_gone": "no capture {capture} in the list (refresh it)",
        # errors: each starts with the place (a line and column, or a path in the body)
        "json_error": "line {line}, column {column}: {message} (the text is not valid JSON yet)",
        "json_unclosed": "line {line}, column {column}: {problem}",
        "json_object": "object",
        "json_array": "list",
        "json_ends_open": "the text ends before the {kind} that begins at line {line}, column {column} is closed: "
        "its '{missing}' is missing{still}",
        "json_still_open": " ({count} brackets are still open; this is the innermost)",
        "json_wrong_closer": "this '{found}' cannot close the {kind} that begins at line {line}, column {column}: "
        "a '{missing}' is missing before it",
        "json_deep": "line {line}, column {column}: nested deeper than {limit} levels (the playground takes at most "
        "{limit})",
        "json_number": "line {line}, column {column}: a number of {digits} digits (Python reads at most {limit})",
        "json_unreadable": "line {line}, column {column}: {message}",
        "not_text": "body: {kind} given as request_text are not UTF-8 text (at byte {offset})",
        "capture_no_body": "body: capture {capture} has no JSON body (nothing to translate)",
        "stopped": "body: the translation stopped with {kind}: {error}",
    },
    "zh": {
        "preset": "预设",
        "captured": "已捕获",
        "refresh": "刷新捕获到的请求列表",
        "translate": "翻译",
        "translate_tip": "立即翻译（停止输入片刻后也会自动翻译）",
        "target_tip_chat_template": "rollout 适配器的格式（讲解文档讲的那种）",
        "target_tip_openai": "兼容 OpenAI 的引擎的 /v1/messages 端点",
        "zoom_readable": "可读",
        "zoom_whole": "全图",
        "zoom_tip_readable": "文字保持可读大小，滚动查看整个流程",
        "zoom_tip_whole": "整张图缩进窗格（文字较小）",
        "family": "模型家族",
        "family_tip": "用哪个模型家族的真实聊天模板渲染 prompt",
        "edited_from": "你自己的请求（从 <b>{preset}</b> 改起）",
        "edited": "你自己的请求",
        "tab_translated": "translated",
        "tab_tools": "tools_schema",
        "tab_stages": "各阶段",
        "tab_diagram": "流程图",
        "tab_prompt": "prompt",
        "tab_losses": "丢失项",
        "tab_changes": "对比 README",
        "tab_peers": "真实系统",
        "ok": "✓ 目标格式 <b>{target}</b>：{messages} 条消息，{tools}，{stages} 个阶段，{losses} 项未进入输出。",
        "no_tools": "没有工具",
        "tools_count": "{count} 个工具",
        "shown_stale": "各标签页保留上一次成功的结果（已过时）",
        "shown_nothing": "还没有翻译过任何请求",
        "from_capture": "来自捕获 {capture}",
        "nothing_yet": "还没有翻译结果。",
        "stale": "已过时：编辑器里的请求有错误，这里是上一次成功请求的结果（目标格式 {target}）。",
        "translated_chat_template": "translated：{count} 条消息，交给聊天模板的 <code>messages</code>。",
        "translated_openai": "messages：{count} 条消息，即兼容 OpenAI 的引擎交给聊天模板的 <code>messages</code>。",
        "tools_chat_template": "tools_schema：{count} 个函数工具，交给聊天模板的 <code>tools</code>。",
        "tools_openai": "tools：{count} 个函数工具，即兼容 OpenAI 的引擎交给聊天模板的 <code>tools</code>。",
        "tools_none": "tools_schema 为 <code>None</code>：请求里没有可用的工具。",
        "stages_note": '<code>trace(body, target="{target}")</code> 的每个阶段，按运行顺序列出输入 → 输出。',
        "preprocess_step": "preprocess</b> 折叠了列表中间的 system 消息（body.messages → body.messages）",
        "cut": "…… 还有 {count} 个字符没有显示（模型的 results 里是完整的）",
        "diagram_readable": "可读大小（文字不小于 10 px），滚动查看整个流程，或选<b>全图</b>看概览。",
        "diagram_whole": "整张图缩进了窗格，切换到<b>可读</b>才能看清文字。",
        "diagram_drawing": "正在绘制当前请求的流程图……",
        "diagram_old": "下面是之前某个请求的流程图，新图正在绘制。",
        "diagram_collapsed": "简略绘制：{runs} 各画成一行摘要（其他标签页显示全部条目）。",
        "diagram_missing": "图示模块（tutorial.pictures）不可用。",
        "diagram_failed": "无法绘制流程图：{error}",
        "losses_none": "没有未进入输出的内容，请求体里的一切都进了输出。",
        "losses_note": "请求体里有 {count} 项没有带入输出，原因如下。",
        "where": "位置",
        "value": "值",
        "why": "原因",
        "changes_same": "输出与 README 示例相同（同一目标格式）。",
        "changes_note": "此请求的输出与 README 示例（同一目标格式）的差异（- README，+ 此请求）。",
        "changes_from": "README 示例：{part}",
        "changes_to": "此请求：{part}",
        "peers_choose": "选一个以“真实系统：”开头的预设，就能看到各真实系统用同一请求体构建的结果，与我们的结果并排。",
        "peers_missing": "{case} 没有录下的真实系统输出（缺少 tutorial/peers/data/outputs_requests.json）。",
        "peers_note": "用例 <code>{case}</code>：各真实系统录下的结果。",
        "peers_edited": "你改过请求体，录下的结果对应原来的预设。",
        "peer": "真实系统",
        "version": "版本",
        "against_ours": "与我们的结果（{target}）相比",
        "closest": "（最接近此目标格式）",
        "ours": "我们的结果（{target}）",
        "nothing": "暂无",
        "verdict_not_compared": "构建了消息（请求体改过，没有比较）",
        "verdict_same": "✓ 消息和工具与我们的相同",
        "verdict_differs": "≠ 与我们的不同",
        "refused": "在 {stage} 阶段拒绝",
        "prompt_rendering": "正在用 <b>{family}</b> 的聊天模板渲染 prompt……",
        "prompt_old": "下面是之前某个请求的 prompt，新的正在渲染。",
        "prompt_note": "<b>{family}</b> 模型读到的内容由 <code>render(translated, tools_schema, "
        "template=\"{family}\")</code> 给出，用的正是服务栈实际使用的真实模板。{characters} 个字符，{tokens}。",
        "prompt_tokens": "<b>{count}</b> 个 token",
        "prompt_tokens_unknown": "token 数未知（{why}）",
        "prompt_refused": "<b>{family}</b> 模板拒绝了这些消息，原话如下。",
        "prompt_refused_note": "用这个模板的服务栈会以错误回应这个请求。",
        "prompt_missing": "这里无法渲染 prompt：{how}",
        "prompt_needs_extra": "渲染真实模板需要 Python 包 {module}，运行 python3 tasks.py setup 即可安装",
        "prompt_no_tokenizer": "这个版本的 tutorial.render 不能分词",
        "prompt_failed": "<b>{family}</b> 模板无法渲染这些消息，错误如下。",
        "reference": "本包的",
        "yours": "你的",
        "yours_same": "✓ 你的 translate 给出的 translated 和 tools_schema 与本包相同。",
        "yours_differs": "≠ 你的结果与本包的第一处不同在 <code>{where}</code>。",
        "yours_differs_text": "≠ 你的结果不同：{line}",
        "yours_where": "本包：<code>{ours}</code> · 你的：<code>{theirs}</code> · 规则：{rule}",
        "yours_no_request": "你的 translate：没有运行（编辑器里的请求无法翻译）。",
        "yours_target": "你的 translate：目标格式 {target} 下不比较（你的 translate 构建的是 {shape} 的结构）。",
        "yours_raised": "你的 translate 抛出了 {error}",
        "yours_unusable": "无法使用你的 translate：{problem}",
        "yours_not_callable": "yours 必须是函数或 .py 文件的路径，不能是 {kind}",
        "status_yours": "你的：{verdict}",
        "status_yours_same": "✓ 相同",
        "status_yours_differs": "≠ 在 {where} 处不同",
        "status_yours_other": "见 translated 标签页",
        "captures_none": "还没有捕获到请求：让客户端指向服务器，然后刷新。",
        "captures_count": "已捕获 {count} 个请求，最新的在前。",
        "captures_failed": "无法列出捕获到的请求（{error}）",
        "capture_gone": "列表里没有捕获 {capture}（请刷新）",
        "json_error": "第 {line} 行第 {column} 列：{message}（文本还不是有效的 JSON）",
        "json_unclosed": "第 {line} 行第 {column} 列：{problem}",
        "json_object": "对象",
        "json_array": "列表",
        "json_ends_open": "文本已结束，但第 {line} 行第 {column} 列开始的{kind}还没有闭合（缺少 {missing}）{still}",
        "json_still_open": "（还有 {count} 个括号没有闭合，这是最内层的一个）",
        "json_wrong_closer": "这个“{found}”不能闭合第 {line} 行第 {column} 列开始的{kind}，前面缺少“{missing}”",
        "json_deep": "第 {line} 行第 {column} 列：嵌套超过 {limit} 层（交互练习场最多接受 {limit} 层）",
        "json_number": "第 {line} 行第 {column} 列：数字有 {digits} 位（Python 最多读 {limit} 位）",
        "json_unreadable": "第 {line} 行第 {column} 列：无法读取这段文本（{message}）",
        "not_text": "body：作为 request_text 给出的 {kind} 不是 UTF-8 文本（偏移 {offset} 处）",
        "capture_no_body": "body：捕获 {capture} 没有 JSON 请求体（没有可翻译的内容）",
        "stopped": "body：翻译因 {kind} 而停止（{error}）",
    },
}


def worded(key: str, **values) -> str:
    """The label `key` in the current language, its placeholders filled."""
    found = LABELS[current()][key]
    return found.format(**values) if values else found


def label(lang: str, key: str, **values) -> str:
    """The label `key` in `lang`: for book/playground_picture.py, which draws each edition's
    playground by its language (inside the package, `worded` and `Model.label` are used)."""
    with using(lang):
        return worded(key, **values)

