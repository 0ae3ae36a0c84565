#!/usr/bin/env python3
"""Write the printable cheat sheet, docs/cheat_sheet.html, from chapter 12's stored output.

Chapter 12 (notebooks/12_cheat_sheet.ipynb) computes the table: every request field and block
kind run through both targets and the loss report. nbval keeps the chapter's stored output equal
to a fresh run, so this script only lays that output out for printing: two landscape A4 pages,
no text smaller than 8 pt (tests/test_workshop.py prints it with Chromium and measures both). It
runs no translation itself and needs nothing beyond the standard library.

    python scripts/cheat_sheet.py            write docs/cheat_sheet.html
    python scripts/cheat_sheet.py --check    exit 1 if docs/cheat_sheet.html is out of date
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "12_cheat_sheet.ipynb"
PAGE = ROOT / "docs" / "cheat_sheet.html"
TAG = "cheat-sheet"

STYLE = """
@page { size: A4 landscape; margin: 6mm 7mm; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "DejaVu Sans Condensed", "Arial Narrow", "Helvetica Neue", Arial, "WenQuanYi Micro Hei", sans-serif;
       font-stretch: condensed; font-size: 8pt; line-height: 1.13; margin: 0 auto; max-width: 283mm; color: #1f2328; }
h1 { font-size: 11pt; margin: 0 0 2pt 0; }
p { margin: 0 0 3pt 0; }
.cheat-sheet table.cs-table { font-size: 8pt; width: 100%; border-collapse: collapse; table-layout: fixed; }
.cheat-sheet table.cs-table th, .cheat-sheet table.cs-table td { padding: 0.3pt 2pt; border: 0.4pt solid #b8c0c8; }
.cheat-sheet table.cs-table code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 8pt;
       letter-spacing: -0.03em; }
.cheat-sheet table.cs-table thead { display: table-header-group; }
.cheat-sheet table.cs-table thead th { background: #e6ebf0; }
.cheat-sheet table.cs-table tr { break-inside: avoid; }
.cheat-sheet table.cs-table tr.cs-group th { background: #eef6ff; font-weight: bold; padding-top: 1pt; }
.cheat-sheet table.cs-table tr.cs-group { break-after: avoid; }
.cheat-sheet table.cs-table tbody th { font-weight: normal; }
p.foot { margin-top: 3pt; color: #57606a; }
@media screen { body { font-size: 10pt; padding: 12px; } .cheat-sheet table.cs-table,
                .cheat-sheet table.cs-table code { font-size: 9.5pt; } }
""".strip()


def table_html(chapter: Path = CHAPTER) -> str:
    """The HTML output of the cell tagged `cheat-sheet` in chapter 12, as stored."""
    notebook = json.loads(chapter.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if TAG in cell.get("metadata", {}).get("tags", []):
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if "text/html" in data:
                    return "".join(data["text/html"])
            raise SystemExit(f"{chapter.name}: the cell tagged {TAG!r} has no HTML output; run scripts/run_notebooks.py 12")
    raise SystemExit(f"{chapter.name}: no cell tagged {TAG!r}")


def page(chapter: Path = CHAPTER) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cheat sheet: an Anthropic request, the chat_template and openai targets, and what stays behind</title>
<style>
{STYLE}
</style>
</head>
<body>
<h1>From an Anthropic Messages request to a chat template's input: the cheat sheet</h1>
<p>One tiny request per row. Middle columns: what <code>tutorial.translate(body, target=…)</code> makes of that part of the body.
Last column: what <code>tutorial.trace(body, target=…).losses</code> lists there and why, or the <code>openai</code> target's refusal.
<code>chat_template</code>: the rollout adapter's list, templated as it is. <code>openai</code>: the Chat Completions request an engine builds (its chat layer may normalise it again).</p>
{table_html(chapter)}
<p class="foot">Generated from notebooks/12_cheat_sheet.ipynb by scripts/cheat_sheet.py (do not edit by hand). Sampling settings stay in the body
for Action 3; a user turn that answers tool calls must start with its tool_result blocks, or the Messages API answers 400.</p>
</body>
</html>
"""


def main(arguments: list[str]) -> int:
    check = "--check" in arguments
    wanted = page()
    if check:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != wanted:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python scripts/cheat_sheet.py", file=sys.stderr)
            return 1
        return 0
    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(wanted, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
