"""The chat-template stage (Action 3, first half): messages + tools -> prompt text.

What is checked here, on the rendered text itself:
- the README example renders to the golden prompts below, the same for both targets;
- a mixed tool result ([text, tool_reference, text]) through the GLM-style template:
  unsplit it loses the schema, reference-first it loses the text, and the split the
  "openai" target makes keeps both;
- the sandbox: message content is data (printed, never evaluated), and a template that
  reaches for Python internals fails with an error naming the template.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tutorial
from tutorial.watch.rendering import RenderError, render, shipped_templates, template_source, tojson

TARGETS = ("chat_template", "openai")

# ---------------------------------------------------------------------------
# The README example

README_CHATML = """\
<|im_start|>system
你是代码助手。

# Tools

You may call one or more of these functions. Their signatures:
<tools>
{"type": "function", "function": {"name": "read_file", "description": "读取文件", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}
</tools>

To call a function, write <tool_call>{"name": <function name>, "arguments": <JSON object>}</tool_call>.<|im_end|>
<|im_start|>user
读取 README.md 并概括内容。<|im_end|>
<|im_start|>assistant
我先读取文件。
<tool_call>
{"name": "read_file", "arguments": {"path": "README.md"}}
</tool_call><|im_end|>
<|im_start|>tool
<tool_response>
# Demo
这是一个学习项目。
</tool_response><|im_end|>
<|im_start|>user
请用一句话概括。<|im_end|>
<|im_start|>assistant
"""

README_GLM_STYLE = """\
<|system|>
你是代码助手。

# Available tools
{"type": "function", "function": {"name": "read_file", "description": "读取文件", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}<|user|>
读取 README.md 并概括内容。<|assistant|>
我先读取文件。
<tool_call>read_file
{"path": "README.md"}</tool_call><|observation|>
<tool_response>
# Demo
这是一个学习项目。
</tool_response><|user|>
请用一句话概括。<|assistant|>
"""

GOLDEN = {"chatml": README_CHATML, "glm_style": README_GLM_STYLE}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("template", ["chatml", "glm_style"])
def test_readme_example_renders_the_golden_prompt(template, target):
    # Both targets give the same prompt for this request: the ids the "openai" target keeps
    # are not printed, and its JSON-text arguments print like the other target's dict.
    messages, tools = tutorial.translate(tutorial.readme_request(), target=target)
    assert render(messages, tools, template=template) == GOLDEN[template]


@pytest.mark.parametrize("target", TARGETS)
def test_the_arguments_print_the_same_as_a_dict_or_as_json_text(target):
    messages, tools = tutorial.translate(tutorial.readme_request(), target=target)
    arguments = messages[2]["tool_calls"][0]["function"]["arguments"]
    assert isinstance(arguments, dict if target == "chat_template" else str)
    prompt = render(messages, tools)
    assert '<tool_call>\n{"name": "read_file", "arguments": {"path": "README.md"}}\n</tool_call>' in prompt
    assert '"arguments": "' not in prompt  # JSON text is not quoted a second time


@pytest.mark.parametrize("template", ["chatml", "glm_style"])
def test_chinese_stays_readable(template):
    messages, tools = tutorial.translate(tutorial.readme_request())
    prompt = render(messages, tools, template=template)
    texts = ("你是代码助手。", "读取 README.md 并概括内容。", "我先读取文件。", "这是一个学习项目。", "请用一句话概括。")
    for text in texts:
        assert text in prompt
    assert '"description": "读取文件"' in prompt  # through tojson, too
    assert "\\u" not in prompt


def test_generation_prompt_is_the_opening_of_an_assistant_turn():
    messages, tools = tutorial.translate(tutorial.readme_request())
    with_prompt = render(messages, tools)
    without = render(messages, tools, add_generation_prompt=False)
    assert with_prompt == without + "<|im_start|>assistant\n"
    assert render(messages, tools, template="glm_style", add_generation_prompt=False) + "<|assistant|>\n" == (
        render(messages, tools, template="glm_style")
    )


def test_without_tools_there_is_no_tools_section():
    messages, _ = tutorial.translate(tutorial.readme_request())
    prompt = render(messages)
    assert prompt.startswith("<|im_start|>system\n你是代码助手。<|im_end|>\n")
    assert "<tools>" not in prompt
    assert "# Available tools" not in render(messages, template="glm_style")


def test_tools_without_a_system_message_get_a_system_turn_of_their_own():
    messages, tools = tutorial.translate(tutorial.readme_request())
    prompt = render(messages[1:], tools)
    assert prompt.startswith("<|im_start|>system\n# Tools\n")
    assert prompt.count("<|im_start|>system") == 1


def test_render_changes_nothing_it_is_given():
    messages, tools = tutorial.translate(tutorial.readme_request(), target="openai")
    before = copy.deepcopy((messages, tools))
    for template in shipped_templates():
        render(messages, tools, template=template)
    assert (messages, tools) == before


# ---------------------------------------------------------------------------
# Other shapes of content


def test_reasoning_goes_in_a_think_block():
    body = {
        "messages": [
            {"role": "user", "content": "2+2?"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "简单的加法。", "signature": "sig"},
                {"type": "text", "text": "4"},
            ]},
        ]
    }  # fmt: skip
    for target in TARGETS:
        messages, tools = tutorial.translate(body, target=target)
        prompt = render(messages, tools, add_generation_prompt=False)
        assert "<|im_start|>assistant\n<think>\n简单的加法。\n</think>\n\n4<|im_end|>\n" in prompt
        assert "<think>简单的加法。</think>\n4" in render(messages, tools, template="glm_style")


def test_list_content_renders_part_by_part_with_an_image_placeholder():
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "这是什么？"}, image]}]}
    messages, _ = tutorial.translate(body, target="openai")
    assert isinstance(messages[0]["content"], list)  # the openai target keeps the parts
    for template in shipped_templates():
        prompt = render(messages, template=template)
        assert "这是什么？\n<image>" in prompt
        assert "iVBORw0KGgo" not in prompt  # the pixels are not pasted into the text


def test_several_assistant_text_parts_render_in_order():
    texts = [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]
    body = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": texts}]}
    messages, _ = tutorial.translate(body, target="openai")
    assert messages[1]["content"] == [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]
    assert "<|im_start|>assistant\none\ntwo<|im_end|>" in render(messages)


def test_an_unknown_role_is_refused_through_raise_exception():
    with pytest.raises(RenderError) as caught:
        render([{"role": "narrator", "content": "Once upon a time"}])
    assert str(caught.value).startswith("chat template 'chatml': refused the messages: ")
    assert 'unknown role "narrator" in message 0' in str(caught.value)
    assert caught.value.template == "'chatml'"


# ---------------------------------------------------------------------------
# The mixed tool result: [text, tool_reference, text]

GREP_CODE = {
    "name": "grep_code",
    "description": "在代码里按正则搜索",
    "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]},
}
BEFORE, AFTER = "找到一个合适的工具：", "用一个正则表达式调用它。"


def mixed_request() -> dict:
    """A tool search whose result names a tool by reference, between two pieces of text."""
    return {
        "system": "你是代码助手。",
        "messages": [
            {"role": "user", "content": "帮我在代码里找 TODO。"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_search", "name": "tool_search", "input": {"query": "grep"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_search", "content": [
                    {"type": "text", "text": BEFORE},
                    {"type": "tool_reference", "tool_name": "grep_code"},
                    {"type": "text", "text": AFTER},
                ]},
            ]},
        ],
        "tools": [
            {"name": "tool_search", "description": "搜索可用的工具",
             "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}},
            GREP_CODE,
        ],
        "max_tokens": 256,
    }  # fmt: skip


def schema_json(tools: list[dict]) -> str:
    """How the GLM-style template prints the referenced tool's schema when it expands it."""
    (grep,) = [tool["function"] for tool in tools if tool["function"]["name"] == "grep_code"]
    return json.dumps(grep, ensure_ascii=False)


def observation(prompt: str) -> str:
    """The tool-result turn of a GLM-style prompt (the system turn lists every tool anyway)."""
    assert prompt.count("<|observation|>") == 1
    return prompt.split("<|observation|>")[1].split("<|assistant|>")[0]


@pytest.fixture
def split():
    """What the openai target sends: three tool messages, one per run, one tool_call_id."""
    return tutorial.translate(mixed_request(), target="openai")


def test_the_openai_target_splits_the_result_into_runs(split):
    messages, _ = split
    assert messages[-3:] == [
        {"role": "tool", "tool_call_id": "toolu_search", "content": BEFORE},
        {"role": "tool", "tool_call_id": "toolu_search", "content": [{"type": "tool_reference", "name": "grep_code"}]},
        {"role": "tool", "tool_call_id": "toolu_search", "content": AFTER},
    ]


def unsplit(messages: list[dict], *, reference_first: bool = False) -> list[dict]:
    """The three tool messages merged back into one, built by hand: [text, reference, text]
    (or, with reference_first, the reference moved to the front)."""
    parts = [
        {"type": "text", "text": BEFORE},
        {"type": "tool_reference", "name": "grep_code"},
        {"type": "text", "text": AFTER},
    ]
    if reference_first:
        parts = [parts[1], parts[0], parts[2]]
    return messages[:-3] + [{"role": "tool", "tool_call_id": "toolu_search", "content": parts}]


def test_glm_style_unsplit_loses_the_schema(split):
    messages, tools = split
    turn = observation(render(unsplit(messages), tools, template="glm_style"))
    assert turn == f"\n<tool_response>\n{BEFORE}\n{AFTER}\n</tool_response>"
    assert schema_json(tools) not in turn and "grep_code" not in turn


def test_glm_style_reference_first_loses_the_text(split):
    messages, tools = split
    turn = observation(render(unsplit(messages, reference_first=True), tools, template="glm_style"))
    assert turn == f"\n<tool_schema>\n{schema_json(tools)}\n</tool_schema>"
    assert BEFORE not in turn and AFTER not in turn


def test_glm_style_split_renders_the_schema_and_all_the_text(split):
    messages, tools = split
    turn = observation(render(messages, tools, template="glm_style"))
    assert turn == (
        f"\n<tool_response>\n{BEFORE}\n</tool_response>"
        f"\n<tool_schema>\n{schema_json(tools)}\n</tool_schema>"
        f"\n<tool_response>\n{AFTER}\n</tool_response>"
    )  # in the original order: text, schema, text


def test_chatml_expands_a_reference_anywhere_so_the_split_only_adds_wrappers(split):
    # A template without GLM's first-part assumption shows everything either way.
    messages, tools = split
    schema = f"<tool_reference>{schema_json(tools)}</tool_reference>"
    together = render(unsplit(messages), tools)
    apart = render(messages, tools)
    assert f"<tool_response>\n{BEFORE}\n{schema}\n{AFTER}\n</tool_response>" in together
    responses = (f"<tool_response>\n{text}\n</tool_response>" for text in (BEFORE, schema, AFTER))
    assert "\n".join(responses) in apart
    assert apart.count("<|im_start|>tool\n") == 1  # the three tool messages share one turn


def test_the_default_target_flattens_the_reference_away_before_any_template():
    messages, tools = tutorial.translate(mixed_request())
    assert messages[-1] == {"role": "tool", "content": f"{BEFORE}\n{AFTER}"}
    assert schema_json(tools) not in observation(render(messages, tools, template="glm_style"))
    losses = tutorial.trace(mixed_request()).losses
    assert "messages[2].content[0].content[1]" in [loss.path for loss in losses]  # and says so


def test_an_unknown_reference_is_not_invented():
    messages = [{"role": "tool", "content": [{"type": "tool_reference", "name": "nope"}]}]
    assert observation(render(messages, [], template="glm_style")) == ""
    assert '"name": "nope", "error": "not among the available tools"' in render(messages, [])


# ---------------------------------------------------------------------------
# The sandbox

MALICIOUS = ["{{ ''.__class__.__mro__ }}", "{% for x in range(10**9) %}x{% endfor %}", "{{ 7 * 7 }}", "{# c #}{{"]


def readme_with(texts: list[str]) -> dict:
    """The README request with the given strings in seven places: system, user text,
    assistant text, tool-call arguments, tool result, user text after it, tool description."""
    body = tutorial.readme_request()
    body["system"][0]["text"] = texts[0]
    body["messages"][0]["content"][0]["text"] = texts[1]
    body["messages"][1]["content"][0]["text"] = texts[2]
    body["messages"][1]["content"][1]["input"] = {"path": texts[0]}
    body["messages"][2]["content"][0]["content"][0]["text"] = texts[1]
    body["messages"][2]["content"][1]["text"] = texts[3]
    body["tools"][0]["description"] = texts[2]
    return body


@pytest.mark.parametrize("template", ["chatml", "glm_style"])
@pytest.mark.parametrize("target", TARGETS)
def test_template_syntax_inside_messages_is_printed_never_evaluated(template, target):
    started = time.perf_counter()
    prompt = render(*tutorial.translate(readme_with(MALICIOUS), target=target), template=template)
    assert time.perf_counter() - started < 1  # no loop of a billion turns ran

    # Exactly the prompt that harmless placeholders give, with the strings pasted in
    # afterwards: nothing in them was evaluated (no 49, no <class ...>, no xxx...).
    placeholders = [f"@{i}@" for i in range(len(MALICIOUS))]
    expected = render(*tutorial.translate(readme_with(placeholders), target=target), template=template)
    for placeholder, text in zip(placeholders, MALICIOUS):
        expected = expected.replace(placeholder, text)
    assert prompt == expected
    assert prompt.count(MALICIOUS[1]) == 2  # user text and tool result, both verbatim
    assert '{"path": "{{ \'\'.__class__.__mro__ }}"}' in prompt  # inside the tool call's JSON too
    assert "49" not in prompt and "<class" not in prompt


@settings(max_examples=60, deadline=None)
@given(st.text())
def test_any_user_text_is_printed_verbatim(text):
    prompt = render([{"role": "user", "content": text}], add_generation_prompt=False)
    assert prompt == f"<|im_start|>user\n{text}<|im_end|>\n"


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__.__mro__ }}",
        "{{ ''.__class__ }}",  # fails at once, not as a silently empty value
        "{{ messages.__class__.__init__.__globals__ }}",
        "{{ raise_exception.__globals__ }}",
    ],
)
def test_a_template_reaching_for_python_internals_fails_clearly(source):
    with pytest.raises(RenderError) as caught:
        render([{"role": "user", "content": "hi"}], template=source)
    message = str(caught.value)
    assert message.startswith("chat template given as text: the sandbox stopped it: access to attribute")
    assert "is unsafe" in message and "not Python internals" in message
    assert type(caught.value.__cause__).__name__ == "SecurityError"


def test_a_template_cannot_change_the_callers_messages():
    messages = [{"role": "user", "content": "hi"}]
    for source in ("{{ messages.append({'role': 'user', 'content': 'injected'}) }}",
                   "{{ messages[0].update({'content': 'changed'}) }}"):  # fmt: skip
        with pytest.raises(RenderError, match="the sandbox stopped it"):
            render(messages, template=source)
    assert messages == [{"role": "user", "content": "hi"}]


def test_a_huge_range_in_a_template_is_stopped():
    started = time.perf_counter()
    with pytest.raises(RenderError, match="the sandbox stopped it: Range too big"):
        render([], template="{% for x in range(10**9) %}x{% endfor %}")
    assert time.perf_counter() - started < 1


def test_a_syntax_error_names_the_template_and_the_line():
    with pytest.raises(RenderError, match=r"^chat template given as text: syntax error on line 2: "):
        render([], template="ok\n{% if %}")


def test_a_file_template_is_named_by_its_path(tmp_path: Path):
    path = tmp_path / "mine.jinja"
    path.write_text("{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}", "utf-8")
    messages, _ = tutorial.translate(tutorial.readme_request())
    lines = render(messages, template=path).splitlines()
    assert lines[:2] == ["[system] 你是代码助手。", "[user] 读取 README.md 并概括内容。"]
    path.write_text("{{ raise_exception('no tools here') }}", "utf-8")
    with pytest.raises(RenderError, match=r"^chat template file '.*mine\.jinja': refused the messages: no tools here$"):
        render(messages, template=path)


def test_an_unknown_template_name_lists_the_shipped_ones():
    with pytest.raises(ValueError, match="unknown chat template 'chatm1': families are .*qwen3.*simplified templates are chatml, glm_style"):
        render([], template="chatm1")


# ---------------------------------------------------------------------------
# The environment's conventions and the package's promises


def test_tojson_keeps_chinese_and_markup_and_takes_hfs_keywords():
    value = {"b": "读取 <file> & 'x'", "a": [1]}
    assert tojson(value) == '{"b": "读取 <file> & \'x\'", "a": [1]}'  # no \u escapes, no HTML escaping
    assert tojson(value, sort_keys=True, indent=2) == '{\n  "a": [\n    1\n  ],\n  "b": "读取 <file> & \'x\'"\n}'
    assert tojson(value, ensure_ascii=True).startswith('{"b": "\\u8bfb')
    source = "{{ tools[0] | tojson(sort_keys=true, separators=(',', ':')) }}"
    rendered = render([], [{"b": "读取", "a": 1}], template=source)
    assert rendered == '{"a":1,"b":"读取"}'


def test_trim_and_lstrip_blocks_are_on():
    source = "{% for m in messages %}\n    {% if m.role %}\n{{ m.role }}\n    {% endif %}\n{% endfor %}\n"
    assert render([{"role": "user"}, {"role": "tool"}], template=source) == "user\ntool\n"


def test_the_shipped_templates_are_package_data():
    assert shipped_templates() == ["chatml", "glm_style"]
    assert "NOT a copy of any real template" in template_source("glm_style")
    assert template_source("chatml").startswith("{#-")


def test_importing_tutorial_loads_neither_jinja2_nor_the_render_module():
    code = "import sys, tutorial; print(sorted(m for m in sys.modules if m.startswith(('jinja2', 'tutorial.watch.rendering'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_glm_style_lists_a_deferred_tool_only_through_its_reference():
    from tutorial import translate

    body = {
        "tools": [
            {"name": "ToolSearch", "input_schema": {"type": "object", "properties": {}}},
            {"name": "run_tests", "description": "跑测试", "defer_loading": True, "input_schema": {"type": "object", "properties": {}}},
        ],
        "messages": [
            {"role": "user", "content": "找一个测试工具"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "ToolSearch", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s", "content": [
                {"type": "text", "text": "找到："}, {"type": "tool_reference", "tool_name": "run_tests"}, {"type": "text", "text": "可以用了。"}]}]},
        ],
    }
    messages, tools = translate(body, target="openai")
    system_turn = render(messages, tools, template="glm_style").split("<|user|>")[0]
    assert "ToolSearch" in system_turn and "run_tests" not in system_turn
    assert render(messages, tools, template="glm_style").count('"name": "run_tests"') == 1  # from the split reference only


# ---------------------------------------------------------------------------
# Template variables and special tokens (the real templates: tests/test_real_templates.py)

ENDS_WITH_EOS = "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content + eos_token }}{% endfor %}{{ today }}"


def test_keywords_reach_a_template_given_as_text():
    messages = [{"role": "user", "content": "hi"}]
    assert render(messages, template=ENDS_WITH_EOS, bos_token="<s>", eos_token="</s>", today="01 Jan 2026") == (
        "<s>[user]hi</s>01 Jan 2026"
    )


def test_a_template_given_as_text_gets_no_special_token_the_caller_did_not_pass():
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]
    with pytest.raises(RenderError) as caught:
        render(messages, template=ENDS_WITH_EOS, bos_token="<s>")
    assert caught.value.problem.startswith("messages[0] (system): the template uses eos_token on line 1,")
    assert 'render(..., eos_token="...")' in caught.value.problem
    # printed without being used, an undefined token is "" (as in transformers)
    assert render(messages, template="{{ bos_token }}{{ messages[1].content }}") == "hi"


def test_an_undefined_name_that_is_no_special_token_keeps_jinjas_words():
    with pytest.raises(RenderError, match=r"UndefinedError: 'greeting' is undefined"):
        render([{"role": "user", "content": "hi"}], template="{{ greeting + messages[0].content }}")


def test_keywords_are_checked_as_json_and_change_nothing_given():
    messages = [{"role": "user", "content": "hi"}]
    documents = [{"title": "README", "text": "# Demo"}]
    kept = copy.deepcopy(documents)
    assert render(messages, template="{{ documents[0].title }}", documents=documents) == "README"
    assert documents == kept
    with pytest.raises(RenderError, match=r"template variables must be plain JSON; flag: "):
        render(messages, template="{{ flag }}", flag={1, 2})
