"""What `render` and its helpers write for a person, in Chinese (issue 24: nothing left in English
on a Chinese learner's path).

Under `use_language("zh")` (or `render(..., lang="zh")`) every message of tutorial.watch's
rendering, families, jsondiff, tokenizer and conventions modules is Chinese, with full-width
punctuation; what is not ours is quoted as it is: a template's `raise_exception` text, what
jinja2 or Python say about an error, exception class names, code names. Under English the
messages are those tests/test_render.py and tests/test_real_templates.py pin, unchanged.

The real templates need llama.cpp's sdist in the cache; those tests skip without it (fail
under CI), as tests/test_real_templates.py does.
"""

from __future__ import annotations

import datetime
import json
import os
import re

import pytest

import tutorial
from tutorial.llama_cpp import sdist
from tutorial import words
from tutorial.watch import families, jsondiff
from tutorial.watch.jsondiff import ABSENT, differences, shown
from tutorial.watch.rendering import RenderError, render, template_source

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){2,}")  # three English words in a row
HALF_WIDTH = re.compile(r"[,:;!?()]")  # inside a Chinese message, once numbers and code calls are taken out
SYSTEM_FIRST = (
    '{%- for m in messages %}{%- if m.role == "system" and not loop.first %}'
    '{{ raise_exception("System message must be at the beginning.") }}{%- endif %}'
    "<|{{ m.role }}|>{{ m.content | truncate(40) }}\n{% endfor %}"
)  # chapter 01's template (cell 01-24)
SYSTEM_LAST = [
    {"role": "system", "content": "你是代码助手。"},
    {"role": "user", "content": "你好"},
    {"role": "system", "content": "回答要简短。"},
]


@pytest.fixture
def zh(monkeypatch):
    """The process speaks Chinese for one test; the choice is undone after it."""
    monkeypatch.delenv("TUTORIAL_LANG", raising=False)
    tutorial.use_language("zh")
    try:
        yield
    finally:
        words._chosen = None


@pytest.fixture
def en(monkeypatch):
    monkeypatch.delenv("TUTORIAL_LANG", raising=False)
    words._chosen = None


def assert_chinese(text: str, *quoted: str) -> None:
    """`text` is Chinese: it has Chinese, no English sentence and no half-width punctuation
    outside the `quoted` parts (a template's, jinja2's or Python's own words; code)."""
    plain = text
    for part in quoted:
        assert part in plain, (part, text)
        plain = plain.replace(part, " ")
    assert CJK.search(plain), text
    assert not ENGLISH_SENTENCE.search(plain), (ENGLISH_SENTENCE.search(plain).group(0), text)
    plain = re.sub(r"\d[\d,]*\d|\w+\(\)", " ", plain)  # 33,554,432 and range() are no punctuation
    assert not HALF_WIDTH.search(plain), (HALF_WIDTH.search(plain).group(0), text)


def refused(template, messages=(), **options) -> RenderError:
    with pytest.raises(RenderError) as caught:
        render(list(messages), template=template, **options)
    return caught.value


# ---------------------------------------------------------------------------
# Chapter 01: a template's refusal, in the template's own words inside a Chinese frame


def test_chapter_01s_refusal_is_a_chinese_frame_around_the_templates_words(zh):
    error = refused(SYSTEM_FIRST, SYSTEM_LAST)
    assert str(error) == "聊天模板（直接传入的文本）：模板拒绝渲染（System message must be at the beginning.）"
    assert error.template == "（直接传入的文本）"
    assert error.problem == "模板拒绝渲染（System message must be at the beginning.）"
    assert error.refusal == "System message must be at the beginning."  # data: never translated


def test_the_same_refusal_in_english_is_unchanged(en):
    error = refused(SYSTEM_FIRST, SYSTEM_LAST)
    assert str(error) == "chat template given as text: refused the messages: System message must be at the beginning."
    assert error.problem == "refused the messages: System message must be at the beginning."
    assert error.refusal == "System message must be at the beginning."


def test_the_language_is_the_one_current_when_the_error_is_made(zh):
    made_in_chinese = refused(SYSTEM_FIRST, SYSTEM_LAST)
    words._chosen = None
    assert str(made_in_chinese).startswith("聊天模板（直接传入的文本）：")  # an error keeps its words
    assert str(refused(SYSTEM_FIRST, SYSTEM_LAST)).startswith("chat template given as text: refused the messages: ")


def test_render_takes_a_language_of_its_own(en):
    assert str(refused(SYSTEM_FIRST, SYSTEM_LAST, lang="zh")).startswith("聊天模板（直接传入的文本）：模板拒绝渲染（")
    tutorial.use_language("zh")
    try:
        english = refused(SYSTEM_FIRST, SYSTEM_LAST, lang="en")
    finally:
        words._chosen = None
    assert str(english) == "chat template given as text: refused the messages: System message must be at the beginning."
    with words.using("zh"):
        assert RenderError("'chatml'", "x").args[0] == "聊天模板 'chatml'：x"
    with pytest.raises(ValueError):
        render([], template="chatml", lang="fr")


# ---------------------------------------------------------------------------
# Everything else a render can say


def _cause_text(error: RenderError) -> str:
    return str(error.__cause__).splitlines()[0]


def _as_python_prints_it(error: RenderError) -> str:
    return f"{type(error.__cause__).__name__}: {_cause_text(error)}"


def _jinja_message(error: RenderError) -> str:
    return error.__cause__.message


# (template, what the problem begins with, the part that is jinja2's or Python's own words)
SANDBOX = [
    ("{{ ''.__class__ }}", "访问 'str' 对象的属性 '__class__' 不安全，沙箱因此拦下了这次渲染。聊天模板可以读取消息和工具", None),
    ("{{ messages.append(1) }}", "访问 'list' 对象的属性 'append' 不安全，沙箱因此拦下了这次渲染。", None),
    ("ok\n{% if %}", "第 2 行有语法错误（", _jinja_message),
    ("{{ 1/0 }}", "渲染途中出错，请检查模板在这一步用到的值。ZeroDivisionError: division by zero", _as_python_prints_it),
    ("{{ x.foo.bar }}", "模板读到了一个不存在的值，请检查消息和工具里有没有模板要读的字段。UndefinedError: ", _as_python_prints_it),
    ("{{ x | tojson }}", "模板拒绝渲染（tojson 收到一个未定义的值，缺少 'x'）", None),
    ("{{ 1 | tojson(indent=100) }}", "tojson 的 indent 最大为 64，沙箱因此拦下了这次渲染，请把模板改到这条限制之内", None),
    ("{{ 1 | tojson(separators=('a' * 40, 'b' * 40)) }}", "tojson 的 separators 最多 64 个字符，沙箱因此拦下了这次渲染", None),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "模板递归太深（某个宏或循环在无休止地调用自己）", None),
    ("{{ 'a' * 10**9 }}", "模板构造的字符串最多 33,554,432 个字符，这里要 1,000,000,000 个，沙箱因此拦下了这次渲染", None),
    ("{{ [1] * 10**7 }}", "模板构造的列表最多 1,000,000 项，这里要 10,000,000 项，沙箱因此拦下了这次渲染", None),
    ("{{ 10 ** 10000 }}", "模板构造的整数最多 4300 位，沙箱因此拦下了这次渲染", None),
    ("{{ '{0:{1}}'.format(1, 5) }}", "模板不能计算格式宽度（格式说明里不能有 {...}），沙箱因此拦下了这次渲染", None),
    ("{% for x in range(10**9) %}x{% endfor %}", "沙箱拦下了这次渲染，请把模板里的数字或 range() 改小。OverflowError: ", _as_python_prints_it),  # jinja2's "Range too big"
    ("{% for i in range(1000) %}{% for j in range(101) %}{{ 'a'.upper() }}{% endfor %}{% endfor %}",
     "一次渲染最多调用 100,000 次（函数、方法和宏），沙箱因此拦下了这次渲染", None),
    ("{% for i in range(101) %}{% set r = range(100000) %}{% endfor %}",
     "一次渲染中 range() 最多共给出 10,000,000 项，沙箱因此拦下了这次渲染", None),
    ("{{ namespace(_x=1) }}", "namespace 里的名字不能以 '_' 开头（'_x'），沙箱因此拦下了这次渲染。", None),
    ("{{ strftime_now('x' * 300) }}", "渲染途中出错，请检查模板在这一步用到的值。ValueError: strftime_now 的格式字符串最多 200 个字符",
     lambda error: "ValueError:"),  # the exception's name, as Python prints it; its words are ours
]  # fmt: skip


@pytest.mark.parametrize(("source", "begins", "quoted"), SANDBOX, ids=[f"{n:02}" for n in range(len(SANDBOX))])
def test_every_render_error_is_chinese_quoting_only_what_is_not_ours(zh, source, begins, quoted):
    error = refused(source, [{"role": "user", "content": "hi"}])
    assert error.problem.startswith(begins), error.problem
    assert str(error) == f"聊天模板（直接传入的文本）：{error.problem}"
    assert_chinese(str(error), *([quoted(error)] if quoted else []))


def test_naming_a_template_wrongly_is_answered_in_chinese(zh):
    error = refused("chatm1")
    assert str(error).startswith("聊天模板 'chatm1'：这个名字既不是模型家族，也不是本包自带的模板。模型家族有 deepseek-v3.1、")
    assert "本包自带的简化模板有 chatml、glm_style。" in str(error)
    assert_chinese(str(error), "pathlib.Path", "Jinja")
    error = refused(3)
    assert str(error) == "聊天模板（无）：template 须是模型家族名、本包自带模板名、路径或模板文本，收到的是 int"
    with pytest.raises(RenderError) as caught:
        render("not a list", template="chatml")
    assert str(caught.value) == "聊天模板 'chatml'：messages 须是由消息对象组成的列表，收到的是 str"
    error = refused(SYSTEM_FIRST, tokenize=True)
    assert error.problem.startswith("token id 需要模型的词表，请传入模型家族名（deepseek-v3.1、")
    assert_chinese(str(error))
    with pytest.raises(ValueError) as caught:
        template_source("nope")
    assert str(caught.value) == "本包没有自带名为 'nope' 的聊天模板，自带的只有 chatml、glm_style"


def test_messages_that_are_no_json_are_told_in_chinese_with_one_colon(zh):
    with pytest.raises(RenderError) as caught:
        render([{"role": "user", "content": float("nan")}], template="chatml")
    assert str(caught.value) == "聊天模板 'chatml'：messages[0].content 必须是有限的数，JSON 里没有 NaN 和 Infinity"
    with words.using("en"):
        with pytest.raises(RenderError) as caught:
            render([{"role": "user", "content": float("nan")}], template="chatml")
    assert str(caught.value).startswith("chat template 'chatml': messages[0].content: must be a finite number")


def test_a_file_that_cannot_be_read_is_named_in_chinese(zh, tmp_path):
    error = refused(tmp_path / "missing.jinja")
    assert error.template == f"文件 {str(tmp_path / 'missing.jinja')!r}"
    assert error.problem.startswith("无法读取（[Errno 2]")  # the system's own words follow
    path = tmp_path / "mine.jinja"
    path.write_text("{{ raise_exception('no tools here') }}", "utf-8")
    assert str(refused(path)) == f"聊天模板 文件 {str(path)!r}：模板拒绝渲染（no tools here）"


def test_helpers_that_name_a_family_or_a_vocabulary_answer_in_chinese(zh):
    from tutorial.watch.tokenizer import vocabulary

    with pytest.raises(KeyError) as caught:
        families.family("qwen4")
    assert caught.value.args[0].startswith("没有名为 'qwen4' 的模型家族，可选的有 deepseek-v3.1、glm-4.6、")
    with pytest.raises(KeyError) as caught:
        vocabulary("qwen4")
    assert caught.value.args[0] == "没有名为 'qwen4' 的词表，已有的词表是 qwen2.5、qwen3、qwen3.5、llama-3"


def test_no_vocabulary_follows_the_language():
    kimi = families.family("kimi-k2")
    with words.using("en"):
        assert kimi.no_vocabulary == "the sdist ships no vocabulary for it (a tiktoken vocabulary)"
    with words.using("zh"):
        assert kimi.no_vocabulary == "sdist 没有附带它的词表（tiktoken 词表）"
        assert families.family("qwen3").no_vocabulary == ""
        for name in families.template_families():
            why = families.family(name).no_vocabulary
            if why:
                assert_chinese(why)


# ---------------------------------------------------------------------------
# jsondiff: one ABSENT to test against, shown in the reader's language


def test_absent_is_one_object_and_is_shown_in_chinese(zh):
    found = differences({"role": "assistant"}, {"role": "assistant", "id": "toolu_0"})
    assert found == [(("id",), ABSENT, "toolu_0")] and found[0][1] is ABSENT  # code can test `is ABSENT`
    rows = [{"where": list(where), "a": a, "b": b} for where, a, b in found]
    assert shown(rows) == [{"where": ["id"], "a": "（没有这个键）", "b": "toolu_0"}]
    assert json.dumps(shown(rows), ensure_ascii=False).count("（没有这个键）") == 1
    assert ABSENT.text() == "（没有这个键）" and repr(ABSENT) == "(absent)"


def test_absent_in_english_is_unchanged(en):
    rows = [{"a": ABSENT}]
    assert shown(rows) is rows and ABSENT == "(absent)" and ABSENT.text() == "(absent)"
    assert jsondiff.ABSENT_TEXT["en"] == "(absent)"


# ---------------------------------------------------------------------------
# The real templates (chapter 04b): what a learner reads for each family


@pytest.fixture
def real():
    if not sdist.is_fetched():
        if os.environ.get("CI"):
            pytest.fail("llama.cpp's sdist is not fetched; CI must check the real templates")
        pytest.skip(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}")


def test_tokenize_without_a_vocabulary_says_so_in_chinese(real, zh):
    translated, tools = tutorial.translate(tutorial.readme_request())
    for name in families.template_families():
        chosen = families.family(name)
        if chosen.vocabulary:
            continue
        error = refused(name, translated, tools=tools, tokenize=True)
        assert error.problem == f"无法给出 {name} 的 token id（{chosen.no_vocabulary}），请用 tokenize=False 渲染"
        assert error.template == f"{name!r}（{chosen.template_file}）"
        assert_chinese(str(error))


def test_the_real_templates_refusals_quote_the_templates_words_inside_chinese(real, zh):
    """Chapter 04b's cells n12, n14, n27, n31, n36, n39: each failure of each family on the
    README example and the recorded session; the template's own words are the same as in English."""
    session = tutorial.examples.claude_code_session()
    bodies = [tutorial.readme_request()] + [request["body"] for request in session["requests"]]
    kinds = set()
    for body in bodies:
        for target in ("chat_template", "openai"):
            messages, tools = tutorial.translate(body, target=target)
            for name in families.template_families():
                with tutorial.watch.rendering.frozen_today(datetime.datetime(2026, 1, 1)):
                    try:
                        render(messages, tools, template=name)
                        continue
                    except RenderError as error:
                        chinese = error
                    try:
                        render(messages, tools, template=name, lang="en")
                    except RenderError as error:
                        english = error
                assert chinese.refusal == english.refusal  # the template's words: data
                if chinese.refusal is not None:
                    kinds.add("refused")
                    assert chinese.problem == f"模板拒绝渲染（{chinese.refusal}）"
                    assert english.problem == f"refused the messages: {english.refusal}"
                    assert_chinese(str(chinese), chinese.refusal)
                else:
                    cause = type(chinese.__cause__).__name__
                    kinds.add(cause)
                    begins = "模板读到了一个不存在的值，" if cause == "UndefinedError" else "渲染途中出错，"
                    assert chinese.problem.startswith(begins), chinese.problem
                    assert chinese.problem.endswith(f"。{_as_python_prints_it(chinese)}"), chinese.problem
                    assert chinese.problem.count("：") == 0, chinese.problem  # one colon in all: the frame's
                    assert_chinese(str(chinese), _as_python_prints_it(chinese))
    assert {"refused", "TypeError", "UndefinedError"} <= kinds
