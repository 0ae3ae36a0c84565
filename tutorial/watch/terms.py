"""The Chinese edition's term table: one word for each idea, everywhere a Chinese reader looks.

Each `Term` names the English idea, the Chinese chosen for it, the variants a reader must
not meet (regular expressions, matched against prose with code spans removed) and, for the
choices people could argue about, why. `tests/test_zh_terms.py` scans the Chinese chapters,
their stored outputs and answers, README.zh.md, the glossary, the run-sheet, the printable
cheat sheet and every Chinese string in the package, and fails on any avoided variant.
`notebooks/zh/glossary.md` shows the same choices to the reader; a test keeps them equal.

English stays English where Chinese engineers keep it: JSON, token, SSE, schema, prompt,
rollout, harness, `tool_use` and every code name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator


@dataclass(frozen=True)
class Term:
    english: str
    chinese: str
    avoid: tuple[str, ...] = ()  # regular expressions
    why: str = ""  # for a choice that could be argued


TERMS: tuple[Term, ...] = (
    Term("translate / translation", "翻译", ("转换",),
         "The walk-through calls Action 2 a translation; 转换 was used for the same step in 62 places. "
         "One word lets a reader match chapter, exercise and playground."),
    Term("shape (of a message or a list)", "形状", ("形态",)),
    Term("case (a recorded request in chapter 10)", "用例", ("案例",),
         "用例 is what test engineers call a test case; 案例 reads as a business case study."),
    Term("walk-through (the source document)", "讲解文档", ("源码走读",)),
    Term("dict", "字典", (r"(?<![\w`.])dict(?![\w`(])",),
         "In prose a Python dict is 字典; `dict` stays as code inside backticks."),
    Term("tokenizer", "分词器", (r"(?<![\w`.])tokenizer(?![\w`])",),
         "分词器 is the word in Chinese NLP writing; `tokenizer` stays as a code name."),
    Term("playground (chapter 07's widget)", "交互练习场", (r"(?<![（(\w`./-])playground(?![\w`/.）)'-])",),
         "In prose the widget is 交互练习场; `playground` stays as a code or file name."),
    Term("part (an item of an OpenAI content list)", "部分", ("片段",)),
    Term("real stacks / peers (Slime, SGLang, vLLM, LiteLLM)", "真实系统", ("同类实现",),
         "They are not alike each other or this package; what they share is that they run in production."),
    Term("system prompt", "系统提示词", (r"(?<!系统)提示词", r"(?i)(?<![\w`])system prompt", r"系统 ?prompt"),
         "Chinese engineers say 系统提示词 for the system prompt and keep 'prompt' for the text a "
         "template renders (prompt token, prompt 长度); two words for two things."),
    Term("prompt (the text a chat template renders)", "prompt"),
    Term("commit (a git commit)", "commit", (r"提交\s*[`（(]?[0-9a-f]{7,}",),
         "A git commit is written commit in Chinese engineering text; 提交 stays the verb (提交到仓库)."),
    Term("provider (an API vendor)", "服务商", ("提供方",)),
    Term("error envelope", "错误响应体", ("错误信封", "错误包"),
         "信封 is a calque; the thing is the JSON body of an error response."),
    Term("silently", "静默", ("悄悄", "悄无声息", "不声不响", "一声不响", "一声不吭", "无声", "默默")),
    Term("tool message (a message with role tool)", "tool 消息", ("工具消息",),
         "Messages are named by their role as it is written in JSON (user 消息, assistant 消息, tool 消息); "
         "工具消息 would read as a message about tools."),
    Term("user / system / assistant message or turn", "user 消息 / system 消息 / assistant 轮次",
         ("用户消息", "用户轮次", "系统消息", "助手消息", "助手轮次"),
         "The same rule as tool 消息: a message is named by its role; 用户 and 助手 stay for people "
         "acting (用户提问，助手回答)."),
    Term("stays behind (is not carried into the output)", "未带入输出 / 未带入的内容", ("留下", "留在后面"),
         "留下 first reads as 'kept', the opposite of what is meant."),
    Term("wire (the form on HTTP)", "传输格式", ("线上",),
         "线上 reads as 'in production' to Chinese engineers."),
    Term("made up (an id the adapter generates)", "生成", ("编造",), "编造 means 'fabricate', a lie."),
    Term("bookkeeping fields", "元数据", ("簿记",)),
    Term("safety stance", "安全考虑", ("安全立场",)),
    Term("fail loudly", "直接报错", ("大声",)),
    Term("commit to a guess", "先想好自己的答案", ("认定一个猜测", "认定")),
)


def avoided() -> Iterator[tuple[Term, re.Pattern]]:
    for term in TERMS:
        for pattern in term.avoid:
            yield term, re.compile(pattern)


_CODE = re.compile(r"```.*?```|`[^`\n]*`|https?://\S+|\]\([^)]*\)", re.S)


def prose(text: str) -> str:
    """`text` with code spans, fenced code, link targets and URLs blanked out."""
    return _CODE.sub(" ", text)


def find_avoided(text: str) -> list[str]:
    """Each avoided variant in `text`'s prose, as 'variant → chosen (context)'."""
    plain = prose(text)
    found = []
    for term, pattern in avoided():
        for match in pattern.finditer(plain):
            start, end = max(0, match.start() - 12), match.end() + 12
            context = plain[start:end].replace("\n", " ")
            found.append(f"{match.group(0)!r} → {term.chinese} (…{context}…)")
    return found
