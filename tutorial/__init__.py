"""tutorial — how an Anthropic Messages request becomes chat messages and a tool schema.

The translation (Action 2 of the walk-through) is `tutorial.translate`; everything else
in the package serves it: the request contract, the trace, the loss report, the way
back, diagrams and the notebook playground. Heavy parts (graphviz, ipywidgets, jinja2)
load only when asked for, so `import tutorial` stays fast.
"""

from .errors import RequestError
from .examples import readme_request, readme_tools_schema, readme_translated
from .preprocess import preprocess
from .trace import Trace, trace
from .way_back import build_reply, counting_ids, response_to_message, sse_events, to_anthropic
from .translation import flatten_content, tool_call_dict, tools_to_chat_tools, translate, translate_messages



def __getattr__(name: str):
    # `render` needs jinja2, which only the chat-template chapter uses: load it on demand.
    if name == "render":
        from .rendering import render

        return render
    raise AttributeError(f"module 'tutorial' has no attribute {name!r}")


__all__ = [
    "build_reply",
    "counting_ids",
    "response_to_message",
    "sse_events",
    "to_anthropic",
    "RequestError",
    "Trace",
    "flatten_content",
    "preprocess",
    "readme_request",
    "readme_tools_schema",
    "readme_translated",
    "render",
    "tool_call_dict",
    "tools_to_chat_tools",
    "trace",
    "translate",
    "translate_messages",
]
