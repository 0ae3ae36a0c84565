"""The playground's view: ipywidgets that display the model and hand it the reader's edits.

    source row   preset picker · target toggle · Translate   (and, with a capture source:
                 captured-request picker · refresh · how many)
    status       ✓ what came out, or ⚠ the located error (with a caret under broken JSON)
    editor       the request as JSON text      |  tabs: translated · tools_schema · stages ·
                                               |        diagram · prompt · stays behind ·
                                               |        vs README · peers

Nothing heavy runs on the keystroke path. Typing only records the text; after a pause of
DEBOUNCE_SECONDS a timer thread gives it to the model. Only the visible tab is drawn; the
others are drawn when they are shown. The diagram (Graphviz can take seconds on a pasted
real request) and the prompt (a real chat template through transformers, then its
tokenizer) are each made by one worker thread, only while their tab is visible: the newest
request wins, a result that finishes after a newer edit is kept for later but not shown
as current, and the editor stays live while they work. (ipywidgets may be updated from any
thread; each thread marks the changes it makes itself, so they are not taken for the reader's.)
"""

from __future__ import annotations

import functools
import threading
import traceback
from typing import Any, Callable, Optional

from ...targets import names as target_names
from .model import Model, capture_title
from .panes import CSS, PANES, Drawing, diagram_html, peers_html, prompt_html, status_html
from .presets import CLOSEST_PEER, peer_versions
from .prompt import Prompt, families, render_prompt

DEBOUNCE_SECONDS = 0.4
IDLE_SECONDS = 30.0  # the drawing thread ends after this long without work (a new one starts when needed)


def draw_flow(trace) -> Drawing:
    """The one place that knows the pictures module's API: the flow of one request, drawn in
    the current language (the drawer's thread, and book/playground_picture.py, run it inside
    `Model.in_its_language`, so it speaks the playground's).

    `pictures.flow.local_flow(trace)` gives DOT text whose `.collapsed` lists the
    runs drawn as one summary row (`Collapsed` with `.path` and `.count`); `show(dot)` gives
    an object with `.svg`, or with `.dot` and `.hint` when Graphviz is missing."""
    from ...pictures import flow

    made = flow.local_flow(trace)
    shown = flow.show(made)
    collapsed = tuple((str(run.path), int(run.count)) for run in getattr(made, "collapsed", ()))
    return Drawing(dot=str(made), svg=getattr(shown, "svg", None), hint=getattr(shown, "hint", None), collapsed=collapsed)


class _Worker:
    """One background thread that works on the newest job it was given; older waiting jobs
    are dropped. `done(job, result_or_exception)` runs on that thread."""

    def __init__(self, name: str, work: Callable[[Any], Any], done: Callable[[Any, Any], None]):
        self._name, self._draw, self._done = name, work, done
        self._cond = threading.Condition()
        self._job: Any = None
        self._busy = False
        self._thread: Optional[threading.Thread] = None

    def request(self, job: Any) -> None:
        with self._cond:
            self._job = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait(self, timeout: float) -> bool:
        """Wait until nothing is waiting or being drawn; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._job is None and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                if not self._cond.wait_for(lambda: self._job is not None, IDLE_SECONDS):
                    self._thread = None
                    return
                job, self._job, self._busy = self._job, None, True
            try:
                try:
                    result = self._draw(job)
                except Exception as error:
                    result = error
                self._done(job, result)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()


class View:
    """The widgets. They display the model; edits go to the model after a pause in typing."""

    # Heights are fixed, so the layout never jumps as results come and go. In a notebook they
    # fit a chapter's output area; in a window (the app view) they follow the window's height,
    # less the rows above: the controls, the status box and the tab titles.
    EDITOR_HEIGHT = "600px"
    PANE_HEIGHT = "560px"
    UNDER_BUTTONS_HEIGHT = "524px"  # a pane with a row of buttons above it
    STATUS_HEIGHT = "80px"
    WINDOW_HEIGHTS = {
        "EDITOR_HEIGHT": "max(300px, calc(100vh - 150px))",
        "PANE_HEIGHT": "max(260px, calc(100vh - 190px))",
        "UNDER_BUTTONS_HEIGHT": "max(224px, calc(100vh - 226px))",
        "STATUS_HEIGHT": "62px",
    }

    def __init__(self, model: Model, window: bool = False):
        import ipywidgets as w

        if window:
            for name, height in self.WINDOW_HEIGHTS.items():
                setattr(self, name, height)

        self.model = model
        label = model.label  # every label of the view in the playground's language
        self._pending_lock = threading.Lock()  # guards the text waiting for the pause, and its timer
        self._render_lock = threading.RLock()  # one thread at a time puts results into the panes
        self._local = threading.local()  # .quiet / .applying: set by the view itself, in this thread
        self._timer: Optional[threading.Timer] = None
        self._pending: Optional[str] = None  # editor text not yet given to the model
        self._dirty: set[str] = set()  # panes whose HTML is older than the model
        self._drawn: Optional[tuple[Any, Drawing]] = None  # (trace, its drawing), the newest finished
        self.drawings = 0  # how many drawings were made (the tests count them)
        self._drawer = _Worker("playground-drawer", lambda job: model.in_its_language(draw_flow, job[1]),
                               self._guarded(self._on_drawn))
        self._rendered: Optional[tuple[Any, Prompt]] = None  # (trace, its prompt), the newest finished
        self.renderings = 0  # how many prompts were rendered (the tests count them)
        self._renderer = _Worker("playground-prompt", lambda job: model.in_its_language(render_prompt, job[0], job[1]),
                                 self._guarded(self._on_rendered))

        self.preset = w.Dropdown(options=list(model.presets), value=model.from_preset,
                                 description=label("preset"), layout=w.Layout(width="400px"))
        self.preset_note = w.HTML()  # "your own request", once the editor no longer holds the preset
        targets = list(target_names())
        self.target = w.ToggleButtons(options=targets, value=model.target,
                                      tooltips=[label(f"target_tip_{name}") for name in targets],
                                      style={"button_width": "120px"})
        self.button = w.Button(description=label("translate"), icon="play", button_style="primary",
                               tooltip=label("translate_tip"))
        self.editor = _editor_class()(value=model.request_text, continuous_update=True,
                                      layout=w.Layout(width="100%", height=self.EDITOR_HEIGHT))
        self.status = w.HTML(layout=w.Layout(height=self.STATUS_HEIGHT, overflow="auto", width="100%"))
        self.panes: dict[str, Any] = {}
        for key, css, _ in PANES:
            pane = w.HTML(layout=w.Layout(height=self.PANE_HEIGHT, overflow="auto", width="100%"))
            pane.add_class(css)
            self.panes[key] = pane
        # The diagram at a readable size (scrolled) or whole (shrunk into the pane).
        sizes = ("readable", "whole")
        self.zoom = w.ToggleButtons(options=[(label(f"zoom_{size}"), size) for size in sizes], value="readable",
                                    tooltips=[label(f"zoom_tip_{size}") for size in sizes],
                                    style={"button_width": "90px"})
        # Which recorded peer to show beside ours (for a "peer: …" preset).
        self.peer = w.ToggleButtons(options=list(peer_versions()) or list(CLOSEST_PEER.values()),
                                    value=CLOSEST_PEER[model.target], style={"button_width": "80px"})
        # Whose real chat template renders the prompt.
        self.family = w.Dropdown(options=list(families()), value=model.family, description=label("family"),
                                 tooltip=label("family_tip"), layout=w.Layout(width="280px"))
        for key in ("tab_diagram", "tab_peers", "tab_prompt"):
            self.panes[key].layout.height = self.UNDER_BUTTONS_HEIGHT
        above = {"tab_diagram": self.zoom, "tab_peers": self.peer, "tab_prompt": self.family}
        children = [w.VBox([above[key], pane]) if key in above else pane for key, pane in self.panes.items()]
        self.keys = [key for key, _, _ in PANES]
        self.tabs = w.Tab(children=children, titles=[label(key) for key in self.keys])
        self.log = w.Output(layout=w.Layout(max_height="140px", overflow="auto", width="100%"))

        rows = [w.HTML(CSS),
                w.HBox([self.preset, self.preset_note, self.target, self.button],
                       layout=w.Layout(align_items="center", flex_flow="row wrap"))]
        self.captured = self.refresh = self.captures_note = None
        if model.capture_source is not None:
            self.captured = w.Dropdown(options=[], value=None, description=label("captured"),
                                       layout=w.Layout(width="440px"))
            self.refresh = w.Button(icon="refresh", tooltip=label("refresh"), layout=w.Layout(width="40px"))
            self.captures_note = w.HTML()
            rows.append(w.HBox([self.captured, self.refresh, self.captures_note],
                               layout=w.Layout(align_items="center", flex_flow="row wrap")))
        # The output column gets the larger share: its eight tab titles must fit on one row
        # beside the editor in JupyterLab at 1400 px with the file browser open.
        editor_column = w.VBox([self.editor], layout=w.Layout(flex="36 1 280px", min_width="280px"))
        output_column = w.VBox([self.tabs], layout=w.Layout(flex="64 1 500px", min_width="0"))
        rows += [self.status, w.HBox([editor_column, output_column], layout=w.Layout(width="100%", flex_flow="row wrap")),
                 self.log]
        self.root = w.VBox(rows)
        self.root.add_class("tp-playground")
        if window:
            self.root.add_class("tp-window")
        for widget, css in ((self.preset, "tp-preset"), (self.target, "tp-target"), (self.button, "tp-translate"),
                            (self.editor, "tp-editor"), (self.status, "tp-error"), (self.status, "tp-status"),
                            (self.tabs, "tp-tabs"), (self.log, "tp-log"), (self.zoom, "tp-zoom"),
                            (self.peer, "tp-peer-picker"), (self.captured, "tp-captured"),
                            (self.family, "tp-family"), (self.preset_note, "tp-preset-note"),
                            (self.refresh, "tp-refresh"), (self.captures_note, "tp-captures-note")):
            if widget is not None:
                widget.add_class(css)

        self.editor.observe(self._guarded(self._on_edit), names="value")
        self.preset.observe(self._guarded(self._on_preset), names="value")
        self.target.observe(self._guarded(self._on_target), names="value")
        self.button.on_click(self._guarded(lambda _button: self._translate_now()))
        self.zoom.observe(self._guarded(lambda _change: self._show_diagram()), names="value")
        self.peer.observe(self._guarded(lambda _change: self._redraw("tab_peers")), names="value")
        self.family.observe(self._guarded(self._on_family), names="value")
        self.tabs.observe(self._guarded(lambda _change: self._show_selected()), names="selected_index")
        if self.captured is not None:
            self.captured.observe(self._guarded(self._on_capture), names="value")
            self.refresh.on_click(self._guarded(lambda _button: self.model.refresh_captures()))
            self._show_captures()
        model.on_change(self._guarded(self._on_model))
        self._show_preset()
        self._render()

    # Callback errors go to the Output widget: JupyterLab shows nothing printed inside a callback.
    def _guarded(self, callback: Callable) -> Callable:
        def guarded(*args):
            try:
                callback(*args)
            except Exception:
                self.log.append_stderr(traceback.format_exc())

        return guarded

    def _is(self, flag: str) -> bool:
        return getattr(self._local, flag, False)

    def _set_quietly(self, widget: Any, **values: Any) -> None:
        """Set a widget's traits without taking the change for the reader's."""
        self._local.quiet = True
        try:
            for name, value in values.items():
                if getattr(widget, name) != value:
                    setattr(widget, name, value)
        finally:
            self._local.quiet = False

    # -- from the widgets to the model -------------------------------------------

    def _on_edit(self, change: dict) -> None:
        if self._is("quiet"):  # the view itself set the text
            return
        with self._pending_lock:
            self._pending = change["new"]
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(DEBOUNCE_SECONDS, self._guarded(self.flush))
            self._timer.daemon = True
            self._timer.start()

    def _take_pending(self) -> Optional[str]:
        with self._pending_lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            text, self._pending = self._pending, None
            return text

    def flush(self) -> None:
        """Give the model the edit that waits for the pause in typing, now."""
        text = self._take_pending()
        if text is not None and text != self.model.request_text:
            self._give(text)

    def _give(self, text: str) -> None:
        self._local.applying = True
        try:
            self.model.request_text = text
        finally:
            self._local.applying = False

    def wait(self, timeout: float = 30.0) -> bool:
        """Apply a waiting edit, then wait for the diagram and the prompt being made; False on timeout."""
        self.flush()
        return self._drawer.wait(timeout) and self._renderer.wait(timeout)

    def _translate_now(self) -> None:
        self._take_pending()
        self._give(self.editor.value)  # recomputes even when unchanged

    def _on_preset(self, change: dict) -> None:
        if not self._is("quiet") and change["new"] is not None:
            self._take_pending()
            self.model.preset = change["new"]

    def _on_capture(self, change: dict) -> None:
        if not self._is("quiet") and change["new"] is not None:
            self._take_pending()
            self.model.capture = change["new"]

    def _on_family(self, change: dict) -> None:
        if not self._is("quiet") and change["new"] is not None:
            self.model.family = change["new"]

    def _on_target(self, change: dict) -> None:
        if not self._is("quiet"):
            self.flush()  # an edit still waiting is translated for the new target too
            self.model.target = change["new"]

    def select(self, key: str) -> None:
        """Show the tab `key` ("tab_diagram", ...), as a click on its title would."""
        self.tabs.selected_index = self.keys.index(key)

    # -- from the model to the widgets -------------------------------------------

    def _on_model(self, what: str) -> None:
        if what == "captures":
            self._show_captures()
            return
        with self._render_lock:
            model = self.model
            if what in ("text", "preset", "capture") and not self._is("applying"):
                self._take_pending()  # set from code (or a picker): that text wins over one typed before
                self._set_quietly(self.editor, value=model.request_text)
            self._show_preset()
            self._set_quietly(self.target, value=model.target)
            self._set_quietly(self.family, value=model.family)
            if self.captured is not None:
                self._show_captures()
            if what == "target" and CLOSEST_PEER[model.target] in self.peer.options:
                self._set_quietly(self.peer, value=CLOSEST_PEER[model.target])
            self._render()

    def _show_preset(self) -> None:
        """The picker names the preset only while the editor holds its body."""
        model = self.model
        self._set_quietly(self.preset, value=model.from_preset)
        if model.from_preset is not None:
            note = ""
        elif model.preset is not None:
            note = model.label("edited_from", preset=_escape(model.preset))
        else:
            note = model.label("edited")
        self.preset_note.value = f'<span class="tp-note">{note}</span>' if note else ""

    def _show_captures(self) -> None:
        model = self.model
        with self._render_lock:
            options = tuple((capture_title(c), c["id"]) for c in model.captured)  # as the Dropdown keeps them
            ids = [c["id"] for c in model.captured]
            self._set_quietly(self.captured, options=options)
            self._set_quietly(self.captured, value=model.capture if model.capture in ids else None)
            if model.captures_error:
                note = model.captures_error
            elif not options:
                note = model.label("captures_none")
            else:
                note = model.label("captures_count", count=len(options))
            self.captures_note.value = f'<span class="tp-note">{_escape(note)}</span>'

    def _render(self) -> None:
        """The status at once; of the panes, only the visible one (the others when shown)."""
        with self._render_lock:
            self.status.value = status_html(self.model)
            for widget in (self.status, self.tabs):
                if self.model.results["error"] is None:
                    widget.remove_class("tp-has-error")
                else:
                    widget.add_class("tp-has-error")
            self._dirty = set(self.keys)
            self._show_selected()

    def _selected(self) -> str:
        index = self.tabs.selected_index
        return self.keys[index] if index is not None else self.keys[0]

    def _show_selected(self) -> None:
        key = self._selected()
        if key == "tab_diagram":
            self._show_diagram()
        elif key == "tab_prompt":
            self._show_prompt()
        elif key in self._dirty:
            self._redraw(key)

    def _redraw(self, key: str) -> None:
        with self._render_lock:
            make = dict((k, f) for k, _, f in PANES)[key]
            try:
                value = peers_html(self.model, self.peer.value) if key == "tab_peers" else make(self.model)
            except Exception:
                value = "<pre>" + _escape(traceback.format_exc()) + "</pre>"
            if self.panes[key].value != value:
                self.panes[key].value = value
            self._dirty.discard(key)

    def _show_diagram(self) -> None:
        """Show the current request's diagram when it is drawn; else ask the drawer for it."""
        with self._render_lock:
            if self._selected() != "tab_diagram":
                return
            model, pane = self.model, self.panes["tab_diagram"]
            trace = model.trace
            if trace is not None and (self._drawn is None or self._drawn[0] is not trace):
                earlier = self._drawn[1] if self._drawn else None
                pane.value = diagram_html(model, earlier, self.zoom.value, current=False)
                self._drawer.request((model.generation, trace))
                return
            value = diagram_html(model, self._drawn[1] if self._drawn else None, self.zoom.value)
            if pane.value != value:
                pane.value = value
            self._dirty.discard("tab_diagram")

    def _show_prompt(self) -> None:
        """Show the current request's prompt when it is rendered; else ask the renderer for it."""
        with self._render_lock:
            if self._selected() != "tab_prompt":
                return
            model, pane = self.model, self.panes["tab_prompt"]
            trace, family = model.trace, model.family
            done = self._rendered
            if trace is not None and (done is None or done[0] is not trace or done[1].family != family):
                earlier = done[1] if done and done[1].family == family else None
                pane.value = prompt_html(model, earlier, current=earlier is None)
                self._renderer.request((trace, family))
                return
            value = prompt_html(model, done[1] if done else None)
            if pane.value != value:
                pane.value = value
            self._dirty.discard("tab_prompt")

    def _on_rendered(self, job: tuple, result: Any) -> None:
        """On the prompt's thread: keep the prompt; show it if it is still the current request's."""
        trace, family = job
        if isinstance(result, Exception):  # render_prompt says everything itself; this is a bug's net
            result = Prompt(family, failure=f"{type(result).__name__}: {result}")
        with self._render_lock:
            self.renderings += 1
            self._rendered = (trace, result)
            self.model.keep_prompt(trace, result)
            if trace is self.model.trace and family == self.model.family:
                self._show_prompt()

    def _on_drawn(self, job: tuple, result: Any) -> None:
        """On the drawing thread: keep the drawing; show it if it is still the current request's."""
        _generation, trace = job
        if isinstance(result, ImportError):
            result = Drawing(dot="", hint=self.model.label("diagram_missing"))
        elif isinstance(result, Exception):
            problem = f"{type(result).__name__}: {result}"
            result = Drawing(dot="", hint=self.model.label("diagram_failed", error=problem))
        with self._render_lock:
            self.drawings += 1
            self._drawn = (trace, result)
            if trace is self.model.trace:
                self._show_diagram()


@functools.lru_cache(maxsize=None)
def _editor_class():
    """A Textarea whose typed text is not echoed back to the browser on every keystroke
    (ipywidgets 8 sends each synced value back; for a pasted request of half a megabyte
    that nearly doubled the cost of a keystroke). Text set from code still goes to the browser."""
    import ipywidgets as w
    from traitlets import Unicode

    class Editor(w.Textarea):
        value = Unicode(help="String value").tag(sync=True, echo_update=False)

    return Editor


def _escape(text: str) -> str:
    import html

    return html.escape(str(text), quote=False)
