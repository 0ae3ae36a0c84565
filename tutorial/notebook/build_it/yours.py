"""The learner's translate beside the playground (chapter 05, 5.7)."""

from __future__ import annotations

import html
from typing import Callable

from ...words import current, using
from ..exercises import Verdict
from .checker import explain, is_stub, run, _root
from .texts import TEXT


class YourPlayground:
    """The playground with a second opinion: `model` is an ordinary `Playground`; each time
    its request changes, `translate` (the learner's) runs on the same preprocessed body and
    `compare()` says whether it agrees with the package, in the language current when it was
    made (a widget's callbacks run later, outside any `using` block)."""

    def __init__(self, translate: Callable):
        from ..playground import Playground  # the playground loads only when this is built

        self.translate = translate
        self.lang = current()
        self.model = Playground()
        self._pane = None
        self.model.on_change(lambda what: self._redraw())

    def compare(self) -> Verdict:
        """Your translate against the package's on the playground's current request."""
        with using(self.lang):
            return self._compare()

    def _compare(self) -> Verdict:
        model, words = self.model, TEXT[self.lang]
        if is_stub(self.translate):
            return Verdict("unanswered", words["yours_unwritten"])
        if model.results.get("error"):
            return Verdict("unanswered", words["yours_error"].format(error=model.results["error"]))
        if model.target != "chat_template":
            return Verdict("unanswered", words["yours_target"].format(target=model.target))
        # The playground preprocesses before it translates, as _run_turn does; yours gets the same body.
        body = model.trace.preprocessed
        expected = (model.results["translated"], model.results["tools_schema"])
        problem, _ = explain((body,), run(self.translate, (body,)), expected, root=_root("translate"))
        which = words["preset"].format(preset=model.preset) if model.preset else words["this_request"]
        if problem:
            return Verdict("wrong", words["yours_differs"].format(which=which, problem=problem))
        return Verdict("right", words["yours_agree"].format(which=which))

    @property
    def widget(self):
        import ipywidgets

        if self._pane is None:
            self._pane = ipywidgets.HTML()
            self._redraw()
        return ipywidgets.VBox([self.model.widget, self._pane])

    def _redraw(self) -> None:
        if self._pane is None:
            return
        verdict = self.compare()
        colour = {"right": "#e9f6ec", "wrong": "#fdecea", "unanswered": "#f3f3f3"}[verdict.state]
        self._pane.value = (
            f"<div style='background:{colour};padding:6px 10px;margin-top:6px;white-space:pre-wrap'>"
            f"<b>{html.escape(TEXT[self.lang]['pane'])}</b> {html.escape(repr(verdict))}</div>"
        )


def your_playground(translate: Callable) -> YourPlayground:
    """The playground, with `translate` (yours) checked against the package on every edit;
    its verdicts are written in the current language."""
    return YourPlayground(translate)
