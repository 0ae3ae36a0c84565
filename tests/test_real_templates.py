"""Real chat templates (llama.cpp's sdist) through `render`, checked against transformers itself.

- the README example, for both targets, through every family: the stored prompt (or the
  template's own refusal) in tests/data/real_templates/, produced once by transformers'
  `apply_chat_template` with the real template (`python tests/test_real_templates.py
  --regenerate`), and cross-checked here with a plain jinja2 environment;
- `render` == `apply_chat_template`, live, for the README example and the recorded agent
  session; token ids == transformers' ids, and they decode back to the prompt;
- each failure the chapter teaches is raised by the real template, in its own words;
- the two claims the review found overstated, shown per version;
- a missing cache is one line naming the set-up command, never a traceback.

Without the fetched sdist (or without the `real` extra) the tests skip saying why; under CI
(env CI set) they fail instead, as the browser test does without Chromium.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # transformers must never reach a hub from here

import tutorial
from tutorial.llama_cpp import sdist
from tutorial.watch import families
from tutorial.watch.rendering import RenderError, frozen_today, render

DATA = Path(__file__).parent / "data" / "real_templates"
DATE = datetime.datetime(2026, 1, 1)  # what strftime_now reports for the stored prompts
TARGETS = ("chat_template", "openai")
FAMILIES = tutorial.template_families()
VOCABULARY_FAMILIES = [name for name in FAMILIES if families.family(name).vocabulary]
ROOT = Path(__file__).resolve().parent.parent


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI must check the real templates")
    pytest.skip(what)


@pytest.fixture(scope="module", autouse=True)
def real_parts():
    if not sdist.is_fetched():
        _missing(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}")
    try:
        import tokenizers  # noqa: F401
    except ImportError as error:
        _missing(f"the real extra is not installed ({error.name}): pip install -e '.[real]'")


@pytest.fixture
def reference():
    """transformers (and gguf), the reference. The real extra leaves them out on Python 3.15,
    where no numpy release that also serves 3.11 has wheels (pyproject.toml says why)."""
    try:
        import gguf  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as error:
        if sys.version_info >= (3, 15):
            pytest.skip(f"{error.name} is not part of the real extra on Python 3.15 (numpy has no wheels for it here)")
        _missing(f"the real extra is not installed ({error.name}): pip install -e '.[real]'")


def readme_case(target: str):
    return tutorial.translate(tutorial.readme_request(), target=target)


def stored_name(name: str, target: str) -> Path:
    return DATA / f"readme.{target}.{name}.txt"


def refusal(message: str) -> str:
    return "REFUSED: " + message


# ---------------------------------------------------------------------------
# transformers, the reference


class _FixedClock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return DATE


def transformers_render(name: str, messages, tools, tokenize: bool = False, monkeypatch=None, **template_vars):
    """What transformers' own apply_chat_template gives with the family's real template
    (`template_vars` passed as its **kwargs: they overwrite the special tokens)."""
    from transformers.utils import chat_template_utils
    from transformers.utils.chat_template_utils import render_jinja_template

    chosen = families.family(name)
    if monkeypatch is not None:
        monkeypatch.setattr(chat_template_utils, "datetime", _FixedClock)
    if chosen.vocabulary:
        from tutorial.watch.tokenizer import fast_tokenizer

        tokenizer = fast_tokenizer(chosen.vocabulary)
        kwargs = {"return_dict": False} if tokenize else {}
        return tokenizer.apply_chat_template(
            messages, tools=tools, chat_template=chosen.template_text, add_generation_prompt=True,
            tokenize=tokenize, **{**chosen.special_tokens, **template_vars}, **kwargs,
        )  # fmt: skip
    assert not tokenize
    rendered, _ = render_jinja_template(
        [messages], tools=tools, chat_template=chosen.template_text, add_generation_prompt=True,
        **{**chosen.special_tokens, **template_vars},
    )  # fmt: skip
    return rendered[0]


def outcome(function, *args, **kwargs) -> str:
    """The prompt, or REFUSED: and the template's message."""
    try:
        return function(*args, **kwargs)
    except RenderError as error:
        return refusal(error.refusal if error.refusal is not None else error.problem)  # the template's own words
    except Exception as error:  # noqa: BLE001 - transformers' own error, whatever its type
        return refusal(str(error))


# ---------------------------------------------------------------------------
# The README example through every family


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", FAMILIES)
def test_readme_example_renders_as_stored(name, target):
    messages, tools = readme_case(target)
    with frozen_today(DATE):
        got = outcome(render, messages, tools, template=name)
    expected = stored_name(name, target).read_text("utf-8")
    if expected.startswith("REFUSED: "):
        assert got.startswith("REFUSED: ")
        assert expected.removeprefix("REFUSED: ") in got  # ours may add the error's kind (TypeError while ...)
    else:
        assert got == expected


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", FAMILIES)
def test_stored_prompts_match_a_plain_jinja2_render(name, target):
    """The cross-check: the same template through jinja2 alone, configured as the HF docs say."""
    import jinja2
    import jinja2.ext

    def raise_exception(message):
        raise jinja2.TemplateError(message)

    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = lambda value, ensure_ascii=False, indent=None, separators=None, sort_keys=False: json.dumps(
        value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )
    env.globals.update(raise_exception=raise_exception, strftime_now=lambda fmt: DATE.strftime(fmt))
    chosen = families.family(name)
    messages, tools = readme_case(target)
    messages = [{key: value for key, value in message.items() if value is not None} for message in messages]
    template = env.from_string(chosen.template_text)
    got = outcome(template.render, messages=messages, tools=tools, add_generation_prompt=True, **chosen.special_tokens)
    expected = stored_name(name, target).read_text("utf-8")
    if expected.startswith("REFUSED: "):
        assert got.startswith("REFUSED: ")
    else:
        assert got == expected


def test_which_families_render_the_readme_example():
    """What the issue states, checked: all but Mistral-Small-3.2 render it (chat_template target)."""
    refused = {name for name in FAMILIES if stored_name(name, "chat_template").read_text("utf-8").startswith("REFUSED")}
    assert refused == {"mistral-small-3.2"}
    assert stored_name("mistral-small-3.2", "chat_template").read_text("utf-8") == refusal(
        "After the optional system message, conversation roles must alternate user/assistant/user/assistant/..."
    )


# ---------------------------------------------------------------------------
# render == apply_chat_template, live


def agent_cases():
    session = tutorial.examples.claude_code_session()
    return [tutorial.translate(request["body"], target=target) for request in session["requests"] for target in TARGETS]


@pytest.mark.parametrize("name", FAMILIES)
def test_render_is_apply_chat_template(name, monkeypatch, reference):
    cases = [readme_case(target) for target in TARGETS] + agent_cases()
    for messages, tools in cases:
        with frozen_today(DATE):
            ours = outcome(render, messages, tools, template=name)
        theirs = outcome(transformers_render, name, messages, tools, monkeypatch=monkeypatch)
        if theirs.startswith("REFUSED: "):
            assert ours.startswith("REFUSED: ") and theirs.removeprefix("REFUSED: ") in ours
        else:
            assert ours == theirs


@pytest.mark.parametrize("name", VOCABULARY_FAMILIES)
def test_token_ids_are_transformers_ids_and_decode_back(name, monkeypatch, reference):
    from tutorial.watch.tokenizer import backend_tokenizer

    messages, tools = readme_case("chat_template")
    with frozen_today(DATE):
        text = render(messages, tools, template=name)
        ids = render(messages, tools, template=name, tokenize=True)
    assert isinstance(ids, list) and all(type(i) is int for i in ids)
    assert ids == transformers_render(name, messages, tools, tokenize=True, monkeypatch=monkeypatch)
    assert backend_tokenizer(families.family(name).vocabulary).decode(ids, skip_special_tokens=False) == text


def test_qwen3_tokens_for_its_markers_are_single_ids():
    from tutorial.watch.tokenizer import qwen3_vocabulary

    vocabulary = qwen3_vocabulary()
    wanted = {151644: "<|im_start|>", 151657: "<tool_call>", 151658: "</tool_call>", 151665: "<tool_response>",
              151666: "</tool_response>", 151667: "<think>", 151668: "</think>"}  # fmt: skip
    assert {i: vocabulary.tokens[i] for i in wanted} == wanted
    assert len(vocabulary.tokens) == 151936 and len(vocabulary.merges) == 151387
    ids = render([{"role": "user", "content": "hi"}], template="qwen3", tokenize=True)
    assert ids == [151644, 872, 198, 6023, 151645, 198, 151644, 77091, 198]
    prompt = render(*readme_case("chat_template"), template="qwen3", tokenize=True)
    for token_id in (151657, 151658, 151665, 151666):
        assert token_id in prompt


def test_tokenize_says_plainly_where_there_is_no_vocabulary():
    messages, tools = readme_case("chat_template")
    with pytest.raises(RenderError, match=r"no token ids for kimi-k2: the sdist ships no vocabulary for it"):
        render(messages, tools, template="kimi-k2", tokenize=True)
    with pytest.raises(RenderError, match=r"token ids need a model's vocabulary: pass a family name"):
        render(messages, tools, template="chatml", tokenize=True)


def test_our_gguf_reader_agrees_with_the_gguf_package(reference):
    """The small reader in tokenizer.py against gguf's GGUFReader, on the smallest BPE vocabulary."""
    from gguf import GGUFReader

    from tutorial.watch.tokenizer import read_metadata

    path = sdist.vocab_file("deepseek-coder")
    ours = read_metadata(path)
    theirs = GGUFReader(path).fields
    for key in ("tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type", "tokenizer.ggml.model",
                "tokenizer.ggml.bos_token_id"):  # fmt: skip
        assert ours[key] == theirs[key].contents(), key


# ---------------------------------------------------------------------------
# Template variables and special tokens, as apply_chat_template passes them

NEMO = "mistralai-Mistral-Nemo-Instruct-2407.jinja"  # in the sdist, named by no family


def plain_transformers_render(source: str, messages, tools=None, add_generation_prompt=True, **template_vars):
    """transformers' renderer given a template's text and the caller's keywords, and nothing else:
    what apply_chat_template renders after merging its tokenizer's special tokens into them."""
    from transformers.utils.chat_template_utils import render_jinja_template

    rendered, _ = render_jinja_template(
        [messages], tools=tools, chat_template=source, add_generation_prompt=add_generation_prompt, **template_vars
    )
    return rendered[0]


NEMO_CASES = [
    [{"role": "user", "content": "Hello!"}],
    [{"role": "system", "content": "你是代码助手。"}, {"role": "user", "content": "Hello!"}],
    [{"role": "user", "content": "Hello!"}, {"role": "assistant", "content": "Hi."}, {"role": "user", "content": "再见"}],
    [{"role": "user", "content": "Hello!"}, {"role": "assistant", "content": "Hi."}],
]


@pytest.mark.parametrize("messages", NEMO_CASES)
def test_an_unnamed_template_gets_the_special_tokens_the_caller_passes(messages, reference):
    """Mistral-Nemo by path and as text, with the tokens its tokenizer_config.json sets: transformers' bytes."""
    path = sdist.templates_dir() / NEMO
    tokens = {"bos_token": "<s>", "eos_token": "</s>"}
    theirs = plain_transformers_render(path.read_text("utf-8"), messages, **tokens)
    assert theirs.startswith("<s>[INST]")
    assert render(messages, template=path, **tokens) == theirs
    assert render(messages, template=path.read_text("utf-8"), **tokens) == theirs
    if all(message["role"] != "assistant" for message in messages):  # no turn ends with eos_token: bos_token is enough
        assert render(messages, template=path, bos_token="<s>") == plain_transformers_render(
            path.read_text("utf-8"), messages, bos_token="<s>"
        )


def test_readme_example_through_an_unnamed_template_matches_transformers(reference):
    path = sdist.templates_dir() / NEMO
    messages, tools = readme_case("openai")
    first_four = [dict(message) for message in messages[:4]]  # Nemo wants roles to alternate, ids of length 9
    first_four[2]["tool_calls"] = [{**first_four[2]["tool_calls"][0], "id": "a1b2c3d4e"}]
    first_four[3]["tool_call_id"] = "a1b2c3d4e"
    tokens = {"bos_token": "<s>", "eos_token": "</s>"}
    ours = render(first_four, tools, template=path, **tokens)
    assert ours == plain_transformers_render(path.read_text("utf-8"), first_four, tools, **tokens)
    assert "]</s>[TOOL_RESULTS]" in ours


def test_an_assistant_turn_without_eos_token_is_a_located_render_error():
    """transformers says only "'eos_token' is undefined"; render names the message, the line and the keyword."""
    path = sdist.templates_dir() / NEMO
    messages = NEMO_CASES[3]
    for template in (path, path.read_text("utf-8")):
        with pytest.raises(RenderError) as caught:
            render(messages, template=template, bos_token="<s>")
        problem = caught.value.problem
        assert problem.startswith("messages[1] (assistant): the template uses eos_token on line ")
        assert 'render(..., eos_token="...")' in problem and "is undefined" not in problem
    with pytest.raises(RenderError, match=r"：渲染 messages\[1\]（assistant）时，模板用到了 eos_token（第 \d+ 行）"):
        render(messages, template=path, lang="zh")


@pytest.mark.parametrize("name", ["llama-3.3"])
def test_date_string_changes_llamas_date_line_as_transformers_does(name, monkeypatch, reference):
    messages, tools = readme_case("chat_template")
    default = render(messages, tools, template=name)
    dated = render(messages, tools, template=name, date_string="01 Jan 2026")
    assert "Today Date: 26 Jul 2024\n" in default and "Today Date: 01 Jan 2026\n" in dated
    assert dated == default.replace("Today Date: 26 Jul 2024", "Today Date: 01 Jan 2026")
    assert dated == transformers_render(name, messages, tools, monkeypatch=monkeypatch, date_string="01 Jan 2026")
    ids = render(messages, tools, template=name, tokenize=True, date_string="01 Jan 2026")
    assert ids == transformers_render(name, messages, tools, tokenize=True, monkeypatch=monkeypatch, date_string="01 Jan 2026")


def test_llama_31_and_32_take_date_string_too(reference):
    messages, tools = readme_case("chat_template")
    for file in ("meta-llama-Llama-3.1-8B-Instruct.jinja", "meta-llama-Llama-3.2-3B-Instruct.jinja"):
        source = (sdist.templates_dir() / file).read_text("utf-8")
        ours = render(messages, tools, template=source, bos_token="<|begin_of_text|>", date_string="01 Jan 2026")
        theirs = plain_transformers_render(source, messages, tools, bos_token="<|begin_of_text|>", date_string="01 Jan 2026")
        assert ours == theirs and "Today Date: 01 Jan 2026\n" in ours


@pytest.mark.parametrize(
    "name, variables",
    [("qwen3", {"enable_thinking": False}), ("qwen3.5", {"enable_thinking": False}),
     ("deepseek-v3.1", {"thinking": True}), ("llama-3.3", {"tools_in_user_message": False}),
     ("mistral-small-3.2", {"bos_token": "<BOS>"}), ("gpt-oss", {"reasoning_effort": "high"})],
)  # fmt: skip
def test_template_variables_reach_the_template_as_in_transformers(name, variables, monkeypatch, reference):
    messages, tools = readme_case("chat_template")
    if name == "mistral-small-3.2":
        messages = [messages[0], messages[1]]  # its alternation rule refuses the whole example
    with frozen_today(DATE):
        ours = render(messages, tools, template=name, **variables)
        plain = render(messages, tools, template=name)
    assert ours != plain, "the variable changes nothing: a weak case"
    assert ours == transformers_render(name, messages, tools, monkeypatch=monkeypatch, **variables)


def test_a_template_variable_must_be_plain_json():
    with pytest.raises(RenderError, match=r"template variables must be plain JSON; date_string: "):
        render([{"role": "user", "content": "hi"}], template="llama-3.3", date_string=datetime.date(2026, 1, 1))


# ---------------------------------------------------------------------------
# The failures the chapter teaches, raised by the real templates themselves


def with_system_mid_list():
    messages, tools = readme_case("chat_template")
    return messages[:4] + [{"role": "system", "content": "回答要简短。"}] + messages[4:], tools


def test_a_mid_list_system_message_is_refused_by_qwen35_only():
    messages, tools = with_system_mid_list()
    with pytest.raises(RenderError, match=r"'qwen3.5' .*refused the messages: System message must be at the beginning\.$"):
        render(messages, tools, template="qwen3.5")
    for name in ("qwen2.5", "qwen3"):
        assert "<|im_start|>system\n回答要简短。<|im_end|>" in render(messages, tools, template=name)


def test_arguments_as_text():
    """The "openai" target's arguments are JSON text: who refuses it, who prints it, who encodes it twice."""
    messages, tools = readme_case("openai")
    assert messages[2]["tool_calls"][0]["function"]["arguments"] == '{"path": "README.md"}'
    with pytest.raises(RenderError, match=r"'qwen3-coder' .*TypeError while rendering: Can only get item pairs from a mapping"):
        render(messages, tools, template="qwen3-coder")
    with pytest.raises(RenderError, match=r"'glm-4.6' .*refused the messages: Invalid tool call arguments passed"):
        render(messages, tools, template="glm-4.6")
    as_mapping = render(*readme_case("chat_template"), template="qwen3")
    assert render(messages, tools, template="qwen3") == as_mapping  # Qwen3's string branch prints the text as it is
    assert '"arguments": "{\\"path\\": \\"README.md\\"}"' in render(messages, tools, template="qwen2.5")  # twice


def test_mistral_refuses_a_tool_message_followed_by_a_user_message_and_wants_nine_character_ids():
    messages, tools = readme_case("openai")
    with pytest.raises(RenderError, match=r"roles must alternate user/assistant/user/assistant/\.\.\.$"):
        render(messages, tools, template="mistral-small-3.2")
    first_four = messages[:4]  # system, user, assistant with its call, tool: alternation holds
    with pytest.raises(RenderError, match=r"Tool call IDs should be alphanumeric strings with length 9!$"):
        render(first_four, tools, template="mistral-small-3.2")
    first_four[2]["tool_calls"][0]["id"] = first_four[3]["tool_call_id"] = "a1b2c3d4e"
    with frozen_today(DATE):
        assert "[TOOL_RESULTS]a1b2c3d4e[TOOL_CONTENT]" in render(first_four, tools, template="mistral-small-3.2")


def test_kimi_prints_the_tool_call_id_it_is_given_even_an_absent_one():
    """Its `\\n` sits outside a string literal, so the prompt holds a backslash and an n, as in the model's repository."""
    messages, tools = readme_case("chat_template")
    assert "## Return of \\n# Demo" in render(messages, tools, template="kimi-k2")
    messages, tools = readme_case("openai")
    assert "## Return of toolu_demo\\n# Demo" in render(messages, tools, template="kimi-k2")


def test_seed_002_mixed_tool_result_with_the_real_glm_template():
    """GLM-4.6's template has no tool_reference branch (the one seed 002 fixes is GLM-5.1's):
    a list content prints each part as it is; the split the "openai" target makes gives the
    text parts their own <tool_response> as plain text."""
    from tutorial.notebook.exercises.ch08 import SEARCH

    unsplit, tools = tutorial.translate(SEARCH)
    split, _ = tutorial.translate(SEARCH, target="openai")
    with pytest.raises(RenderError, match=r"Invalid tool call arguments passed: \{\"query\": \"测试\"\}$"):
        render(split, tools, template="glm-4.6")  # the "openai" target's arguments are text
    split[2]["tool_calls"][0]["function"]["arguments"] = json.loads(split[2]["tool_calls"][0]["function"]["arguments"])
    whole = render(unsplit, tools, template="glm-4.6")
    runs = render(split, tools, template="glm-4.6")
    assert "<tool_response>\n找到一个匹配的工具：\n</tool_response>" in runs
    assert "'type': 'tool_reference'" in runs
    assert "找到一个匹配的工具：" in whole


ODD_MESSAGES = [
    [],
    [{"role": "user", "content": None}],
    [{"role": 5, "content": "hi"}],
    [{"content": [1, {"type": "image"}, None]}],
    [{"role": "assistant", "tool_calls": "not a list"}],
    [{"role": "assistant", "tool_calls": [{"function": {"name": None, "arguments": [1, 2]}}]}],
    [{"role": "tool", "content": {"nested": {"deep": True}}}],
    [{"role": "user", "content": "{{ 7 * 7 }} {% raise %} <|im_end|>"}],
]


@pytest.mark.parametrize("name", FAMILIES)
def test_odd_messages_give_text_or_a_render_error_never_another_exception(name):
    for messages in ODD_MESSAGES:
        try:
            text = render(messages, [{"odd": "tool"}], template=name)
        except RenderError as error:
            assert error.problem and "\n" not in str(error)
        else:
            assert isinstance(text, str) and "49" not in text  # content is data, never template


# ---------------------------------------------------------------------------
# Without the cache, and the import cost


def test_missing_cache_is_one_line_naming_setup(tmp_path):
    code = (
        "import tutorial\n"
        "from tutorial.watch.rendering import render, RenderError\n"
        "try:\n    render([{'role': 'user', 'content': 'hi'}], template='qwen3')\n"
        "except RenderError as error:\n    print(error)\n"
    )
    env = {**os.environ, "TUTORIAL_CACHE": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert result.stderr == ""
    assert result.stdout.strip().splitlines() == [
        f"chat template 'qwen3': the real templates are not fetched yet; run: {sdist.FETCH_HINT}"
    ]


def test_import_tutorial_loads_neither_transformers_nor_tokenizers():
    code = "import sys, tutorial; tutorial.template_families(); print(sorted(m for m in ('transformers', 'tokenizers', 'gguf', 'jinja2') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.stdout.strip() == "[]"


# ---------------------------------------------------------------------------
# Producing the stored prompts (once, with transformers)


def regenerate() -> None:
    DATA.mkdir(parents=True, exist_ok=True)

    class Patch:
        def setattr(self, owner, name, value):
            setattr(owner, name, value)

    for name in FAMILIES:
        for target in TARGETS:
            messages, tools = readme_case(target)
            text = outcome(transformers_render, name, messages, tools, monkeypatch=Patch())
            stored_name(name, target).write_text(text, "utf-8")
            print(f"{name:18} {target:14} {text[:60]!r}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        print("usage: python tests/test_real_templates.py --regenerate   (writes tests/data/real_templates/)")


def test_the_families_picture_shows_each_familys_own_outcome():
    """Chapter 04b's picture: every family's template file, its token count where a vocabulary
    ships, its prompt length where none does, and Mistral's own refusal."""
    from tutorial.pictures.families import families_picture

    translated, tools_schema = tutorial.translate(tutorial.readme_request())
    dot = families_picture(translated, tools_schema)
    for name in tutorial.template_families():
        assert name in dot and families.family(name).template_file in dot, name
    with frozen_today(datetime.datetime(2026, 1, 1)):
        qwen3_ids = render(translated, tools_schema, template="qwen3", tokenize=True)
        kimi_text = render(translated, tools_schema, template="kimi-k2")
    assert f"{len(qwen3_ids)} token ids" in dot
    assert f"{len(kimi_text)} characters" in dot and "(no vocabulary in the sdist)" in dot
    assert "refused:" in dot and "After the optional system" in dot
    assert dot.count("token ids") == sum(1 for n in tutorial.template_families() if families.family(n).vocabulary)
