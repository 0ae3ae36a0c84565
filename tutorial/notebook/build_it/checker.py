"""The check: a learner's function beside the package's, on every input of its stage.

    check_stage("flatten_content", flatten_content)    # a Verdict: ✓, ✗ or "not written yet"

The order of the work, so that a ✗ teaches:

1. Helpers first. The functions of chapter 05 call each other (translate calls
   translate_messages, which calls user_block_message, which calls flatten_content). The
   learner's helpers that a function reaches are checked before it, in the chapter's order;
   when one of them is wrong, it is that one the verdict blames, not its caller.
2. Traps before generated inputs. A ✗ shows the first named trap that fails (each trap is
   built for one usual mistake), then the README example's inputs, and only when all of
   those pass, the smallest generated input that fails.
3. The rule. A ✗ ends with the bullet of the stage's rule that the difference breaks: the
   one the place in the result follows (a `tool_call_id` key in a tool message breaks the
   tool_result bullet), else the one the trap was built for, else the rule in one sentence.
"""

from __future__ import annotations

import ast
import copy
import difflib
import inspect
import json
import os
import textwrap
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ...examples import readme_request
from ...words import current, type_name
from ...watch.jsondiff import differences
from .. import progress
from ..exercises import Verdict
from . import guard, stages
from .inputs import README
from .source_text import compile_source, not_source
from .texts import LABELS_ZH, SUMMARIES, TEXT

GENERATED = 150  # variations per stage, on top of the README inputs and the traps


@dataclass(frozen=True)
class Case:
    label: str  # in English
    args: tuple
    kind: str  # "trap", "readme" or "generated"
    rule: Optional[str] = None  # a trap's rule: "rule" or "stage:rule"


def cases(name: str, generated: int = GENERATED) -> list[tuple[str, tuple]]:
    """The inputs a stage is checked on, as (label, arguments): README first, then the
    traps, then `generated` variations from a generator seeded with the stage's name.
    The labels are written in the current language."""
    return [(label_in(case.label), case.args) for case in all_cases(name, generated)]


def all_cases(name: str, generated: int = GENERATED) -> list[Case]:
    """Every input of a stage, in the order `cases` lists them, with its kind and rule."""
    from .inputs import Maker

    stage = stages.get(name)
    found = [Case(label, args, "readme") for label, args in stage.readme(readme_request())]
    found += [Case(label, args, "trap", rule) for label, args, rule in stage.traps()]
    make = Maker(name)
    found += [Case(TEXT["en"]["generated"].format(number=i + 1), stage.generate(make), "generated") for i in range(generated)]
    return found


def label_in(label: str) -> str:
    """An input's English label in the current language."""
    lang = current()
    if lang == "en":
        return label
    if label.startswith(README + ": "):
        return LABELS_ZH["the README example: {part}"].format(part=label[len(README) + 2 :])
    prefix = TEXT["en"]["generated"].split("{")[0]
    if label.startswith(prefix):
        return TEXT[lang]["generated"].format(number=label[len(prefix) :])
    return LABELS_ZH.get(label, label)


# ---------------------------------------------------------------------------
# The check


@dataclass
class Finding:
    """What checking one function found: the Verdict, and the parts `grade` prints on one line."""

    verdict: Verdict
    stage: str = ""
    blamed: Optional[str] = None  # the learner's helper that is wrong, when it is not this function
    blamed_unwritten: bool = False  # that helper is still the stub
    case: Optional[Case] = None  # the input shown
    problem: str = ""  # where and how it differs
    rule: str = ""  # the bullet it breaks
    failed: int = 0
    total: int = 0
    stopped: bool = False  # the check stopped at a call that did not finish
    raised_everywhere: bool = False  # every call raised: no bullet of the rule is at stake yet


def check_stage(name: str, function: Any) -> Verdict:
    """Run `function` and the package's version of stage `name` on every input of the
    stage; ✓, or the first input on which they differ (named traps first) with the rule it
    breaks. The learner's helpers that `function` calls are checked first, and a wrong one
    is blamed instead. `function` may also be given as source text (the function and any
    helpers it defines). The verdict is written in the current language.
    On a class hub the verdict also goes to the instructor's page (tutorial/notebook/progress.py)."""
    found = examine(name, function, guard.SECONDS)  # an endless loop ends in a ✗, not a hung kernel (M10)
    progress.record(f"05.{name}", None, found.verdict, mistake=progress.stage_mistake(found))
    return found.verdict


def examine(name: str, function: Any, seconds: Optional[float] = None, generated: int = GENERATED) -> Finding:
    """`check_stage` with everything it found; `seconds` limits each call of the learner's code."""
    words = TEXT[current()]
    stage = stages.get(name)
    if isinstance(function, str):
        try:
            function = compile_source(stage, function)
        except (Exception, RecursionError) as error:  # a name in quotes, or source that does not run: a ✗, not a traceback
            return Finding(Verdict("wrong", not_source(name, function, error)), name)
    if function is Ellipsis or function is None or is_stub(function):
        return Finding(Verdict("unanswered", words["unwritten"].format(name=name)), name)
    if not callable(function):
        return Finding(Verdict("wrong", words["not_function"].format(name=name, kind=type(function).__name__)), name)
    for helper, helper_function in learner_helpers(name, function):
        if is_stub(helper_function):
            message = words["helper_unwritten"].format(name=name, helper=helper)
            return Finding(Verdict("wrong", message), name, blamed=helper, blamed_unwritten=True)
        found = _compare(helper, helper_function, seconds, generated)
        if not found.verdict.ok:
            message = words["helper_wrong"].format(name=name, helper=helper, verdict=repr(found.verdict))
            found.verdict, found.blamed = Verdict("wrong", message), helper
            return found
    return _compare(name, function, seconds, generated)


def _compare(name: str, function: Callable, seconds: Optional[float], generated: int) -> Finding:
    lang = current()
    words = TEXT[lang]
    stage = stages.get(name)
    every = sorted(all_cases(name, generated), key=lambda case: _SHOWN_FIRST[case.kind])  # stable: each kind keeps its order
    failures: list[tuple[Case, str, Optional[str]]] = []
    stopped = False
    only_none = True  # every call returned None: most likely a `return` left out
    raised = 0  # calls that raised (not a time-out): all of them, and the trap's rule is beside the point
    for case in every:
        expected = stage.reference(*copy.deepcopy(case.args))
        got = run(function, case.args, seconds)
        only_none = only_none and got.raised is None and not got.changed_input and got.value is None
        raised += got.raised is not None and not isinstance(got.raised, guard.TimedOut)
        try:
            shape_wrong = (name == "translate" and got.raised is None and not got.changed_input
                           and got.value is not None and not a_pair(got.value))
            if shape_wrong:
                problem, location = _not_a_pair(got.value, words), None  # say the shape, not the first message
            else:
                problem, location = explain(case.args, got, expected, root=_root(name))
        except (Exception, RecursionError) as error:  # a value whose own methods fail, or that contains itself
            problem, location = words["uncomparable"].format(error=f"{type(error).__name__}: {error}"), None
        if problem:
            if isinstance(got.raised, guard.TimedOut):
                rule = ENDLESS  # nothing in the result to point at: no bullet of the rule applies
            elif shape_wrong:
                rule = "both"  # translate's bullet: both paths, returned together
            else:
                rule = UNCHANGED if got.changed_input else _rule(stage, case, location, expected)
            failures.append((case, problem, rule))
            if isinstance(got.raised, guard.TimedOut):
                stopped = True
                break  # the thread is still running: one endless loop is enough to report
    if not failures:
        counts = {
            "total": len(every),
            "readme": sum(case.kind == "readme" for case in every),
            "traps": sum(case.kind == "trap" for case in every),
            "generated": generated,
        }
        message = words["right"].format(name=name, rule=stages.plain(SUMMARIES[lang][name]), **counts)
        return Finding(Verdict("right", message), name, total=len(every))
    case, problem, rule = _first_to_show(failures)
    raised_everywhere = raised == len(every) and not stopped
    if raised_everywhere:
        rule_text = words["raised_everywhere"]
    elif rule == UNCHANGED:
        rule_text = words["rule_unchanged"]
    elif rule == ENDLESS:
        rule_text = ""
    else:
        rule_text = stages.rule_text(rule, name) if rule else stages.plain(SUMMARIES[lang][name])
    shown_args = ", ".join(short(arg, 400) for arg in case.args)
    label = label_in(case.label)
    if case.kind == "trap":
        label = words["trap"].format(label=label)
    elif lang == "zh" and label[:1].isascii():
        label = " " + label  # a space between Chinese and Latin text
    counts = {"failed": len(failures), "total": len(every)}
    template = words["stopped"] if stopped else words["wrong_all" if len(failures) == len(every) else "wrong"]
    message = template.format(name=name, label=label, args=shown_args, problem=problem, rule=rule_text, **counts)
    shaped = template.format(name=name, label=label, args=shown_args, problem=problem, rule="\0", **counts)
    head = shaped[: shaped.rindex("\n", 0, shaped.index("\0"))] if "\0" in shaped else shaped  # all but the rule's line
    if not_called_so(function, case.args):  # the arguments do not fit: no bullet of the rule is at stake
        message = head + "\n  " + words["called_as"].format(name=name, call=call_shape(stage, case.args))
    elif raised_everywhere:
        message = head + "\n  " + rule_text
    if only_none:
        expected = short(stage.reference(*copy.deepcopy(case.args)))
        message = words["returned_none"].format(name=name, label=label, args=shown_args, expected=expected, **counts)
    return Finding(Verdict("wrong", message), name, case=case, problem=problem, rule=rule_text, stopped=stopped,
                   raised_everywhere=raised_everywhere, **counts)  # fmt: skip


def call_shape(stage: stages.Stage, args: tuple) -> str:
    """How the check calls a stage's function: `translate_messages(messages, system)`."""
    names = list(inspect.signature(stage.reference).parameters)[: len(args)]
    return f"{stage.name}({', '.join(names)})"


def not_called_so(function: Callable, args: tuple) -> bool:
    """Whether `function` cannot be called with these arguments (a parameter too many or too
    few): a TypeError at the call, before any line of the learner's code runs."""
    try:
        inspect.signature(function).bind(*args)
    except TypeError:
        return True
    except ValueError:  # no signature to read (a builtin): nothing to say
        return False
    return False


def a_pair(value: Any) -> bool:
    """Whether translate's result has the shape (translated, tools_schema): two items, and not
    a list of two messages (a translate that returns only its messages, for a two-message body)."""
    if not (isinstance(value, (tuple, list)) and len(value) == 2):
        return False
    return not (isinstance(value, list) and all(isinstance(item, dict) for item in value))


def _not_a_pair(value: Any, words: dict) -> str:
    """What a translate that returns something else than (messages, tools) returned."""
    kind = type_name(type(value).__name__)
    if isinstance(value, (tuple, list, dict)):
        return words["not_a_pair_single" if len(value) == 1 else "not_a_pair"].format(kind=kind, count=len(value))
    return words["not_a_pair_one"].format(kind=kind)


def _rule(stage: stages.Stage, case: Case, location: Optional[tuple], expected: Any) -> Optional[str]:
    """The bullet a difference breaks: the one its place follows; when the place only suggests
    one ("~rule"), the one the trap was built for; else None (the rule in one sentence)."""
    found = stage.rule_at(case.args, location, _plain(expected)) if location is not None else None
    if found and not found.startswith("~"):
        return found
    return case.rule or (found.lstrip("~") if found else None)


_SHOWN_FIRST = {"trap": 0, "readme": 1, "generated": 2}

# The rule a function breaks when it changes its input: every stage's, so no bullet of one.
UNCHANGED = "!unchanged"
# A call that did not finish breaks no bullet that can be named (the input shows where it hung).
ENDLESS = "!endless"


def _first_to_show(failures: list) -> tuple:
    """The first failing trap; else the first README input; else the smallest generated one."""
    for kind in ("trap", "readme"):
        for failure in failures:
            if failure[0].kind == kind:
                return failure
    return min(failures, key=lambda failure: _size(failure[0].args))


def _root(name: str) -> Callable[[tuple], str]:
    """How a place in a stage's result is written: translate's halves have names."""
    if name == "translate":
        return lambda location: ("translated", "tools_schema")[location[0]] if location and location[0] in (0, 1) else "result"
    return lambda location: "result"


# ---------------------------------------------------------------------------
# The learner's helpers


def learner_helpers(name: str, function: Callable) -> list[tuple[str, Callable]]:
    """The learner's own functions of earlier stages that `function` reaches, through the
    names its code (and theirs) looks up, in the chapter's order. Every function of the
    learner's is followed, the private ones too (a generator `_chat_messages` that calls
    user_block_message), so a wrong helper is found however it is reached. The package's
    functions are left out: they are right by definition."""
    order = stages.stage_names()
    found: dict[str, Callable] = {}
    followed: set[int] = {id(function)}
    waiting = [function]
    while waiting:
        current = waiting.pop()
        namespace = getattr(current, "__globals__", {})
        for looked_up in _global_names(getattr(current, "__code__", None)):
            helper = namespace.get(looked_up)
            if looked_up == name or id(helper) in followed or not callable(helper) or _is_package_function(helper):
                continue
            if not hasattr(helper, "__code__"):
                continue  # a class or a builtin: nothing of the learner's to read inside
            if looked_up not in order and getattr(helper, "__globals__", None) is not namespace:
                continue  # a library's function (copy.deepcopy): not the learner's to follow
            followed.add(id(helper))
            waiting.append(helper)
            if looked_up in order:
                found[looked_up] = helper
    return [(helper, found[helper]) for helper in order if helper in found and order.index(helper) < order.index(name)]


def _global_names(code: Any) -> set[str]:
    if code is None:
        return set()
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):  # a nested function, lambda or comprehension
            names |= _global_names(constant)
    return names


def _is_package_function(function: Callable) -> bool:
    module = getattr(function, "__module__", "") or ""
    return module == "tutorial" or module.startswith("tutorial.")


# ---------------------------------------------------------------------------
# Stubs and source text


_STUB = compile("def stub(*args):\n    ...\n", "<stub>", "exec").co_consts[0].co_code


def is_stub(function: Any) -> bool:
    """The chapter's starter: a body of `...` only (after a docstring, if any). Read from the
    source when there is one: `return None` compiles to the same bytes as `...`, and a learner
    who forgot a value is told that, not that the function is unwritten."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):  # no source kept (e.g. built by exec): the bytes
        return code.co_code == _STUB
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return code.co_code == _STUB
    body = definition.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring
    return bool(body) and all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                              and node.value.value is Ellipsis for node in body)


# ---------------------------------------------------------------------------
# One call, and where its result differs


@dataclass(frozen=True)
class Outcome:
    value: Any = None
    raised: Optional[BaseException] = None
    changed_input: bool = False


def run(function: Callable, args: tuple, seconds: Optional[float] = None) -> Outcome:
    """The learner's function on a copy of `args`: its value, or what it raised."""
    given = copy.deepcopy(args)
    try:
        value = guard.call(function, given, seconds)
    except (Exception, SystemExit) as error:  # the learner's code: report it, never let it escape
        return Outcome(raised=error)
    try:
        changed = _plain(given) != _plain(args)
    except RecursionError:
        changed = False
    return Outcome(value=value, changed_input=changed)


def explain(args: tuple, got: Outcome, expected: Any,
            root: Callable[[tuple], str] = lambda location: "result") -> tuple[str, Optional[tuple]]:  # fmt: skip
    """("", None) when the learner's outcome matches; otherwise one line on where and how it
    differs (in the current language), and the place (None when the function raised or changed
    its input)."""
    words = TEXT[current()]
    if isinstance(got.raised, guard.TimedOut):
        return words["timed_out"].format(seconds=got.raised.seconds), None
    if got.raised is not None:
        error = got.raised
        message = str(error)
        located = guard.where(error)
        if located:
            message += guard.WORDS[current()]["located"].format(where=located)
        return words["raised"].format(error=type(error).__name__, message=message, expected=short(expected)), None
    if got.changed_input:
        return words["changed"], None
    found = first_difference(_plain(got.value), _plain(expected))
    if found is None:
        return "", None
    location, have, want = found
    return difference_line(location, place(location, root), have, want), location


def difference_line(location: tuple, where: str, have: Any, want: Any, limit: int = 240) -> str:
    """One line on a difference at `where`, in the current language: what was expected and
    what came, that a key is missing or should not be there, or that items are missing or extra
    there ("1 message missing", "1 extra message")."""
    words = TEXT[current()]
    if isinstance(have, Gap):
        return words["gap_missing"].format(place=where, count=have.counted(), **spaced({"want": short(want, limit)}))
    if isinstance(want, Gap):
        return words["gap_extra"].format(place=where, count=want.counted(), **spaced({"have": short(have, limit)}))
    if want is NO_KEY:  # a key the package's result does not have: said as such, not as "expected (no such key)"
        return words["extra_key"].format(place=where, **spaced({"have": short(have, limit)}))
    if have is NO_KEY:
        return words["missing_key"].format(place=where, **spaced({"want": short(want, limit)}))
    shown = dict(zip(("want", "have"), contrast(want, have, limit)))
    key = "differs" if location else "differs_whole"  # the whole value: no place to name
    line = words[key].format(place=where, **spaced(shown))
    if shown["want"] != short(want, limit):  # « » put in: said once what they mark (L13)
        line += words["marked"]
    return line


def place(location: tuple, root: Callable[[tuple], str] = lambda location: "result") -> str:
    """`result["tool_calls"][0]`, or `translated[3]["content"]` for translate's first half."""
    name = root(location)
    rest = location[1:] if name != "result" else location
    shown = TEXT[current()]["result"] if name == "result" else name  # zh: 返回值, not an English placeholder
    return shown + "".join(f"[{part}]" if isinstance(part, int) else f'["{part}"]' for part in rest)


class Missing:
    def __init__(self, what: str):
        self.what = what  # a key of TEXT[lang]

    def __repr__(self) -> str:
        return TEXT["en"][self.what]


NO_KEY, NO_ITEM = Missing("no_key"), Missing("no_item")


class Gap(Missing):
    """Items of a list that one side lacks where the other has them: on the learner's side,
    items missing ("missing"); on the package's, items the learner added ("extra"). Counted
    as messages when they are chat messages."""

    def __init__(self, gap: str, count: int, messages: bool):
        super().__init__("no_item")
        self.gap, self.count, self.messages = gap, count, messages

    def counted(self) -> str:
        noun = "messages" if self.messages else "items"
        return TEXT[current()][f"{self.gap}_{noun}" + ("_one" if self.count == 1 else "")].format(count=self.count)


def _gap(have: list, want: list, index: int) -> Optional[tuple[int, Any, Any]]:
    """From `index` on, whether the two lists differ by whole items left out or added, the
    rest agreeing: (where, have side, want side) with a Gap on one side; else None."""
    keys = [[json.dumps(item, sort_keys=True, ensure_ascii=False, default=repr) for item in side[index:]] for side in (have, want)]
    opcodes = [op for op in difflib.SequenceMatcher(None, *keys, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(opcodes) != 1 or opcodes[0][0] not in ("delete", "insert"):
        return None  # not whole items left out or added with the rest agreeing: show the first item that differs
    tag, have_start, have_end, want_start, want_end = opcodes[0]
    messages = all(isinstance(item, dict) and "role" in item for item in have + want)
    if tag == "insert":  # the package has items the learner's result lacks
        at = index + want_start
        return at, Gap("missing", want_end - want_start, messages), want[at]
    at = index + have_start
    return at, have[at], Gap("extra", have_end - have_start, messages)


def first_difference(have: Any, want: Any, location: tuple = ()) -> Optional[tuple]:
    """The first place, in the expected value's order, where `have` differs from `want`:
    (location, what is there, what should be there). Lists are compared item by item, so a
    missing message is reported at its index rather than as two whole lists."""
    if isinstance(have, dict) and isinstance(want, dict):
        for key in {**want, **have}:
            if key not in have or key not in want:
                return location + (key,), have.get(key, NO_KEY), want.get(key, NO_KEY)
            found = first_difference(have[key], want[key], location + (key,))
            if found:
                return found
        return None
    if isinstance(have, list) and isinstance(want, list):
        for index in range(max(len(have), len(want))):
            beyond = index >= len(have) or index >= len(want)
            if len(have) != len(want) and (beyond or differences(have[index], want[index])):
                gap = _gap(have, want, index)  # a message left out reads as one, not as the next one's content
                if gap:
                    return (location + (gap[0],), *gap[1:])
            if beyond:
                return location + (index,), _at(have, index), _at(want, index)
            found = first_difference(have[index], want[index], location + (index,))
            if found:
                return found
        return None
    return (location, have, want) if differences(have, want) else None


def _at(items: list, index: int) -> Any:
    return items[index] if index < len(items) else NO_ITEM


def _plain(value: Any) -> Any:
    """Tuples as lists, so (translated, tools) and [translated, tools] compare alike."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _size(args: tuple) -> int:
    return len(json.dumps(args, ensure_ascii=False, default=str))


def spaced(values: dict[str, str]) -> dict[str, str]:
    """Values to put after Chinese words: a space before a value written in Latin letters
    (`应为 'tool'`), none before one that is Chinese in full-width brackets (`应为（没有这个键）`).
    English templates space their values themselves."""
    if current() != "zh":
        return values
    return {key: text if text.startswith("（") else " " + text for key, text in values.items()}


def contrast(want: Any, have: Any, limit: int = 240) -> tuple[str, str]:
    """Two values that differ, written so the difference can be seen: two strings that share
    anything are escaped, cut around the first run where they differ, and that run is put
    between « and » (`'«  »你好\\n'` beside `'«»你好'`); anything else as `short` writes it."""
    if not (isinstance(want, str) and isinstance(have, str)) or want == have:
        return short(want, limit), short(have, limit)
    if unicodedata.normalize("NFC", want) == unicodedata.normalize("NFC", have):
        return ascii(want), ascii(have)  # the same letters written two ways: show the code points
    start = len(os.path.commonprefix([want, have]))
    context = min(_CONTEXT, limit // 5)
    window = context + limit  # enough of each rest to find where the first run ends
    rest_want, rest_have = want[start : start + window], have[start : start + window]
    matcher = difflib.SequenceMatcher(None, rest_want, rest_have, autojunk=False)
    _, _, want_end, _, have_end = next(op for op in matcher.get_opcodes() if op[0] != "equal")
    if any(char.isalnum() for char in rest_want[:want_end] + rest_have[:have_end]):
        # A difference inside a word is the whole word: 'system' beside 'user' is not «»system / «u»ser.
        while start and want[start - 1].isalnum():
            start -= 1
            want_end, have_end = want_end + 1, have_end + 1
        want_end, have_end = _word_end(want, start, want_end), _word_end(have, start, have_end)
    if not start and (want_end, have_end) == (len(want), len(have)):
        return short(want, limit), short(have, limit)  # nothing shared: nothing to point at
    quote = '"' if ("'" in want + have and '"' not in want + have) else "'"
    before = want[:start]
    head = _escape(before, quote) if len(before) <= context else "…" + _escape(before[-context:], quote)
    room = max(8, limit - 2 * context - 6)  # for the run that differs

    def written(text: str, end: int) -> str:
        run, after = text[start : start + end], text[start + end :]
        run = _escape(run, quote) if len(run) <= room else _escape(run[:room], quote) + "…"
        tail = _escape(after, quote) if len(after) <= context else _escape(after[:context], quote) + "…"
        return f"{quote}{head}«{run}»{tail}{quote}"

    return written(want, want_end), written(have, have_end)


_CONTEXT = 40  # characters kept on each side of a differing run


def _word_end(text: str, start: int, end: int) -> int:
    """A differing run ending at start + end, carried on to the end of the word it stops in."""
    while start + end < len(text) and text[start + end].isalnum():
        end += 1
    return end


def _escape(text: str, quote: str) -> str:
    """`text` as it is written inside a Python string literal, with readable Chinese."""
    special = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", quote: "\\" + quote}
    return "".join(special.get(char) or (char if char.isprintable() else repr(char)[1:-1]) for char in text)


def short(value: Any, limit: int = 240) -> str:
    """A value as the learner would write it in Python (Chinese stays readable), cut at `limit`;
    what stands for a missing value is in the current language."""
    if isinstance(value, Missing):
        return TEXT[current()][value.what]
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - the learner's object, whose __repr__ may fail
        text = TEXT[current()]["unshowable"].format(kind=type(value).__name__)
    return text if len(text) <= limit else text[: limit - 1] + "…"
