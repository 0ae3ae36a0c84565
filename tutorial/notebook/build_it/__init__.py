"""Build it yourself: chapter 05's checker, and the learner's translator used for real.

Chapter 05 has the learner write the translation one function at a time. After each
function a cell calls

    check_stage("flatten_content", flatten_content)

which runs the learner's function and the package's on the same inputs and answers in one
line (a `Verdict` of the exercise framework): "… not written yet" while the function is the
stub, "✓ right: …" when the two agree on every input, or "✗ not yet: …" with the first named
trap that fails (or, when every trap passes, the smallest generated input), the place in the
result where they first differ, the expected and the actual value there, and the bullet of
the stage's rule that place follows. The learner's helpers a function calls are checked
before it, so the earliest wrong function is the one blamed.

After the chapter, the learner's functions stand where the package's do:

    load_translator("my_translator.py")   # or globals(): a guarded translate(body) -> (messages, tools)
    save_translator(globals(), "my_translator.py")   # the notebook's functions into a file
    replay(translator)                    # the recorded SDK bodies and Claude Code session, compared
    python -m tutorial grade my_translator.py        # every stage, one line each; exit 0 / 1 / 2 (tutorial/cli/grade.py)
    python -m tutorial serve --translator my_translator.py   # a real client through it

    texts.py    every sentence, both languages; the bullets of each stage's rule
    inputs.py   the traps (each with the rule it tests) and the seeded generator of inputs
    stages.py   the stage table: reference, inputs, which bullet a place in the result follows
    checker.py  check_stage: helpers first, traps first, the rule
    guard.py    running the learner's code with a time limit; where an exception came from
    learner.py  load_translator, TranslatorError
    replay.py   recorded requests through the learner's translator
    yours.py    the learner's translate beside the playground

May import: the lesson, `watch/` and the rest of `notebook/` (the exercise framework's Verdict).
"""

from .checker import GENERATED, all_cases, cases, check_stage, examine, is_stub
from .learner import CHAPTER_FUNCTIONS, Translator, TranslatorError, load_translator, save_translator
from .replay import Difference, Replay, difference, recorded_requests, replay, sdk_bodies
from .stages import STAGES, Stage, source, stage_names
from .texts import RULES, SUMMARIES, TEXT

# The playground pane loads the playground (ipywidgets and all) only when a chapter asks for it.
_LAZY = {"YourPlayground": "yours", "your_playground": "yours"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "CHAPTER_FUNCTIONS",
    "Difference",
    "GENERATED",
    "RULES",
    "Replay",
    "STAGES",
    "SUMMARIES",
    "Stage",
    "TEXT",
    "Translator",
    "TranslatorError",
    "YourPlayground",
    "all_cases",
    "cases",
    "check_stage",
    "difference",
    "examine",
    "is_stub",
    "load_translator",
    "recorded_requests",
    "replay",
    "save_translator",
    "sdk_bodies",
    "source",
    "stage_names",
    "your_playground",
]
