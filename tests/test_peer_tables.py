"""The comparison tables of chapter 9 (`tutorial.peer_tables`): built from the recorded
data, the same every time, and safe to show as HTML."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tutorial.peers import deviations as dv
from tutorial.peers import tables as pt
from tutorial.words import columns as width, using

DATA_DIR = Path(__file__).resolve().parent.parent / "tutorial" / "peers" / "data"
DATA = dv.load_peer_data(DATA_DIR)
REQUEST_ROWS = ["slime", "sglang", "vllm", "litellm", "ours: chat_template", "ours: openai"]
ORDER = "09_text_before_tool_result_ordering"


# The recorded JSON read directly, so the checks do not go through the module under test.
def _results(name: str) -> dict:
    return {case["id"]: case["results"] for case in json.loads((DATA_DIR / name).read_text("utf-8"))["cases"]}


_REQUESTS, _REPLIES = _results("outputs_requests.json"), _results("outputs_replies.json")


def recorded(case_id: str, peer: str) -> dict:
    return _REQUESTS[case_id][peer]


# ---------------------------------------------------------------------------
# Built from the data


@pytest.mark.parametrize("case_id", list(DATA.cases))
def test_a_row_for_every_peer_and_target_with_the_recorded_roles(case_id):
    table = pt.request_table([("roles", case_id, pt.roles())], DATA)
    assert table.keys == tuple(REQUEST_ROWS)
    for peer in pt.PEER_ROWS:
        result = recorded(case_id, peer)
        if result["ok"]:
            assert table.value(peer, "roles") == [m["role"] for m in result["messages"]]
        else:
            assert table.value(peer, "roles") == pt.Refused(f"{result['http_status_if_served']} ({result['stage']})")
    for row, peer in pt.OUR_REQUEST_ROWS.items():
        ours = dv.run_ours(DATA.cases[case_id], peer)
        expected = [m["role"] for m in ours.messages] if ours.ok else pt.Refused("RequestError")
        assert table.value(row, "roles") == expected


@pytest.mark.parametrize("case_id", list(DATA.cases))
@pytest.mark.parametrize("index", [0, 1])
def test_a_message_field_is_the_recorded_value_or_absent(case_id, index):
    table = pt.request_table([("content", case_id, pt.message_field(index, "content"))], DATA)
    for peer in pt.PEER_ROWS:
        result = recorded(case_id, peer)
        if not result["ok"]:
            continue
        messages = result["messages"]
        expected = messages[index].get("content", pt.ABSENT) if index < len(messages) else pt.ABSENT
        assert table.value(peer, "content") == expected, peer


def test_labels_carry_the_recorded_versions():
    table = pt.request_table([("roles", ORDER, pt.roles())], DATA)
    labels = [row.label for row in table.rows]
    assert labels[:4] == ["Slime @624b824a", "SGLang 0.5.23", "vLLM 0.33.0", "LiteLLM 1.110.2"]
    assert pt.citation(DATA) == ", ".join(labels[:4])


def test_text_order_case_separates_the_peers():
    table = pt.request_table([("roles", ORDER, pt.roles())], DATA)
    in_wire_order = ["user", "assistant", "user", "tool", "user"]
    assert table.value("slime", "roles") == table.value("sglang", "roles") == in_wire_order
    assert table.value("vllm", "roles") == table.value("litellm", "roles") == ["user", "assistant", "tool", "user"]
    assert table.cell("vllm", "roles") == "user → assistant → tool → user"


def test_columns_from_several_cases_and_a_refusal():
    columns = [
        ("05", "05_document_pdf", pt.outcome()),
        ("17 error", "17_tool_without_input_schema", pt.error_line(200)),
        ("17 where", "17_tool_without_input_schema", pt.error_where()),
    ]
    table = pt.request_table(columns, DATA)
    assert table.value("sglang", "05") == "400 (validation)"
    assert table.value("ours: openai", "05") == "RequestError"
    assert table.value("slime", "05") == "ok"
    first_line = recorded("17_tool_without_input_schema", "vllm")["error"].splitlines()[0]
    assert table.value("vllm", "17 error") == f"400 · {first_line}"
    assert table.value("vllm", "17 where") == "tools.0.input_schema"
    assert table.value("ours: openai", "17 where") == "tools[0].input_schema"
    assert table.value("slime", "17 where") is pt.NOT_APPLICABLE


def test_settings_come_from_the_peer_record_and_our_loss_report():
    case_id = "18_stop_sequences_sampling"
    table = pt.request_table([("stop", case_id, pt.setting("stop_sequences", "stop"))], DATA)
    assert table.value("slime", "stop") == recorded(case_id, "slime")["sampling_params"]["stop"]
    assert table.value("sglang", "stop") == recorded(case_id, "sglang")["params"]["stop"]
    assert table.value("ours: chat_template", "stop") == pt.InLossReport("stop_sequences")
    choice = pt.request_table([("c", "15_tool_choice_tool_and_disable_parallel", pt.setting("tool_choice"))], DATA)
    assert repr(choice.value("slime", "c")) == "(ignored)"  # Slime lists it in ignored_top_level_keys
    assert choice.value("vllm", "c") == {"function": {"name": "lookup"}, "type": "function"}


def test_key_paths_and_carries():
    case_id = "11_tool_reference_glm"
    table = pt.request_table(
        [("at", case_id, pt.key_paths("defer_loading")), ("ref", case_id, pt.carries("tool_reference"))], DATA
    )
    assert table.value("vllm", "at") == ["tools[1].function.defer_loading"]
    assert table.value("sglang", "at") == ["tools[1].function.defer_loading", "tools[1].defer_loading"]
    assert table.cell("slime", "at") == "nowhere"
    assert table.value("slime", "ref") is False and table.value("sglang", "ref") is True


# ---------------------------------------------------------------------------
# The reply side


@pytest.mark.parametrize("reply_id", list(DATA.replies))
def test_reply_rows_match_the_recorded_bodies_and_streams(reply_id):
    table = pt.reply_table(
        [("blocks", reply_id, pt.block_types()), ("events", reply_id, pt.event_names())], DATA
    )
    assert table.keys == (*pt.PEER_ROWS, pt.OUR_REPLY_ROW)
    results = _REPLIES[reply_id]
    for peer in pt.PEER_ROWS:
        record = results[peer]
        assert table.value(peer, "events") == [event["event"] for event in record["sse"]]
        if record.get("response") is not None:
            assert table.value(peer, "blocks") == [block["type"] for block in record["response"]["content"]]
        else:
            assert isinstance(table.value(peer, "blocks"), pt.Refused)


def test_our_reply_row_is_build_reply_and_sse_events():
    from tutorial import way_back

    output = DATA.replies["r2_thinking_text_tool"]
    blocks, stop_reason, manager = way_back.build_reply(
        pt.parsed_output(output), output["finish_reason"], new_id=way_back.counting_ids()
    )
    ours = pt.our_reply("r2_thinking_text_tool", DATA)
    assert ours["response"]["content"] == blocks and ours["response"]["stop_reason"] == stop_reason
    assert ours["manager_message"] == manager
    assert [e["event"] for e in ours["sse"]][0] == "message_start" and ours["sse"][-1]["event"] == "message_stop"


def test_stream_and_signature_views():
    reply_id = "r2_thinking_text_tool"
    table = pt.reply_table(
        [
            ("stream", reply_id, pt.stream(400)),
            ("body sig", reply_id, pt.thinking_signature(100)),
            ("stream sig", reply_id, pt.streamed_signature(100)),
        ],
        DATA,
    )
    vllm = _REPLIES[reply_id]["vllm"]
    assert table.value("vllm", "body sig") == vllm["response"]["content"][0]["signature"]
    deltas = [event["data"].get("delta", {}) for event in vllm["sse"]]
    streamed = [delta["signature"] for delta in deltas if delta.get("type") == "signature_delta"]
    assert table.value("vllm", "stream sig") == "".join(streamed)
    assert "signature_delta" in table.value("vllm", "stream")
    assert "signature_delta" not in table.value("slime", "stream")
    assert table.value("slime", "body sig") is pt.ABSENT and table.value("litellm", "body sig") is None
    assert table.value("slime", "stream") == (
        "message_start [thinking: thinking_delta] [text: text_delta] [tool_use: input_json_delta] "
        "message_delta message_stop"
    )


def test_without_the_way_back_only_peers_are_shown(monkeypatch):
    from tutorial.peers import outcomes

    monkeypatch.setattr(pt, "_way_back", lambda: None)
    monkeypatch.setattr(outcomes, "_way_back", lambda: None)
    table = pt.reply_table([("blocks", "r1_text_only", pt.block_types())], DATA)
    assert table.keys == pt.PEER_ROWS
    assert any("not available" in note for note in table.notes)
    assert pt.our_reply("r1_text_only", DATA) is None


# ---------------------------------------------------------------------------
# Deterministic, short and escaped


def _every_view_table() -> list[pt.Table]:
    return [
        pt.request_table(
            [
                ("roles", ORDER, pt.roles()),
                ("tail", ORDER, pt.transcript(2)),
                ("m1", ORDER, pt.message(1)),
                ("keys", "06_thinking_signature_tool_use_roundtrip", pt.message_keys(1)),
                ("tools", "13_server_tool_blocks_in_history", pt.tool_names()),
            ],
            DATA,
        ),
        pt.outcome_table(["05_document_pdf", "16_tool_choice_any_server_tool_only"], DATA),
        pt.reply_table(
            [
                ("body", "r5_two_tools_bad_json", pt.reply_outcome()),
                ("inputs", "r5_two_tools_bad_json", pt.tool_inputs()),
                ("streamed", "r5_two_tools_bad_json", pt.streamed_inputs()),
                ("delta", "r4_stop_sequence", pt.stream_event("message_delta", "delta")),
                ("content", "r6_empty", pt.reply_content()),
            ],
            DATA,
        ),
        pt.sources_table(DATA),
    ]


def test_tables_are_deterministic():
    first, second = _every_view_table(), _every_view_table()
    assert [repr(t) for t in first] == [repr(t) for t in second]
    assert [t._repr_html_() for t in first] == [t._repr_html_() for t in second]
    for table in first:
        assert " at 0x" not in repr(table) + table._repr_html_()  # no object addresses


def test_cells_are_one_line_and_shortened_with_an_ellipsis():
    table = pt.request_table([("system", "22_billing_header_system_block", pt.message_field(0, "content", 20))], DATA)
    cell = table.cell("slime", "system")
    assert len(cell) == 20 and cell.endswith("…")
    assert table.value("slime", "system") == recorded(table.title, "slime")["messages"][0]["content"]
    for t in _every_view_table():
        assert all("\n" not in cell for row in t.rows for cell in row.cells)
    assert pt.shorten("abc", 3) == "abc" and pt.shorten("abcd", 3) == "ab…"


@pytest.fixture
def hostile_data(tmp_path):
    """A copy of the recording where one peer's output holds markup and Chinese text."""
    for name in ("cases.json", "outputs_requests.json", "replies.json", "outputs_replies.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    path = tmp_path / "outputs_requests.json"
    requests = json.loads(path.read_text("utf-8"))
    slime = requests["cases"][0]["results"]["slime"]
    slime["messages"][0]["content"] = "<script>alert('x')</script> & 你好"
    path.write_text(json.dumps(requests, ensure_ascii=False), "utf-8")
    return dv.load_peer_data(tmp_path)


def test_html_is_escaped_and_json_keeps_chinese(hostile_data):
    case_id = next(iter(hostile_data.cases))
    column = ("<b>system</b>", case_id, pt.message_field(0, "content", 200))
    table = pt.request_table([column], hostile_data, title="a < b")
    page = table._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "&lt;b&gt;system&lt;/b&gt;" in page and "a &lt; b" in page
    assert "你好" in page and "你好" in repr(table) and "\\u4f60" not in repr(table)


def test_plain_text_columns_line_up_with_wide_characters(hostile_data):
    case_id = next(iter(hostile_data.cases))
    columns = [("system", case_id, pt.message_field(0, "content", 200)), ("n", case_id, pt.roles())]
    table = pt.request_table(columns, hostile_data)
    lines = repr(table).splitlines()[1:8]  # header, rule, six rows
    bars = {width(line[: line.index(" | ", line.index(" | ") + 1)]) for line in lines if line.count(" | ") == 2}
    assert len(bars) == 1  # the second separator is at the same display column on every row


def test_bad_columns_are_refused():
    with pytest.raises(ValueError):
        pt.request_table([], DATA)
    with pytest.raises(ValueError):
        pt.request_table([("a", ORDER, pt.roles()), ("a", ORDER, pt.roles())], DATA)
    table = pt.request_table([("roles", ORDER, pt.roles())], DATA)
    with pytest.raises(KeyError):
        table.cell("nobody", "roles")
    with pytest.raises(KeyError):
        table.cell("slime", "nothing")


# ---------------------------------------------------------------------------
# The words in Chinese (chapter 10's Chinese edition)

CHAPTER_10 = Path(__file__).resolve().parent.parent / "notebooks" / "10_where_stacks_disagree.ipynb"


def test_a_chinese_table_writes_its_words_in_chinese():
    with using("zh"):
        table = pt.request_table([("roles", ORDER, pt.roles()), ("stop", "18_stop_sequences_sampling",
                                                                  pt.setting("stop_sequences", "stop"))], DATA)
    assert table.columns == ("roles", "stop") and table.headers == ("角色序列", "停止字符串")
    assert table.value("ours: openai", "stop") == pt.InLossReport("stop_sequences")  # raw values do not change
    assert table.cell("ours: openai", "stop") == "丢失报告：stop_sequences"
    text, page = repr(table), table._repr_html_()
    assert text.splitlines()[1].startswith("系统 ") and "<th>系统</th>" in page and "<th>角色序列</th>" in page
    assert "“本包：chat_template”一行先做 preprocess，再用目标格式 'chat_template'" in text and "注：" not in text
    assert [row.label for row in table.rows if row.ours] == ["本包：chat_template", "本包：openai"]  # keys stay
    assert table.keys[-2:] == ("ours: chat_template", "ours: openai") and "ours:" not in text
    assert "note:" not in text and "stack" not in page
    with using("en"):
        english = pt.request_table([("roles", ORDER, pt.roles())], DATA)
    assert english.headers == ("roles",) and "note: ours: chat_template" in repr(english)


def test_chinese_words_in_cells():
    with using("zh"):
        reply = pt.reply_table([("body", "r5_two_tools_bad_json", pt.reply_outcome(200)),
                                ("inputs", "r5_two_tools_bad_json", pt.tool_inputs()),
                                ("blocks", "r6_empty", pt.block_types())], DATA)
    assert reply.cell("vllm", "body").startswith("错误 · JSONDecodeError")  # the peer's own error stays as recorded
    assert reply.value("vllm", "body").startswith("error · ")
    assert reply.cell("vllm", "inputs") == "✗ 没有响应体"
    assert reply.cell("litellm", "blocks") == "[]（没有内容块）"
    assert any("对同一个模型输出运行 build_reply 和 sse_events" in note for note in reply.notes)
    assert reply.cell("ours: way back", "body") == "成功" and reply.value("ours: way back", "body") == "ok"
    with using("zh"):
        outcomes = pt.request_table([("outcome", "05_document_pdf", pt.outcome()), ("error", "05_document_pdf", pt.error_line())],
                                    DATA)
    printed = repr(outcomes)
    assert "(validation)" not in printed and "(conversion)" not in printed and " ok" not in printed, printed
    assert "成功" in printed or "阶段）" in printed
    case_id = "11_tool_reference_glm"
    with using("zh"):
        table = pt.request_table([("at", case_id, pt.key_paths("defer_loading")), ("ref", case_id, pt.carries("tool_reference")),
                                  ("none", case_id, pt.transcript(40))], DATA)
    assert (table.cell("slime", "at"), table.cell("slime", "ref"), table.cell("sglang", "ref")) == ("无", "否", "是")
    assert table.cell("slime", "none") == "（无）"
    with using("zh"):
        choice = pt.request_table([("c", "15_tool_choice_tool_and_disable_parallel", pt.setting("tool_choice"))], DATA)
    assert choice.cell("slime", "c") == "（被忽略）" and repr(choice.value("slime", "c")) == "(ignored)"


def test_outcome_and_sources_tables_in_chinese():
    with using("zh"):
        outcomes = pt.outcome_table({"05": "05_document_pdf", "16": "16_tool_choice_any_server_tool_only"}, DATA)
    assert outcomes.title == "每个用例的结果" and outcomes.columns == ("05", "16")
    assert outcomes.value("sglang", "05") == "400 (validation)"
    with using("en"):
        assert pt.outcome_table(["05_document_pdf"], DATA).title == "outcome per case"
    with using("zh"):
        sources = pt.sources_table(DATA)
    assert sources.title == "每张表里的行" and sources.headers[0] == "生成方式"
    assert sources.cell("ours: chat_template", "made by") == "preprocess 之后的目标格式 'chat_template'"
    assert sources.value("ours: chat_template", "made by") == "target 'chat_template' after preprocess"


def test_tables_follow_the_current_language(monkeypatch):
    monkeypatch.setattr("tutorial.words._chosen", "zh")
    assert repr(pt.request_table([("roles", ORDER, pt.roles())], DATA)).splitlines()[1].startswith("系统")
    monkeypatch.setattr("tutorial.words._chosen", "en")
    assert repr(pt.request_table([("roles", ORDER, pt.roles())], DATA)).splitlines()[1].startswith("stack")


def _chapter_10_labels() -> list[str]:
    """Every column label chapter 10's code cells give a table (an f-string filled in as the chapter does)."""
    import re

    code = "\n".join("".join(c["source"]) for c in json.loads(CHAPTER_10.read_text("utf-8"))["cells"] if c["cell_type"] == "code")
    labels = re.findall(r'\(\s*(f?)"([^"]+)",\s*(?:case\["\d+"\]|"r\d[^"]*"),\s*pt\.', code)
    return [label.replace("{signature}", "sig-abc") if f else label for f, label in labels]


def test_every_column_chapter_10_names_has_a_chinese_header():
    import re

    labels = _chapter_10_labels()
    assert len(labels) > 30, labels
    english = []
    for label in labels:
        with using("zh"):
            header = pt.header_in(label)
        plain = re.sub(r"[\w.\-]*[_\d\-][\w.\-]*|\bsig-abc\b|\bJSON\b|\btoken\b", " ", header)
        plain = re.sub(r"\b(system|assistant|user|tool|content)\b", " ", plain)  # roles and keys: names
        if re.search(r"[A-Za-z]{2,}", plain):
            english.append(f"{label!r} -> {header!r}")
    assert not english, f"column labels printed in English under zh (add them to tables.HEADERS_ZH): {english}"
