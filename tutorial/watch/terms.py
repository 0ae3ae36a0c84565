"""The Chinese edition's term table: one word for each idea, everywhere a Chinese reader looks.

Each `Term` names the English idea, the Chinese chosen for it, the variants a reader must
not meet (regular expressions, matched against prose with code spans removed), for the
choices people could argue about, why, and for a term coined here, how its first use in the
edition reads (`first_use`: the chosen word with its English in parentheses, so a reader
who knows the English word finds it). `tests/test_zh_terms.py` scans the Chinese chapters,
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
    first_use: str = ""  # how the term reads where the edition first uses it, e.g. "返回路径（way back）"
    introduced_in: str = ""  # the chapter that introduces it ("08"): its first use outside 00's contents is there


TERMS: tuple[Term, ...] = (
    Term("translate / translation", "翻译", ("转换",),
         "The walk-through calls Action 2 a translation; 转换 was used for the same step in 62 places. "
         "One word lets a reader match chapter, exercise and playground."),
    Term("shape (of a message or a list)", "结构", ("形态", "形状"),
         "形状 is a calque of 'shape' (issue 32 counted 82). How a message or list is built is its 结构; "
         "the form a target or a wire gives it is a 格式 (OpenAI 格式, 目标格式), so 目标格式的形状 is just 目标格式."),
    Term("format (the form a target or a wire gives a message)", "格式"),
    Term("case (a recorded request in chapter 10)", "用例", ("案例",),
         "用例 is what test engineers call a test case; 案例 reads as a business case study."),
    Term("walk-through (the source document)", "讲解文档", ("源码走读",)),
    Term("dict", "字典", (r"(?<![\w`.])dict(?![\w`(])",),
         "In prose a Python dict is 字典; `dict` stays as code inside backticks."),
    Term("tokenizer", "分词器", (r"(?<![\w`.])tokenizer(?![\w`])",),
         "分词器 is the word in Chinese NLP writing; `tokenizer` stays as a code name."),
    Term("playground (chapter 07's widget)", "交互练习场", (r"(?<![（(\w`./-])playground(?![\w`/.）)'-])",),
         "In prose the widget is 交互练习场; `playground` stays as a code or file name."),
    Term("part (an item of an OpenAI content list)", "content part",
         ("片段", "部分列表", "第一个部分", "相邻部分"),
         "部分列表 reads as 'partly a list'; Chinese engineers keep the API's own word, content part "
         "(content part 列表, text 类型的 content part)."),
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
         ("用户消息", "用户轮次", "系统消息", "助手消息", "助手轮次", r"(?<![A-Za-z])[Ss]ystem 轮次", r"(?<![A-Za-z])user 轮次"),
         "The same rule as tool 消息: a message is named by its role and counted with 条 (一条 user 消息); "
         "用户 and 助手 stay for people acting (用户提问，助手回答). System 轮次 and user 轮次 read as "
         "translated English: a system prompt or a user's words are a 消息. 轮次 is kept for a turn of "
         "the conversation (一轮) and for the model's turn, assistant 轮次."),
    Term("stays behind (is not carried into the output)", "未进入输出 / 未进入的内容", ("留下", "留在后面", "未带入"),
         "留下 first reads as 'kept', the opposite of what is meant; 未带入 (issue 32 counted 49) reads as "
         "'not brought along', a calque of 'carried'. 未进入输出 says where the value did not go."),
    Term("the playground's losses tab", "丢失项", (),
         "The tab lists the loss report's entries (丢失报告), so its name is the report's word."),
    Term("echo (the reply, sent back as history in the next request)", "回传的历史轮次", ("回显",),
         "回显 is what a shell does with typed characters (issue 32 counted 78). What comes back is the "
         "reply itself, as a turn of the history the client sends again.",
         first_use="回传的历史轮次（echo）"),
    Term("manager message (build_reply's record of the turn)", "本轮记录", (r"(?<!（)(?<!\| )manager message",),
         "An English phrase left in Chinese prose (issue 32 counted 10); `manager_message` stays as a code name.",
         first_use="本轮记录（manager message）", introduced_in="08"),
    Term("the way back (from model output to the client)", "返回路径", ("回程",),
         "回程 is a journey home; the chapters mean the path an answer takes back to the client.",
         first_use="返回路径（way back）", introduced_in="09"),
    Term("capture (a request the server recorded)", "捕获记录", ("一份捕获",),
         "一份捕获 counts a verb; what the server keeps is a record (捕获记录, 每条捕获记录). 捕获 stays the verb.",
         first_use="捕获（capture）", introduced_in="01"),
    Term("return (translate hands back its two results)", "返回", ("交回",),
         "交回 reads as handing in homework; translate simply returns a tuple to its caller."),
    Term("hand-set weights (chapter 11's tiny model)", "手工设定权重", ("接线", "接好线"),
         "接线 is electrical wiring; the model's weights are set by hand so that text written in advance follows."),
    Term("preset (a request the playground's menu loads)", "预设", (),
         "预设 names only the playground's ready-made requests, so the word has one meaning."),
    Term("widget (Jupyter's interactive element)", "widget", ("控件",),
         "The playground, the doctor and Jupyter's own messages say widget; 控件 was used once beside 8 widget."),
    Term("kernel (Jupyter's)", "内核", (),
         "JupyterLab's Chinese interface says 内核. (README.zh.md's hub section still writes kernel: not ours to edit.)"),
    Term("chat layer (the engine's step before the template)", "对话处理层", ("聊天层",),
         "The chapters used 对话处理层 and 聊天层 for the same layer; one word."),
    Term("deviation (a documented, deliberate difference from a real stack)", "偏差", ("有意差异", "有意保留的各处差异"),
         "The glossary chose 偏差; 08 and 12 said 有意差异."),
    Term("silent check (a cell that prints nothing when the claim holds)", "断言", ("静默检查",),
         "Engineers call a check that is quiet when it holds an assertion (断言)."),
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
