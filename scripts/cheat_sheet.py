#!/usr/bin/env python3
"""Write the printable cheat sheets, docs/cheat_sheet.html (English) and docs/cheat_sheet.zh.html (Chinese).

Chapter 12 (notebooks/12_cheat_sheet.ipynb, and notebooks/zh/ in Chinese) shows one table: every
request field and block kind run through both targets and the loss report. The table is computed
by `tutorial.notebook.cheat_sheet` (the probes, the rows, the HTML), the module the chapter's
cells call, so this script calls it too, with lang="en" and lang="zh", and lays the HTML out for
printing; it does not read the chapters' stored outputs, so the Chinese page does not wait for the
Chinese chapter to be re-executed. tests/test_workshop.py holds each chapter's stored table equal
to the module's and prints both pages with Chromium:

- English: two landscape A4 pages, no text smaller than 8 pt;
- Chinese: one landscape A4 page, no text smaller than 7.5 pt, and no English sentence outside
  the data (JSON, field names, places). One page costs something: 7.5 pt, not 8 (at 8 pt the same
  layout takes 905 of the page's 763 px), lines 1.04 apart, and the JSON in a condensed
  proportional face rather than a monospace. Measured: one page, 758 px of 763 used, so a longer
  Chinese reason may push it onto a second page, and the test says so.

    python scripts/cheat_sheet.py            write both pages
    python scripts/cheat_sheet.py --check    exit 1 if either page is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"en": ROOT / "docs" / "cheat_sheet.html", "zh": ROOT / "docs" / "cheat_sheet.zh.html"}
PAGE = PAGES["en"]

# The printed type size of each page (pt) and the pages it may take; the test measures both.
SMALLEST_PT = {"en": 8, "zh": 7.5}
MOST_PAGES = {"en": 2, "zh": 1}

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

# The Chinese page: one A4 page at 7.5 pt, measured (tests/test_workshop.py). The same table in
# less room than the English: the title and the intro share a line; the JSON is set in DejaVu Sans
# Condensed, not a monospace; the Chinese in WenQuanYi Micro Hei (the CJK font Debian ships),
# lines 1.04 apart; the columns are sized so the longest reason of most rows takes one line. The
# rules start with `body` to outrank the table's own <style> (written later, same specificity).
STYLE_ZH = """
@page { size: A4 landscape; margin: 4mm 5mm; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "DejaVu Sans Condensed", "WenQuanYi Micro Hei", "Noto Sans CJK SC", "Source Han Sans SC",
       "PingFang SC", "Microsoft YaHei", sans-serif;
       font-stretch: condensed; font-size: 7.5pt; line-height: 1.04; margin: 0 auto; max-width: 287mm; color: #1f2328; }
h1 { display: inline; font-size: 10pt; margin: 0 6pt 0 0; }
p { margin: 0 0 2pt 0; }
h1 + p { display: inline; }
body .cheat-sheet { margin-top: 1pt; }
body .cheat-sheet table.cs-table { font-size: 7.5pt; line-height: 1.04; }
body .cheat-sheet table.cs-table col:nth-child(1) { width: 14% !important; }
body .cheat-sheet table.cs-table col:nth-child(2), body .cheat-sheet table.cs-table col:nth-child(3) { width: 24.25% !important; }
body .cheat-sheet table.cs-table col:nth-child(4) { width: 37.5% !important; }
body .cheat-sheet table.cs-table th, body .cheat-sheet table.cs-table td { padding: 0 1.5pt; border: 0.4pt solid #b8c0c8; }
body .cheat-sheet table.cs-table code { font-family: "DejaVu Sans Condensed", "Arial Narrow", sans-serif; font-stretch: condensed;
       font-size: 7.5pt; letter-spacing: -0.04em; }
body .cheat-sheet table.cs-table thead { display: table-header-group; }
body .cheat-sheet table.cs-table thead th { background: #e6ebf0; }
body .cheat-sheet table.cs-table tr { break-inside: avoid; }
body .cheat-sheet table.cs-table tr.cs-group th { background: #eef6ff; font-weight: bold; line-height: 1; }
body .cheat-sheet table.cs-table tr.cs-group { break-after: avoid; }
body .cheat-sheet table.cs-table tbody th { font-weight: normal; }
p.foot { margin-top: 2pt; color: #57606a; }
@media screen { body { font-size: 10pt; line-height: 1.2; padding: 12px; } body .cheat-sheet table.cs-table,
                body .cheat-sheet table.cs-table code { font-size: 9.5pt; line-height: 1.2; } }
""".strip()

WORDS = {
    "en": {
        "style": STYLE,
        "title": "Cheat sheet: an Anthropic request, the chat_template and openai targets, and what stays behind",
        "h1": "From an Anthropic Messages request to a chat template's input: the cheat sheet",
        "intro": """One tiny request per row. Middle columns: what <code>tutorial.translate(body, target=…)</code> makes of that part of the body.
Last column: what <code>tutorial.trace(body, target=…).losses</code> lists there and why, or the <code>openai</code> target's refusal.
<code>chat_template</code>: the rollout adapter's list, templated as it is. <code>openai</code>: the Chat Completions request an engine builds (its chat layer may normalise it again).""",
        "foot": """Generated by scripts/cheat_sheet.py from tutorial/notebook/cheat_sheet.py, the code chapter 12 runs (do not edit by hand). Sampling settings stay in the body
for Action 3; a user turn that answers tool calls must start with its tool_result blocks, or the Messages API answers 400.""",
    },
    "zh": {
        "style": STYLE_ZH,
        "title": "速查表：Anthropic 请求、chat_template 与 openai 两种目标格式、未进入输出的内容",
        "h1": "速查表：从 Anthropic Messages 请求到聊天模板的输入",
        "intro": "表中每一行是一个极小的请求。中间两列是 <code>translate(body, target=…)</code> 的输出，只列出由这一行所关心的那部分请求体生成的消息（或工具）。"
        "最后一列是 <code>trace(body, target=…).losses</code> 在这里列出的内容及原因，或 <code>openai</code> 目标格式的拒绝。",
        "foot": "chat_template 是 rollout 适配器的消息列表，原样交给聊天模板；openai 是引擎构造的 Chat Completions 请求。"
        "采样设置留在请求体里，交给 Action 3。回答工具调用的 user 消息须以 tool_result 块开头，否则 Messages API 返回 400。",
    },
}


GENERATED = "Written by scripts/cheat_sheet.py from tutorial/notebook/cheat_sheet.py, the code chapter 12 runs: do not edit by hand."


def table_html(lang: str = "en") -> str:
    """Chapter 12's table in `lang`, as the chapter's cell tagged `cheat-sheet` shows it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tutorial.notebook.cheat_sheet import cheat_sheet

    return cheat_sheet(lang)._repr_html_()


def page(lang: str = "en") -> str:
    words = WORDS[lang]
    return f"""<!DOCTYPE html>
<html lang="{'zh-CN' if lang == 'zh' else 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231f2328'/%3E%3C/svg%3E">
<style>@media screen and (max-width: 640px) {{ td, th, code {{ overflow-wrap: anywhere; }} }}</style>
<!-- {GENERATED} -->
<title>{words['title']}</title>
<style>
{words['style']}
</style>
</head>
<body>
<h1>{words['h1']}</h1>
<p>{words['intro']}</p>
{table_html(lang)}
<p class="foot">{words['foot']}</p>
</body>
</html>
"""


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(arguments: list[str]) -> int:
    check = "--check" in arguments
    stale = []
    for lang, path in PAGES.items():
        wanted = page(lang)
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != wanted:
                stale.append(path)
            continue
        path.parent.mkdir(exist_ok=True)
        path.write_text(wanted, encoding="utf-8")
        print(f"wrote {_shown(path)}")
    for path in stale:
        print(f"{_shown(path)} is out of date: run python scripts/cheat_sheet.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
