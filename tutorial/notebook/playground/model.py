"""The playground's model: a request as JSON text and a target; every result computed from them.

    pg = Playground()
    pg.request_text = '{"messages": [{"role": "user", "content": "hi"}]}'
    pg.results["translated"]   # [{'role': 'user', 'content': 'hi'}]
    pg.target = "openai"
    pg.preset = "server tool"

After every change the model recomputes everything from scratch with `trace()`. Whatever it is
given — half-typed JSON, text nested ten thousand levels deep, a Python value that is not JSON,
a body the contract refuses — ends in `results["error"]`, one line that starts with the place
("line 3, column 14: …" or "messages[2].content[0].tool_use_id: …"); nothing raises out of a
setter of the request. The outputs of the last good request stay, marked `stale`.

A playground can also take its requests from a live server: `Playground(captures=server.captures)`
lists what the server captured (`refresh_captures()`, `captured`) and `pg.capture = "cap_0003"`
loads one into the editor. It receives a function, so this module never imports tutorial.serve.

Two more things ride along, both optional:
- `yours`: the learner's own translator (chapter 05), run on every request the package
  translates; `results["yours"]` says whether it agrees, or where it first differs (yours.py);
- `family`: the model family whose real chat template the prompt tab renders (`pg.prompt`
  renders it here and now; the view renders it off the keystroke path, see prompt.py).

This module knows nothing of widgets: the view reads it and `Playground` (session.py) joins
the two, so the imports run one way only: model <- panes <- view <- session.
"""

from __future__ import annotations

import difflib
import functools
import threading
from typing import Any, Callable, Iterable, Optional, Union

from ...examples import readme_request
from ...targets import check_target
from ...watch.trace import Trace, trace
from ..show import as_json
from .inputs import Located, describe_error, parse, shown_as_text, value_problem
from ...words import check, current, using
from .labels import worded
from .presets import README, name_in, peer_case_of, presets
from .prompt import Prompt, default_family, families, render_prompt
from .yours import Yours, compare_yours, load_yours

CaptureSource = Callable[[], Iterable[dict]]


# ---------------------------------------------------------------------------
# Captured requests (from a function, e.g. a running tutorial.serve server's `captures`)


def capture_title(capture: dict) -> str:
    """One line for the capture picker: id · time · method path · summary."""
    time = str(capture.get("time") or "")
    clock = time[11:19] if len(time) >= 19 else time  # "2026-11-30T14:32:05.123+00:00" -> "14:32:05"
    parts = [str(capture.get("id", "?")), clock, f"{capture.get('method') or ''} {capture.get('path') or ''}".strip()]
    summary = str(capture.get("summary") or "")
    if summary:
        parts.append(summary if len(summary) <= 60 else summary[:59] + "…")
    return " · ".join(part for part in parts if part)


def _as_source(captures: Union[None, CaptureSource, Iterable[dict]]) -> Optional[CaptureSource]:
    if captures is None or callable(captures):
        return captures
    fixed = list(captures)  # a list given instead of a function: always the same captures
    return lambda: fixed


@functools.lru_cache(maxsize=8)
def _readme_trace(target: str) -> Trace:
    return trace(readme_request(), target=target)


# ---------------------------------------------------------------------------
# The model


class Model:
    """Edit a request, pick a target, and read every stage's result in `results`.

    Setting `request_text`, `target`, `preset`, `capture` or `yours` recomputes at once. `results`
    holds `translated`, `tools_schema`, `steps`, `losses`, `error`, `stale` and `yours` (None
    without a translator of the learner's); `trace` is the Trace
    those outputs come from (None before any request has been translated). The view is
    built by `Playground` (session.py), which is this model plus its widgets.

    `captures` is a function that returns the captured requests (dicts with "id", "time",
    "path", "body", ...), such as a running server's `captures`; `lang` is "en" or "zh";
    `yours` the learner's `translate` (a function, or the path of a .py file defining it);
    `family` the template family of the prompt tab (`families()` lists them).
    """

    def __init__(self, *, target: str = "chat_template", preset: str = README,
                 captures: Union[None, CaptureSource, Iterable[dict]] = None, lang: Optional[str] = None,
                 yours: Any = None, family: Optional[str] = None):
        self.lang = current() if lang is None else check(lang)  # this playground's language, kept
        self.presets: dict[str, Union[dict, str]] = self.in_its_language(presets)
        self._lock = threading.RLock()
        self._listeners: list[Callable[[str], None]] = []
        self._target = check_target(target)
        self._preset: Optional[str] = self._checked_preset(preset)
        self._capture: Optional[str] = None
        self._given_error: Optional[str] = None  # why the value given as request_text is not JSON text
        self._request_text = self.preset_text(self._preset)
        self._yours_source = yours
        self._yours, self._yours_problem = self.in_its_language(load_yours, yours)
        self._family = self._checked_family(family) if family is not None else default_family()
        self._prompt: Optional[tuple[Trace, Prompt]] = None  # the last prompt rendered here, for its trace
        self._edited = False  # the text no longer holds the chosen preset's body
        self.capture_source: Optional[CaptureSource] = _as_source(captures)
        self.captured: list[dict] = []  # the captures listed last, newest first
        self.captures_error: Optional[str] = None
        self.trace: Optional[Trace] = None  # the last good trace
        self.body: Any = None  # the last good body
        self.results: dict[str, Any] = {}
        self.generation = 0  # counts recomputes (the view tags each drawing it asks for with it)
        self._recompute()
        if self.capture_source is not None:
            self._list_captures()

    # -- what can be set --------------------------------------------------------

    @property
    def request_text(self) -> str:
        return self._request_text

    @request_text.setter
    def request_text(self, text: Any) -> None:
        """JSON text, or a value (a body dict) shown as the editor would show it. Never raises."""
        with self._lock:
            self._set_text(text)
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
    def preset(self) -> Optional[str]:
        """The preset chosen last, named in the playground's language (the text may have been
        edited since); None after a capture was loaded. A preset may be set by its name in
        any language: `pg.preset = "server tool"` chooses 「服务端工具」 in Chinese."""
        return self._preset

    @preset.setter
    def preset(self, name: str) -> None:
        with self._lock:
            self._preset = self._checked_preset(name)
            self._capture = None
            self._set_text(self.preset_text(self._preset))
            self._recompute()
        self._notify("preset")

    @property
    def capture(self) -> Optional[str]:
        """The id of the capture loaded last (None once a preset is chosen)."""
        return self._capture

    @capture.setter
    def capture(self, capture_id: str) -> None:
        with self._lock:
            found = self._find_capture(capture_id)
            if found is None:
                raise ValueError(self.label("capture_gone", capture=capture_id))
            self._capture, self._preset = capture_id, None
            body = found.get("body")
            self._set_text(body)
            if body is None:
                self._given_error = self.label("capture_no_body", capture=capture_id)
            self._recompute()
        self._notify("capture")

    @property
    def yours(self) -> Any:
        """The learner's translator as it was given (a function, a path, a namespace), or None
        (no "yours" column). One that cannot be loaded says why in `results["yours"]`."""
        return self._yours_source

    @yours.setter
    def yours(self, source: Any) -> None:
        with self._lock:
            self._yours_source = source
            self._yours, self._yours_problem = self.in_its_language(load_yours, source)
            self._recompute()
        self._notify("yours")

    @property
    def family(self) -> str:
        """The model family whose chat template the prompt tab renders."""
        return self._family

    @family.setter
    def family(self, name: str) -> None:
        with self._lock:
            self._family = self._checked_family(name)
        self._notify("family")

    @property
    def prompt(self) -> Optional[Prompt]:
        """The current request through `family`'s real chat template (rendered now, on this
        thread; None before any request translated). Never raises: see `Prompt`."""
        with self._lock:
            t, family = self.trace, self._family
            if t is None:
                return None
            if self._prompt is not None and self._prompt[0] is t and self._prompt[1].family == family:
                return self._prompt[1]
        made = self.in_its_language(render_prompt, t, family)
        self.keep_prompt(t, made)
        return made

    def keep_prompt(self, rendered_from: Trace, made: Prompt) -> None:
        """Remember a prompt rendered elsewhere (the view's worker), if still for this request."""
        with self._lock:
            if rendered_from is self.trace:
                self._prompt = (rendered_from, made)

    @property
    def from_preset(self) -> Optional[str]:
        """The preset whose body the editor still holds; None once it was edited or replaced
        (the picker then stops naming it), or after a capture was loaded."""
        return None if self._edited else self._preset

    def refresh_captures(self) -> list[dict]:
        """Ask the capture source again; `captured` holds the list, newest first. Never raises:
        a source that fails leaves the list as it was and says why in `captures_error`."""
        self._list_captures()
        self._notify("captures")
        return self.captured

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
        for part, before, after in (
            ("translated", readme.translated, self.trace.translated),
            ("tools_schema", readme.tools_schema, self.trace.tools_schema),
        ):
            lines += difflib.unified_diff(
                as_json(before).splitlines(),
                as_json(after).splitlines(),
                fromfile=self.label("changes_from", part=part),
                tofile=self.label("changes_to", part=part),
                n=2,
                lineterm="",
            )
        return "\n".join(lines)

    @property
    def peer_case(self) -> Optional[str]:
        """The recorded case id when a peer preset is chosen, else None."""
        return peer_case_of(self._preset)

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call `callback(what)` after each change; `what` is "text", "target", "preset",
        "capture" (all four recompute) or "captures" (the list of captures was refreshed)."""
        self._listeners.append(callback)

    # -- inside -----------------------------------------------------------------

    def in_its_language(self, function: Callable, *args: Any) -> Any:
        """`function(*args)` with this playground's language as the current one: what it says
        is in `lang` whatever the notebook around it speaks (and on the view's threads)."""
        with using(self.lang):
            return function(*args)

    def label(self, key: str, **values: Any) -> str:
        """The label `key` in this playground's language, its placeholders filled."""
        return self.in_its_language(lambda: worded(key, **values))

    def _checked_family(self, name: str) -> str:
        if not isinstance(name, str) or name not in families():
            raise ValueError(self.label("no_family", name=name, names=self.label("joiner").join(families())))
        return name

    def _checked_preset(self, name: str) -> str:
        """The preset's name in this playground's language (given in any language)."""
        named = self.in_its_language(name_in, name) if isinstance(name, str) else name
        if not isinstance(named, str) or named not in self.presets:
            raise ValueError(self.label("no_preset", name=name, names=self.label("joiner").join(self.presets)))
        return named

    def _set_text(self, value: Any) -> None:
        """Make `value` the editor's text; when it cannot be JSON text, remember why."""
        self._given_error = None
        try:
            if isinstance(value, str):
                self._request_text = value
            elif isinstance(value, (bytes, bytearray)):
                try:
                    self._request_text = bytes(value).decode("utf-8")
                except UnicodeDecodeError as error:
                    self._request_text = ""
                    self._given_error = self.label("not_text", kind=type(value).__name__, offset=error.start)
            else:
                problem = self.in_its_language(value_problem, value)  # said in the playground's language
                if problem is None:
                    self._request_text = as_json(value)
                else:
                    self._request_text, self._given_error = shown_as_text(value), problem
        except Exception as error:  # a value whose own methods fail (a str subclass, a dict that lies): said, not raised
            self._request_text, self._given_error = shown_as_text(value), self.in_its_language(describe_error, error)

    def _find_capture(self, capture_id: Any) -> Optional[dict]:
        for attempt in range(2):
            for capture in self.captured:
                if capture.get("id") == capture_id:
                    return capture
            if attempt == 0:
                self._list_captures()  # perhaps it arrived after the last listing
        return None

    def _list_captures(self) -> None:
        if self.capture_source is None:
            self.captured, self.captures_error = [], None
            return
        try:
            listed = [c for c in self.capture_source() if isinstance(c, dict) and "id" in c]
            listed.sort(key=lambda c: (str(c.get("time") or ""), str(c["id"])), reverse=True)
        except Exception as error:  # a stopped server, a broken source: said, never raised
            self.captures_error = self.label("captures_failed", error=f"{type(error).__name__}: {error}")
            return
        self.captured, self.captures_error = listed, None

    def _recompute(self) -> None:
        error: Optional[str] = None
        try:
            if self._given_error is not None:
                raise Located(self._given_error)
            body = self.in_its_language(parse, self._request_text)
            result = trace(body, target=self._target)
        except Exception as problem:  # never into the notebook: shown in the error box instead
            error = " ".join(self.in_its_language(describe_error, problem).split("\n"))  # one line, whatever the message
            if self.trace is not None and self.trace.target != self._target:
                # The target changed: show the last good request in the new target if it can be.
                try:
                    self.trace = trace(self.body, target=self._target)
                except Exception:
                    pass
        else:
            self.trace, self.body = result, body
        t = self.trace
        self._edited = self._preset is None or not self._holds_preset(error)
        yours: Optional[Yours] = None
        if self._yours_source is not None:
            yours = self.in_its_language(compare_yours, self._yours, self._yours_problem, t, self._target, error)
        self.generation += 1
        self.results = {
            "translated": t.translated if t else None,
            "tools_schema": t.tools_schema if t else None,
            "steps": t.steps if t else [],
            "losses": t.losses if t else [],
            "error": error,
            "stale": error is not None and t is not None,
            "yours": yours,
        }

    def _holds_preset(self, error: Optional[str]) -> bool:
        """Whether the editor still holds the chosen preset: the same text, or (a body that
        translates) the same body however it is laid out."""
        if self._request_text == self.preset_text(self._preset):
            return True
        chosen = self.presets[self._preset]
        return error is None and isinstance(chosen, dict) and self.body == chosen

    def _notify(self, what: str) -> None:
        for callback in list(self._listeners):
            callback(what)
