"""The Chinese edition (notebooks/zh/) stays in step with the English chapters.

Same cells in the same order, code cells byte for byte, and every prose cell records the
hash of the English text it translates: change an English cell without its translation
and this test names the cell. The prose must be Chinese (no English paragraph left), and
where a code cell's output differs between the editions it is the package writing prose
in Chinese, nothing else.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from zh_comments import COMMENTS  # noqa: E402
from zh_edition import comments, docstrings, english_sha, without_comments, zh_code  # noqa: E402

ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
ZH = ROOT / "notebooks" / "zh"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
CODE = re.compile(r"```.*?```|`[^`\n]*`|\[([^\]]*)\]\([^)]*\)|https?://\S+|<[^>]+>", re.DOTALL)
ENGLISH_RUN = re.compile(r"(?:\b[A-Za-z][a-z']+\b[ ,;:]+){8,}")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_chapter_has_a_chinese_edition():
    missing = [p.name for p in ENGLISH if not (ZH / p.name).exists()]
    assert not missing, f"no Chinese edition of {missing} (python scripts/zh_edition.py sync)"


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_same_cells_same_code(path):
    english, zh = load(path)["cells"], load(ZH / path.name)["cells"]
    assert [(c.get("id"), c["cell_type"]) for c in zh] == [(c.get("id"), c["cell_type"]) for c in english], (
        f"{path.name}: the cells differ from the English chapter (python scripts/zh_edition.py sync)"
    )
    for en, cn in zip(english, zh):
        if en["cell_type"] == "code":
            english_code = "".join(en["source"]).replace('use_language("en")', 'use_language("zh")')
            # recall(..., lang="zh") names the edition, as use_language does: a fresh kernel answers in it
            chinese_code = "".join(cn["source"]).replace(', lang="zh")', ")")
            assert without_comments(chinese_code) == without_comments(english_code), (
                f"{path.name} cell {en.get('id')}: code differs from the English cell (comments aside)"
            )
            assert cn["metadata"].get("tags", []) == en["metadata"].get("tags", []), f"{path.name} cell {en.get('id')}: tags differ"


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_the_comments_are_chinese(path):
    """Every comment of a Chinese code cell is the table's Chinese for the English one at the
    same place (scripts/zh_comments.py; `sync` writes them)."""
    for en, cn in zip(load(path)["cells"], load(ZH / path.name)["cells"]):
        if en["cell_type"] != "code":
            continue
        english = [text for _, _, text in comments("".join(en["source"]))]
        chinese = [text for _, _, text in comments("".join(cn["source"]))]
        assert chinese == [COMMENTS.get(text) for text in english], f"{path.name} cell {en.get('id')}: comments {chinese} for {english}"
        assert all(CJK.search(text) for text in chinese), f"{path.name} cell {en.get('id')}: a comment without Chinese: {chinese}"
        english = [text for _, _, text in docstrings("".join(en["source"]))]
        chinese = [text for _, _, text in docstrings("".join(cn["source"]))]
        assert chinese == [COMMENTS.get(text) for text in english], f"{path.name} cell {en.get('id')}: docstrings {chinese} for {english}"


def test_comments_are_read_as_python_reads_them():
    source = 'x = "# a string, not a comment"  # edit this line\n# your code here\ny = 1\n'
    assert [text for _, _, text in comments(source)] == ["edit this line", "your code here"]
    assert without_comments(source) == 'x = "# a string, not a comment"\n\ny = 1\n'
    assert zh_code(source) == 'x = "# a string, not a comment"  # 改这一行\n# 在这里写你的代码\ny = 1\n'
    with pytest.raises(Exception, match="no Chinese for the comment 'a new comment'"):
        zh_code("z = 2  # a new comment\n", "01 cell x")


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_every_translation_is_of_the_current_english_text(path):
    stale = []
    for en, cn in zip(load(path)["cells"], load(ZH / path.name)["cells"]):
        if en["cell_type"] != "markdown":
            continue
        recorded = (cn["metadata"].get("translation") or {}).get("en_sha")
        if recorded != english_sha("".join(en["source"])):
            first = "".join(en["source"]).strip().splitlines()[0][:70]
            stale.append(f"cell {en.get('id')} ({'untranslated' if recorded is None else 'English changed'}): {first}")
    assert not stale, f"{path.name}: " + "; ".join(stale)


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_the_prose_is_chinese(path):
    for cell in load(ZH / path.name)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = CODE.sub(lambda m: m.group(1) or " ", "".join(cell["source"]))
        letters = re.findall(r"[A-Za-z]", text)
        if len(letters) < 40:
            continue
        assert CJK.search(text), f"{path.name} cell {cell.get('id')}: no Chinese at all"
        run = ENGLISH_RUN.search(text)
        assert not run, f"{path.name} cell {cell.get('id')}: English left untranslated: {run.group(0)[:80]!r}"


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_every_chapter_links_the_glossary(path):
    prose = "".join("".join(c["source"]) for c in load(ZH / path.name)["cells"] if c["cell_type"] == "markdown")
    assert "glossary.md" in prose, f"{path.name}: link the glossary (术语表, glossary.md)"


def _text(outputs: list) -> str:
    return "".join(
        "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) + "".join(o.get("data", {}).get("text/html", ""))
        for o in outputs
    )


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_outputs_differ_only_where_the_package_writes_chinese(path):
    for en, cn in zip(load(path)["cells"], load(ZH / path.name)["cells"]):
        if en["cell_type"] != "code":
            continue
        english, chinese = _text(en.get("outputs", [])), _text(cn.get("outputs", []))
        if english != chinese:
            added = set(CJK_RUN.findall(chinese)) - set(CJK_RUN.findall(english))  # runs: the English output may hold Chinese data
            assert added, f"{path.name} cell {en.get('id')}: outputs differ, but not by Chinese prose"


def test_glossary_readme_and_instructors_notes_exist():
    glossary = (ZH / "glossary.md").read_text(encoding="utf-8")
    for term in ("messages path", "tools path", "hand-back", "loss report", "Action 2"):
        assert term.lower() in glossary.lower(), f"the glossary lacks {term!r}"
    assert CJK.search((ROOT / "README.zh.md").read_text(encoding="utf-8"))
    assert CJK.search((ZH / "README.md").read_text(encoding="utf-8"))


def test_every_loss_reason_has_chinese():
    """The Chinese edition's loss tables and walk explain in Chinese: every reason the report
    gives for the SDK's bodies and the chapters' requests has a translation."""
    import tutorial
    from tutorial.watch.losses import reason_in
    from tutorial.words import using

    data = json.loads((ROOT / "tutorial" / "examples" / "sdk" / "bodies.json").read_text(encoding="utf-8"))
    bodies = [entry["body"] if isinstance(entry, dict) and "body" in entry else entry for entry in data.values()]
    bodies += [tutorial.readme_request()]
    seen, untranslated = 0, set()
    for body in bodies:
        for target in ("chat_template", "openai"):
            try:
                losses = tutorial.trace(body, target=target).losses
            except tutorial.RequestError:
                continue
            for loss in losses:
                seen += 1
                with using("zh"):
                    if not CJK.search(reason_in(loss.reason)):
                        untranslated.add(loss.reason)
    assert seen > 100
    assert not untranslated, sorted(untranslated)


def test_no_line_break_inside_a_chinese_sentence():
    """A line break inside a Chinese paragraph shows as a space in JupyterLab and on GitHub
    (「把一个请求␣保存为」); `python scripts/zh_edition.py reflow` joins them."""
    from zh_edition import chinese_markdown_files, reflow_text

    broken = []
    for path in sorted(ZH.glob("*.ipynb")):
        for cell in load(path)["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and reflow_text(text) != text:
                broken.append(f"{path.name} cell {cell.get('id')}")
    for path in chinese_markdown_files():
        text = path.read_text(encoding="utf-8")
        if reflow_text(text) != text:
            broken.append(path.name)
    assert not broken, f"line breaks inside Chinese paragraphs (python scripts/zh_edition.py reflow): {broken}"
    assert reflow_text("中文第一行\n第二行，`code`\nmore\n\n- 列表\n  续行") == "中文第一行第二行，`code` more\n\n- 列表续行"
