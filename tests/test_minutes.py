"""Every minute shown comes from tutorial/notebook/minutes.py, and every total adds up."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tutorial.notebook import minutes

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PRESENT = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb"))


def marked(text: str, name: str) -> str:
    found = re.search(rf"<!-- minutes:{re.escape(name)} -->\n(.*?)\n<!-- /minutes:{re.escape(name)} -->", text, re.S)
    assert found, f"no table marked {name}"
    return found.group(1)


def rows(table: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.splitlines()[2:]]


def index_text(path: Path) -> str:
    return "\n".join("".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "markdown")


def shown() -> list:
    return [chapter for chapter in minutes.CHAPTERS if chapter.notebook in PRESENT]


def test_every_chapter_has_minutes():
    named = [chapter.notebook for chapter in minutes.CHAPTERS]
    assert sorted(set(named)) == sorted(named), "a chapter listed twice"
    assert set(PRESENT) <= set(named), f"chapters without minutes: {sorted(set(PRESENT) - set(named))}"
    assert all(chapter.self_study > 0 and chapter.in_class > 0 for chapter in minutes.CHAPTERS)


def test_the_measured_floor_holds():
    """Issue 20's measured self-study figures are a floor: 5-6 hours in all, chapter 05 45-75
    minutes, chapters 08-10 35-50 minutes each."""
    by_number = {chapter.notebook[:3].rstrip("_"): chapter for chapter in minutes.CHAPTERS}
    assert minutes.total(minutes.CHAPTERS, "self_study") >= 5 * 60
    assert by_number["05"].self_study >= 45
    assert all(by_number[n].self_study >= 35 for n in ("08", "09", "10"))
    assert 25 <= by_number["04b"].self_study <= 35


@pytest.mark.parametrize("edition", ["", "zh"])
def test_index_and_run_sheet_show_the_source_minutes(edition):
    folder = NOTEBOOKS / edition if edition else NOTEBOOKS
    index = rows(marked(index_text(folder / "00_index.ipynb"), "chapters"))
    sheet = rows(marked((folder / "README.md").read_text(encoding="utf-8"), "chapters"))
    chapters = shown()
    assert len(index) == len(sheet) == len(chapters) + 1, "one row per chapter and a total"
    for chapter, index_row, sheet_row in zip(chapters, index, sheet):
        assert f"({chapter.notebook})" in index_row[0] and f"({chapter.notebook})" in sheet_row[0]
        assert int(index_row[-1]) == chapter.self_study, f"00_index: {chapter.notebook}"
        assert (int(sheet_row[1]), int(sheet_row[2])) == (chapter.self_study, chapter.in_class), f"run-sheet: {chapter.notebook}"
    # The totals are the sums of the rows above them, as the tables show them.
    index_total = int(re.search(r"\*\*(\d+)\*\*", index[-1][-1]).group(1))
    assert index_total == sum(int(row[-1]) for row in index[:-1])
    sheet_totals = [int(re.search(r"\*\*(\d+)\*\*", cell).group(1)) for cell in sheet[-1][1:3]]
    assert sheet_totals == [sum(int(row[1]) for row in sheet[:-1]), sum(int(row[2]) for row in sheet[:-1])]
    assert f"({minutes.hours(sheet_totals[0])})" in sheet[-1][1] or edition == "zh"


def test_the_english_and_chinese_tables_agree():
    def figures(path: Path) -> list:
        table = rows(marked(path.read_text(encoding="utf-8"), "chapters"))
        return [[int(re.match(r"\**(\d+)", cell).group(1)) for cell in row[1:3]] for row in table]

    assert figures(NOTEBOOKS / "README.md") == figures(NOTEBOOKS / "zh" / "README.md")


@pytest.mark.parametrize("name", sorted(minutes.AGENDAS))
def test_each_agenda_fills_exactly_its_time(name):
    slots, length = minutes.AGENDAS[name]
    assert sum(slot.minutes for slot in slots) == length
    table = rows(marked((NOTEBOOKS / "README.md").read_text(encoding="utf-8"), f"agenda {name}"))
    clock = [row[0] for row in table]
    assert clock[0] == "0:00" and clock[-1] == minutes.clock(length)
    as_minutes = [int(h) * 60 + int(m) for h, m in (time.split(":") for time in clock)]
    assert as_minutes == sorted(as_minutes)
    assert [b - a for a, b in zip(as_minutes, as_minutes[1:])] == [slot.minutes for slot in slots]


def test_the_90_minute_session_has_the_room_write_code():
    slots = minutes.AGENDA_90
    building = [slot for slot in slots if slot.chapters.startswith("05")]
    assert building and "5.1–5.4" in building[0].chapters and "pairs" in building[0].what
    assert building[0].minutes >= 25
    half_day = [slot for slot in minutes.AGENDA_HALF_DAY if slot.chapters == "05"]
    assert half_day and half_day[0].minutes >= minutes.chapter("05_build_it_yourself.ipynb").in_class


def test_the_tables_are_what_the_generator_writes():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "minutes.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
