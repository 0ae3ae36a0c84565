"""A learner's function given as source text, as `check_stage("flatten_content", source)` takes it.

`compile_source` runs the text's definitions and returns the function the stage wants;
`not_source` says, as a verdict, why a string was no function: a name in quotes, text that
defines none, or text that does not run (its line, when Python says it).
"""

from __future__ import annotations

import ast
import linecache
from typing import Callable

from ...words import current
from . import stages
from .texts import TEXT


def compile_source(stage: stages.Stage, text: str) -> Callable:
    """Source text -> the function it defines: the one named like the stage, else the first.
    Only definitions, imports and assignments run; a trailing check call is skipped. Names
    the text does not define are the package's (the stage module's globals)."""
    tree = ast.parse(text)
    tree.body = [node for node in tree.body if not isinstance(node, ast.Expr)]
    namespace = dict(vars(stage.module))
    namespace["__name__"] = "__learner__"  # what it defines is the learner's, not the package's
    filename = f"<{stage.name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)  # so is_stub reads it
    exec(compile(tree, filename, "exec"), namespace)
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    if not defined:
        raise ValueError(TEXT[current()]["no_function"].format(name=stage.name))
    return namespace[stage.name if stage.name in defined else defined[0]]


def not_source(name: str, text: str, error: BaseException) -> str:
    """A string where check_stage wants a function: a name in quotes, or source text that
    does not define the function or does not run (its line, when Python says it)."""
    words = TEXT[current()]
    if text.strip().isidentifier():
        return words["a_name"].format(name=name, text=repr(text.strip()[:60]))
    if isinstance(error, ValueError) and str(error) == words["no_function"].format(name=name):
        return words["source_no_function"].format(name=name)
    detail = f"{type(error).__name__}: {getattr(error, 'msg', None) or error}"
    if isinstance(error, SyntaxError) and error.lineno:
        detail += words["source_line"].format(line=error.lineno)
    return words["source_failed"].format(name=name, error=detail)
