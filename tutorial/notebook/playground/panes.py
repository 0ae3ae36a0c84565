"""What each tab shows: HTML made from the model, deterministic (no ids, no times).

Every function here takes the model and returns one pane's HTML; none draws a widget, so
they are tested as text. `PANES` lists the tabs in order. The diagram's pane is made from a
`Drawing` (the view draws it off the keystroke path, see view.py) by `diagram_html`, the
prompt's from a `Prompt` (rendered off the keystroke path too) by `prompt_html`. With the
learner's translator (`yours`), the translated and tools_schema tabs show it in a column
beside the package's, the first difference named above them.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..show import as_json
from .labels import worded
from .model import Model
from .prompt import Prompt
from .yours import Yours
from .presets import CLOSEST_PEER, peer_results, peer_versions
from ...watch.losses import reason_in
from ...words import using

SHOWN_CHARACTERS = 60_000
"""A block of JSON longer than this is cut in the pane (a pasted real request can be megabytes
across all stages; the browser stays responsive). The model's results always hold everything."""

READABLE_PX = 10.5
"""The smallest text in the diagram at readable size, in CSS pixels."""

WHOLE_HEIGHT_PX = 470
"""The diagram's height when shown whole: it fits under the note in the pane."""

CSS = """<style>
.tp-playground pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px;
  line-height: 1.35; margin: 0; white-space: pre-wrap; word-break: break-word; }
.tp-editor textarea { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; line-height: 1.35; }
.tp-pane { padding: 4px 8px; box-sizing: border-box; }
.tp-pane, .tp-ok, .tp-bad { line-height: 1.4; }  /* the widget's own line height is a control's */
.tp-note { color: #555; margin: 0 0 6px 0; }
.tp-stale-banner { background: #fff4ce; border-left: 4px solid #d39e00; padding: 3px 8px; margin-bottom: 6px; }
.tp-stale-body { opacity: 0.55; }
.tp-ok { background: #e9f6ec; border-left: 4px solid #2e7d32; padding: 6px 10px; }
.tp-bad { background: #fdecea; border-left: 4px solid #c62828; padding: 6px 10px; color: #7f1010; }
.tp-bad b { color: #b71c1c; }
.tp-step { border-top: 1px solid #ddd; padding: 6px 0; }
.tp-io { display: flex; gap: 8px; align-items: flex-start; }
.tp-io > div { flex: 1 1 0; min-width: 0; background: #f7f7f7; padding: 4px; }
.tp-arrow { flex: 0 0 auto !important; background: none !important; font-size: 18px; padding-top: 10px !important; }
.tp-table { border-collapse: collapse; font-size: 12px; width: 100%; table-layout: fixed; }
.tp-table td, .tp-table th { border-bottom: 1px solid #e3e3e3; padding: 3px 6px; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
.tp-table code { white-space: normal; overflow-wrap: anywhere; }
.tp-add { color: #1b5e20; background: #e8f5e9; }
.tp-del { color: #b71c1c; background: #ffebee; }
.tp-hunk { color: #6a1b9a; }
.tp-peers { display: flex; gap: 8px; align-items: flex-start; }
.tp-peers > div { flex: 1 1 0; min-width: 0; border: 1px solid #e3e3e3; padding: 4px; }
.tp-peers > div.tp-closest { border-color: #1565c0; }
.tp-columns { display: flex; gap: 8px; align-items: flex-start; }
.tp-columns > div { flex: 1 1 0; min-width: 0; border: 1px solid #e3e3e3; padding: 4px; }
.tp-columns > div.tp-yours { border-color: #6a1b9a; }
.tp-yours-verdict { padding: 3px 8px; margin-bottom: 6px; border-left: 4px solid #9e9e9e; background: #f3f3f3; }
.tp-yours-same { border-left-color: #2e7d32; background: #e9f6ec; }
.tp-yours-differs, .tp-yours-failed { border-left-color: #c62828; background: #fdecea; }
.tp-prompt-text { background: #f7f7f7; padding: 4px; }
.tp-diagram-box svg { display: block; height: auto; }
.tp-drawing { color: #555; background: #f3f6fa; border-left: 4px solid #8aa4c8; padding: 3px 8px; margin-bottom: 6px; }
/* Tab titles: as wide as their text, never cut; one row at 1400 px (JupyterLab, file browser
   open); on a narrower screen they wrap to a second row. */
.jupyter-widgets.tp-tabs > .lm-TabBar > .lm-TabBar-content { flex-wrap: wrap; }
.jupyter-widgets.tp-tabs > .lm-TabBar .lm-TabBar-tab { flex: 0 0 auto; min-width: 0; max-width: none; padding: 0 7px;
  font-size: 12px; }
.jupyter-widgets.tp-tabs > .lm-TabBar .lm-TabBar-tabLabel { overflow: visible; text-overflow: clip; }
.jupyter-widgets.tp-tabs > .widget-tab-contents { padding: 4px; }  /* the width goes to the panes */
</style>"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=False)  # never used inside an attribute


def _l(model: Model, key: str, **values: Any) -> str:
    """A label for HTML: the values escaped, the label's own markup kept."""
    return model.label(key, **{name: _e(value) for name, value in values.items()})


def _pre(value: Any, model: Optional[Model] = None) -> str:
    text = value if isinstance(value, str) else as_json(value)
    if len(text) > SHOWN_CHARACTERS:
        more = (model.label if model else _english)("cut", count=len(text) - SHOWN_CHARACTERS)
        text = text[:SHOWN_CHARACTERS] + "\n" + more
    return f"<pre>{_e(text)}</pre>"


def _english(key: str, **values: Any) -> str:
    with using("en"):
        return worded(key, **values)


def _note(text: str) -> str:
    return f'<p class="tp-note">{text}</p>'


def _pane(model: Model, body: str) -> str:
    """Wrap a pane's body; a stale result is marked on every pane, not only in the error box."""
    if model.results["stale"]:
        return (
            f'<div class="tp-pane"><div class="tp-stale-banner">{_l(model, "stale", target=model.trace.target)}</div>'
            f'<div class="tp-stale-body">{body}</div></div>'
        )
    return f'<div class="tp-pane">{body}</div>'


def _nothing(model: Model) -> str:
    return _pane(model, _note(_l(model, "nothing_yet")))


def status_html(model: Model) -> str:
    r = model.results
    source = f' <span class="tp-note">— {_l(model, "from_capture", capture=model.capture)}</span>' if model.capture else ""
    if r["error"] is None:
        tools = _l(model, "no_tools") if r["tools_schema"] is None else _l(model, "tools_count", count=len(r["tools_schema"]))
        line = _l(model, "ok", target=model.target, messages=len(r["translated"]), tools=tools,
                  stages=len(r["steps"]), losses=len(r["losses"]))
        return f'<div class="tp-ok">{line}{_status_yours(model)}{source}</div>'
    detail = ""
    if re.match(r"(line|第) \d+", r["error"]):
        detail = _json_context(model.request_text, r["error"])
    shown = _l(model, "shown_stale") if r["stale"] else _l(model, "shown_nothing")
    return f'<div class="tp-bad">⚠ <b>{_e(r["error"])}</b> <span class="tp-note">— {shown}</span>{source}{detail}</div>'


def _status_yours(model: Model) -> str:
    yours: Optional[Yours] = model.results.get("yours")
    if yours is None:
        return ""
    if yours.state == "same":
        verdict = _l(model, "status_yours_same")
    elif yours.state == "differs":
        verdict = _l(model, "status_yours_differs", where=yours.where)
    else:
        verdict = _l(model, "status_yours_other")
    return f' <span class="tp-status-yours">· {_l(model, "status_yours", verdict=verdict)}</span>'


def _json_context(text: str, error: str) -> str:
    """The line a JSON error points at, with a caret under the column. Where the text simply
    stops (the error is on an empty last line), the caret goes after the last thing typed."""
    numbers = re.findall(r"\d+", error.split(":", 1)[0].split("：", 1)[0])  # "line 3, column 14" (or 第 3 行，第 14 列)
    if len(numbers) < 2:
        return ""
    line, column = int(numbers[0]), int(numbers[1])
    lines = text.split("\n")
    index = min(line, len(lines)) - 1
    if not lines[index][column - 1:].strip():  # nothing at or after the column on this line
        while index > 0 and not lines[index].strip():
            index -= 1
        column = len(lines[index].rstrip()) + 1
    shown, start = lines[index], 0
    if len(shown) > 200:  # a long line (JSON written on one line): the part around the column
        start = max(0, column - 100)
        shown = shown[start:start + 200]
    return f'<pre style="margin-top:4px">{_e(shown)}\n{" " * (column - 1 - start)}^</pre>'


def translated_html(model: Model) -> str:
    translated = model.results["translated"]
    if translated is None:
        return _nothing(model)
    note = _l(model, f"translated_{model.trace.target}", count=len(translated))
    return _pane(model, _note(note) + _beside_yours(model, "translated", _pre(translated, model)))


def tools_html(model: Model) -> str:
    if model.trace is None:
        return _nothing(model)
    schema = model.results["tools_schema"]
    if schema is None:
        ours = _note(_l(model, "tools_none"))
    else:
        ours = _note(_l(model, f"tools_{model.trace.target}", count=len(schema))) + _pre(schema, model)
    return _pane(model, _beside_yours(model, "tools_schema", ours))


def yours_html(model: Model) -> str:
    """The verdict on the learner's translator: the same, the first difference, or why not run."""
    yours: Optional[Yours] = model.results.get("yours")
    if yours is None:
        return ""
    if yours.state == "same":
        line = _l(model, "yours_same")
    elif yours.state == "differs":
        line = (_l(model, "yours_differs", where=yours.where) + "<br>"
                + _l(model, "yours_where", ours=_short(yours.ours), theirs=_short(yours.theirs), rule=yours.rule or ""))
    else:
        line = _e(yours.message)
    return f'<div class="tp-yours-verdict tp-yours-{_e(yours.state)}">{line}</div>'


def _beside_yours(model: Model, part: str, ours: str) -> str:
    """`ours` alone, or, with the learner's translator, the verdict and two columns."""
    yours: Optional[Yours] = model.results.get("yours")
    if yours is None:
        return ours
    theirs = _pre(getattr(yours, part), model) if yours.state in ("same", "differs") else ""
    return (yours_html(model) + '<div class="tp-columns">'
            f'<div><b>{_l(model, "reference")}</b>{ours}</div>'
            f'<div class="tp-yours"><b>{_l(model, "yours")}</b>{theirs}</div></div>')


def _io(model: Model, left: Any, right: Any) -> str:
    return (f'<div class="tp-io"><div>{_pre(left, model)}</div><div class="tp-arrow">→</div>'
            f"<div>{_pre(right, model)}</div></div>")


def stages_html(model: Model) -> str:
    t = model.trace
    if t is None:
        return _nothing(model)
    parts = [_note(_l(model, "stages_note", target=t.target))]
    number = 0
    if t.preprocessed != t.body:
        number += 1
        parts.append(f'<div class="tp-step"><b>{number}. {_l(model, "preprocess_step")}'
                     f"{_io(model, t.body['messages'], t.preprocessed['messages'])}</div>")
    for step in t.steps:
        number += 1
        parts.append(f'<div class="tp-step"><b>{number}. {_e(step.name)}</b> ← <code>{_e(step.path)}</code>'
                     f"{_io(model, step.input, step.output)}</div>")
    return _pane(model, "".join(parts))


@dataclass(frozen=True)
class Drawing:
    """A drawn flow diagram: its DOT, the SVG (None without Graphviz), the hint when it could
    not be rendered, and the runs the picture drew as one summary row each ((path, count),
    e.g. ("messages[3..960]", 958)) when it collapsed a long request."""

    dot: str
    svg: Optional[str] = None
    hint: Optional[str] = None
    collapsed: tuple[tuple[str, int], ...] = ()


def diagram_html(model: Model, drawing: Optional[Drawing], zoom: str = "readable", current: bool = True) -> str:
    """The diagram pane: `drawing` at a readable size (scrolled) or whole (shrunk into the pane).
    `current=False` says the drawing is of an earlier request and the new one is being drawn."""
    if model.trace is None:
        return _nothing(model)
    if drawing is None:
        return _pane(model, f'<div class="tp-drawing">{_l(model, "diagram_drawing")}</div>')
    parts = [] if current else [f'<div class="tp-drawing">{_l(model, "diagram_old")}</div>']
    if drawing.collapsed:
        runs = model.label("joiner").join(f"{path} ({count})" for path, count in drawing.collapsed)
        parts.append(f'<p class="tp-note tp-collapsed">{_l(model, "diagram_collapsed", runs=runs)}</p>')
    if drawing.svg is None:
        parts.append(_note(_e(drawing.hint or "")) + _pre(drawing.dot, model))
        return _pane(model, "".join(parts))
    parts.append(_note(_l(model, "diagram_readable" if zoom == "readable" else "diagram_whole")))
    parts.append(f'<div class="tp-diagram-box">{sized_svg(drawing.svg, zoom)}</div>')
    return _pane(model, "".join(parts))


def prompt_html(model: Model, prompt: Optional[Prompt], current: bool = True) -> str:
    """The prompt pane: `prompt` (the current request through the chosen family's template),
    or a note that it is being rendered. `current=False`: it is of an earlier request."""
    if model.trace is None:
        return _nothing(model)
    if prompt is None:
        return _pane(model, f'<div class="tp-drawing">{_l(model, "prompt_rendering", family=model.family)}</div>')
    parts = [] if current else [f'<div class="tp-drawing">{_l(model, "prompt_old")}</div>']
    if prompt.missing is not None:
        parts.append(f'<div class="tp-drawing">{_l(model, "prompt_missing", how=prompt.missing)}</div>')
    elif prompt.refusal is not None:
        parts.append(f'<div class="tp-bad">{_l(model, "prompt_refused", family=prompt.family)}'
                     f'<pre style="margin-top:4px">{_e(prompt.refusal)}</pre></div>')
        parts.append(_note(_l(model, "prompt_refused_note")))
    elif prompt.failure is not None:
        parts.append(f'<div class="tp-bad">{_l(model, "prompt_failed", family=prompt.family)}'
                     f'<pre style="margin-top:4px">{_e(prompt.failure)}</pre></div>')
    elif prompt.text is not None:
        if prompt.tokens is not None:
            tokens = _l(model, "prompt_tokens", count=f"{prompt.tokens:,}")
        else:
            tokens = _l(model, "prompt_tokens_unknown", why=prompt.tokens_note or "")
        # `tokens` is a label with its own markup, its values escaped already
        parts.append(_note(model.label("prompt_note", family=_e(prompt.family),
                                       characters=f"{len(prompt.text):,}", tokens=tokens)))
        parts.append(f'<div class="tp-prompt-text">{_pre(prompt.text, model)}</div>')
    return _pane(model, "".join(parts))


_SIZE = re.compile(r'\s(width|height)="([\d.]+)(pt|px)?"')


def sized_svg(svg: str, zoom: str) -> str:
    """Graphviz's SVG without its XML prolog, sized for the pane.

    readable: as wide as the pane when that keeps its smallest text at READABLE_PX or more,
    never wider than its natural size; otherwise at the readable scale, and the pane scrolls.
    whole: shrunk to the pane's width, whatever the text size (an overview)."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    head_end = svg.find(">")
    head = svg[:head_end]
    sizes = {name: float(value) * (4 / 3 if unit in (None, "pt") else 1) for name, value, unit in _SIZE.findall(head)}
    if "width" not in sizes:
        return svg
    fonts = [float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)] or [14.0]
    smallest = min(fonts) * 4 / 3  # pt -> px at natural size
    scale = min(1.0, READABLE_PX / smallest)
    natural = sizes["width"]
    if zoom == "readable":
        style = f"width: clamp({natural * scale:.0f}px, 100%, {natural:.0f}px); max-width: none"
    else:
        style = f"width: 100%; max-width: 100%; max-height: {WHOLE_HEIGHT_PX}px"
    head = _SIZE.sub("", head) + f' style="{style}"'
    return head + svg[head_end:]


def losses_html(model: Model) -> str:
    if model.trace is None:
        return _nothing(model)
    losses = model.results["losses"]
    if not losses:
        return _pane(model, _note(_l(model, "losses_none")))
    rows = "".join(
        f"<tr><td><code>{_e(loss.path)}</code></td><td><code>{_e(_short(loss.value))}</code></td><td>{_e(model.in_its_language(reason_in, loss.reason))}</td></tr>"
        for loss in losses
    )
    head = f'<tr><th>{_l(model, "where")}</th><th>{_l(model, "value")}</th><th>{_l(model, "why")}</th></tr>'
    columns = '<colgroup><col style="width:28%"><col style="width:27%"><col style="width:45%"></colgroup>'
    return _pane(model, _note(_l(model, "losses_note", count=len(losses)))
                 + f'<table class="tp-table">{columns}{head}{rows}</table>')


def _short(value: Any, limit: int = 90) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def changes_html(model: Model) -> str:
    if model.trace is None:
        return _nothing(model)
    diff = model.changes
    if not diff:
        return _pane(model, _note(_l(model, "changes_same")))
    lines = []
    for line in diff.splitlines()[:5000]:
        kind = ""
        if line.startswith(("+++", "---")):
            kind = "tp-note"
        elif line.startswith("@@"):
            kind = "tp-hunk"
        elif line.startswith("+"):
            kind = "tp-add"
        elif line.startswith("-"):
            kind = "tp-del"
        lines.append(f'<span class="{kind}">{_e(line)}</span>' if kind else _e(line))
    return _pane(model, _note(_l(model, "changes_note")) + "<pre>" + "\n".join(lines) + "</pre>")


def peers_html(model: Model, peer: Optional[str] = None) -> str:
    """The recorded peers' verdicts on a `peer: …` preset's body, and `peer`'s output beside
    ours (default: the peer the current target follows most closely)."""
    case = model.peer_case
    if case is None:
        return f'<div class="tp-pane">{_note(_l(model, "peers_choose"))}</div>'
    results = peer_results(case)
    if results is None:
        return f'<div class="tp-pane">{_note(_l(model, "peers_missing", case=case))}</div>'
    closest = CLOSEST_PEER[model.target]
    peer = peer if peer in results else closest if closest in results else next(iter(results))
    r = model.results
    edited = model.body != model.presets.get(model.preset) or r["error"] is not None
    versions = peer_versions()
    rows = []
    for name, result in results.items():
        if not result.get("ok"):
            verdict = _refusal(model, result)
        elif edited or model.trace is None:
            verdict = _l(model, "verdict_not_compared")
        elif (result.get("messages"), result.get("tools")) == (r["translated"], r["tools_schema"]):
            verdict = _l(model, "verdict_same")
        else:
            verdict = _l(model, "verdict_differs")
        name_cell = f"<b>{_e(name)}</b>" + (_l(model, "closest") if name == closest else "")
        rows.append(f"<tr><td>{name_cell}</td><td><code>{_e(versions.get(name, ''))}</code></td><td>{verdict}</td></tr>")
    note = _l(model, "peers_note", case=case) + (_l(model, "peers_edited") if edited else "")
    head = (f'<tr><th>{_l(model, "peer")}</th><th>{_l(model, "version")}</th>'
            f'<th>{_l(model, "against_ours", target=model.target)}</th></tr>')
    columns = '<colgroup><col style="width:27%"><col style="width:33%"><col style="width:40%"></colgroup>'
    table = f'<table class="tp-table">{columns}{head}{"".join(rows)}</table>'
    if model.trace is None:
        ours = f"<p>{_l(model, 'nothing')}</p>"
    else:
        ours = _pre({"messages": r["translated"], "tools": r["tools_schema"]}, model)
    chosen = results[peer]
    if chosen.get("ok"):
        theirs = _pre({"messages": chosen.get("messages"), "tools": chosen.get("tools")}, model)
    else:
        theirs = f"<p>{_refusal(model, chosen)}</p>{_pre(str(chosen.get('error', ''))[:800], model)}"
    sides = (f'<div><b>{_l(model, "ours", target=model.target)}</b>{ours}</div>'
             f'<div class="tp-closest"><b>{_e(peer)}</b>{theirs}</div>')
    return _pane(model, _note(note) + table + f'<div class="tp-peers" style="margin-top:8px">{sides}</div>')


def _refusal(model: Model, result: dict) -> str:
    status = result.get("http_status_if_served")
    return _l(model, "refused", stage=result.get("stage", "?")) + (f" (HTTP {_e(status)})" if status else "")


PANES: tuple[tuple[str, str, Optional[Callable[[Model], str]]], ...] = (
    ("tab_translated", "tp-translated", translated_html),
    ("tab_tools", "tp-tools", tools_html),
    ("tab_stages", "tp-stages", stages_html),
    ("tab_diagram", "tp-diagram", None),  # drawn by the view, off the keystroke path
    ("tab_prompt", "tp-prompt", None),  # rendered by the view, off the keystroke path
    ("tab_losses", "tp-losses", losses_html),
    ("tab_changes", "tp-changes", changes_html),
    ("tab_peers", "tp-peers-pane", None),  # needs the view's choice of peer: peers_html(model, peer)
)
"""(label key of the tab's title, CSS class, HTML function) for each output tab, in order."""
