"""One vocabulary in the Chinese edition: no avoided variant from tutorial/watch/terms.py anywhere a
Chinese reader looks — chapters (prose and stored outputs), hidden answers, README.zh.md, the
glossary and run-sheet, the printable cheat sheet, and every Chinese string in the package."""

from __future__ import annotations

import html
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from tutorial.watch.terms import TERMS, find_avoided, prose

ROOT = Path(__file__).resolve().parents[1]
ZH = ROOT / "notebooks" / "zh"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
TAG = re.compile(r"<[^>]+>")


def _output_text(outputs: list) -> str:
    parts = []
    for output in outputs:
        parts.append("".join(output.get("text", "")))
        data = output.get("data", {})
        for kind in ("text/plain", "text/markdown", "text/html", "image/svg+xml"):
            value = "".join(data.get(kind, ""))
            parts.append(html.unescape(TAG.sub(" ", value)) if kind in ("text/html", "image/svg+xml") else value)
    # Only lines with Chinese in them are prose: the rest is data or code a cell printed
    # (a function's source, a request's JSON), which keeps its English names.
    return "\n".join(line for line in "\n".join(parts).splitlines() if CJK.search(line))


def chapter_texts(path: Path) -> list[tuple[str, str]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        where = f"{path.relative_to(ROOT)} cell {cell.get('id')}"
        if cell["cell_type"] == "markdown":
            texts.append((where, "".join(cell["source"])))
        else:
            texts.append((where + " (output)", _output_text(cell.get("outputs", []))))
    return texts


def reveal_texts(path: Path) -> list[tuple[str, str]]:
    stored = json.loads(path.read_text(encoding="utf-8"))
    return [(f"{path.relative_to(ROOT)} {cell_id}", _output_text(outputs)) for cell_id, outputs in stored["outputs"].items()]


def package_strings(path: Path) -> list[tuple[str, str]]:
    """Every string literal with Chinese in it, as (file:line, text)."""
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for token in tokens:
        if token.type == tokenize.STRING and CJK.search(token.string):
            found.append((f"{path.relative_to(ROOT)}:{token.start[0]}", token.string))
    return found


def surfaces() -> list[tuple[str, str]]:
    texts: list[tuple[str, str]] = []
    for path in sorted(ZH.glob("*.ipynb")):
        texts += chapter_texts(path)
    for path in sorted((ROOT / "notebooks" / ".reveals" / "zh").glob("*.json")):
        texts += reveal_texts(path)
    for path in [ROOT / "README.zh.md", *sorted(ZH.glob("*.md")), *sorted((ROOT / "docs").glob("*zh*.html"))]:
        texts.append((str(path.relative_to(ROOT)), html.unescape(TAG.sub(" ", path.read_text(encoding="utf-8")))))
    for path in [*sorted((ROOT / "tutorial").rglob("*.py")), ROOT / "tasks.py", *sorted((ROOT / "scripts").glob("*.py"))]:
        if path.name == "terms.py":  # the table itself names the variants
            continue
        texts += package_strings(path)
    return texts


def test_the_scan_sees_every_surface():
    where = {w.split(" ")[0].split(":")[0] for w, _ in surfaces()}
    assert "README.zh.md" in where and "notebooks/zh/glossary.md" in where
    assert any(w.startswith("notebooks/zh/") and w.endswith(".ipynb") for w in where)
    assert any(w.startswith("tutorial/notebook/exercises/") for w in where)
    assert any(w.startswith("notebooks/.reveals/zh/") for w in where)


def test_the_scan_finds_a_planted_variant():
    assert find_avoided("这些字段被留下了，线上格式里也没有")
    assert find_avoided("把 dict 转换成文本")
    assert not find_avoided("`dict` 和 `tokenizer` 是代码；系统提示词和 prompt 各有所指")
    # issue 32's calques, one each; the chosen words pass
    calques = ["回显", "形状", "回程", "未带入输出", "一份捕获", "部分列表", "交回", "接好线", "静默检查", "manager message", "System 轮次"]
    assert [len(find_avoided(f"这是{word}。")) for word in calques] == [1] * len(calques)
    assert not find_avoided("回传的历史轮次、结构、返回路径、未进入输出、捕获记录、content part 列表、返回、预设、断言、"
                            "本轮记录（manager message）、system 消息、assistant 轮次、`manager_message`")


def test_no_avoided_variant_anywhere_in_the_chinese_edition():
    problems = []
    for where, text in surfaces():
        problems += [f"{where}: {hit}" for hit in find_avoided(text)]
    assert not problems, f"{len(problems)} avoided variants (see tutorial/watch/terms.py):\n" + "\n".join(problems[:80])


@pytest.mark.parametrize("term", TERMS, ids=[t.english for t in TERMS])
def test_the_glossary_shows_the_chosen_term(term):
    glossary = (ZH / "glossary.md").read_text(encoding="utf-8")
    for chinese in term.chinese.split(" / "):
        assert chinese in glossary, f"glossary.md does not show {chinese!r} for {term.english!r}"


_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")


def first_uses() -> dict[str, tuple[str, str]]:
    """For each term with a `first_use`, where the edition first uses it (reading the chapters
    in order, prose outside links) and the text that follows: {english: (where, text)}."""
    found = {}
    for path in sorted(ZH.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = prose(_LINK.sub(" ", "".join(cell["source"])))
            for term in TERMS:
                head = term.first_use.split("（")[0]
                if term.first_use and term.english not in found and head in text:
                    at = text.index(head) + len(head)
                    found[term.english] = (f"{path.name} cell {cell.get('id')}", text[at : at + 40])
    return found


@pytest.mark.parametrize("term", [t for t in TERMS if t.first_use], ids=lambda t: t.english)
def test_a_coined_term_carries_its_english_where_it_is_first_used(term):
    english = term.first_use.split("（", 1)[1].rstrip("）")
    where, after = first_uses()[term.english]
    assert re.match(f"（{re.escape(english)}[）；，]", after), f"{where}: {term.first_use.split('（')[0]}{after}"


@pytest.mark.parametrize("term", [t for t in TERMS if t.introduced_in], ids=lambda t: t.english)
def test_a_coined_term_is_first_used_in_the_chapter_that_introduces_it(term):
    """Outside 00's table of contents, the first chapter that uses the term is the one that
    introduces it (issue 37: 本轮记录 was glossed as 08's but first met in 11)."""
    head = term.first_use.split("（")[0]
    for path in sorted(ZH.glob("*.ipynb")):
        if path.name.startswith("00_"):
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(head in prose(_LINK.sub(" ", "".join(c["source"]))) for c in cells if c["cell_type"] == "markdown"):
            assert path.name.startswith(term.introduced_in + "_"), f"{head} is first used in {path.name}, not in {term.introduced_in}"
            return
    pytest.fail(f"{head} is used in no chapter")
