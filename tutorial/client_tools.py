"""Anthropic-defined client tools: named by a type, run by the client, offered as functions.

A tool entry in a request is one of four kinds (`tool_kind`):

- "custom": `{"name", "description", "input_schema"}` (no `type`, or type "custom");
- "client": an Anthropic-defined tool that the *client* runs, written as a type and a name
  only — `{"type": "bash_20250124", "name": "bash"}`. The model calls it like any tool and
  the client answers with a tool_result, so for a local model it is an ordinary function
  tool; Anthropic's models know its input schema by heart, a local model must be told it.
  `CLIENT_TOOLS` below holds the schema Anthropic documents for each version;
- "server": an Anthropic-defined tool that runs on Anthropic's servers (web_search_*,
  web_fetch_*, code_execution_*, tool_search_tool_*): no client, so no local engine, runs it;
- "toolset": an entry without a name (`mcp_toolset`, `*_toolset_*`): Anthropic's servers
  expand it into tools; alone it names nothing a model could call.

A client tool of a version this table does not know (`bash_20991231`) is still a client
tool: it is offered with the schema of the newest version of its family that the table
knows, and the loss report says so.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Optional

# Where each schema is written down (the tool's "Parameters" / "Actions" sections):
#   bash:        https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool
#   text editor: https://platform.claude.com/docs/en/agents-and-tools/tool-use/text-editor-tool
#   computer:    https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool
#   memory:      https://platform.claude.com/docs/en/agents-and-tools/tool-use/memory-tool
# Settings such as text_editor_20250728's `max_characters` or the computer tool's display
# size belong to the tool entry, not to the model's input: they are not in these schemas.


def _string(description: str, **extra: Any) -> dict:
    return {"type": "string", "description": description, **extra}


def _integers(description: str, size: Optional[int] = None) -> dict:
    schema: dict = {"type": "array", "items": {"type": "integer"}, "description": description}
    if size:
        schema.update(minItems=size, maxItems=size)
    return schema


def _object(properties: dict, required: tuple = ()) -> dict:
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


_BASH = (
    "Run a command in a persistent bash session (state is kept between calls).",
    _object({
        "command": _string("The bash command to run. Required unless the tool is being restarted."),
        "restart": {"type": "boolean", "description": "Set to true to restart the bash session."},
    }),
)  # fmt: skip


def _editor(commands: tuple) -> tuple[str, dict]:
    return (
        "View, create and edit text files: view a file or directory, create a file, replace a "
        "unique string, insert text after a line" + (", undo the last edit." if "undo_edit" in commands else "."),
        _object({
            "command": _string("The command to run.", enum=list(commands)),
            "path": _string("Absolute path to the file or directory."),
            "file_text": _string("create: the content of the new file."),
            "old_str": _string("str_replace: the text to replace; it must match exactly once."),
            "new_str": _string("str_replace: the replacement; insert: the text to insert."),
            "insert_line": {"type": "integer", "description": "insert: the line after which to insert (0 for the start)."},
            "view_range": _integers("view: [start, end] line numbers, 1-indexed; end -1 reads to the end.", 2),
        }, ("command", "path")),
    )  # fmt: skip


_EDITOR_WITH_UNDO = _editor(("view", "create", "str_replace", "insert", "undo_edit"))
_EDITOR = _editor(("view", "create", "str_replace", "insert"))  # 20250429 and later: no undo_edit

_ACTIONS_20241022 = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
                     "double_click", "screenshot", "cursor_position")  # fmt: skip
_ACTIONS_20250124 = _ACTIONS_20241022 + ("hold_key", "left_mouse_down", "left_mouse_up", "triple_click", "scroll", "wait")


def _computer(actions: tuple) -> tuple[str, dict]:
    properties = {
        "action": _string("The action to perform.", enum=list(actions)),
        "coordinate": _integers("[x, y]: the pixel to move to or click at.", 2),
        "text": _string("type: the text to type; key: the key or key combination (xdotool syntax)."),
    }
    if "scroll" in actions:
        properties.update({
            "start_coordinate": _integers("left_click_drag: [x, y] where the drag starts.", 2),
            "scroll_direction": _string("scroll: the direction.", enum=["up", "down", "left", "right"]),
            "scroll_amount": {"type": "integer", "description": "scroll: how many scroll-wheel clicks."},
            "duration": {"type": "number", "description": "hold_key, wait: seconds."},
        })  # fmt: skip
    if "zoom" in actions:
        properties["region"] = _integers("zoom: [x1, y1, x2, y2], the screen region to view at full resolution.", 4)
    return "Control a computer's screen, mouse and keyboard; take screenshots.", _object(properties, ("action",))


_MEMORY = (
    "Read and write files in the /memories directory, kept between conversations.",
    _object({
        "command": _string("The command to run.", enum=["view", "create", "str_replace", "insert", "delete", "rename"]),
        "path": _string("The file or directory under /memories."),
        "view_range": _integers("view: [start, end] line numbers.", 2),
        "file_text": _string("create: the content of the new file."),
        "old_str": _string("str_replace: the text to replace."),
        "new_str": _string("str_replace: the replacement."),
        "insert_line": {"type": "integer", "description": "insert: the line after which to insert."},
        "insert_text": _string("insert: the text to insert."),
        "old_path": _string("rename: the current path."),
        "new_path": _string("rename: the new path."),
    }, ("command",)),
)  # fmt: skip

# type -> (description, input schema), one row per documented version, oldest first per family.
CLIENT_TOOLS: dict[str, tuple[str, dict]] = {
    "bash_20241022": _BASH,
    "bash_20250124": _BASH,
    "text_editor_20241022": _EDITOR_WITH_UNDO,
    "text_editor_20250124": _EDITOR_WITH_UNDO,
    "text_editor_20250429": _EDITOR,
    "text_editor_20250728": _EDITOR,
    "computer_20241022": _computer(_ACTIONS_20241022),
    "computer_20250124": _computer(_ACTIONS_20250124),
    "computer_20251124": _computer(_ACTIONS_20250124 + ("zoom",)),
    "memory_20250818": _MEMORY,
}

_VERSION = re.compile(r"_\d{8}$")


def family(kind: str) -> str:
    """"text_editor_20250728" -> "text_editor"."""
    return _VERSION.sub("", kind)


# family -> the newest version the table knows
NEWEST: dict[str, str] = {family(kind): kind for kind in sorted(CLIENT_TOOLS)}


def tool_kind(tool: dict) -> str:
    """"custom", "client", "server" or "toolset" (see the module's docstring)."""
    kind = tool.get("type")
    if kind is None or kind == "custom":
        return "custom"
    if "name" not in tool:
        return "toolset"
    return "client" if family(kind) in NEWEST else "server"


def known_version(tool: dict) -> Optional[str]:
    """The table row a client tool is offered with: its own type, else (a version the table
    does not know) the newest of its family."""
    kind = tool["type"]
    return kind if kind in CLIENT_TOOLS else NEWEST.get(family(kind))


def function_parts(tool: dict) -> tuple[str, dict]:
    """A client tool's description and input schema (a fresh copy: callers may change it)."""
    description, schema = CLIENT_TOOLS[known_version(tool)]
    return description, copy.deepcopy(schema)
