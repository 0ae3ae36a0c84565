"""The language comes from the notebook, not from its folder: a Chinese chapter copied anywhere
speaks Chinese, an English one copied into a folder named zh speaks English."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from tutorial import words

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    monkeypatch.delenv("TUTORIAL_LANG", raising=False)
    monkeypatch.setattr("tutorial.words._chosen", None)


def test_use_language_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("TUTORIAL_LANG", "en")
    words.use_language("zh")
    assert words.current() == "zh"
    # A public entry point's lang= runs inside using(lang): None keeps the process's choice.
    with words.using(None):
        assert words.current() == "zh"
    with words.using("en"):
        assert words.current() == "en"
    assert words.current() == "zh"
    with pytest.raises(ValueError, match="lang 只能是 'en' 或 'zh'"):  # said in the current language
        words.use_language("fr")


def test_the_folder_no_longer_decides(tmp_path, monkeypatch):
    (tmp_path / "zh").mkdir()
    monkeypatch.chdir(tmp_path / "zh")
    assert words.current() == "en"


@pytest.mark.parametrize(
    "environ, expected",
    [({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
     ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, None), ({}, None), ({"LANGUAGE": "zh_CN:en"}, "zh")],
)
def test_the_locale(environ, expected):
    assert words.from_locale(environ) == expected


@pytest.mark.parametrize(
    "header, expected",
    [("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("en-US,en;q=0.9,zh;q=0.8", "en"), ("fr, zh;q=0.5", "zh"),
     ("zh;q=0, en", "en"), ("de", None), ("", None), (None, None), ("zh;q=abc, en;q=0.1", "en")],
)
def test_accept_language(header, expected):
    assert words.from_accept_language(header) == expected


def _exercise_outputs(notebook_path: Path, folder: Path) -> list[str]:
    """Run a copy of the chapter in `folder` on a fresh kernel; the text its exercise cells printed."""
    from nbclient import NotebookClient

    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / notebook_path.name
    shutil.copy(notebook_path, copy)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    texts = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            texts.append("".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs))
    return texts


def test_a_chinese_chapter_copied_to_another_folder_gives_chinese_verdicts(tmp_path):
    verdicts = _exercise_outputs(ROOT / "notebooks" / "zh" / "03_tools_path.ipynb", tmp_path / "somewhere" / "else")
    assert verdicts and all(CJK.search(text) for text in verdicts), verdicts


def test_an_english_chapter_in_a_folder_named_zh_stays_english(tmp_path):
    verdicts = _exercise_outputs(ROOT / "notebooks" / "03_tools_path.ipynb", tmp_path / "zh")
    assert verdicts and not any(CJK.search(text) for text in verdicts), verdicts


def test_using_restores_what_was_chosen():
    assert words.chosen() is None and words.current() == "en"
    with words.using("zh"):
        assert words.current() == "zh"
        with words.using("en"):
            assert words.current() == "en"
        assert words.current() == "zh"
    assert words.chosen() is None and words.current() == "en"


def test_a_full_width_quote_in_a_cell_gets_a_line_naming_it_after_the_syntax_error():
    """zh review 2 / issue 37: check("05.x", “b”) used to end in a bare SyntaxError. After a
    chapter's use_language(...) in IPython, one line in the current language names the character."""
    import subprocess
    import sys

    pytest.importorskip("IPython")
    script = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import tutorial\n"
        "tutorial.use_language('zh')\n"
        "shell.run_cell('check(\"05.x\", “b”)')\n"
        "tutorial.use_language('zh')  # a second chapter: still one line, not two\n"
        "shell.run_cell('print(1')\n"
        "tutorial.use_language('en')\n"
        "shell.run_cell('print(1， 2)')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "invalid character '“' (U+201C)" in run.stdout + run.stderr  # IPython's own error stays
    hints = run.stderr.strip().splitlines()
    assert hints == [
        '这一行有全角引号「“」（中文输入法打出来的），Python 只认半角的 "，请换成半角后再运行这个单元格。',
        "This line has a full-width comma, ，, as a Chinese input method types it; Python reads only the ASCII one (,). "
        "Retype it and run the cell again.",
    ], run.stderr
