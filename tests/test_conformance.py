"""Conformance against recorded peer outputs (tutorial/peers/data, see its README).

For every recorded request case and every compared peer — Slime @ 624b824a for the
"chat_template" target, SGLang 0.5.23 for the "openai" target — the differences computed
from the data must be exactly the ones `tutorial.deviations.DEVIATIONS` documents:
a new difference fails the test, and so does an entry that no longer differs.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tutorial.peers import deviations as dv
from tutorial.watch.jsondiff import ABSENT, differences
from tutorial.words import using

DATA_DIR = Path(__file__).resolve().parent.parent / "tutorial" / "peers" / "data"
DATA = dv.load_peer_data(DATA_DIR)
CASE_IDS = list(DATA.cases)


# ---------------------------------------------------------------------------
# The recorded data itself


def test_recorded_files_are_consistent():
    assert len(CASE_IDS) == 22
    assert list(DATA.results) == CASE_IDS
    for case_id in CASE_IDS:
        for peer in ("slime", "sglang", "vllm", "litellm"):
            assert "ok" in DATA.results[case_id][peer], (case_id, peer)
    assert len(DATA.replies) == 6 and set(DATA.reply_results) == set(DATA.replies)


def test_recorded_versions_are_the_cited_ones():
    assert DATA.versions["slime"]["source"].startswith("THUDM/slime@624b824a")
    assert DATA.versions["sglang"]["version"] == "0.5.23"
    assert DATA.versions["vllm"]["version"] == "0.33.0"
    assert DATA.versions["litellm"]["version"] == "1.110.2"
    readme = (DATA_DIR / "README.md").read_text(encoding="utf-8")
    for cited in ("624b824a", "0.5.23", "0.33.0", "1.110.2"):
        assert cited in readme


# ---------------------------------------------------------------------------
# The conformance check proper


@pytest.mark.parametrize("peer", sorted(dv.PEERS))
@pytest.mark.parametrize("case_id", CASE_IDS)
def test_every_difference_is_documented_and_every_entry_still_differs(case_id, peer):
    result = dv.check(case_id, peer, DATA)
    problems = [f"undocumented difference: {d}" for d in result.unexplained]
    problems += [
        f"stale table entry ({entry.kind}{', provisional' if entry.provisional else ''}): "
        f"{path} no longer differs — delete it from DEVIATIONS"
        for entry, path in result.stale
    ]
    assert not problems, "\n".join(problems)


def test_both_sides_refusing_counts_as_agreement():
    # Cases the peer refused where we raise RequestError too produce no difference.
    refused = [c for c in CASE_IDS if not DATA.results[c]["sglang"]["ok"]]
    assert refused, "the recording has requests SGLang refuses"
    for case_id in refused:
        ours = dv.run_ours(DATA.cases[case_id], "sglang")
        if case_id in {e.case_id for e in dv.DEVIATIONS if "outcome" in e.paths}:
            assert ours.ok
        else:
            assert not ours.ok, case_id
            assert dv.compare(case_id, "sglang", DATA) == []


def test_slime_fold_flag_agrees_with_preprocess():
    for case_id in CASE_IDS:
        recorded = DATA.results[case_id]["slime"]["folded_mid_list_system"]
        assert dv.run_ours(DATA.cases[case_id], "slime").folded is recorded, case_id


# ---------------------------------------------------------------------------
# The table's own shape


def test_table_entries_are_well_formed():
    seen = Counter()
    for entry in dv.DEVIATIONS:
        assert entry.case_id in DATA.cases, entry
        assert entry.peer in dv.PEERS, entry
        assert entry.paths, entry
        assert entry.what.strip() and entry.why.strip(), entry
        assert isinstance(entry.provisional, bool)
        for path in entry.paths:
            seen[(entry.case_id, entry.peer, path)] += 1
    assert [key for key, n in seen.items() if n > 1] == []


def test_markdown_table_has_one_row_per_entry():
    with using("en"):
        lines = dv.markdown_table().splitlines()
    assert len(lines) == 2 + len(dv.DEVIATIONS)
    assert sum("provisional" in line for line in lines[2:]) == sum(e.provisional for e in dv.DEVIATIONS)


def test_every_rule_reads_in_both_languages():
    """Chapter 10's Chinese edition shows the deviation table and the table of rules in
    Chinese: every kind has its what and why in Chinese and one sentence in each language."""
    kinds = {entry.kind for entry in dv.DEVIATIONS}
    assert kinds == set(dv.RULES) == set(dv._KINDS_ZH)
    for entry in dv.DEVIATIONS:
        with using("en"):
            assert entry.what_in() == entry.what and entry.why_in() == entry.why
        with using("zh"):
            for text in (entry.what_in(), entry.why_in(), dv.RULES[entry.kind][1]):
                assert re.search(r"[\u4e00-\u9fff]", text), (entry.kind, text)
    assert list(dv.by_rule()) == list(dict.fromkeys(e.kind for e in dv.DEVIATIONS))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tables_in_each_language(lang):
    with using(lang):
        entries, rules = dv.markdown_table().splitlines(), dv.rules_table().splitlines()
        assert len(entries) == 2 + len(dv.DEVIATIONS) and len(rules) == 2 + len(dv.RULES)
        header = {"en": "| case | peer | what differs | why | status |", "zh": "| 用例 | 真实系统 | 差异 | 原因 | 状态 |"}[lang]
        assert entries[0] == header
        for line, entry in zip(entries[2:], dv.DEVIATIONS):
            assert entry.what_in() in line and entry.why_in() in line
        for kind, (english, chinese) in dv.RULES.items():
            assert any(line.startswith(f"| {kind} |") and (chinese if lang == "zh" else english) in line for line in rules[2:])
    if lang == "zh":  # no English sentence left outside names and quoted data
        with using("zh"):
            chinese_table = dv.markdown_table()
        prose = re.sub(r"`[^`]*`|\"[^\"]*\"|'[^']*'|\{[^}]*\}|[\w.-]*[_\-.][\w.-]*", " ", chinese_table)
        assert not re.search(r"\b[a-z]+ [a-z]+ [a-z]+\b", prose), re.search(r"\b[a-z]+ [a-z]+ [a-z]+\b", prose)


def test_the_tables_follow_the_current_language(monkeypatch):
    with using("zh"):
        chinese = (dv.markdown_table(), dv.rules_table())
    with using("en"):
        english = dv.markdown_table()
    monkeypatch.setattr("tutorial.words._chosen", "zh")
    assert (dv.markdown_table(), dv.rules_table()) == chinese
    monkeypatch.setattr("tutorial.words._chosen", "en")
    assert dv.markdown_table() == english


# ---------------------------------------------------------------------------
# The comparison machinery


def test_compare_is_pure():
    before = copy.deepcopy((DATA.cases, DATA.results))
    dv.differences(DATA)
    assert (DATA.cases, DATA.results) == before


def test_compare_sees_types_and_missing_keys():
    diffs = list(differences({"a": 1, "b": ""}, {"a": 1.0, "c": None}, ("x",)))
    assert diffs == [(("x", "a"), 1, 1.0), (("x", "b"), "", ABSENT), (("x", "c"), ABSENT, None)]
    assert list(differences([1, 2], [1], ("m",))) == [(("m",), [1, 2], [1])]
    assert list(differences({"k": [True]}, {"k": [True]}, ())) == []
    assert list(differences([True], [1], ())) == [((0,), True, 1)]


def test_unknown_peer_and_case_are_refused():
    with pytest.raises(ValueError, match="vllm"):
        dv.compare(CASE_IDS[0], "vllm", DATA)
    with pytest.raises(KeyError):
        dv.compare("no_such_case", "slime", DATA)


def test_data_directory_is_an_argument(tmp_path):
    assert dv.load_peer_data(str(DATA_DIR)).cases == DATA.cases
    assert dv.default_data_dir() in (None, DATA_DIR)
    with pytest.raises(FileNotFoundError, match="cases.json"):
        dv.load_peer_data(tmp_path)


def test_a_copied_data_directory_gives_the_same_differences(tmp_path):
    for name in ("cases.json", "outputs_requests.json", "replies.json", "outputs_replies.json"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    elsewhere = dv.load_peer_data(tmp_path)
    assert [str(d) for d in dv.differences(elsewhere)] == [str(d) for d in dv.differences(DATA)]


def test_a_changed_recording_is_caught(tmp_path):
    # Pretend Slime started writing the image placeholder too: that entry becomes stale.
    for name in ("cases.json", "replies.json", "outputs_replies.json"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    recorded = json.loads((DATA_DIR / "outputs_requests.json").read_text(encoding="utf-8"))
    case = next(c for c in recorded["cases"] if c["id"] == "04_image_base64_and_url")
    case["results"]["slime"]["messages"][1]["content"] = "[image omitted]"
    case["results"]["slime"]["messages"][0]["content"] = "changed"
    (tmp_path / "outputs_requests.json").write_text(json.dumps(recorded), encoding="utf-8")
    result = dv.check("04_image_base64_and_url", "slime", dv.load_peer_data(tmp_path))
    assert [d.path for d in result.unexplained] == ["messages[0].content"]
    assert [path for _, path in result.stale] == ["messages[1].content"]
