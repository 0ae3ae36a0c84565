"""The labels the chapters' code cells print have their Chinese (tutorial/notebook/catalogue.py).

A chapter's code is the same in both editions, so a label printed in English under
`use_language("zh")` can only come from a label missing in the catalogue, or from a bare
`print("some words:", x)`. These tests read the English chapters' code cells (ast) and fail on
either. Run `python tests/test_catalogue.py` to list what is missing.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tutorial.notebook import catalogue  # noqa: E402
from tutorial.notebook.catalogue import KEPT, LABELS, labelled, said, say  # noqa: E402
from tutorial.words import using  # noqa: E402

# Every chapter (10 and 12 print their tables through their own modules; their checks' descriptions are here).
CHAPTERS = ("00", "01", "02", "03", "04", "04b", "05", "06", "07", "08", "09", "10", "11", "12")

# Display helpers and the arguments that are labels: (positions, keywords).
LABEL_ARGUMENTS = {
    "show_json": ((1,), ("title",)),
    "side_by_side": ((2, 3), ("left_title", "right_title")),
    "expect": ((2,), ("what",)),  # tutorial.notebook.check, imported as expect
    "said": ((0,), ()),
    "say": ((0,), ()),
}
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")


def chapter_paths(chapters=CHAPTERS) -> list[Path]:
    paths = []
    for chapter in chapters:
        [path] = [p for p in (ROOT / "notebooks").glob(f"{chapter}_*.ipynb")]
        paths.append(path)
    return paths


def code_cells(path: Path):
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            yield cell.get("id"), "".join(cell["source"])


def data_keys() -> set[str]:
    """Every key of the JSON the package ships (example bodies, SDK bodies, peer recordings)."""
    keys: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            keys.update(k for k in value if isinstance(k, str))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in [*(ROOT / "tutorial" / "examples").rglob("*.json"), *(ROOT / "tutorial" / "peers" / "data").glob("*.json")]:
        walk(json.loads(path.read_text(encoding="utf-8")))
    return keys


_DATA_KEYS: set[str] = set()


def is_code(label: str) -> bool:
    """A label that is code (a path, an expression, a name with _ or a digit), a word kept,
    a JSON field name of the package's data, or data itself (Chinese text)."""
    if not _DATA_KEYS:
        _DATA_KEYS.update(data_keys())
    if label in KEPT or label in _DATA_KEYS or re.search(r"[\u4e00-\u9fff]", label):
        return True
    try:
        tree = ast.parse(label, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(tree, ast.Name):  # one word: code only when it looks like an identifier
        return not _WORD.fullmatch(label)
    return True


def english_words(text: str) -> list[str]:
    """The words of plain English in a printed string: code chunks, kept words and quoted
    names are not words."""
    words = []
    for chunk in text.split():
        if chunk[:1] in "'\"`":
            continue
        chunk = chunk.strip(",;:.!?()[]{}|·—–->=")
        if _WORD.fullmatch(chunk) and chunk not in KEPT and len(chunk) > 1:
            words.append(chunk)
    return words


def _constant_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(part.value for part in node.values if isinstance(part, ast.Constant))
    return None


def findings(paths=None) -> dict[str, list[str]]:
    """{"missing": [...], "prints": [...], "f-strings": [...]}: each as 'chapter cell: text'."""
    found: dict[str, list[str]] = {"missing": [], "prints": [], "f-strings": []}
    for path in paths or chapter_paths():
        for cell_id, source in code_cells(path):
            where = f"{path.stem} {cell_id}"
            tree = ast.parse(source)
            labels: list[str] = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Dict):  # a key with spaces is a label wherever it is written
                    labels += [key.value for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)
                               and " " in key.value]
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                name = node.func.id
                if name == "print":
                    for argument in node.args:
                        text = _constant_text(argument)
                        if text is not None and english_words(text):
                            found["prints"].append(f"{where}: print({text!r}) — use say()")
                    continue
                if name not in LABEL_ARGUMENTS:
                    continue
                positions, keywords = LABEL_ARGUMENTS[name]
                arguments = [node.args[i] for i in positions if i < len(node.args)]
                arguments += [k.value for k in node.keywords if k.arg in keywords]
                for argument in arguments:
                    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                        labels.append(argument.value)
                    elif isinstance(argument, ast.JoinedStr):
                        found["f-strings"].append(f"{where}: {name}({ast.unparse(argument)}) — a label with fields: said('… {{x}}', x=…)")
                if name == "show_json" and node.args:  # every key of the value shown
                    for inner in ast.walk(node.args[0]):
                        if isinstance(inner, ast.Dict):
                            labels += [key.value for key in inner.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)]
            for label in labels:
                if label not in LABELS and not is_code(label):
                    found["missing"].append(f"{where}: {label!r}")
    return found


def test_every_label_a_chapter_prints_has_its_chinese():
    missing = findings()["missing"]
    assert missing == [], "add to LABELS in tutorial/notebook/catalogue.py:\n" + "\n".join(missing)


def test_no_chapter_prints_english_words_past_the_catalogue():
    found = findings()
    assert found["prints"] + found["f-strings"] == [], "\n".join(found["prints"] + found["f-strings"])


def test_every_chinese_label_keeps_the_fields_and_the_terms():
    from tutorial.watch.terms import find_avoided

    field = re.compile(r"\{[^{}]*\}")
    for english, chinese in LABELS.items():
        assert sorted(field.findall(english)) == sorted(field.findall(chinese)), english
        only_the_colon = chinese == english.replace(":", "：")  # "{case}:" -> "{case}：", a Chinese colon after Chinese data
        only_fields = not re.sub(r"\{[^{}]*\}|[ |>-]|openai", "", chinese)  # "{error} | {stale}": the values are the words
        assert re.search(r"[\u4e00-\u9fff]", chinese) or only_the_colon or only_fields, f"no Chinese in {chinese!r}"
        assert find_avoided(chinese) == [], (english, find_avoided(chinese))
        assert not re.search(r"[\u4e00-\u9fff][:;,?!()]|[:;,?!(][\u4e00-\u9fff]", chinese), f"half-width punctuation: {chinese!r}"


def test_no_label_is_a_key_of_the_data_a_chapter_shows():
    """show_json writes label keys in Chinese: a JSON field name must never be one."""
    keys = data_keys()
    assert len(keys) > 100
    assert sorted(keys & set(LABELS)) == []


def test_said_and_say_by_language(capsys, monkeypatch):
    monkeypatch.setattr("tutorial.words._chosen", None)
    monkeypatch.delenv("TUTORIAL_LANG", raising=False)
    assert said("dicts equal:") == "dicts equal:"
    assert said("{count} tokens", count=3) == "3 tokens"
    with using("zh"):
        assert said("{count} tokens", count=3) == "3 个 token"
        assert said("not in the catalogue") == "not in the catalogue"
    say("dicts equal:", True)
    with using("zh"):
        say("dicts equal:", True)
        say("refused")
    assert capsys.readouterr().out == "dicts equal: True\n两个字典相等：True\n拒绝\n"
    status = "{preset} | {target} | error: {error} | stale: {stale}"
    assert said(status, preset="README example", target="openai", error=None, stale=False) == (
        "README example | openai | error: None | stale: False")
    with using("zh"):  # no colon chain, no None/False inside a Chinese line
        assert said(status, preset="README 示例", target="chat_template", error=None, stale=False) == (
            "README 示例 | 目标格式 chat_template | 没有错误 | 结果是最新的")
        assert said("error: {error} | stale: {stale}", error="第 1 行第 6 列，这里缺少冒号", stale=True) == (
            "错误：第 1 行第 6 列，这里缺少冒号 | 已过时（显示的是上一次成功的结果）")
    capsys.readouterr()
    with using("zh"):
        say("error:", None)
        say("stale:", True)
        say("error:", "第 1 行第 6 列，这里缺少冒号")
    assert capsys.readouterr().out == "没有错误\n已过时（显示的是上一次成功的结果）\n错误：第 1 行第 6 列，这里缺少冒号\n"


def test_labelled_writes_label_keys_only(monkeypatch):
    value = {"where": "messages[0]", "openai echo": {"path": "README.md", "role": "tool"}, "rows": [{"block 2": True}]}
    with using("en"):
        assert labelled(value) is value
    with using("zh"):
        assert labelled(value) == {"位置": "messages[0]", "openai 回传的历史轮次": {"path": "README.md", "role": "tool"},
                                   "rows": [{"内容块 2": True}]}


def test_the_displays_speak_the_language():
    from tutorial.notebook import check, show_json, side_by_side
    from tutorial.notebook.show import show_losses
    import tutorial

    losses = tutorial.trace(tutorial.readme_request()).losses
    with using("en"):
        assert repr(show_json({"where": 1}, "the reply")) == 'the reply:\n{\n  "where": 1\n}'
    with using("zh"):
        assert repr(show_json({"where": 1}, "the reply")) == '回复：\n{\n  "位置": 1\n}'
        assert repr(side_by_side(1, 2, "blocks (sent to the CLI)", "translated[5]")).startswith("blocks（发给 CLI）：\n1")
        assert "translated[5]:\n2" in repr(side_by_side(1, 2, "blocks (sent to the CLI)", "translated[5]"))
        with pytest.raises(AssertionError, match="检查未通过：内容块的顺序"):
            check(1, 2, "the block order")
        table = show_losses(losses)._repr_html_()
        assert "为什么未进入输出" in table and "留下" not in table
        assert show_losses([]).__repr__() == "没有未进入输出的内容"


def test_the_walk_says_what_is_not_carried():
    import tutorial
    from tutorial.notebook.walk import walk_text

    with using("zh"):
        text = walk_text(tutorial.trace(tutorial.readme_request()))
    assert "5. 未进入输出的内容：" in text and "留下" not in text


if __name__ == "__main__":  # python tests/test_catalogue.py [CHAPTER ...]: what is missing
    chosen = sys.argv[1:] or CHAPTERS
    for kind, lines in findings(chapter_paths(chosen)).items():
        for line in lines:
            print(f"{kind}: {line}")
    print(f"{len(catalogue.LABELS)} labels in the catalogue")
