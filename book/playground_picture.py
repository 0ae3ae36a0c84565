"""Chapter 07's playground as the book shows it: the widget's own panes, filled by its model
for the README example, laid out as the widget lays them out. Nothing runs in the page: the
tabs switch with CSS alone (radio buttons), and a link says where to run the real one."""

from __future__ import annotations

import html

from tutorial.notebook.playground.model import Model
from tutorial.notebook.playground.panes import CSS, PANES, diagram_html, status_html
from tutorial.notebook.playground.view import draw_flow

NOTE = {
    "en": "A picture of the playground for the README example, drawn when this book was built: the tabs "
          "switch, nothing else moves. To edit the request and watch every stage change, run it:",
    "zh": "这是交互练习场在 README 示例上的样子，在构建本书时画出：标签页可以切换，其余不会变。"
          "想修改请求、看每个阶段如何变化，请运行它：",
}

STYLE = """<style>
.book-pg { border: 1px solid #c8c8c8; border-radius: 6px; padding: 8px; background: #fff; color: #111; font-size: 13px; }
.book-pg-note { margin: 0 0 8px 0; font-size: 14px; }
.book-pg-controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
.book-pg-control { border: 1px solid #bbb; border-radius: 3px; padding: 3px 8px; background: #f7f7f7; }
.book-pg-control.on { background: #dbe9f8; border-color: #7aa7d8; }
.book-pg-button { background: #1565c0; color: #fff; border-radius: 3px; padding: 4px 12px; }
.book-pg-columns { display: flex; gap: 8px; flex-wrap: wrap; }
.book-pg-editor { flex: 36 1 280px; min-width: 280px; max-height: 320px; overflow: auto; border: 1px solid #bbb;
  padding: 6px; font: 12px/1.35 ui-monospace, Menlo, Consolas, "WenQuanYi Micro Hei Mono", monospace; white-space: pre; }
.book-pg-output { flex: 64 1 500px; min-width: 0; }
.book-pg-output > input { position: absolute; opacity: 0; pointer-events: none; }
.book-pg-tabs { display: flex; flex-wrap: wrap; border-bottom: 1px solid #bbb; }
.book-pg-tabs label { padding: 4px 10px; cursor: pointer; border: 1px solid transparent; margin-bottom: -1px; }
.book-pg-pane { display: none; max-height: 560px; overflow: auto; border: 1px solid #bbb; border-top: 0; }
</style>"""


def picture(lang: str, run_links: list[tuple[str, str]]) -> str:
    model = Model(lang=lang)  # the edition's language, kept by the model: its panes, labels and diagram speak it
    shown = [(key, css, make) for key, css, make in PANES if make is not None or key == "tab_diagram"]
    panes = []
    for key, css, make in shown:
        body = diagram_html(model, model.in_its_language(draw_flow, model.trace), "whole") if key == "tab_diagram" else make(model)
        panes.append((key, css, body))
    name = f"book-pg-{lang}"
    radios = "".join(f'<input type="radio" name="{name}" id="{name}-{i}"{" checked" if i == 0 else ""} '
                     f'aria-label="{html.escape(model.label(key))}">' for i, (key, _, _) in enumerate(panes))
    tabs = "".join(f'<label for="{name}-{i}">{html.escape(model.label(key))}</label>' for i, (key, _, _) in enumerate(panes))
    bodies = "".join(f'<div class="book-pg-pane {css}" data-pane="{i}">{body}</div>' for i, (_, css, body) in enumerate(panes))
    # One rule per tab: its radio checked shows its pane and marks its title.
    rules = "".join(f"#{name}-{i}:checked ~ .book-pg-panes [data-pane='{i}'] {{ display: block; }}"
                    f"#{name}-{i}:checked ~ .book-pg-tabs label[for='{name}-{i}'] "
                    "{ border-color: #bbb #bbb #fff; background: #fff; font-weight: 600; }"
                    for i in range(len(panes)))
    targets = "".join(f'<span class="book-pg-control{" on" if t == model.target else ""}">{t}</span>'
                      for t in ("chat_template", "openai"))
    links = " · ".join(f'<a href="{html.escape(url)}">{html.escape(text)}</a>' for text, url in run_links)
    return (
        f'{STYLE}<style>{rules}</style>{CSS}'
        f'<div class="book-pg tp-playground">'
        f'<p class="book-pg-note">▶ {NOTE[lang]} {links}</p>'
        f'<div class="book-pg-controls"><span class="book-pg-control">{html.escape(model.label("preset"))} '
        f'{html.escape(model.preset or "")} ▾</span>{targets}'
        f'<span class="book-pg-button">▶ {html.escape(model.label("translate"))}</span></div>'
        f'<div class="tp-status">{status_html(model)}</div>'
        f'<div class="book-pg-columns"><div class="book-pg-editor" tabindex="0">{html.escape(model.request_text)}</div>'
        f'<div class="book-pg-output">{radios}<div class="book-pg-tabs">{tabs}</div>'
        f'<div class="book-pg-panes">{bodies}</div></div></div></div><!-- /book-pg -->'
    )
