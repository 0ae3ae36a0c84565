"""What the chapters display: a step's input beside its output and silent checks
(`show.py`), the labels code cells print and their Chinese (`catalogue.py`: `say`, `said`;
`reason_in` writes a loss's reason in the chapter's language), the self-check verdicts
(`selfcheck.py`), the text walk for a terminal (`walk.py`), the exercises and their verdicts (`exercises/`), chapter 05's build-it checker
(`build_it/`), the chapters' minutes (`minutes.py`), and the playground (`playground/`:
model <- panes <- view <- session, with presets, the prompt tab and the learner's "yours" column).

May import: the lesson, `watch/`, `pictures/` and `peers/`. ipywidgets loads only when a
playground's view is built.
"""

from ..watch.losses import reason_in
from .catalogue import fit, said, say
from .show import as_json, check, check_answer, check_recorded, diagram, show_json, show_losses, show_step, side_by_side, table


def __getattr__(name: str):
    if name == "Playground":  # its module is large; load it when a chapter asks for it
        from .playground import Playground

        return Playground
    raise AttributeError(f"module 'tutorial.notebook' has no attribute {name!r}")


__all__ = [
    "Playground", "as_json", "check", "check_answer", "check_recorded", "diagram", "fit", "reason_in", "said", "say", "show_json", "show_losses", "show_step", "side_by_side", "table",
]
