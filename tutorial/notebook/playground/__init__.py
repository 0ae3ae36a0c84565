"""The playground: edit a request and watch every stage of the translation change.

The model, the view and the presets, kept apart so that everything but the widgets can be
tested without a browser:

    labels.py   every word shown, per language ("en", "zh")
    inputs.py   text and values -> a body, or one located line saying what is wrong and where
    presets.py  the requests to start from: the README example, one per rule, one per recorded peer case
    prompt.py   the prompt tab: the translated request through a real model family's chat template
    yours.py    the learner's own translator beside the package's, first difference located
    model.py    `Model`: the request as text and a target; every result recomputed from them with
                `trace()`; whatever it is given ends in a located error, never an exception
    panes.py    each tab's HTML, a plain function of the model
    view.py     the ipywidgets (imported only when `pg.widget` is first asked for); the diagram and
                the prompt are made by worker threads, off the keystroke path
    session.py  `Playground`: the model, with its view built on first use

Each module imports only those listed above it (tests/test_playground.py checks it).

    pg = Playground()                          # or Playground(captures=server.captures, lang="zh")
    pg.request_text = '{"messages": [{"role": "user", "content": "hi"}]}'
    pg.results["translated"]                   # [{'role': 'user', 'content': 'hi'}]
    pg.family = "qwen3"; pg.prompt.text        # the prompt Qwen3's real chat template makes of it
    pg.yours = translate                       # your chapter-05 translate, in a column beside ours
    pg.widget                                  # the view, in a notebook

(`playground.presets` is the function `presets()`, which shadows its module's name; the module
itself is `importlib.import_module("tutorial.notebook.playground.presets")`.)

May import: the lesson, `watch/`, `pictures/` (when the diagram is drawn), `peers/` and the rest
of `notebook/`; never `tutorial.serve` (captures come in as a function).
"""

from .labels import LABELS, LANGUAGES
from .inputs import MAX_DEPTH, describe_error, parse, unclosed_bracket, value_problem
from .model import Model, capture_title
from .panes import (
    PANES, Drawing, changes_html, diagram_html, losses_html, peers_html, prompt_html, sized_svg, stages_html,
    status_html, tools_html, translated_html,
)
from .presets import CLOSEST_PEER, HALF_TYPED, PEER_DIR, PEER_PREFIX, README, peer_results, peer_versions, presets
from .prompt import Prompt, families, render_prompt
from .session import Playground
from .view import DEBOUNCE_SECONDS, draw_flow
from .yours import Yours, compare_yours

__all__ = [
    "CLOSEST_PEER",
    "DEBOUNCE_SECONDS",
    "Drawing",
    "HALF_TYPED",
    "LABELS",
    "LANGUAGES",
    "MAX_DEPTH",
    "Model",
    "PANES",
    "PEER_DIR",
    "PEER_PREFIX",
    "README",
    "Playground",
    "Prompt",
    "Yours",
    "capture_title",
    "changes_html",
    "compare_yours",
    "describe_error",
    "diagram_html",
    "draw_flow",
    "families",
    "losses_html",
    "parse",
    "peer_results",
    "peer_versions",
    "peers_html",
    "presets",
    "prompt_html",
    "render_prompt",
    "sized_svg",
    "stages_html",
    "status_html",
    "tools_html",
    "translated_html",
    "unclosed_bracket",
    "value_problem",
]
