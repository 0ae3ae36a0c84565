"""The stages of chapter 05, in the order the chapter builds them (helpers before callers).

Each stage names the function the learner writes, the package's function it is checked
against, the package source the solution shows, its inputs (inputs.py) and, for a
difference found, which bullet of its rule (texts.RULES) governs that place in the result.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ... import openai_target, translation
from ...words import current
from . import inputs
from .texts import RULES, SUMMARIES


@dataclass(frozen=True)
class Stage:
    name: str  # the function the learner writes
    reference: Callable  # the package's function with the same arguments
    shown: tuple[Callable, ...]  # the package source the solution shows, in reading order
    readme: Callable[[dict], list]  # README body -> [(label, args)]
    traps: Callable[[], list]  # [(label, args, rule)]
    generate: Callable[[inputs.Maker], tuple]  # one generated args tuple
    explanation: str  # the rule in one sentence (English)
    module: Any = translation  # where the shown source lives (its names are the source's globals)
    # (args, location in the result, expected result) -> the rule that place follows ("rule" or
    # "stage:rule"), "~rule" when the place only suggests it (a trap's own rule is preferred then),
    # or None when the place does not say.
    rule_at: Callable[[tuple, tuple, Any], Optional[str]] = lambda args, location, expected: None

    @property
    def rules(self) -> dict[str, str]:
        """The bullets of this stage's rule, in English: id -> text."""
        return RULES["en"][self.name]


# ---------------------------------------------------------------------------
# Which bullet a place in a result follows


def _first_key(location: tuple) -> Optional[str]:
    return next((part for part in location if isinstance(part, str)), None)


def _user_block_rule(args: tuple, location: tuple, expected: Any) -> Optional[str]:
    block = args[0]
    if not isinstance(block, dict):
        return None
    return {"text": "text", "tool_result": "tool_result"}.get(block.get("type"), "other")


# The keys of an assistant message and the bullet each follows; "content" only suggests one
# (thinking or a dropped block put into the content breaks another bullet).
_ASSISTANT_KEYS = {"content": "~text", "reasoning_content": "thinking", "tool_calls": "calls", "role": "~text"}


def _assistant_rule(args: tuple, location: tuple, expected: Any) -> Optional[str]:
    key = _first_key(location)
    if not key:
        return None
    blocks = args[0] if args and isinstance(args[0], list) else None
    if key == "content" and blocks is not None and all(_kind(block) in ("text", "tool_use") for block in blocks):
        return "text"  # only text could have made the content: nothing else to suspect
    return _ASSISTANT_KEYS.get(key, "~text")


def _kind(block: Any) -> Any:
    return block.get("type") if isinstance(block, dict) else None


def _origin(messages: Any, system: Any, index: int) -> Optional[tuple[str, Any]]:
    """Which input made message `index` of translate_messages' result: ("system", system),
    ("inner_system" | "string" | "assistant", message) or ("user", block); None when unknown."""
    if not isinstance(messages, list):
        return None
    try:
        made = [("system", system)] * len(translation.system_messages(system))
        for message in messages:
            role, content = message["role"], message["content"]
            if role == "system":
                made.append(("inner_system", message))
            elif isinstance(content, str):
                made.append(("string", message))
            elif role == "assistant":
                made.append(("assistant", message))
            else:
                made += [("user", block) for block in content]
    except (Exception, RecursionError):  # noqa: BLE001 - a body the package would refuse
        return None
    return made[index] if index < len(made) else None


def _messages_rule(args: tuple, location: tuple, expected: Any) -> Optional[str]:
    """For a place in the list translate_messages returns: the bullet of the message there."""
    if not location or not isinstance(location[0], int) or not isinstance(expected, list):
        return None
    index, inner = location[0], location[1:]
    system = args[1] if len(args) > 1 else None
    if index == 0 and system:
        return "system"
    if index >= len(expected) or not isinstance(expected[index], dict):
        return None  # a message too many: the trap's own rule says more
    message = expected[index]
    role = message.get("role")
    if role == "system":
        return "inner_system" if index or not system else "system"
    if not inner or inner == ("role",):
        return None  # a whole message missing, or another in its place: which input gave it is the trap's to say
    origin = _origin(args[0], system, index)
    if origin and origin[0] == "string":
        return "string"
    if role == "assistant":
        blocks = origin[1]["content"] if origin and origin[0] == "assistant" else None
        return _under("assistant_message", _assistant_rule((blocks,), inner, message) or "~text")
    if role == "tool":
        return "user_block_message:tool_result"
    if origin and origin[0] == "user":
        # The block's own bullet; only suggested, since a list handled wrongly as a whole
        # (translate_messages' "user" bullet) shows at the same place.
        return "~user_block_message:" + (_user_block_rule((origin[1],), inner, message) or "other")
    return None


def _tools_rule(args: tuple, location: tuple, expected: Any) -> Optional[str]:
    return "none" if not location and (expected is None or args[0] in (None, [])) else "~wrap"


def _translate_rule(args: tuple, location: tuple, expected: Any) -> Optional[str]:
    """translate's result is (translated, tools_schema): a place in either half."""
    if not location:
        return None
    body = args[0] if args and isinstance(args[0], dict) else {}
    if location == (0,):
        return "both"  # the first half is not the messages at all
    if location[0] == 1:
        return _under("tools_to_chat_tools", _tools_rule((body.get("tools"),), location[1:], expected[1]))
    found = _messages_rule((body.get("messages"), body.get("system")), location[1:], expected[0])
    if found is None or ":" in found:
        return found
    return _under("translate_messages", found)


def _under(stage: str, found: str) -> str:
    """"rule" -> "stage:rule" (a bullet of another stage), "~rule" -> "~stage:rule"."""
    return ("~" if found.startswith("~") else "") + f"{stage}:{found.lstrip('~')}"


STAGES: dict[str, Stage] = {
    stage.name: stage
    for stage in (
        Stage(
            "flatten_content",
            translation.flatten_content,
            (translation.flatten_content, translation._part_text, translation._string),
            inputs.readme_flatten,
            inputs.traps_flatten,
            inputs.generate_flatten,
            SUMMARIES["en"]["flatten_content"],
        ),
        Stage(
            "user_block_message",
            translation.user_block_message,
            (translation.user_block_message,),
            inputs.readme_user_block,
            inputs.traps_user_block,
            inputs.generate_user_block,
            SUMMARIES["en"]["user_block_message"],
            rule_at=_user_block_rule,
        ),
        Stage(
            "assistant_message",
            translation.assistant_message,
            (translation.assistant_message, translation.tool_call_dict),
            inputs.readme_assistant,
            inputs.traps_assistant,
            inputs.generate_assistant,
            SUMMARIES["en"]["assistant_message"],
            rule_at=_assistant_rule,
        ),
        Stage(
            "translate_messages",
            translation.translate_messages,
            (translation.chat_template_messages, translation.system_messages, translation.chat_template_message),
            inputs.readme_messages,
            inputs.traps_messages,
            inputs.generate_messages,
            SUMMARIES["en"]["translate_messages"],
            rule_at=_messages_rule,
        ),
        Stage(
            "tools_to_chat_tools",
            translation.tools_to_chat_tools,
            (translation.chat_template_tools, translation.function_tool),
            inputs.readme_tools,
            inputs.traps_tools,
            inputs.generate_tools,
            SUMMARIES["en"]["tools_to_chat_tools"],
            rule_at=_tools_rule,
        ),
        Stage(
            "translate",
            translation.translate,
            (translation.translate,),
            inputs.readme_translate,
            inputs.traps_translate,
            inputs.generate_translate,
            SUMMARIES["en"]["translate"],
            rule_at=_translate_rule,
        ),
        Stage(
            "tool_result_messages",
            openai_target.tool_result_messages,
            (openai_target.tool_result_messages, openai_target._collapse, openai_target._is_empty_text),
            inputs.readme_openai,
            inputs.traps_openai,
            inputs.generate_openai,
            SUMMARIES["en"]["tool_result_messages"],
            openai_target,
        ),
    )
}


def stage_names() -> list[str]:
    return list(STAGES)


class NoStage(KeyError):
    """A stage name the chapter does not have, said in the current language (a KeyError, as a
    lookup by name raises; its str is the sentence, not a quoted key). A close name is offered
    as `check("13.extend", …)` offers '13.extends'. `among` are the chapter's stages (chapter
    05's unless given: check_trajectory_stage gives chapter 13's)."""

    def __init__(self, name: str, among: Optional[tuple] = None):
        super().__init__(name)
        self.name = name
        self.among = tuple(among) if among is not None else tuple(STAGES)

    def _render_traceback_(self) -> list[str]:  # IPython shows this one line, not a traceback, for a typo
        return [f"{type(self).__name__}: {self}"]

    def __str__(self) -> str:
        import difflib

        from .texts import TEXT

        lang = current()
        close = difflib.get_close_matches(str(self.name), self.among, n=1) if isinstance(self.name, str) else []
        if close:
            return TEXT[lang]["no_stage_close"].format(name=self.name, close=close[0])
        return TEXT[lang]["no_stage"].format(name=self.name, stages=("、" if lang == "zh" else ", ").join(self.among))


def get(name: str) -> Stage:
    if name not in STAGES:
        raise NoStage(name)
    return STAGES[name]


def source(name: str) -> str:
    """The package's own code for a stage: the function and the helpers it calls."""
    return "\n\n\n".join(inspect.getsource(function).rstrip() for function in get(name).shown) + "\n"


def rule_text(qualified: str, stage: str) -> str:
    """The text of a bullet, in the current language: `qualified` is "rule" (of `stage`) or
    "other_stage:rule"."""
    lang = current()
    owner, _, rule = qualified.rpartition(":")
    owner = owner or stage
    text = plain(RULES[lang][owner][rule])
    if owner == stage:
        return text
    return f"（{owner}）{text}" if lang == "zh" else f"({owner}) {text}"


def plain(text: str) -> str:
    """A bullet or a summary as a verdict prints it, in plain text: chapter 05's Markdown
    backticks dropped (they would print as they are), and a full stop at the end, as every
    "The rule:" / "规则：" line has (zh review 2, L13)."""
    text = text.replace("`", "").rstrip()
    if text and not text.endswith(("。", ".", "！", "？", "!", "?")):
        text += "。" if current() == "zh" else "."
    return text
