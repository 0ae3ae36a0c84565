"""Every sentence the build-it checker writes, in English and in Chinese.

`TEXT[lang]` holds the sentences of the verdicts, `RULES[lang][stage]` the bullets of each
stage's rule, word for word as chapter 05 states them (a ✗ quotes the one that was broken;
tests/test_build_it.py checks that the English bullets are the chapter's), and
`LABELS` the Chinese names of the inputs (the English names are the keys).
"""

from __future__ import annotations

from typing import Any

# The sentences of the verdicts, the playground pane, the loader and `grade`.
TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "unwritten": "{name} is not written yet: replace the ... with your code and run the cell",
        "not_function": "not yet: {name} should be a function, got {kind}",
        "no_function": "the source defines no function (expected {name})",
        "a_name": "not yet: check_stage wants the function {name} itself (no quotes), got the text {text}",
        "source_failed": "not yet: the source text given for {name} does not run: {error}",
        "source_no_function": "not yet: the source text given for {name} defines no function",
        "source_line": " (line {line})",
        "raised_everywhere": "It raised on every input, so no rule of the stage is at stake yet: "
        "fix the line named above first.",
        "right": "right: {name} agrees with the package on all {total} inputs ({readme} from the README example, "
        "{traps} traps, {generated} generated). Its rule: {rule}",
        "wrong": "not yet: {name} differs from the package on {failed} of {total} inputs. The first is "
        "{label}:\n    {name}({args})\n  {problem}\n  The rule: {rule}",
        "wrong_all": "not yet: {name} differs from the package on all {total} inputs. The first is "
        "{label}:\n    {name}({args})\n  {problem}\n  The rule: {rule}",
        "helper_wrong": "not yet: {name} calls your {helper}, which does not agree with the package yet; "
        "fix {helper} first. Its check says:\n  {verdict}",
        "helper_unwritten": "not yet: {name} calls your {helper}, which is not written yet; write it first",
        "returned_none": "not yet: {name} returns None for all {total} inputs. Is a return missing? "
        "For {label}, {name}({args}), the package returns {expected}",
        "stopped": "not yet: the check of {name} stopped at {label}:\n    {name}({args})\n"
        "  {problem}",
        "timed_out": "your function did not return within {seconds:g} s (an endless loop?)",
        "trap": 'the trap "{label}"',
        "generated": "generated variation #{number}",
        "raised": "it raised {error}: {message}; the package returns {expected}",
        "called_as": "{name} is called as {call}: check how many arguments it takes and in what order.",
        "changed": "it changed its input; the package's functions never change what they are given (copy first)",
        "rule_unchanged": "never change what you are given: build the result from a copy or from new values.",
        "uncomparable": "its result cannot be compared with the package's ({error}); return plain lists, dicts and strings",
        "not_a_pair": "it returned a {kind} of {count} items; translate returns a pair, (translated, tools_schema)",
        "not_a_pair_one": "it returned a {kind}; translate returns a pair, (translated, tools_schema)",
        "not_a_pair_single": "it returned a {kind} of one item; translate returns a pair, (translated, tools_schema)",
        "and": " and ",
        "differs": "at {place}: expected {want}, got {have}",
        "result": "result",
        "differs_whole": "at {place}: expected {want}, got {have}",
        "no_stage": "no stage called {name!r}; the stages are {stages}",
        "no_stage_close": "no stage called {name!r}; did you mean {close!r}?",
        "marked": " (« » enclose where the two begin to differ; escapes such as \\n stand for whitespace)",
        "no_key": "(no such key)",
        "extra_key": "at {place}: this key should not be there, yours has {have}",
        "missing_key": "at {place}: this key is missing, expected {want}",
        "no_item": "(no such item)",
        "gap_missing": "at {place}: {count} missing (expected {want})",
        "gap_extra": "at {place}: {count} (got {have})",
        "missing_messages_one": "1 message",
        "missing_messages": "{count} messages",
        "missing_items_one": "1 item",
        "missing_items": "{count} items",
        "extra_messages_one": "1 extra message",
        "extra_messages": "{count} extra messages",
        "extra_items_one": "1 extra item",
        "extra_items": "{count} extra items",
        "unshowable": "<a {kind} that cannot be shown>",
        "yours_unwritten": "your translate is not written yet: the playground shows only the package's translation",
        "yours_error": "the playground's request does not translate yet: {error}",
        "yours_target": "your translate builds the chat_template shape; the playground is set to {target!r}",
        "preset": "the preset {preset!r}",
        "this_request": "this request",
        "yours_differs": "not yet: on {which} your translate differs from the package's: {problem}",
        "yours_agree": "right: on {which} your translate gives exactly the package's output",
        "pane": "your translate:",
        "summary_rule": "{rule}",
    },
    "zh": {
        "unwritten": "{name} 还没有写：把 ... 换成你的代码，再运行这个单元格。",
        "not_function": "还不对：{name} 应该是函数，这里拿到的是 {kind} 类型的值。",
        "no_function": "这段代码里没有定义任何函数，而这里应当定义的是 {name}。",
        "a_name": "还不对：check_stage 要的是函数 {name} 本身（不加引号），这里拿到的是字符串 {text}。",
        "source_failed": "还不对：作为 {name} 传进来的源代码无法运行，{error}",
        "source_no_function": "还不对：作为 {name} 传进来的源代码里没有定义任何函数。",
        "source_line": "（第 {line} 行）",
        "raised_everywhere": "你的函数在每个输入上都抛出了异常，还谈不上违反了哪条规则，请先改好前面指出的那一行。",
        "right": "正确：{name} 在全部 {total} 个输入上都与本包一致（{readme} 个来自 README 示例，{traps} 个陷阱，"
        "{generated} 个生成的变体），符合这一阶段的规则。{rule}",
        "wrong": "还不对：{name} 在 {total} 个输入中有 {failed} 个的结果与本包不同。第一个是{label}：\n"
        "    {name}({args})\n  {problem}\n  规则：{rule}",
        "wrong_all": "还不对：{name} 在全部 {total} 个输入上的结果都与本包不同。第一个是{label}：\n"
        "    {name}({args})\n  {problem}\n  规则：{rule}",
        "helper_wrong": "还不对：{name} 调用了你写的 {helper}，而后者还没通过检查，"
                        "请先按下面的检查结果改好 {helper}。\n  {verdict}",
        "helper_unwritten": "还不对：{name} 调用了你写的 {helper}，而后者还没有写，请先写出 {helper}。",
        "returned_none": "还不对：{name} 对全部 {total} 个输入都返回 None，是不是漏写了 return？"
        "对{label}调用 {name}({args}) 时，本包返回的是 {expected}，而你的函数返回 None。",
        "stopped": "还不对：对 {name} 的检查停在了{label}上。\n    {name}({args})\n  {problem}",
        "timed_out": "你的函数在 {seconds:g} 秒内没有返回，可能陷入了死循环",
        "trap": "陷阱「{label}」",
        "generated": "生成的变体 #{number}",
        "raised": "你的函数抛出了 {error}: {message}，而本包返回的是 {expected}",
        "called_as": "检查时这样调用 {name}：{call}，请核对它接受几个参数、参数的顺序是否一致。",
        "changed": "你的函数修改了传进来的输入，而本包的函数从不修改传进来的值（请先复制一份）",
        "rule_unchanged": "不要修改传进来的值，结果要从副本或新建的值构造。",
        "uncomparable": "你的结果无法与本包的结果比较（{error}），请返回普通的列表、字典和字符串",
        "not_a_pair": "返回的是一个有 {count} 项的{kind}，而 translate 应当返回两个值 (translated, tools_schema)",
        "not_a_pair_one": "返回的是一个{kind}，而 translate 应当返回两个值 (translated, tools_schema)",
        "not_a_pair_single": "返回的是一个只有 1 项的{kind}，而 translate 应当返回两个值 (translated, tools_schema)",
        "and": "和",
        "differs": "{place} 处应为{want}，实际为{have}",
        "result": "返回值",
        "differs_whole": "返回值应为{want}，实际为{have}",
        "no_stage": "没有名为 {name!r} 的阶段，可用的阶段是 {stages}",
        "no_stage_close": "没有名为 {name!r} 的阶段，是不是想写 {close!r}？",
        "marked": "（« » 之间是两者开始不同的地方，\\n 这样的转义表示空白字符）",
        "no_key": "（没有这个键）",
        "extra_key": "{place} 这个键不应存在，你的结果里却是{have}",
        "missing_key": "{place} 处缺了这个键，应为{want}",
        "no_item": "（没有这一项）",
        "gap_missing": "{place} 处少了{count}，应为{want}",
        "gap_extra": "{place} 处多了{count}，实际为{have}",
        "missing_messages_one": " 1 条消息",
        "missing_messages": " {count} 条消息",
        "missing_items_one": " 1 项",
        "missing_items": " {count} 项",
        "extra_messages_one": " 1 条消息",
        "extra_messages": " {count} 条消息",
        "extra_items_one": " 1 项",
        "extra_items": " {count} 项",
        "unshowable": "<一个无法显示的 {kind}>",
        "yours_unwritten": "你的 translate 还没有写，交互练习场只显示本包的翻译结果。",
        "yours_error": "交互练习场中的请求还无法翻译（{error}）",
        "yours_target": "你的 translate 构造的是 chat_template 的格式，而交互练习场当前设为 {target!r}",
        "preset": "预设「{preset}」",
        "this_request": "这个请求",
        "yours_differs": "还不对：在{which}上，你的 translate 给出的结果与本包的结果不同。{problem}",
        "yours_agree": "正确：在{which}上，你的 translate 给出的输出与本包的输出完全相同。",
        "pane": "你的 translate：",
        "summary_rule": "{rule}",
    },
}

# Each stage's rule in one sentence: what a ✓ restates, and a ✗ when no single bullet applies.
SUMMARIES: dict[str, dict[str, str]] = {
    "en": {
        "flatten_content": "None gives \"\", a string stays itself, and a list gives the text of its parts, empty "
        "ones skipped, joined by newlines; an image leaves a placeholder, not its bytes.",
        "user_block_message": "a text block is taken as it is, a tool_result becomes a tool message with no id, "
        "and anything else becomes a user message with its text or a placeholder naming its type.",
        "assistant_message": "one message per assistant turn: texts joined into content, thinking into "
        "reasoning_content, each call a dict with no id, and the keys only when there is something to put in "
        "them.",
        "translate_messages": "the system prompt first (or nothing), then every message in order, each giving "
        "zero or more chat messages.",
        "tools_to_chat_tools": "no tools gives None, not []; each tool is wrapped as a function, input_schema "
        "renamed parameters, with an empty object schema and an empty description when they are missing.",
        "translate": "two independent paths, messages first, returned together as a tuple.",
        "tool_result_messages": "one tool message per run of reference / non-reference parts, every one with the "
        "same tool_call_id, in the original order; a lone text part collapses to a string.",
    },
    "zh": {
        "flatten_content": "None 得到 \"\"，字符串保持原样，列表取各项的文本，跳过空的，用换行符连接，其中的图片换成一个占位符，"
                           "不写图片的字节。",
        "user_block_message": "文本块原样取用，tool_result 变成一条不带 id 的 tool 消息，其他内容块变成一条 user 消息，"
                              "内容是块里的文本，没有文本时是写明类型的占位符。",
        "assistant_message": "每个 assistant 轮次产生一条消息，各段文本连接成 content，thinking 连接成 reasoning_content，"
                             "每次调用变成一个不带 id 的字典，而且只在确实有内容可放时才加上对应的键。",
        "translate_messages": "先是系统提示词（或者什么也没有），然后按顺序处理每条消息，每条产生零条或多条聊天消息。",
        "tools_to_chat_tools": "没有工具时得到 None 而不是 []，有工具时每个工具包装成函数，input_schema 改名为 parameters，"
                               "缺失时分别补上空的 object schema 和空的 description。",
        "translate": "消息路径和工具路径相互独立，先走消息路径，再走工具路径，两个结果作为一个元组一起返回。",
        "tool_result_messages": "按引用与非引用把各个 content part 切成段，每段一条 tool 消息，都带相同的 tool_call_id，"
                                "保持原来的顺序。一段只有一个文本 content part 时，这条消息的 content 就是那段文本本身。",
    },
}

# What the solution cell says after a stage's rule about the package's source it prints (zh review
# 6, finding 5: a note on the source, not part of the rule, so no verdict repeats it).
SOURCE_NOTES: dict[str, dict[str, str]] = {
    "en": {"translate": "The package's version also checks the body and looks the target up, which is why its source is longer."},
    "zh": {"translate": "本包的版本还会检查请求体、查找目标格式，所以源码更长。"},
}

# The bullets of each stage's rule, as chapter 05 writes them (markdown backticks included).
RULES: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "flatten_content": {
            "empty": '`None` gives `""`; a string is returned as it is; a single block (a dict) counts as a list of one.',
            "join": 'A list gives the text of each of its parts, empty ones skipped, joined with `"\\n"`.',
            "part": "The text of a part: a string item is itself; a `text` block (and OpenAI's `input_text` and "
            "`output_text`) gives its `text`; a `tool_result` gives its own content, flattened; an image "
            '(`image`, `image_url`, `input_image`) gives `"[image omitted]"`; any other block gives its '
            "`content`, flattened, if it has one, else its `text` if it has one, else nothing.",
        },
        "user_block_message": {
            "text": 'a `text` block → `{"role": "user", "content": <its text>}`, taken as it is',
            "tool_result": 'a `tool_result` → `{"role": "tool", "content": <its content, flattened>}`, with no id '
            "(its `content` may be missing)",
            "other": 'any other block → `{"role": "user", "content": <the text flatten_content finds in [block]>}`, '
            'or `"[<type> omitted]"` when that text is empty',
        },
        "assistant_message": {
            "text": 'the texts of the `text` blocks, joined with `""`, are the `content` (`""` when there are none)',
            "thinking": 'the texts of the `thinking` blocks, joined with `""`, are the `reasoning_content`; the key '
            "is there only when there is thinking, and signatures are left behind",
            "calls": 'each `tool_use` gives `{"type": "function", "function": {"name": ..., "arguments": ...}}` in '
            "`tool_calls`, arguments being the block's `input` (or `{}`), no id; the key is there only when there "
            "are calls",
            "other": "every other block (redacted thinking, for one) gives nothing",
        },
        "translate_messages": {
            "system": 'The system prompt first: `None`, `""` and `[]` give no message; a string gives '
            '`{"role": "system", "content": system}`; a list of blocks is flattened.',
            "inner_system": "a `system` message still inside the list → a system message with its content flattened",
            "string": 'a string content → `{"role": <its role>, "content": <the string>}`',
            "assistant": "an assistant message with a list → `assistant_message(...)`",
            "user": "a user message with a list → one message per block, `user_block_message(...)`",
        },
        "tools_to_chat_tools": {
            "none": "No tools (`None` or `[]`) → `None`.",
            "wrap": 'Each tool → `{"type": "function", "function": {"name": ..., "description": ..., "parameters": '
            '...}}`, with `""` for a missing or empty description and `{"type": "object", "properties": {}}` for '
            "a schema that is missing or None.",
        },
        "translate": {
            "both": "the messages path, then the tools path, returned together",
        },
        "tool_result_messages": {
            "string": 'content missing or a string → one message `{"role": "tool", "tool_call_id": <tool_use_id>, '
            '"content": <the string, or "">}`',
            "parts": "a list → each item through `content_part`, empty text parts skipped; then cut into runs, a new "
            "run starting wherever a `tool_reference` follows a non-reference or the other way round",
            "run": "each run → one message with the same `tool_call_id`, in the original order; its `content` is "
            "the text itself when the run is exactly one text part, else the list of parts",
            "empty": 'no runs at all → one message with `""`',
        },
    },
    "zh": {
        "flatten_content": {
            "empty": '`None` 得到 `""`，字符串原样返回，单个内容块（一个字典）当作只有一项的列表。',
            "join": '列表取每一项的文本，跳过空的，再用 `"\\n"` 连接。',
            "part": "字符串项直接用作文本，"
                    "`text` 块（以及 OpenAI 的 `input_text` 和 `output_text`）取其中的 `text`，"
                    "`tool_result` 取自己的内容并展平，"
                    "图片（`image`、`image_url`、`input_image`）得到 `\"[image omitted]\"`。"
                    "其他内容块有 `content` 就取展平后的 `content`，没有就取 `text`，两者都没有则什么也不取。",
        },
        "user_block_message": {
            "text": '`text` 块 → `{"role": "user", "content": <它的文本>}`，文本原样取用',
            "tool_result": '`tool_result` → `{"role": "tool", "content": <展平后的内容>}`，不带 i'
                           'd（该块的 `content` 可能缺失）。',
            "other": '其他内容块 → `{"role": "user", "content": <flatten_content 在 [blo'
                     'ck] 中找到的文本>}`，文本为空时为 `"[<type> omitted]"`。',
        },
        "assistant_message": {
            "text": '各 `text` 块的文本用 `""` 连接，作为 `content`（没有 `text` 块时为 `""`）',
            "thinking": "各 `thinking` 块的文本用 `\"\"` 连接，作为 `reasoning_content`。有 thinking 块时才加这个键，"
                        "签名丢弃。",
            "calls": "每个 `tool_use` 在 `tool_calls` 中生成一个 `{\"type\": \"function\", \"function\": {\"name\": ..., \"arguments\": ...}}`，"
                     "其中 arguments 就是该块的 `input`（没有则为 `{}`），不带 id。"
                     "有工具调用时才加 `tool_calls` 这个键。",
            "other": "其他内容块（比如 redacted thinking）什么也不产生",
        },
        "translate_messages": {
            "system": "最先处理的是系统提示词，`None`、`\"\"` 和 `[]` 不产生消息，"
                      "字符串得到 `{\"role\": \"system\", \"content\": system}`，内容块列表则先展平。",
            "inner_system": "夹在 messages 列表里的 `system` 消息 → 一条 system 消息，内容展平",
            "string": '字符串内容 → `{"role": <它的角色>, "content": <该字符串>}`',
            "assistant": "content 为列表的 assistant 消息 → `assistant_message(...)`",
            "user": "content 为列表的 user 消息 → 每个内容块一条消息，即 `user_block_message(...)`",
        },
        "tools_to_chat_tools": {
            "none": "没有工具（`None` 或 `[]`）时结果是 `None`，而不是空列表。",
            "wrap": "每个工具都包装成 `{\"type\": \"function\", \"function\": {\"name\": ..., \"description\": ..., \"parameters\": ...}}`，"
                    "其中 description 缺失或为空时用 `\"\"`，"
                    "schema 缺失或为 None 时用 `{\"type\": \"object\", \"properties\": {}}`。",
        },
        "translate": {
            "both": "先走消息路径，再走工具路径，然后把两个结果一起返回。",
        },
        "tool_result_messages": {
            "string": 'content 缺失或为字符串 → 一条消息 `{"role": "tool", "tool_call_id": <tool_use_id>, '
            '"content": <该字符串，或 "">}`',
            "parts": '列表 → 每一项先用 `content_part` 翻译，跳过空的文本项，再切成若干段。凡是 `tool_referen'
                     'ce` 紧跟在非引用项之后，或者反过来，就从这里开始新的一段。',
            "run": '每一段 → 一条消息，`tool_call_id` 都相同，顺序不变。一段恰好只有一个文本项时，`content` 就是'
                   '这段文本，否则是这些项组成的列表。',
            "empty": '一段也没有 → 一条内容为 `""` 的消息',
        },
    },
}

# The Chinese names of the inputs; an English label not listed here is shown as it is.
LABELS_ZH: dict[str, str] = {
    "None": "None",
    "a plain string": "普通字符串",
    "an empty list": "空列表",
    "two text blocks": "两个文本块",
    "an empty text between two texts": "两段文本之间夹着一段空文本",
    "an image": "一张图片",
    "text and an image": "文本加一张图片",
    "one block, not in a list": "单个内容块，不在列表里",
    "strings inside the list": "列表里的字符串",
    "a tool_result inside the list": "列表里的一个 tool_result",
    "an OpenAI-style input_text part": "OpenAI 风格的 input_text content part",
    "an image_url part": "一个 image_url content part",
    "an OpenAI-style input_image part": "OpenAI 风格的 input_image content part",
    "a block of unknown type with content": "未知类型的内容块（带 content）",
    "a block of unknown type with text": "未知类型的内容块（带 text）",
    "a thinking block (it has no text field)": "一个 thinking 块（它没有 text 字段）",
    "a tool_reference (nothing to read)": "一个 tool_reference（没有可读的文本）",
    "a text block": "一个文本块",
    "an empty text block": "一个空文本块",
    "texts with spaces and newlines around them": "前后带空格和换行的几段文本",
    "a text block with spaces and newlines around it": "前后带空格和换行的文本块",
    "a tool_result whose text ends in a newline": "文本以换行结尾的 tool_result",
    "a call with nested arguments": "参数里嵌套着字典的调用",
    "a call with a list argument": "参数值是列表的调用",
    "text beside a call": "与调用并列的文本",
    "a text with spaces and newlines around it": "前后带空格和换行的文本",
    "a system string ending in a newline": "以换行结尾的系统提示词字符串",
    "a user string with spaces around it": "前后带空格的 user 字符串",
    "string content ending in a newline": "以换行结尾的字符串 content",
    "one text part with spaces around it": "前后带空格的单个文本 content part",
    "a tool_result with no content": "没有 content 的 tool_result",
    "a tool_result with string content": "content 为字符串的 tool_result",
    "a tool_result with two text blocks": "带两个文本块的 tool_result",
    "a tool_result with text and an image": "带文本和一张图片的 tool_result",
    "an error result": "一个出错的结果",
    "an image by URL": "一张以 URL 给出的图片",
    "a PDF document": "一个 PDF 文档",
    "a block of unknown type": "一个未知类型的内容块",
    "a search result": "一个搜索结果",
    "empty content": "空的 content",
    "one call": "一次调用",
    "two calls and no text": "两次调用，没有文本",
    "a call with empty input": "input 为空的调用",
    "thinking, text and a call": "thinking、文本和一次调用",
    "two thinking blocks": "两个 thinking 块",
    "redacted thinking": "redacted_thinking 块",
    "a call with two arguments": "带两个参数的调用",
    "no system prompt": "没有系统提示词",
    "an empty system string": "空的 system 字符串",
    "an empty system list": "空的 system 列表",
    "a system string": "字符串形式的 system",
    "a system list of two blocks": "含两个内容块的 system 列表",
    "a user message with two text blocks": "带两个文本块的 user 消息",
    "a user message with empty content": "content 为空的 user 消息",
    "an empty user string": "空的 user 字符串",
    "an assistant string": "字符串形式的 assistant 消息",
    "an assistant with empty content": "content 为空的 assistant 消息",
    "a result, then text": "先是结果，然后是文本",
    "a call and its result": "一次调用及其结果",
    "two calls, two results": "两次调用，两个结果",
    "text, an image": "文本和一张图片",
    "a system message inside the list": "列表内部的一条 system 消息",
    "no tools (None)": "没有工具（None）",
    "one tool": "一个工具",
    "a tool without a description": "没有 description 的工具",
    "a description of None": "description 为 None",
    "a tool without input_schema": "没有 input_schema 的工具",
    "an input_schema of None": "input_schema 为 None",
    "a server tool": "一个服务端工具",
    "two tools": "两个工具",
    "the README example without tools": "去掉 tools 的 README 示例",
    "the README example with an empty tools list": "tools 为空列表的 README 示例",
    "the README example without a system prompt": "去掉系统提示词的 README 示例",
    "a string system prompt": "字符串形式的系统提示词",
    "text, a reference, text (chapter 08's example)": "文本、引用、文本（第 08 章的例子）",
    "no content": "没有 content",
    "string content": "content 为字符串",
    "an empty content list": "content 为空列表",
    "only a reference": "只有一个引用",
    "two references, then text": "两个引用，然后是文本",
    "one text part": "只有一个文本 content part",
    "two texts": "两段文本",
    "an empty text between a reference and text": "引用和文本之间夹着一段空文本",
    "text, an image, a reference": "文本、一张图片、一个引用",
    "only empty text": "只有空文本",
    "the README example": "README 示例",
    "the README example: {part}": "README 示例的 {part}",
}


# The names chapter 05's exercises read (tutorial/notebook/exercises/ch05.py): the rule in one
# sentence per stage, and the input labels.
for _lang in TEXT:
    TEXT[_lang]["rules"] = SUMMARIES[_lang]
TEXT["en"]["labels"] = {}
TEXT["zh"]["labels"] = LABELS_ZH


# The package's own code, as chapter 05's solution cells show it to a Chinese reader: each comment
# and docstring of the shown functions (build_it.source) in Chinese. A comment block is matched line
# by line (its indentation kept); a docstring as it is written. tests/test_zh_rhythm.py checks that
# no English comment or docstring is left in what a Chinese solution cell prints.
SOURCE_ZH: dict[str, str] = {
    '"""Any content value -> one string, for roles whose template wants plain text.\n\n    None is "", a string is '
    'itself, a single block counts as a one-block list, and a\n    list gives its non-empty parts joined by newlines.'
    '\n\n    `depth` counts the content values being flattened, one inside the other. A body that\n    passed the '
    'contract nests far less than `limits.MAX_DEPTH`; a value given directly\n    could contain itself, so past that '
    'depth it is refused instead of recursing forever.\n    """':
    '"""任意内容值 -> 一个字符串，供模板只接受纯文本的角色使用。\n\n    None 得到 ""，字符串原样返回，单个内容块当作只有一项的列表，'
    '列表则把各项的非空文本用换行连接。\n\n    `depth` 记录当前展平到第几层。\n    通过契约检查的请求体，嵌套深度远小于 `limits.MAX_DEPTH`。'
    '\n    直接传入的值却可能引用自身，所以超过这个深度就拒绝，以免无限递归。\n    """',
    "# A text-only template cannot show pixels; a placeholder keeps the turn's shape.":
    "# 纯文本模板显示不了图片，放一个占位符，这一轮的结构就保持不变。",
    "# taken directly, no flattening": "# 直接取出，不用展平",
    '# ChatML/Qwen-style templates pair results with calls by position, so tool_use_id\n# is not kept '
    '(Mistral-style templates need ids: the "openai" target keeps them).':
    '# ChatML/Qwen 风格的模板按位置把结果和调用配对，所以不保留 tool_use_id。\n'
    '# Mistral 风格的模板需要 id，这种模板由 "openai" 目标格式负责，那里会保留 id。',
    "# Images, documents and block types this module does not know: whatever text they\n# carry, else a "
    "placeholder that names the type (never the raw block with its data).":
    "# 图片、文档和未知类型的内容块，有文本就取文本，否则放一个写明类型的占位符。\n# 绝不把带着数据的原始内容块写进去。",
    '"""Text blocks -> content, thinking -> reasoning_content, tool_use -> tool_calls."""':
    '"""把各个 text 块连接成 content，thinking 块连接成 reasoning_content，tool_use 块变成 tool_calls。"""',
    '"""One historical tool call, in the shape a chat template iterates over.\n\n    The call\'s id is not a '
    'parameter: it is dropped on purpose. Ids are minted fresh for\n    every response, and the rollout adapter '
    'matches a sampled turn against the same\n    turn echoed back in the next request by dict equality, so an id '
    'would break the\n    match. For the same reason the arguments stay a dict, not JSON text: a template\n    '
    'wants a mapping, and dicts compare equal whatever their key order.\n    """':
    '"""对话历史中的一次工具调用，写成聊天模板遍历时需要的结构。\n\n    调用的 id 不是参数，是有意丢弃的。'
    '\n    id 在每次回复时都重新生成，而 rollout 适配器用 == 比较字典，在下一个请求回传的历史轮次里找回采样出的那一轮，带上 id 就对不上了。'
    '\n    出于同样的原因，arguments 保持为字典而不是 JSON 文本：模板要的是映射，而字典不论键的顺序如何，用 == 比较时都相等。\n    """',
    "# the signature is dropped: a local model neither checks nor makes one": "# 签名丢弃，本地模型既不检查签名，也不生成签名",
    "# Any other block (redacted thinking, server-tool blocks) has no place in this shape.":
    "# 其他内容块（redacted thinking、服务端工具的内容块）在这种结构里没有位置。",
    '"""Walk the history in order; each input message gives zero or more chat messages."""':
    '"""按顺序遍历对话历史，每条输入消息产生零条或多条聊天消息。"""',
    '"""The top-level system prompt becomes the first message (absent, "" or [] -> none)."""':
    '"""顶层的系统提示词成为第一条消息（没有、"" 或 [] 时不产生消息）。"""',
    "# a system message still inside the list (preprocess folds them)": "# 夹在 messages 列表里的 system 消息（preprocess 会把这种消息折叠掉）",
    "# A user message gives one chat message per block. The chat template has a `tool`\n# role for results, so a "
    "tool_result cannot share a message with the user's text:\n# [tool_result, text] becomes a tool message followed "
    "by a user message.":
    "# user 消息的每个内容块各产生一条聊天消息。\n"
    "# 聊天模板为结果准备了 `tool` 角色，所以 tool_result 不能和用户的文本共用一条消息。\n"
    "# 于是 [tool_result, text] 变成一条 tool 消息，后面再跟一条 user 消息。",
    '"""Available tools -> function tools. A different kind of data from `tool_calls`:\n    these declare what '
    'the model may call next, not what it called before.\n\n    A toolset (an entry without a name, such as '
    '`mcp_toolset`) names no function, so it is\n    left out (the loss report says so); with nothing left, there are '
    'no tools."""':
    '"""把请求里可用的工具变成 function 工具，这和 `tool_calls` 是两种数据。\n    这里声明的是模型接下来可以调用什么，而不是之前调用过什么。'
    '\n\n    工具集（没有名字的条目，如 `mcp_toolset`）不对应任何函数，所以被略去，并写进丢失报告。\n    一个工具都不剩时，结果就是没有工具。"""',
    "# Server tools (e.g. web_search_20250305) are kept in the same shape; only\n# Anthropic's servers could run "
    "them, which the loss report says. A client tool\n# Anthropic defines (bash_20250124, ...) has no schema in the "
    "request: the model is\n# told the one Anthropic documents for its version (client_tools.py).":
    "# 服务端工具（如 web_search_20250305）保持同样的结构，但只有 Anthropic 的服务器能运行这些工具，丢失报告会写明这一点。\n"
    "# Anthropic 定义的客户端工具（bash_20250124 等）在请求里没有 schema，模型拿到的是 Anthropic 为该工具版本公布的那一份（client_tools.py）。",
    '"""Action 2: `body` -> `(translated, tools_schema)`.\n\n    `tools_schema` is None when the request has no '
    'usable tools. Raises `RequestError`\n    (located, e.g. at `messages[2].content[0].tool_use_id`) before '
    'producing anything.\n    """':
    '"""Action 2 这一步把请求体 `body` 翻译成 `(translated, tools_schema)` 这个元组，交给调用方。\n\n    请求里没有可用的工具时，`tools_schema` 为 None，而不是空列表。'
    '\n    出错时，在产出任何结果之前就抛出 `RequestError`，并指明位置（例如 `messages[2].content[0].tool_use_id`）。\n    """',
    "# structure first, so errors point into the body as sent": "# 先查结构，这样错误指向的是原样发来的请求体",
    "# then what this target cannot carry": "# 再查这种目标格式承载不了的内容",
    '"""One tool_result -> one tool message per run of reference / non-reference parts,\n    all with the same '
    'tool_call_id, in the original order. Empty text parts carry\n    nothing and are skipped first, so the runs on '
    'either side of one join up."""':
    '"""把一个 tool_result 按引用与非引用的 content part 分段，每段变成一条 tool 消息。'
    '\n    各条消息带着相同的 tool_call_id，并保持各个 content part 原来的顺序。'
    '\n    空文本的 content part 不携带任何内容，所以先行跳过，让两侧的段连成一段。"""',
    "# The usual result, one text part, is one plain-string tool message (as below).":
    "# 最常见的结果只有一个文本 content part，成为一条内容为纯字符串的 tool 消息（见下）。",
    "# A lone text part is sent as a plain string, as most clients write it.":
    "# 单独一个文本 content part 以纯字符串发出，大多数客户端都这样写。",
    # chapter 13's source_code(trajectory.drift_kind) and source_code(trajectory.SampleBuilder.append)
    "# Overwriting is only allowed inside the last response, and only when the turn that\n"
    "# asks for it is short: a long response is worth a sample of its own.":
    "# 只允许覆盖上一个回答之内的部分，而且要求这一轮很短，因为长回答值得单独成为一个样本。",
    "# Cut the strip back to where the last response began; the prompt's own tokens\n"
    "# take its place from there, as context: what the model wrote is not trained.":
    "# 把 strip 截回到上一个回答开始的地方，从那里起换成 prompt 自己的 token，只作为上下文，模型写的部分不参与训练。",
}


def chinese_source(source: str) -> str:
    """`source` with every comment and docstring in SOURCE_ZH put in Chinese."""
    for english, chinese in SOURCE_ZH.items():
        if not english.startswith("#"):
            source = source.replace(english, chinese)
            continue
        lines, wanted = source.split("\n"), english.split("\n")
        for i in range(len(lines) - len(wanted) + 1):
            if [line.strip() for line in lines[i : i + len(wanted)]] == wanted:
                indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
                lines[i : i + len(wanted)] = [indent + line for line in chinese.split("\n")]
            elif len(wanted) == 1 and lines[i].rstrip().endswith("  " + english):  # a comment after code
                lines[i] = lines[i].rstrip()[: -len(english)] + chinese
        source = "\n".join(lines)
    return source
