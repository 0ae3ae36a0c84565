"""The playground: edit a request and watch every stage of the translation change.

Two halves, kept apart so that the first can be tested without a browser:

- `Playground` is the model. It holds the request as JSON text and a target, and after
  every change it recomputes everything from scratch with `trace()`: the translated
  messages, the tool schema, every stage, what stays behind. A request that cannot be
  translated (half-typed JSON, a missing field) never raises: `results["error"]` says
  where it is wrong, and the outputs of the last good request stay, marked `stale`.

      pg = Playground()
      pg.request_text = '{"messages": [{"role": "user", "content": "hi"}]}'
      pg.results["translated"]   # [{'role': 'user', 'content': 'hi'}]
      pg.target = "openai"
      pg.preset = "server tool"

- `pg.widget` is the view (ipywidgets, imported only when asked for): a preset picker, a
  JSON editor, a target toggle and one tab per output. The view only displays what the
  model computed; typing recomputes after a short pause, the Translate button at once.
"""

from __future__ import annotations

import copy
import difflib
import functools
import html
import json
import threading
import traceback
from pathlib import Path
from typing import Any, Callable, Optional, Union

from ..errors import RequestError
from ..examples import readme_request
from ..watch.trace import Trace, trace
from ..targets import check_target, names as target_names
from .show import as_json

README = "README example"
HALF_TYPED = "half-typed JSON"
PEER_PREFIX = "peer: "
DEBOUNCE_SECONDS = 0.4

from ..peers import DATA_DIR as PEER_DIR
"""The recorded peer cases; present in a clone of the repository, absent from an install."""

# The peer each target follows most closely (see tutorial/deviations.py).
CLOSEST_PEER = {"chat_template": "slime", "openai": "sglang"}


# ---------------------------------------------------------------------------
# Presets: small requests that each show one rule of the translation


def _tool(name: str, description: str, **properties: str) -> dict:
    return {
        "name": name,
        "description": description,
        "input_schema": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
    }


def _builtin_presets() -> dict[str, Union[dict, str]]:
    readme = readme_request()
    no_pairing_id = readme_request()
    del no_pairing_id["messages"][2]["content"][0]["tool_use_id"]
    readme_text = as_json(readme)
    return {
        README: readme,
        "string system": {
            "system": "You are a terse assistant.",
            "messages": [{"role": "user", "content": "What is 2 + 2?"}],
            "max_tokens": 64,
        },
        "two text blocks in one user message": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Here is my code:"},
                        {"type": "text", "text": "print('hello')"},
                    ],
                }
            ],
            "max_tokens": 64,
        },
        "thinking with signatures": {
            "tools": [_tool("get_weather", "Current weather for a city", city="string")],
            "messages": [
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": "The user wants the weather; ", "signature": "EqQBCkYIBxgC"},
                        {"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCkYIBxgD"},
                        {"type": "text", "text": "Let me check."},
                        {"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {"city": "Paris"}},
                    ],
                },
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_w1", "content": "18°C, sunny"}]},
            ],
            "max_tokens": 256,
        },
        "parallel tool calls": {
            "tools": [_tool("read_file", "Read a file", path="string")],
            "messages": [
                {"role": "user", "content": "Compare a.txt and b.txt."},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.txt"}},
                        {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b.txt"}},
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_a", "content": "alpha"},
                        {"type": "tool_result", "tool_use_id": "toolu_b", "content": "beta"},
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "error result with an image": {
            "tools": [_tool("screenshot", "Capture the screen")],
            "messages": [
                {"role": "user", "content": "Take a screenshot."},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "screenshot", "input": {}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_s",
                            "is_error": True,
                            "content": [
                                {"type": "text", "text": "Only part of the screen was captured."},
                                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                            ],
                        }
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "mixed tool result with a tool reference": {
            "tools": [
                _tool("ToolSearch", "Find a tool by what it does", query="string"),
                {**_tool("Bash", "Run a shell command", command="string"), "defer_loading": True},
            ],
            "messages": [
                {"role": "user", "content": "I need a shell."},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_t", "name": "ToolSearch", "input": {"query": "shell"}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_t",
                            "content": [
                                {"type": "text", "text": "Found one tool:"},
                                {"type": "tool_reference", "tool_name": "Bash"},
                                {"type": "text", "text": "It is loaded now."},
                            ],
                        }
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "mid-list system message": {
            "system": "You are a coding assistant.",
            "messages": [
                {"role": "user", "content": "Fix the bug in main.py."},
                {"role": "assistant", "content": "Which bug do you mean?"},
                {"role": "system", "content": "Reminder: the user prefers small patches."},
                {"role": "user", "content": "The crash on start."},
            ],
            "max_tokens": 128,
        },
        "server tool": {
            "tools": [
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                _tool("read_file", "Read a file", path="string"),
            ],
            "messages": [{"role": "user", "content": "What is new in Python 3.13?"}],
            "max_tokens": 128,
        },
        "unknown block type": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Look at this:"},
                        {"type": "hologram", "frames": 24},
                    ],
                }
            ],
            "max_tokens": 64,
        },
        # Raw text, cut in the middle of the README example: what the editor holds while typing.
        HALF_TYPED: readme_text[: readme_text.index('"read_file"') + len('"read_file"')] + ",\n",
        "missing tool_use_id": no_pairing_id,
    }


@functools.lru_cache(maxsize=1)
def _peer_files(directory: Path) -> tuple[list, Optional[dict]]:
    """cases.json (a list of {"id", "request"}) and outputs_requests.json (or None)."""
    cases = json.loads((directory / "cases.json").read_text(encoding="utf-8"))
    outputs = directory / "outputs_requests.json"
    return cases, (json.loads(outputs.read_text(encoding="utf-8")) if outputs.is_file() else None)


def _peer_data() -> tuple[list, Optional[dict]]:
    try:
        return _peer_files(PEER_DIR)
    except (OSError, ValueError):
        return [], None  # outside the repository (or unreadable): no peer presets


def presets() -> dict[str, Union[dict, str]]:
    """Every preset, name -> request body (a raw string for the half-typed JSON).

    The built-in ones come first, then one per recorded peer case ("peer: 04_image_base64_and_url")
    when the recorded data (tutorial/peers/data) is present. Each call returns fresh copies.
    """
    found = _builtin_presets()
    for case in _peer_data()[0]:
        found[PEER_PREFIX + case["id"]] = copy.deepcopy(case["request"])
    return found


def peer_results(case_id: str) -> Optional[dict]:
    """What each recorded peer built from case `case_id` ({"slime": {...}, ...}), or None."""
    outputs = _peer_data()[1]
    if not outputs:
        return None
    for case in outputs.get("cases", []):
        if case.get("id") == case_id:
            return case.get("results")
    return None


def peer_versions() -> dict[str, str]:
    outputs = _peer_data()[1] or {}
    return {peer: info.get("meta", {}).get("source", "") for peer, info in outputs.get("peers", {}).items()}


# ---------------------------------------------------------------------------
# The model


def describe_error(error: Exception) -> str:
    """One line for the error box: located like the package's errors."""
    if isinstance(error, json.JSONDecodeError):
        return f"line {error.lineno}, column {error.colno}: {error.msg} (the text is not valid JSON yet)"
    if isinstance(error, RequestError):
        return str(error)
    return f"unexpected {type(error).__name__} in the translation (a bug; please report it): {error}"


@functools.lru_cache(maxsize=8)
def _readme_trace(target: str) -> Trace:
    return trace(readme_request(), target=target)


class Playground:
    """Edit a request, pick a target, and read every stage's result in `results`.

    Setting `request_text`, `target` or `preset` recomputes at once. `results` holds
    `translated`, `tools_schema`, `steps`, `losses`, `error` and `stale`; `trace` is the
    Trace those outputs come from (None before any request has been translated).
    """

    def __init__(self, *, target: str = "chat_template", preset: str = README):
        self.presets: dict[str, Union[dict, str]] = presets()
        self._lock = threading.RLock()
        self._listeners: list[Callable[[str], None]] = []
        self._view: Optional[_View] = None
        self._target = check_target(target)
        self._preset = self._checked_preset(preset)
        self._request_text = self.preset_text(preset)
        self.trace: Optional[Trace] = None  # the last good trace
        self.body: Any = None  # the last good body
        self.results: dict[str, Any] = {}
        self._recompute()

    # -- what can be set --------------------------------------------------------

    @property
    def request_text(self) -> str:
        return self._request_text

    @request_text.setter
    def request_text(self, text: Union[str, dict, list]) -> None:
        if not isinstance(text, str):  # a body given as a value: shown as the editor would
            text = as_json(text)
        with self._lock:
            self._request_text = text
            self._recompute()
        self._notify("text")

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, target: str) -> None:
        with self._lock:
            self._target = check_target(target)
            self._recompute()
        self._notify("target")

    @property
    def preset(self) -> str:
        """The preset chosen last (the text may have been edited since)."""
        return self._preset

    @preset.setter
    def preset(self, name: str) -> None:
        with self._lock:
            self._preset = self._checked_preset(name)
            self._request_text = self.preset_text(name)
            self._recompute()
        self._notify("preset")

    def preset_text(self, name: str) -> str:
        value = self.presets[self._checked_preset(name)]
        return value if isinstance(value, str) else as_json(value)

    # -- what can be read -------------------------------------------------------

    @property
    def changes(self) -> str:
        """A unified diff of this request's outputs against the README example's (same target)."""
        if self.trace is None:
            return ""
        readme = _readme_trace(self.trace.target)
        lines = []
        for label, before, after in (
            ("translated", readme.translated, self.trace.translated),
            ("tools_schema", readme.tools_schema, self.trace.tools_schema),
        ):
            lines += difflib.unified_diff(
                as_json(before).splitlines(),
                as_json(after).splitlines(),
                fromfile=f"README example: {label}",
                tofile=f"this request: {label}",
                n=2,
                lineterm="",
            )
        return "\n".join(lines)

    @property
    def peer_case(self) -> Optional[str]:
        """The recorded case id when a peer preset is chosen, else None."""
        return self._preset[len(PEER_PREFIX):] if self._preset.startswith(PEER_PREFIX) else None

    @property
    def widget(self):
        """The view: build it on first use (this is where ipywidgets is imported)."""
        with self._lock:
            if self._view is None:
                self._view = _View(self)
            return self._view.root

    def flush(self) -> None:
        """Apply an edit the view is still waiting to apply (the pause after typing)."""
        if self._view is not None:
            self._view.flush()

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call `callback(what)` after each recompute; `what` is "text", "target" or "preset"."""
        self._listeners.append(callback)

    # -- inside -----------------------------------------------------------------

    def _checked_preset(self, name: str) -> str:
        if name not in self.presets:
            raise ValueError(f"no preset named {name!r}; choose one of: {', '.join(self.presets)}")
        return name

    def _recompute(self) -> None:
        error: Optional[str] = None
        try:
            body = json.loads(self._request_text)
            result = trace(body, target=self._target)
        except Exception as problem:  # never into the notebook: shown in the error box instead
            error = describe_error(problem)
            if self.trace is not None and self.trace.target != self._target:
                # The target changed: show the last good request in the new target if it can be.
                try:
                    self.trace = trace(self.body, target=self._target)
                except Exception:
                    pass
        else:
            self.trace, self.body = result, body
        t = self.trace
        self.results = {
            "translated": t.translated if t else None,
            "tools_schema": t.tools_schema if t else None,
            "steps": t.steps if t else [],
            "losses": t.losses if t else [],
            "error": error,
            "stale": error is not None and t is not None,
        }

    def _notify(self, what: str) -> None:
        for callback in list(self._listeners):
            callback(what)


# ---------------------------------------------------------------------------
# HTML for the output panes: plain functions of the model, deterministic (no ids, no times)

_CSS = """<style>
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
.tp-table { border-collapse: collapse; font-size: 12px; width: 100%; }
.tp-table td, .tp-table th { border-bottom: 1px solid #e3e3e3; padding: 3px 6px; text-align: left; vertical-align: top; }
.tp-add { color: #1b5e20; background: #e8f5e9; }
.tp-del { color: #b71c1c; background: #ffebee; }
.tp-hunk { color: #6a1b9a; }
.tp-peers { display: flex; gap: 8px; align-items: flex-start; }
.tp-peers > div { flex: 1 1 0; min-width: 0; border: 1px solid #e3e3e3; padding: 4px; }
.tp-peers > div.tp-closest { border-color: #1565c0; }
.tp-diagram-box svg { max-width: 100%; height: auto; }
.tp-diagram-full .tp-diagram-box svg { max-width: none; }
</style>"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=False)  # never used inside an attribute


def _pre(value: Any) -> str:
    return f"<pre>{_e(value if isinstance(value, str) else as_json(value))}</pre>"


def _pane(model: Playground, body: str) -> str:
    """Wrap a pane's body; a stale result is marked on every pane, not only in the error box."""
    if model.results["stale"]:
        return (
            '<div class="tp-pane"><div class="tp-stale-banner">Stale: the request in the editor has an error, so this '
            f'is the result of the last good request (target {_e(model.trace.target)}).</div>'
            f'<div class="tp-stale-body">{body}</div></div>'
        )
    return f'<div class="tp-pane">{body}</div>'


def status_html(model: Playground) -> str:
    r = model.results
    if r["error"] is None:
        tools = "no tools" if r["tools_schema"] is None else f"{len(r['tools_schema'])} tool(s)"
        return (
            f'<div class="tp-ok">✓ target <b>{_e(model.target)}</b>: {len(r["translated"])} message(s), {tools}, '
            f'{len(r["steps"])} stage(s); {len(r["losses"])} thing(s) stay behind.</div>'
        )
    detail = ""
    if r["error"].startswith("line "):
        detail = _json_context(model.request_text, r["error"])
    shown = "the tabs keep the last good result (stale)" if r["stale"] else "nothing has been translated yet"
    return f'<div class="tp-bad">⚠ <b>{_e(r["error"])}</b> <span class="tp-note">— {shown}</span>{detail}</div>'


def _json_context(text: str, error: str) -> str:
    """The line a JSON error points at, with a caret under the column. Where the text simply
    stops (the error is on an empty last line), the caret goes after the last thing typed."""
    try:
        where = error.split(":", 1)[0]  # "line 3, column 14"
        line = int(where.split(",")[0].split()[1])
        column = int(where.split(",")[1].split()[1])
    except (IndexError, ValueError):
        return ""
    lines = text.split("\n")
    index = min(line, len(lines)) - 1
    if not lines[index][column - 1:].strip():  # nothing at or after the column on this line
        while index > 0 and not lines[index].strip():
            index -= 1
        column = len(lines[index].rstrip()) + 1
    shown = lines[index]
    return f'<pre style="margin-top:4px">{_e(shown)}\n{" " * (column - 1)}^</pre>'


def translated_html(model: Playground) -> str:
    translated = model.results["translated"]
    if translated is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    note = f"<p class=\"tp-note\">translated: {len(translated)} message(s), for the chat template's <code>messages</code>.</p>"
    return _pane(model, note + _pre(translated))


def tools_html(model: Playground) -> str:
    if model.trace is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    schema = model.results["tools_schema"]
    if schema is None:
        note = '<p class="tp-note">tools_schema is <code>None</code>: the request has no usable tools.</p>'
        return _pane(model, note)
    note = f'<p class="tp-note">tools_schema: {len(schema)} function tool(s), for the chat template\'s <code>tools</code>.</p>'
    return _pane(model, note + _pre(schema))


def _io(left: Any, right: Any) -> str:
    return f'<div class="tp-io"><div>{_pre(left)}</div><div class="tp-arrow">→</div><div>{_pre(right)}</div></div>'


def stages_html(model: Playground) -> str:
    t = model.trace
    if t is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    parts = [f'<p class="tp-note">Every stage of <code>trace(body, target="{_e(t.target)}")</code>, in the order it ran: input → output.</p>']
    number = 0
    if t.preprocessed != t.body:
        number += 1
        parts.append(
            f'<div class="tp-step"><b>{number}. preprocess</b> folded a system message from inside the list '
            f"(body.messages → body.messages){_io(t.body['messages'], t.preprocessed['messages'])}</div>"
        )
    for step in t.steps:
        number += 1
        parts.append(
            f'<div class="tp-step"><b>{number}. {_e(step.name)}</b> ← <code>{_e(step.path)}</code>'
            f"{_io(step.input, step.output)}</div>"
        )
    return _pane(model, "".join(parts))


def diagram_html(model: Playground) -> str:
    t = model.trace
    if t is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    try:
        from ..pictures import flow as diagrams
    except ImportError:
        return _pane(model, '<p class="tp-note">The diagram module (tutorial.diagrams) is not available.</p>')
    dot = diagrams.local_flow(t)
    drawn = diagrams.show(dot)  # a Picture, or the DOT text with what to install when Graphviz is missing
    svg = getattr(drawn, "svg", None)
    if svg is not None:
        return _pane(model, f'<div class="tp-diagram-box">{_strip_xml_prolog(svg)}</div>')
    note = f'<p class="tp-note">{_e(drawn.hint)}</p>'
    return _pane(model, note + _pre(drawn.dot))


def _strip_xml_prolog(svg: str) -> str:
    """Inline SVG in HTML needs no XML declaration or DOCTYPE."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def losses_html(model: Playground) -> str:
    if model.trace is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    losses = model.results["losses"]
    if not losses:
        return _pane(model, '<p class="tp-note">Nothing stays behind: the outputs carry everything in the body.</p>')
    rows = "".join(
        f"<tr><td><code>{_e(loss.path)}</code></td><td><code>{_e(_short(loss.value))}</code></td><td>{_e(loss.reason)}</td></tr>"
        for loss in losses
    )
    note = f'<p class="tp-note">{len(losses)} thing(s) in the body that the outputs do not carry, and why.</p>'
    return _pane(model, note + f'<table class="tp-table"><tr><th>where</th><th>value</th><th>why</th></tr>{rows}</table>')


def _short(value: Any, limit: int = 90) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def changes_html(model: Playground) -> str:
    if model.trace is None:
        return _pane(model, '<p class="tp-note">Nothing translated yet.</p>')
    diff = model.changes
    if not diff:
        return _pane(model, '<p class="tp-note">The same outputs as the README example (for this target).</p>')
    lines = []
    for line in diff.splitlines():
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
    note = '<p class="tp-note">What this request gives differently from the README example, same target (- README, + this request).</p>'
    return _pane(model, note + "<pre>" + "\n".join(lines) + "</pre>")


def peers_html(model: Playground, peer: Optional[str] = None) -> str:
    """The recorded peers' verdicts on a `peer: …` preset's body, and `peer`'s output beside
    ours (default: the peer the current target follows most closely)."""
    case = model.peer_case
    if case is None:
        return (
            '<div class="tp-pane"><p class="tp-note">Choose a preset named "peer: …" to see what the recorded '
            "implementations built from the same body, beside our result.</p></div>"
        )
    results = peer_results(case)
    if results is None:
        return (
            f'<div class="tp-pane"><p class="tp-note">No recorded peer outputs for {_e(case)} '
            "(tutorial/peers/data/outputs_requests.json is missing).</p></div>"
        )
    closest = CLOSEST_PEER[model.target]
    peer = peer if peer in results else closest if closest in results else next(iter(results))
    r = model.results
    edited = model.body != model.presets.get(model.preset) or r["error"] is not None
    versions = peer_versions()
    rows = []
    for name, result in results.items():
        if not result.get("ok"):
            verdict = _refusal(result)
        elif edited or model.trace is None:
            verdict = "built messages (not compared: the body was edited)"
        elif (result.get("messages"), result.get("tools")) == (r["translated"], r["tools_schema"]):
            verdict = "✓ the same messages and tools as ours"
        else:
            verdict = "≠ differs from ours"
        label = f"<b>{_e(name)}</b>" + (" (closest to this target)" if name == closest else "")
        rows.append(f"<tr><td>{label}</td><td><code>{_e(versions.get(name, ''))}</code></td><td>{_e(verdict)}</td></tr>")
    note = (
        f'<p class="tp-note">Case <code>{_e(case)}</code>, as recorded from each implementation.'
        + (" You have edited the body: the recordings are for the preset as given." if edited else "")
        + "</p>"
    )
    table = f'<table class="tp-table"><tr><th>peer</th><th>version</th><th>against ours ({_e(model.target)})</th></tr>{"".join(rows)}</table>'
    ours = _pre({"messages": r["translated"], "tools": r["tools_schema"]}) if model.trace else "<p>nothing yet</p>"
    chosen = results[peer]
    if chosen.get("ok"):
        theirs = _pre({"messages": chosen.get("messages"), "tools": chosen.get("tools")})
    else:
        theirs = f"<p>{_e(_refusal(chosen))}</p>{_pre(str(chosen.get('error', ''))[:800])}"
    columns = f'<div><b>ours ({_e(model.target)})</b>{ours}</div><div class="tp-closest"><b>{_e(peer)}</b>{theirs}</div>'
    return _pane(model, note + table + f'<div class="tp-peers" style="margin-top:8px">{columns}</div>')


def _refusal(result: dict) -> str:
    status = result.get("http_status_if_served")
    return f"refused at {result.get('stage', '?')}" + (f" (HTTP {status})" if status else "")


PANES: tuple[tuple[str, str, Callable[[Playground], str]], ...] = (
    ("translated", "tp-translated", translated_html),
    ("tools schema", "tp-tools", tools_html),
    ("stages", "tp-stages", stages_html),
    ("diagram", "tp-diagram", diagram_html),
    ("stays behind", "tp-losses", losses_html),
    ("vs README", "tp-changes", changes_html),
    ("peers", "tp-peers-pane", peers_html),
)
"""(tab title, CSS class, HTML function) for each output tab, in order."""


# ---------------------------------------------------------------------------
# The view


class _View:
    """The widgets. They display the model; edits go to the model after a pause in typing."""

    EDITOR_HEIGHT = "600px"
    PANE_HEIGHT = "560px"
    DIAGRAM_HEIGHT = "524px"  # the pane height less a row of buttons above it

    def __init__(self, model: Playground):
        import ipywidgets as w

        self.model = model
        self._timer: Optional[threading.Timer] = None
        self._pending: Optional[str] = None  # editor text not yet given to the model
        self._quiet = False  # True while the view itself sets a widget's value
        self._applying = False  # True while the view gives the model an edit

        self.preset = w.Dropdown(options=list(model.presets), value=model.preset, description="preset",
                                 layout=w.Layout(width="440px"))
        self.target = w.ToggleButtons(options=list(target_names()), value=model.target,
                                      tooltips=["the rollout adapter's shape (the walk-through)",
                                                "an OpenAI-compatible engine's /v1/messages endpoint"],
                                      style={"button_width": "120px"})
        self.button = w.Button(description="Translate", icon="play", button_style="primary",
                               tooltip="Translate now (typing also translates after a short pause)")
        self.editor = w.Textarea(value=model.request_text, continuous_update=True,
                                 layout=w.Layout(width="100%", height=self.EDITOR_HEIGHT))
        self.status = w.HTML(layout=w.Layout(height="80px", overflow="auto", width="100%"))
        self.panes = {}
        for title, css, _ in PANES:
            pane = w.HTML(layout=w.Layout(height=self.PANE_HEIGHT, overflow="auto", width="100%"))
            pane.add_class(css)
            self.panes[title] = pane
        # The diagram fits the pane, or is shown at full size (readable, scrolled).
        self.zoom = w.ToggleButtons(options=["fit", "full size"], value="fit", style={"button_width": "80px"})
        self.zoom.add_class("tp-zoom")
        self.panes["diagram"].layout.height = self.DIAGRAM_HEIGHT
        # Which recorded peer to show beside ours (for a "peer: …" preset).
        self.peer = w.ToggleButtons(options=list(peer_versions()) or list(CLOSEST_PEER.values()),
                                    value=CLOSEST_PEER[model.target], style={"button_width": "80px"})
        self.peer.add_class("tp-peer-picker")
        self.panes["peers"].layout.height = self.DIAGRAM_HEIGHT
        extra = {"diagram": self.zoom, "peers": self.peer}
        children = [w.VBox([extra[title], pane]) if title in extra else pane for title, pane in self.panes.items()]
        self.tabs = w.Tab(children=children, titles=[title for title, _, _ in PANES], layout=w.Layout(width="100%"))
        self.log = w.Output(layout=w.Layout(max_height="140px", overflow="auto", width="100%"))

        for widget, css in ((self.preset, "tp-preset"), (self.target, "tp-target"), (self.button, "tp-translate"),
                            (self.editor, "tp-editor"), (self.status, "tp-error"), (self.status, "tp-status"),
                            (self.tabs, "tp-tabs"), (self.log, "tp-log")):
            widget.add_class(css)

        editor_column = w.VBox([self.editor], layout=w.Layout(width="42%", min_width="320px"))
        output_column = w.VBox([self.tabs], layout=w.Layout(width="58%"))
        self.root = w.VBox([
            w.HTML(_CSS),
            w.HBox([self.preset, self.target, self.button], layout=w.Layout(align_items="center", flex_flow="row wrap")),
            self.status,
            w.HBox([editor_column, output_column], layout=w.Layout(width="100%")),
            self.log,
        ])
        self.root.add_class("tp-playground")

        self.editor.observe(self._guarded(self._on_edit), names="value")
        self.preset.observe(self._guarded(self._on_preset), names="value")
        self.target.observe(self._guarded(self._on_target), names="value")
        self.button.on_click(self._guarded(lambda _button: self._translate_now()))
        self.zoom.observe(self._guarded(self._on_zoom), names="value")
        self.peer.observe(self._guarded(lambda _change: self._render()), names="value")
        model.on_change(self._guarded(self._on_model))
        self._render()

    # Callback errors go to the Output widget: JupyterLab shows nothing printed inside a callback.
    def _guarded(self, callback: Callable) -> Callable:
        def guarded(*args):
            try:
                callback(*args)
            except Exception:
                self.log.append_stderr(traceback.format_exc())

        return guarded

    # -- from the widgets to the model -------------------------------------------

    def _on_edit(self, change: dict) -> None:
        with self.model._lock:
            if self._quiet:  # the view itself set the text
                return
            self._pending = change["new"]
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(DEBOUNCE_SECONDS, self._guarded(self.flush))
            self._timer.daemon = True
            self._timer.start()

    def flush(self) -> None:
        """Give the model the edit that waits for the pause in typing, now."""
        with self.model._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            text, self._pending = self._pending, None
            if text is None or text == self.model.request_text:
                return
            self._applying = True
            try:
                self.model.request_text = text
            finally:
                self._applying = False

    def _translate_now(self) -> None:
        with self.model._lock:
            self._drop_pending()
            self._applying = True
            try:
                self.model.request_text = self.editor.value  # recomputes even when unchanged
            finally:
                self._applying = False

    def _on_preset(self, change: dict) -> None:
        if not self._quiet:
            self._drop_pending()
            self.model.preset = change["new"]

    def _on_target(self, change: dict) -> None:
        if not self._quiet:
            self.flush()  # an edit still waiting is translated for the new target too
            self.model.target = change["new"]

    def _on_zoom(self, change: dict) -> None:
        if change["new"] == "fit":
            self.panes["diagram"].remove_class("tp-diagram-full")
        else:
            self.panes["diagram"].add_class("tp-diagram-full")

    def _drop_pending(self) -> None:
        with self.model._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._pending = None

    # -- from the model to the widgets -------------------------------------------

    def _on_model(self, what: str) -> None:
        with self.model._lock:
            self._quiet = True
            try:
                if what in ("text", "preset") and not self._applying:
                    self._drop_pending()  # set from code: the code's text wins
                    if self.editor.value != self.model.request_text:
                        self.editor.value = self.model.request_text
                if self.preset.value != self.model.preset:
                    self.preset.value = self.model.preset
                if self.target.value != self.model.target:
                    self.target.value = self.model.target
                if what == "target" and CLOSEST_PEER[self.model.target] in self.peer.options:
                    self.peer.value = CLOSEST_PEER[self.model.target]
            finally:
                self._quiet = False
            self._render()

    def _render(self) -> None:
        self.status.value = status_html(self.model)
        for widget in (self.status, self.tabs):
            if self.model.results["error"] is None:
                widget.remove_class("tp-has-error")
            else:
                widget.add_class("tp-has-error")
        for title, _, make in PANES:
            try:
                value = peers_html(self.model, self.peer.value) if make is peers_html else make(self.model)
            except Exception:
                value = "<pre>" + _e(traceback.format_exc()) + "</pre>"
            if self.panes[title].value != value:
                self.panes[title].value = value


__all__ = ["Playground", "presets", "peer_results", "describe_error", "README", "DEBOUNCE_SECONDS"]
