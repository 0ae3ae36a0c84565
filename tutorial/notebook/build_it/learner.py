"""The learner's translator, loaded from a file or a namespace, to stand where the package's does.

    yours = load_translator("my_translator.py")     # or load_translator(globals()) in a notebook
    messages, tools = yours(body)                    # like tutorial.translate(body)

The source defines the functions of chapter 05 (`translate` at least). Anything that goes
wrong — the file is missing, does not compile, raises or loops while it loads, has no
`translate`, or `translate` raises, loops or returns the wrong shape on a body — is a
`TranslatorError` whose message says where, in one line, with no traceback:

    my_translator.py, line 12: SyntaxError: invalid syntax
    your translate raised KeyError: 'content' (my_translator.py, line 30, in user_block_message)

The playground's "yours" column, `serve --translator`, chapter 11's replay and `grade` all
load the learner's code through here.
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import os
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Union

from ...words import current, os_problem, type_name
from . import guard
from .checker import a_pair, is_stub

# The functions chapter 05 has the learner write, in the order it builds them.
CHAPTER_FUNCTIONS = (
    "flatten_content",
    "user_block_message",
    "assistant_message",
    "translate_messages",
    "tools_to_chat_tools",
    "translate",
    "tool_result_messages",
)
LOAD_SECONDS = 10.0  # to run the file itself (its imports and definitions)
CALL_SECONDS = 10.0  # for one call of translate on one body

_numbers = itertools.count(1)

# What goes wrong, in the current language (tutorial.words) when it goes wrong.
WORDS = {
    "en": {
        "notebook": "your notebook",
        "timed_out": "your {error}",
        "raised": "your translate raised {error}",
        "shape": "a {kind}",
        "shape_items": "a {kind} of {count} items",
        "returned": "your translate returned {shape}; it should return (translated, tools_schema)",
        "no_translate": "{origin}: defines no function translate (chapter 05, 5.6); {defined}",
        "defined": "it defines {names}",
        "none_defined": "it defines none of the chapter's functions",
        "and": ", ",
        "stub": "{origin}: translate is not written yet (its body is ...)",
        "cannot_read": "{path}: cannot read: {why}",
        "not_utf8": "{name}: not UTF-8 text (byte {start})",
        "syntax": "{place}: {kind}: {message}",
        "bare": "{place}: {kind}",
        "column": "{place}, column {column}",
        "load_timeout": "{name}: loading it did not finish within {seconds:g} s (an endless loop at the top level?)",
        "exits": "{place}: it calls exit() while loading",
        "file_line": "{file}, {line}",
        "no_source": "{origin}: the source of {name} cannot be found; copy its cell into the file",
        "saved_header": "My chapter-05 translator, saved from the notebook by save_translator.",
    },
    "zh": {
        "notebook": "你的 notebook",
        "timed_out": "你的 {error}",
        "raised": "你的 translate 抛出了 {error}",
        "shape": "一个{kind}",
        "shape_items": "一个有 {count} 项的{kind}",
        "returned": "你的 translate 返回了{shape}，应当返回 (translated, tools_schema)",
        "no_translate": "{origin} 没有定义 translate（第 05 章 5.6 节），{defined}",
        "defined": "只定义了 {names}",
        "none_defined": "第 05 章的函数一个也没有定义",
        "and": "、",
        "stub": "{origin} 里的 translate 还没有写，函数体还是 ...",
        "cannot_read": "无法读取 {path}（{why}）",
        "not_utf8": "{name} 不是 UTF-8 文本（偏移 {start} 处无法解码）",
        "syntax": "{place}，{kind}: {message}",
        "bare": "{place}，{kind}",
        "column": "{place}第 {column} 列",
        "load_timeout": "{name} 加载超过 {seconds:g} 秒仍未结束，顶层代码里可能有死循环",
        "exits": "{place}，加载时调用了 exit()",
        "file_line": "{file} {line}",
        "no_source": "{origin} 中找不到 {name} 的源码，请把定义 {name} 的单元格复制进文件",
        "saved_header": "我写的第 05 章翻译器，由 save_translator 从 notebook 保存。",
    },
}


def _words() -> dict[str, str]:
    return WORDS[current()]


class TranslatorError(ValueError):
    """The learner's translator cannot be loaded or did not translate a body; the message
    says where. `timed_out`: it did not finish (its thread may still be running)."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out


@dataclass
class Translator:
    """The learner's `translate`, guarded: `translator(body) -> (messages, tools)`."""

    functions: dict[str, Callable]  # the chapter's functions the source defines (stubs left out)
    origin: str  # "my_translator.py", or "your notebook"
    seconds: Optional[float] = CALL_SECONDS
    stubs: tuple[str, ...] = ()  # the chapter's functions still written as `...`

    def __call__(self, body: Any) -> tuple[Any, Any]:
        translate = self.functions["translate"]
        try:
            result = guard.call(translate, (copy.deepcopy(body),), self.seconds)
        except guard.TimedOut as error:
            raise TranslatorError(_words()["timed_out"].format(error=error), timed_out=True) from None
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the learner's code: say where, never a traceback
            raise TranslatorError(_words()["raised"].format(error=guard.describe(error))) from None
        if not a_pair(result):
            words, kind = _words(), type_name(type(result).__name__)
            many = isinstance(result, (tuple, list))
            shape = words["shape_items"].format(kind=kind, count=len(result)) if many else words["shape"].format(kind=kind)
            raise TranslatorError(words["returned"].format(shape=shape))
        return result[0], result[1]


def load_translator(source: Union[str, os.PathLike, Mapping[str, Any], types.ModuleType, Any], *,
                    seconds: Optional[float] = CALL_SECONDS, load_seconds: float = LOAD_SECONDS) -> Translator:  # fmt: skip
    """The learner's translator from `source`: the path of a .py file, or a namespace holding
    the chapter's functions (a notebook's `globals()`, a module, any object with them as
    attributes). `seconds` limits each call (None: no limit), `load_seconds` the running of
    a file. Raises `TranslatorError`."""
    if isinstance(source, (str, os.PathLike)):
        namespace, origin = _run_file(Path(source), load_seconds)
    elif isinstance(source, Mapping):
        namespace, origin = dict(source), _words()["notebook"]
    elif isinstance(source, types.ModuleType):
        namespace, origin = vars(source), Path(getattr(source, "__file__", None) or source.__name__).name
    else:
        namespace = {name: getattr(source, name) for name in CHAPTER_FUNCTIONS if hasattr(source, name)}
        origin = type(source).__name__
    functions = chapter_functions(namespace, origin)
    stubs = tuple(name for name in CHAPTER_FUNCTIONS if callable(namespace.get(name)) and is_stub(namespace[name]))
    return Translator(functions, origin, seconds, stubs)


def chapter_functions(namespace: Mapping[str, Any], origin: str) -> dict[str, Callable]:
    """The chapter's functions in `namespace`, written (not stubs); `translate` must be one."""
    found = {name: namespace[name] for name in CHAPTER_FUNCTIONS if callable(namespace.get(name))}
    translate, words = found.get("translate"), _words()
    if translate is None:
        defined = words["defined"].format(names=words["and"].join(found)) if found else words["none_defined"]
        raise TranslatorError(words["no_translate"].format(origin=origin, defined=defined))
    if is_stub(translate):
        raise TranslatorError(words["stub"].format(origin=origin))
    return {name: function for name, function in found.items() if not is_stub(function)}


def _run_file(path: Path, seconds: float = LOAD_SECONDS) -> tuple[dict, str]:
    """Run a learner's file as a module of its own; its namespace, and its name for messages."""
    name, words = path.name, _words()
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TranslatorError(words["cannot_read"].format(path=path, why=os_problem(error))) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TranslatorError(words["not_utf8"].format(name=name, start=error.start)) from None
    try:
        code = compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        place = guard.line_of(name, error.lineno)
        if error.offset:
            place = words["column"].format(place=place, column=error.offset)
        raise TranslatorError(words["syntax"].format(place=place, kind=type(error).__name__, message=error.msg)) from None
    except ValueError as error:  # a NUL byte in the source
        raise TranslatorError(f"{name}: {error}") from None
    module_name = f"tutorial_learner_{next(_numbers)}_{''.join(c if c.isalnum() else '_' for c in path.stem)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec) if spec else types.ModuleType(module_name)
    module.__file__ = str(path)
    sys.modules[module_name] = module  # dataclasses and pickling look their module up here
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)  # the learner's file may import its neighbours
    try:
        guard.call(exec, (code, vars(module)), seconds)
    except guard.TimedOut:
        raise TranslatorError(words["load_timeout"].format(name=name, seconds=seconds), timed_out=True) from None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - SystemExit too: a file that exits does not load
        raise TranslatorError(_load_failure(name, error)) from None
    finally:
        try:
            sys.path.remove(folder)
        except ValueError:
            pass
    return vars(module), name


def _load_failure(name: str, error: BaseException) -> str:
    words, found = _words(), guard.frame(error)
    if found is None:
        place = name
    elif found[0] == name:
        place = guard.line_of(found[0], found[1])
    else:  # a line of another file of the learner's, or no file name: say which file was loaded
        place = words["file_line"].format(file=name, line=guard.line_of(found[0], found[1]))
    if isinstance(error, SystemExit):
        return words["exits"].format(place=place)
    message = str(error).splitlines()[0] if str(error) else ""
    if not message:
        return words["bare"].format(place=place, kind=type(error).__name__)
    return words["syntax"].format(place=place, kind=type(error).__name__, message=message)


def save_translator(namespace: Mapping[str, Any], path: Union[str, os.PathLike]) -> Path:
    """Write the chapter's functions defined in `namespace` (a notebook's `globals()`) to a
    file that `load_translator`, `grade` and `serve --translator` read: their source, the
    helpers and constants they use, and imports for what they use from elsewhere. Raises
    `TranslatorError` when there is no written `translate`."""
    import inspect

    chapter_functions(namespace, _words()["notebook"])  # translate must be there and written
    home = namespace.get("__name__", "__main__")
    imports: dict[str, str] = {}
    constants: dict[str, str] = {}
    sources: dict[str, str] = {}
    waiting = [name for name in CHAPTER_FUNCTIONS if callable(namespace.get(name)) and not is_stub(namespace[name])]
    while waiting:
        name = waiting.pop(0)
        if name in sources or name in imports or name in constants or name not in namespace:
            continue
        value = namespace[name]
        if isinstance(value, types.ModuleType):
            imports[name] = f"import {value.__name__}" + (f" as {name}" if value.__name__ != name else "")
        elif isinstance(value, types.FunctionType) and value.__module__ == home:
            try:
                sources[name] = inspect.getsource(value).rstrip() + "\n"
            except (OSError, TypeError):
                raise TranslatorError(_words()["no_source"].format(origin=_words()["notebook"], name=name)) from None
            waiting += sorted(_names_used(value.__code__))
        elif getattr(value, "__module__", None) and getattr(sys.modules.get(value.__module__), name, None) is value:
            imports[name] = f"from {value.__module__} import {name}"
        elif isinstance(value, (str, int, float, bool, tuple, list, dict, set, frozenset, type(None))):
            constants[name] = f"{name} = {value!r}\n"
    header = f'"""{_words()["saved_header"]}"""\n'
    parts = [header, "\n".join(sorted(imports.values())) + "\n" if imports else "", "".join(constants.values())]
    text = "\n\n".join(part for part in parts if part) + "\n\n" + "\n\n".join(sources.values())
    target = Path(path)
    target.write_text(text, encoding="utf-8")
    return target


def _names_used(code: Any) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names_used(constant)
    return names
