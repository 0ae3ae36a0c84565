"""The request contract: which Anthropic Messages bodies the translation accepts.

Read it in this order:

    shapes.py       the body, its messages, blocks and tools, as pydantic TypedDicts
    free_values.py  what the shapes leave free (a tool's input, fields they do not name)
    wording.py      from pydantic's errors to one located RequestError
    checking.py     the entry points: check_body, check_messages, check_tools, read_body

The models only *check* a body; the translation itself works on the plain dicts the
caller passed in, so the validated copy is thrown away (except in `read_body`, where the
copy pydantic-core builds from JSON text is the body).

Where the contract leaves a value free (a tool call's `input`, a tool's `input_schema`,
the fields it does not name), the value must still be plain JSON within the limits of
`limits.py` (at most 54 levels deep, no cycle, integers of at most 4300 digits, finite
numbers). That is checked here too, in the same pass, before anything recursive sees
the body: nothing after the contract can then run out of stack on a request.

A failed check becomes one `RequestError`: the first problem in body order, located
like `messages[2].content[0].tool_use_id`. This folder belongs to the lesson: it imports
pydantic and the lesson's `limits` and `errors`, nothing else of the package.
"""

from .checking import check_body, check_messages, check_tools, check_unnamed_fields, read_body
from .free_values import Free, FreeObject
from .shapes import (
    Base64Source,
    Block,
    Body,
    Content,
    CustomTool,
    DefinedTool,
    FileSource,
    ImageBlock,
    ImageSource,
    KnownBlock,
    KnownInsideBlock,
    Message,
    NestedItem,
    OtherBlock,
    OtherInsideBlock,
    SearchResultBlock,
    System,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolResultContent,
    ToolUseBlock,
    UrlSource,
)

__all__ = [
    "Base64Source",
    "Block",
    "Body",
    "Content",
    "CustomTool",
    "DefinedTool",
    "FileSource",
    "Free",
    "FreeObject",
    "ImageBlock",
    "ImageSource",
    "KnownBlock",
    "KnownInsideBlock",
    "Message",
    "NestedItem",
    "OtherBlock",
    "OtherInsideBlock",
    "SearchResultBlock",
    "System",
    "TextBlock",
    "ThinkingBlock",
    "Tool",
    "ToolResultBlock",
    "ToolResultContent",
    "ToolUseBlock",
    "UrlSource",
    "check_body",
    "check_messages",
    "check_tools",
    "check_unnamed_fields",
    "read_body",
]
