"""`Playground`: the model a notebook holds, with its view built the first time it is shown.

    pg = Playground()
    pg.request_text = '{"messages": [{"role": "user", "content": "hi"}]}'
    pg.widget          # the ipywidgets view (ipywidgets is imported here, on first use)
    pg.wait()          # let the view finish what it draws off the keystroke path

    Playground(window=True).widget   # sized to the browser window: the app view (app/playground.ipynb)

The model (model.py) computes; the view (view.py) displays it and hands it the reader's
edits. This module is the one place that knows both, so neither imports the other back.
"""

from __future__ import annotations

from .model import Model


class Playground(Model):
    """Edit a request, pick a target, and read every stage's result in `results`; `widget`
    shows it all (see Model for everything that can be set and read). `window=True` sizes the
    view to the browser window instead of to a notebook's output area (the app view)."""

    _view = None

    def __init__(self, *, window: bool = False, **options):
        self.window = bool(window)
        super().__init__(**options)

    @property
    def widget(self):
        """The view: built on first use (this is where ipywidgets is imported)."""
        with self._lock:
            if self._view is None:
                from .view import View

                self._view = View(self, window=self.window)
            return self._view.root

    def flush(self) -> None:
        """Apply an edit the view is still waiting to apply (the pause after typing)."""
        if self._view is not None:
            self._view.flush()

    def wait(self, timeout: float = 30.0) -> bool:
        """`flush()`, then wait until the view has drawn what it was drawing; False on timeout."""
        self.flush()
        return self._view.wait(timeout) if self._view is not None else True
