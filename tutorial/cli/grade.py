"""`python -m tutorial grade FILE.py`: a learner's chapter-05 translator, checked against the package.

FILE.py defines the functions chapter 05 has the learner write (`translate` at least; any of
flatten_content, user_block_message, assistant_message, translate_messages,
tools_to_chat_tools and tool_result_messages too). Each one it defines is checked on its
stage's inputs — the README example's, the named traps, 150 generated variations — helpers
before the functions that call them; then `translate` runs on the bodies the real SDK sends
and on the recorded Claude Code session (judged on chapter 05's rules: tools the chapter
does not teach are taken out of both sides). One line per check:

    ✓ flatten_content: agrees with the package on all 168 inputs
    ✗ assistant_message: on the trap "one call", assistant_message([...]): at result["tool_calls"][0]["id"]: ...

Exit status: 0 when everything agrees, 1 when something differs, 2 when the file does not
load (the error, located, on stderr; never a traceback). What the file prints while it is
loaded and checked is swallowed, so the report stays one line per check.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from typing import Optional

from ..words import current

AGREE, DIFFER, BAD_FILE = 0, 1, 2
CALL_SECONDS = 5.0  # one call of a learner's function on one input: notebook.build_it.guard.SECONDS, which
# check_stage uses too (not imported here: --help must not load the notebook; tests/test_grade.py checks they agree)

WORDS = {
    "en": {
        "heading": "{file}: chapter 05's functions against the package",
        "right": "agrees with the package on all {total} inputs",
        "unwritten": "not written yet (its body is ...), not checked",
        "missing": "not defined in the file, not checked",
        "helper": "calls your {helper}, which does not agree yet (see its line); fix it first",
        "helper_unwritten": "calls your {helper}, which is not written yet",
        "first": "{count}; the first is {label}, {call}: {problem}. The rule: {rule}",
        "first_raised": "{count}; the first is {label}, {call}: {problem}. {rule}",
        "count_some": "the result differs from the package's on {failed} of {total} inputs",
        "count_all": "the result differs from the package's on all {total} inputs",
        "stopped": "on {label}, {call}: {problem}",
        "trap": 'the trap "{label}"',
        "recorded": "translate on {what}",
        "sdk": "the {count} bodies the anthropic SDK sends",
        "session": "the {count} requests of the recorded Claude Code session",
        "recorded_right": "all {compared} agree{left_out}",
        "left_out": " ({count} left out: the package refuses them)",
        "recorded_wrong": "{failed} of {compared} differ; the first is {name}: {detail}",
        "recorded_all_wrong": "all {compared} differ; the first is {name}: {detail}",
        "stopped_replay": "{name}: {detail}; stopped there",
        "line": "{mark} {name}: {text}",
        "verdict_right": "all agree: your translator can stand where the package's does "
        "(python -m tutorial serve --translator {file})",
        "verdict_wrong": "not yet: fix the first ✗ above, then run grade again",
        "help": "check a file holding chapter 05's functions against the package",
        "file_help": "a .py file that defines translate (and, if you like, the other chapter-05 functions)",
        "file_metavar": None,
        "timeout_help": "time allowed to load the file and for each call of your functions (default: {seconds:g})",
        "seconds": "SECONDS",
        "bad_timeout": "--timeout must be a positive number of seconds, got {seconds:g}",
    },
    "zh": {
        "heading": "{file}：第 05 章的函数与本包对照",
        "right": "在全部 {total} 个输入上都与本包一致",
        "unwritten": "还没有写（函数体是 ...），未检查",
        "missing": "文件里没有定义，未检查",
        "helper": "调用了你写的 {helper}，而后者还没通过（见上面那一行），请先改好 {helper}",
        "helper_unwritten": "调用了你写的 {helper}，而后者还没有写",
        "first": "{count}，第一个是{label}，调用 {call} 时，{problem}。规则：{rule}",
        "first_raised": "{count}，第一个是{label}，调用 {call} 时，{problem}。{rule}",
        "count_some": "{total} 个输入中有 {failed} 个的结果与本包不同",
        "count_all": "全部 {total} 个输入的结果都与本包不同",
        "stopped": "调用 {call} 处理{label}时，{problem}",
        "trap": "陷阱「{label}」",
        "recorded": "translate 处理{what}",
        "sdk": " anthropic SDK 发出的 {count} 个请求体",
        "session": "录制的 Claude Code 会话中的 {count} 个请求",
        "recorded_right": "全部 {compared} 个一致{left_out}",
        "left_out": "（{count} 个未比较，因为本包拒绝这些请求）",
        "recorded_wrong": "{compared} 个中有 {failed} 个的结果不同，第一个是「{name}」，{detail}",
        "recorded_all_wrong": "全部 {compared} 个的结果都不同，第一个是「{name}」，{detail}",
        "stopped_replay": "检查「{name}」时，{detail}，检查到此为止",
        "line": "{mark} {name}：{text}",
        "verdict_right": "全部一致：你的翻译器可以替代本包的翻译器（python -m tutorial serve --translator {file}）",
        "verdict_wrong": "还不对：先改正上面第一个 ✗，再运行一次 grade",
        "help": "把写有第 05 章函数的文件与本包逐一比对",
        "file_help": "定义了 translate 的 .py 文件（也可以定义第 05 章的其他函数）",
        "file_metavar": "文件.py",
        "timeout_help": "加载文件以及每次调用你的函数时允许的秒数（默认为 {seconds:g}）",
        "seconds": "秒数",
        "bad_timeout": "--timeout 必须是正数（秒），收到的是 {seconds:g}",
    },
}


def add_parser(command) -> None:
    """The grade command's arguments. `command(name, **options)` makes a subcommand's parser
    (with `--lang`, see cli/__init__.py); its help is written in the current language."""
    words = WORDS[current()]
    grade = command("grade", help=words["help"], description=words["help"])
    grade.add_argument("file", metavar=words["file_metavar"], help=words["file_help"])
    grade.add_argument("--timeout", type=float, default=CALL_SECONDS, metavar=words["seconds"],
                       help=words["timeout_help"].format(seconds=CALL_SECONDS))  # fmt: skip


def run(arguments: argparse.Namespace, fail) -> int:
    """Load, check, print, in the current language; the exit status. `fail(message)` prints a
    located error (status 2)."""
    from ..notebook.build_it import TranslatorError, load_translator

    words = WORDS[current()]
    if not arguments.timeout > 0:
        return fail(words["bad_timeout"].format(seconds=arguments.timeout))
    swallowed = io.StringIO()
    try:
        with contextlib.redirect_stdout(swallowed):
            translator = load_translator(arguments.file, seconds=arguments.timeout, load_seconds=arguments.timeout)
    except TranslatorError as error:
        return fail(str(error))
    with contextlib.redirect_stdout(swallowed):
        lines, agree = report(translator, arguments.timeout)
    print(words["heading"].format(file=translator.origin))
    for line in lines:
        print(line)
    print(words["verdict_right"].format(file=arguments.file) if agree else words["verdict_wrong"])
    return AGREE if agree else DIFFER


def report(translator, seconds: float = CALL_SECONDS) -> tuple[list[str], bool]:
    """The lines of the report (in the current language) and whether everything agrees."""
    from ..notebook.build_it import CHAPTER_FUNCTIONS, examine

    words = WORDS[current()]
    lines, agree = [], True
    namespace = translator.functions
    findings = {}
    for name in CHAPTER_FUNCTIONS:
        function = namespace.get(name)
        if function is None:
            lines.append(words["line"].format(mark="–", name=name, text=words["unwritten"] if name in translator.stubs else words["missing"]))
            continue
        found = findings[name] = examine(name, function, seconds=seconds)
        if found.verdict.ok:
            lines.append(words["line"].format(mark="✓", name=name, text=words["right"].format(total=found.total)))
            continue
        agree = False
        if found.blamed:
            key = "helper_unwritten" if found.blamed_unwritten else "helper"
            lines.append(words["line"].format(mark="✗", name=name, text=words[key].format(helper=found.blamed)))
        else:
            lines.append(words["line"].format(mark="✗", name=name, text=_first(found)))
    for line, ok in _recorded(translator, findings):
        lines.append(line)
        agree = agree and ok
    return lines, agree


def _first(found) -> str:
    from ..notebook.build_it.checker import label_in, short

    words = WORDS[current()]
    case = found.case
    label = label_in(case.label)
    if case.kind == "trap":
        label = words["trap"].format(label=label)
    call = f"{found.stage}({', '.join(short(arg, 120) for arg in case.args)})"
    template = "stopped" if found.stopped else "first_raised" if found.raised_everywhere else "first"
    count = words["count_all" if found.failed == found.total else "count_some"].format(failed=found.failed, total=found.total)
    return words[template].format(count=count, label=label, call=call,
                                 problem=found.problem, rule=found.rule)  # fmt: skip


def _blamed(difference, translator, findings: dict):
    """A replay's difference, its rule still the one of the place that differs (the rule of
    the function that builds it), and naming in a sentence of its own the earliest learner's
    function (in the chapter's order) whose own check failed, among the function that builds
    the place and the learner's functions it reaches, private helpers included, when that is
    another function (zh review 4, finding 1: the helper's rule is not the place's)."""
    import dataclasses

    from ..notebook.build_it.checker import learner_helpers
    from ..notebook.build_it.stages import stage_names

    stage = difference.stage if difference.stage in translator.functions else "translate"
    reached = {stage, *(name for name, _ in learner_helpers(stage, translator.functions[stage]))}
    wrong = [name for name in stage_names() if name in reached and name in findings
             and not findings[name].verdict.ok and not findings[name].blamed and findings[name].rule]  # fmt: skip
    if not wrong or wrong[0] == difference.stage:
        return difference  # the function that builds the place is itself the one to blame: its bullet for the place
    return dataclasses.replace(difference, also=wrong[0], also_caller=stage)


def _recorded(translator, findings: Optional[dict] = None) -> list[tuple[str, bool]]:
    """One line for the SDK bodies, one for the Claude Code session; a difference cites the
    rule of the learner's function that `findings` (name -> its check) blame for it."""
    from ..notebook.build_it.replay import recorded_requests, replay, shown_name

    words = WORDS[current()]
    requests = recorded_requests()
    groups = [
        (words["sdk"], [(name, body) for name, body in requests if name.startswith("SDK ")]),
        (words["session"], [(name, body) for name, body in requests if not name.startswith("SDK ")]),
    ]
    found = []
    for what, group in groups:
        replayed = replay(translator, group)
        compared = replayed.compared
        title = words["recorded"].format(what=what.format(count=len(group)))
        problems = [row for row in compared if row.state != "same"]
        if not problems:
            left = len(group) - len(compared)
            left_out = words["left_out"].format(count=left) if left else ""
            found.append((words["line"].format(mark="✓", name=title, text=words["recorded_right"].format(compared=len(compared), left_out=left_out)), True))
            continue
        first = problems[0]
        difference = _blamed(first.difference, translator, findings or {}) if first.difference else None
        detail = difference.line() if difference else first.note
        if replayed.stopped:
            line = words["stopped_replay"].format(name=shown_name(first.name), detail=detail)
        else:
            key = "recorded_all_wrong" if len(problems) == len(compared) else "recorded_wrong"
            line = words[key].format(failed=len(problems), compared=len(compared), name=shown_name(first.name), detail=detail)
        found.append((words["line"].format(mark="✗", name=title, text=line), False))
    return found


def main(argv: Optional[list[str]] = None) -> int:  # for `python -m tutorial.cli.grade`
    from . import main as cli

    return cli(["grade", *(argv or [])])
