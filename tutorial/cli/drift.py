"""`python -m tutorial drift [--json] [--family F] [--scenario S]`: the drift table (tutorial/watch/drift.py).

    python -m tutorial drift                          families × scenarios, then where each cell parts
    python -m tutorial drift --family qwen3 --scenario readme
    python -m tutorial drift --json                   {"scenarios": [...], "cells": [...], "readme": {...}}

`--family` and `--scenario` may be given more than once; a scenario is named by its name or
its letter (b = readme). `--json` prints `drift.cells_json()` as "cells", each scenario's name,
letter and description, and `drift.summary("readme")` when the README example is among them.
Exit status 0 when the table was made (its verdicts are findings, not failures), 2 for a bad
option or a missing part (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
from typing import Callable, Optional

from ..words import LANGUAGES, current, words_for

# What this command writes for people, per language (the table's own words: watch/drift.py).
WORDS = {
    "en": {
        "help": "check whether each family's next prompt extends the last prompt + the model's answer; print the drift table",
        "json help": "print the cells as JSON (one object per family × scenario)",
        "family help": "only this family (repeatable): {names}",
        "scenario help": "only this scenario, by name or letter (repeatable): {names}",
        "no family": "--family: no family {name!r}; families: {names}",
        "no scenario": "--scenario: no scenario {name!r}; scenarios: {names}",
        "need real": "the drift table needs the tokenizers package (the real extra): pip install -e '.[real]'",
        "joiner": ", ",
        "family metavar": "FAMILY",
        "scenario metavar": "SCENARIO",
    },
    "zh": {
        "help": "检查每个模型家族的下一轮 prompt 能否接续上一轮 prompt 加模型的回答，打印漂移表",
        "json help": "以 JSON 输出漂移表的每一格（每个模型家族 × 情形一个对象）",
        "family help": "只看这个模型家族，可以重复给出（可选的有 {names}）",
        "scenario help": "只看这个情形，写名字或字母，可以重复给出（可选的有 {names}）",
        "no family": "--family 不能取 {name!r}，没有这个模型家族，可选的有 {names}",
        "no scenario": "--scenario 不能取 {name!r}，没有这个情形，可选的有 {names}",
        "need real": "漂移表需要 tokenizers 包（real 扩展），请运行 pip install -e '.[real]'",
        "joiner": "、",
        "family metavar": "模型家族",
        "scenario metavar": "情形",
    },
}  # fmt: skip


def help_line() -> str:
    """The command's one line in `python -m tutorial --help`."""
    return words_for(WORDS, "help")


def _parser() -> argparse.ArgumentParser:
    from ..watch.drift_scenarios import scenario_names
    from ..watch.families import template_families

    from . import words  # the CLI's help formatter: Chinese lines wrapped by their width on screen

    made = argparse.ArgumentParser(prog="python -m tutorial drift", description=words_for(WORDS, "help"),
                                   formatter_class=words.formatter())  # fmt: skip
    made.add_argument("--json", action="store_true", help=words_for(WORDS, "json help"))
    joiner = words_for(WORDS, "joiner")
    made.add_argument("--family", action="append", metavar=words_for(WORDS, "family metavar"),
                      help=words_for(WORDS, "family help", names=joiner.join(template_families())))  # fmt: skip
    made.add_argument("--scenario", action="append", metavar=words_for(WORDS, "scenario metavar"),
                      help=words_for(WORDS, "scenario help", names=joiner.join(scenario_names())))  # fmt: skip
    # --lang was read by the command line before it came here (cli/__init__.py); accepted, not shown
    made.add_argument("--lang", choices=LANGUAGES, default=None, help=argparse.SUPPRESS)
    return made


def main(argv: list[str], fail: Callable[[str], int]) -> int:
    """Parse, build, print; the exit status. `fail(message)` prints one line on stderr (status 2)."""
    from ..llama_cpp import sdist
    from ..watch.drift_scenarios import SCENARIOS
    from ..watch.families import template_families

    arguments = _parser().parse_args(argv)
    names = arguments.family or None
    for name in names or ():
        if name not in template_families():
            return fail(words_for(WORDS, "no family", name=name, names=words_for(WORDS, "joiner").join(template_families())))
    scenarios = _scenarios(arguments.scenario, SCENARIOS)
    if isinstance(scenarios, str):
        known = words_for(WORDS, "joiner").join(f"{s.letter} {s.name}" for s in SCENARIOS.values())
        return fail(words_for(WORDS, "no scenario", name=scenarios, names=known))
    try:
        from ..watch import drift

        if arguments.json:
            print(json.dumps(_as_json(names, scenarios), ensure_ascii=False, indent=2))
        else:
            print(drift.report(names, scenarios), end="")
    except sdist.SdistMissing as error:
        return fail(str(error))
    except ImportError:
        return fail(words_for(WORDS, "need real"))
    return 0


def _scenarios(given: Optional[list[str]], known: dict):
    """The scenario names asked for (letters resolved), None for all, or the first unknown name."""
    if not given:
        return None
    letters = {s.letter: s.name for s in known.values()}
    chosen = []
    for name in given:
        name = letters.get(name, name)
        if name not in known:
            return name
        chosen.append(name)
    return chosen


def _as_json(names: Optional[list[str]], scenarios: Optional[list[str]]) -> dict:
    from ..watch import drift
    from ..watch.drift_scenarios import SCENARIOS, scenario_names

    lang = current()
    shown = scenarios or scenario_names()
    found = {
        "scenarios": [{"name": s, "letter": SCENARIOS[s].letter, "about": SCENARIOS[s].words[lang]} for s in shown],
        "cells": drift.cells_json(names, scenarios),
    }
    if "readme" in shown:
        found["readme"] = drift.summary("readme", names)
    return found
