"""Chapter 10, where real stacks disagree: predictions about the recorded peers.

The right answers are read from the recorded outputs (`tutorial/peers/data/`) through the same
tables the chapter shows, and from our own pipelines run on the same requests.
"""

from __future__ import annotations

import functools
from typing import Any

from ...peers import deviations as dv
from ...peers import tables as pt
from . import Exercise, add


@functools.cache
def _data() -> dv.PeerData:
    return dv.load_peer_data()


def _case(number: str) -> str:
    return next(case_id for case_id in _data().cases if case_id.startswith(number + "_"))


def _wire_order() -> str:
    roles = pt.request_table([("roles", _case("09"), pt.roles())], _data()).column("roles")
    kept = sorted(row for row, value in roles.items() if value == roles["sglang"])
    return "c" if kept == sorted(["slime", "sglang", "ours: chat_template", "ours: openai"]) else "?"


add(
    Exercise(
        key="10.wire_order",
        question="Case 09 ends with a user turn [text 'note before', tool_result, text 'note after']. Which "
        "stacks keep the three parts in the order they were sent?",
        expected=_wire_order,
        wrong="a",
        choices={
            "a": "All six rows: the order of a message's blocks is the one thing every stack has to keep.",
            "b": "Only vLLM and LiteLLM: the others move the note so the call and its result stay adjacent.",
            "c": "Slime, SGLang and both our targets; vLLM and LiteLLM put the tool message first.",
            "d": "None: every stack joins the two notes and puts them after the tool message.",
        },
        feedback={
            "a": "two of the four peers reorder on purpose: they emit every tool message first and the user's "
            "text after it, in one user message.",
            "b": "the other way round: vLLM and LiteLLM are the ones that keep the call and its result "
            "adjacent, and they do it by moving the note, not by keeping it.",
            "d": "Slime, SGLang and our two targets flush the note before the result: user, tool, user.",
        },
        hint="Read the roles column of the table: where does the first user message after the call sit?",
        explanation="Slime, SGLang and our targets give user → tool → user (wire order); vLLM 0.33.0 and "
        "LiteLLM 1.110.2 give tool → user, with both notes joined after the result.",
    )
)


def _vllm_separator() -> str:
    body = _data().cases[_case("02")]
    texts = [block["text"] for block in body["system"]]
    joined = pt.request_table([("system", _case("02"), pt.message_field(0, "content", 200))], _data()).value("vllm", "system")
    return joined[len(texts[0]) : len(joined) - len(texts[1])]


add(
    Exercise(
        key="10.system_join",
        question="Case 02 sends the system prompt as two text blocks, 'Block A' and 'Block B'. What string does "
        "vLLM 0.33.0 put between them? (Write it as a Python string.)",
        expected=_vllm_separator,
        wrong="\n",
        hint="Slime, SGLang and our targets use a newline. Look at vLLM's cell in the '02 system' column: is "
        "there anything between the two texts?",
        explanation="nothing: vLLM joins system blocks with the empty string and renders 'Block ABlock B', so "
        "two sentences run into one word at the very start of the prompt.",
        same=lambda answer, expected: isinstance(answer, str) and answer == expected,
        form="a Python string such as ' ' or '\\n'",
    )
)


def _signature_keepers() -> str:
    case_id = _case("06")
    signature = _data().cases[case_id]["messages"][1]["content"][0]["signature"]
    kept = pt.request_table([("kept", case_id, pt.carries(signature))], _data()).column("kept")
    return "b" if [row for row, value in kept.items() if value is True] == ["litellm"] else "?"


add(
    Exercise(
        key="10.signature",
        question="Case 06 replays an assistant turn whose thinking block carries a signature. Which stack keeps "
        "the signature in the request object it builds?",
        expected=_signature_keepers,
        wrong="c",
        choices={
            "a": "None of them: a local engine has no use for a signature, so all four drop it.",
            "b": "LiteLLM alone, in a thinking_blocks field beside reasoning_content.",
            "c": "SGLang and vLLM, because a serving endpoint must be able to replay it later.",
            "d": "Slime, since a trajectory store has to keep every field of a turn it records.",
        },
        feedback={
            "a": "one of them does keep it: the one whose output is a request to another provider rather than a "
            "prompt for a local model.",
            "c": "both serving engines drop it with the rest of the block's metadata; only the reasoning text "
            "reaches their message.",
            "d": "Slime keeps the thinking text as reasoning_content and drops the signature, as our default "
            "target does (and our loss report says so).",
        },
        hint="A signature matters only where the request may still reach Anthropic's servers. Which of the four "
        "builds a request for another provider instead of a prompt?",
        explanation="only LiteLLM keeps it, in thinking_blocks; Slime, SGLang and vLLM drop it, as both our "
        "targets do. A local model neither checks nor makes signatures.",
    )
)


def _anyone_keeps_is_error() -> bool:
    kept = pt.request_table([("is_error", _case("08"), pt.carries("is_error"))], _data()).column("is_error")
    return any(value is True for value in kept.values())


add(
    Exercise(
        key="10.is_error",
        question="Case 08: a tool answers with is_error: true (a text part and a screenshot). Does any of the "
        "six rows carry is_error into its output? (True or False)",
        expected=_anyone_keeps_is_error,
        wrong=True,
        hint="Where would a chat message put an error flag? Look at the keys a tool message has in the "
        "OpenAI shape: role, tool_call_id, content.",
        explanation="none does: the chat shape has no error flag for a tool result, so the model learns that "
        "the tool failed only if the tool's own text says so.",
        form="True or False",
    )
)


def _never_refuse() -> str:
    bad = ["05", "07", "13", "16", "17"]
    outcomes = pt.request_table([(n, _case(n), pt.outcome()) for n in bad], _data())
    accepting = [row for row in outcomes.keys if all(outcomes.value(row, n) == "ok" for n in bad)]
    return "d" if accepting == ["slime", "litellm", "ours: chat_template"] else "?"


add(
    Exercise(
        key="10.never_refuse",
        question="Five recorded requests carry something a chat template cannot take as it is (a PDF, redacted "
        "thinking, server-tool history, a tool choice no tool can meet, a tool without input_schema). Which rows "
        "accept all five?",
        expected=_never_refuse,
        wrong="a",
        choices={
            "a": "None: a request that a template cannot render has to be refused by everyone.",
            "b": "SGLang and vLLM, because a serving engine must answer every request it is sent.",
            "c": "Every row except our openai target, which is stricter than the stacks it imitates.",
            "d": "Slime, LiteLLM and our default target; the serving endpoints refuse some or all.",
        },
        feedback={
            "a": "a rollout adapter cannot refuse: it has to keep the trajectory going, so it accepts and "
            "changes what it cannot carry (our default target reports each change).",
            "b": "serving endpoints are the ones that can answer 400, and they do: SGLang refuses all five.",
            "c": "our openai target refuses where SGLang does, except case 16 (a documented deviation); vLLM "
            "refuses several too.",
        },
        hint="Which kind of stack has a client that can fix its request after a 400, and which has to keep a "
        "rollout going whatever arrives?",
        explanation="Slime, LiteLLM and our default target accept all five; SGLang refuses all five, vLLM and "
        "our openai target some. Between the two lies the real risk: input accepted and changed without a word.",
    )
)


def _rule_count() -> int:
    return len({entry.kind for entry in dv.DEVIATIONS})


add(
    Exercise(
        key="10.rules",
        question=f"The table of deliberate differences (tutorial.peers.deviations.DEVIATIONS) has "
        f"{len(dv.DEVIATIONS)} entries, one per case, peer and place. How many distinct rules (reasons) stand "
        "behind them?",
        expected=_rule_count,
        wrong=len(dv.DEVIATIONS),
        hint="Many entries repeat the same difference in another recorded case. Group the entries by their "
        "'what differs' text (their kind).",
        explanation="a handful of rules, each repeated wherever a recorded case touches it: a placeholder for an "
        "image, one for a document, content '' beside tool calls, no strict: false on tools, and accepting a "
        "tool choice that only sampling can check.",
        form="a whole number",
    )
)


def _reference_messages() -> int:
    answers = pt.request_table([("tool messages", _case("11"), pt.transcript(2, limit=120))], _data()).column("tool messages")
    return len(answers["sglang"])


add(
    Exercise(
        key="10.reference",
        question="Case 11: a tool search answers [text, tool_reference 'Bash', text]. How many tool messages "
        "does SGLang 0.5.23 make of that one tool_result?",
        expected=_reference_messages,
        wrong=1,
        hint="Chapter 08 section 2 followed the same shape through the openai target, which imitates SGLang "
        "here.",
        explanation="three: SGLang cuts the result into runs (text, reference, text), one tool message per run, "
        "all with the same tool_call_id, as our openai target does.",
        form="a whole number",
    )
)


def _reminder() -> str:
    table = pt.request_table([("roles", _case("14"), pt.roles())], _data()).column("roles")
    merged = sorted(row for row, roles in table.items() if roles == ["system", "user", "user"])
    return "b" if merged == sorted(["sglang", "vllm", "ours: openai"]) else "?"


add(
    Exercise(
        key="10.reminder",
        question="Case 14: between two user turns sits {'role': 'system', 'content': 'skills reminder'}, the way "
        "Claude Code sends reminders. Where does each stack put it?",
        expected=_reminder,
        wrong="a",
        choices={
            "a": "Every stack keeps it where it was sent, as a system message between the two user turns.",
            "b": "SGLang, vLLM and our openai target merge it into the system prompt; others keep its place.",
            "c": "Every stack moves it into the first system message, since most templates want one system turn.",
            "d": "Every stack drops it: a system message inside the list is not part of the Messages API at all.",
        },
        feedback={
            "a": "no row keeps a system role in the middle: some merge it into the leading system prompt, the "
            "others fold it into a user turn at its place (Slime and our preprocess wrap it in <system-reminder>).",
            "c": "Slime, LiteLLM and our default target keep its position, inside a user turn; only the two "
            "serving engines (with this recorded setting) and our openai target merge it.",
            "d": "nobody drops it; they disagree about where it goes, which changes the first tokens of the prompt "
            "for those that merge.",
        },
        hint="Look at the roles column: which rows have one user message fewer, and what does their first "
        "message hold?",
        explanation="SGLang (setting inline_system='merge'), vLLM and our openai target merge it into the "
        "leading system message, so the prompt's first tokens change whenever a reminder arrives; Slime, "
        "LiteLLM and our default target keep it in place inside a user turn.",
    )
)


def _offers_web_search() -> str:
    names = pt.request_table([("tools", _case("13"), pt.tool_names())], _data()).column("tools")
    offering = sorted(row for row, value in names.items() if value == ["web_search"])
    return "a" if offering == sorted(["slime", "ours: chat_template"]) else "?"


add(
    Exercise(
        key="10.server_tool",
        question="Case 13 declares Anthropic's server tool web_search_20250305 (it runs on Anthropic's servers). "
        "Which rows offer web_search to the local model as an ordinary function tool?",
        expected=_offers_web_search,
        wrong="d",
        choices={
            "a": "Slime and our default target: a function with an empty schema, and nothing local runs it.",
            "b": "SGLang and vLLM, which know the server tools by their names and forward them as functions.",
            "c": "LiteLLM alone, which turns every tool type it does not know into an ordinary function tool.",
            "d": "None of them: a tool that only Anthropic's servers can run is left out by every stack.",
        },
        feedback={
            "b": "both serving engines refuse this request outright (its history holds server-tool blocks), so "
            "they offer nothing.",
            "c": "LiteLLM maps a web-search tool to its own web_search_options and leaves it out of the tools.",
            "d": "two rows do offer it: the ones that accept everything and copy each tool's name into a "
            "function (our default target's loss report says so).",
        },
        hint="Look at the '13 tools' column: which rows show [\"web_search\"]?",
        explanation="Slime and our default target turn it into a function with an empty schema; the local model "
        "may call it, but nothing local can run it, and the call goes back to a client that expects the server "
        "to have searched.",
    )
)


def _stop_sequence_rows() -> str:
    reasons = pt.reply_table([("r4", "r4_stop_sequence", pt.reply_field("stop_reason"))], _data()).column("r4")
    rows = [row for row, reason in reasons.items() if reason == "stop_sequence"]
    return "c" if rows == ["vllm", "ours: way back"] else "?"


add(
    Exercise(
        key="10.stop_sequence",
        question="Reply r4 ended because the model produced the stop string 'STOP'. Which rows tell the client "
        "stop_reason: 'stop_sequence'?",
        expected=_stop_sequence_rows,
        wrong="a",
        choices={
            "a": "All of them: a matched stop string is exactly what stop_sequence was made to report.",
            "b": "None of them: engines report 'stop' for both, so every stack answers end_turn.",
            "c": "vLLM and our build_reply; Slime, SGLang and LiteLLM answer end_turn.",
            "d": "Slime and SGLang, which read matched_stop; vLLM and LiteLLM answer end_turn.",
        },
        feedback={
            "a": "three of the four peers never emit it: they map the engine's 'stop' to end_turn whatever "
            "was matched.",
            "b": "an engine can say which stop string matched (vLLM's stop_reason, SGLang's matched_stop); one "
            "peer and our way back use it.",
            "d": "Slime and SGLang both answer end_turn here; reading matched_stop is what vLLM (and our "
            "build_reply) do with the engine's report.",
        },
        hint="Look at the 'r4 stop_reason' column.",
        explanation="only vLLM 0.33.0 and our build_reply answer stop_sequence (with the matched string); the "
        "others say end_turn, so a client cannot tell a cut from a finished thought.",
    )
)


def _empty_content() -> str:
    values = pt.request_table([("19", _case("19"), pt.message_field(1, "content"))], _data()).column("19")
    absent = [row for row, value in values.items() if value is pt.ABSENT]
    empty = [row for row, value in values.items() if value == ""]
    return "c" if absent == ["vllm"] and len(empty) == len(values) - 1 else "?"


add(
    Exercise(
        key="10.empty",
        question="Case 19 replays an assistant turn made of one empty text block. What does each row write "
        "for that message's content?",
        expected=_empty_content,
        wrong="b",
        choices={
            "a": "\"\" in every row: an empty text block is simply the empty string.",
            "b": "None (null) in every row, since the turn has no text at all.",
            "c": "\"\" in five rows; vLLM leaves the content key out altogether.",
            "d": "Every row drops the whole message, since it holds nothing.",
        },
        feedback={
            "a": "one row differs: it drops empty text blocks and then writes no content key at all.",
            "b": "no row writes null for this case; null would render as the word None in some templates.",
            "d": "dropping the turn would break the alternation of roles; every row keeps the assistant message.",
        },
        hint="Look at the '19 empty text' column; '(absent)' means the key is missing, which is not \"\".",
        explanation="Slime, SGLang, LiteLLM and both our targets write \"\"; vLLM 0.33.0 writes a message with "
        "no content key. An absent key can make a template raise where \"\" renders as nothing.",
    )
)
