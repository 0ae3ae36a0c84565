"""Where we differ from real stacks, on purpose — checked against recorded outputs.

`data/` beside this module holds what published implementations built from the same 22 Anthropic
requests (Slime @ 624b824a, SGLang 0.5.23, vLLM 0.33.0, LiteLLM 1.110.2; see its README).
Two of them are what our targets imitate:

- target `"chat_template"` after `preprocess` ↔ Slime, the rollout adapter of the walk-through
  (Slime folds mid-list system messages before translating, as our `preprocess` does);
- target `"openai"` on the body as sent ↔ SGLang's `/v1/messages` endpoint.

`compare(case_id, peer)` computes every place where our output and the peer's recorded output
differ. `DEVIATIONS` is the one table of differences we keep on purpose, each with what differs
and why. The conformance test (`tests/test_conformance.py`) requires the two to match exactly:
no difference without an entry, no entry without a difference.

Entries marked `provisional=True` are not deliberate: there the spec is silent or our module
looks wrong, and the peer's behaviour seems better. They stay in the table only until the
module is fixed; then the test names them as stale and they are deleted.

The data directory is an argument; by default it is the recorded data shipped in `data/`.
"""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from ..errors import RequestError, format_location
from . import DATA_DIR
from ..watch.jsondiff import ABSENT
from ..watch.jsondiff import differences as json_differences
from ..preprocess import preprocess
from ..translation import translate
from ..words import current

# ---------------------------------------------------------------------------
# Which peer each target is compared with, and how our side is run


@dataclass(frozen=True)
class Pipeline:
    """How our side of a comparison is produced from a recorded request."""

    target: str  # the `translate` target
    preprocess: bool  # run `preprocess` first (fold mid-list system messages)
    note: str


PEERS: dict[str, Pipeline] = {
    "slime": Pipeline(
        target="chat_template",
        preprocess=True,
        note="Slime's adapter folds mid-list system messages and then translates, as "
        "BaseAdapter._run_turn does; its results record the fold in `folded_mid_list_system`.",
    ),
    "sglang": Pipeline(
        target="openai",
        preprocess=False,
        note="SGLang's endpoint receives the body as the client sent it; what it does with a "
        "mid-list system message is its own setting (recorded as inline_system='merge').",
    ),
}
"""The peers that are compared. vLLM and LiteLLM were recorded too, as reference material."""

# ---------------------------------------------------------------------------
# Loading the recorded data


@dataclass(frozen=True)
class PeerData:
    """The recorded files, indexed. Treat the values as read-only."""

    directory: Path
    cases: dict[str, dict]  # case id -> request body
    results: dict[str, dict[str, dict]]  # case id -> peer -> recorded result
    config: dict  # the knobs that stood in for server settings
    versions: dict[str, dict]  # peer -> its recorded `meta` (source, version)
    replies: dict[str, dict]  # reply id -> model output
    reply_results: dict[str, dict[str, dict]]  # reply id -> peer -> response body and SSE events


_FILES = ("cases.json", "outputs_requests.json", "replies.json", "outputs_replies.json")


def default_data_dir() -> Optional[Path]:
    """The recorded data shipped beside this module (`tutorial/peers/data`), or None if absent."""
    return DATA_DIR if (DATA_DIR / "cases.json").is_file() else None


def load_peer_data(data_dir: Union[str, Path, None] = None) -> PeerData:
    """Read the four recorded files from `data_dir` (default: `default_data_dir()`)."""
    directory = Path(data_dir) if data_dir is not None else default_data_dir()
    if directory is None:
        raise FileNotFoundError(
            "no recorded peer data: pass data_dir= (the folder holding cases.json and "
            "outputs_requests.json; it ships as tutorial/peers/data)"
        )
    return _load(directory.resolve())


@functools.lru_cache(maxsize=4)
def _load(directory: Path) -> PeerData:
    missing = [name for name in _FILES if not (directory / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{directory} lacks {', '.join(missing)}")

    def read(name: str) -> Any:
        return json.loads((directory / name).read_text(encoding="utf-8"))

    requests, replies = read("outputs_requests.json"), read("outputs_replies.json")
    return PeerData(
        directory=directory,
        cases={case["id"]: case["request"] for case in read("cases.json")},
        results={case["id"]: case["results"] for case in requests["cases"]},
        config=requests.get("config", {}),
        versions={peer: info.get("meta", {}) for peer, info in requests.get("peers", {}).items()},
        replies={reply["id"]: reply["model_output"] for reply in read("replies.json")},
        reply_results={case["id"]: case["results"] for case in replies["cases"]},
    )


# ---------------------------------------------------------------------------
# Differences, computed from the data




@dataclass(frozen=True)
class Difference:
    """One place where our output and a peer's recorded output disagree.

    `path` points into the *outputs*: `messages[i]...` into the translated message list,
    `tools[i]...` into the tools schema. Two paths are not locations in an output:
    `outcome` (one side raised an error, the other did not) and `folded_mid_list_system`
    (Slime's record of folding a system message disagrees with what `preprocess` did).
    """

    case_id: str
    peer: str
    path: str
    ours: Any
    theirs: Any

    def __str__(self) -> str:
        where = f"{self.case_id} / {self.peer} at {self.path}"
        return f"{where}: ours {_short(self.ours)}, {self.peer} {_short(self.theirs)}"


def _short(value: Any, limit: int = 100) -> str:
    text = repr(value) if value is ABSENT else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Outcome:
    """What our pipeline made of one request for one peer's target."""

    ok: bool
    messages: Optional[list] = None
    tools: Optional[list] = None
    error: Optional[RequestError] = None
    folded: Optional[bool] = None  # did preprocess change the body? (None: not run or failed)
    body: Optional[dict] = None  # the body that was translated (preprocessed or as sent)


def run_ours(request: dict, peer: str) -> Outcome:
    """Run our side of the comparison for `peer` on a deep copy of `request`."""
    pipeline = _pipeline(peer)
    body = copy.deepcopy(request)
    folded = None
    try:
        if pipeline.preprocess:
            prepared = preprocess(body)
            folded = prepared != body
            body = prepared
        messages, tools = translate(body, target=pipeline.target)
    except RequestError as error:
        return Outcome(ok=False, error=error, folded=folded)
    return Outcome(ok=True, messages=messages, tools=tools, folded=folded, body=body)


def compare(case_id: str, peer: str, data: Optional[PeerData] = None) -> list[Difference]:
    """Every difference between our output and `peer`'s recorded output for one case.

    When both sides succeed, messages and tools are compared value by value (types too:
    `1` is not `1.0`, a missing key is not `""`); lists of different lengths count as one
    difference at the list. When either side failed, only the outcome is compared.
    """
    data = data if data is not None else load_peer_data()
    _pipeline(peer)
    request, recorded = data.cases[case_id], data.results[case_id][peer]
    ours = run_ours(request, peer)
    found: list[Difference] = []

    def note(path: str, mine: Any, theirs: Any) -> None:
        found.append(Difference(case_id, peer, path, mine, theirs))

    flag = recorded.get("folded_mid_list_system")
    if isinstance(flag, bool) and ours.folded is not None and flag != ours.folded:
        note("folded_mid_list_system", ours.folded, flag)

    if ours.ok != bool(recorded.get("ok")):
        note("outcome", _our_outcome(ours), _their_outcome(recorded))
        return found
    if not ours.ok:
        return found  # both refused the request: that is agreement
    for key, mine in (("messages", ours.messages), ("tools", ours.tools)):
        for location, a, b in json_differences(mine, recorded.get(key), (key,)):
            note(format_location(location), a, b)
    return found


def differences(data: Optional[PeerData] = None) -> list[Difference]:
    """`compare` over every recorded case and every compared peer."""
    data = data if data is not None else load_peer_data()
    return [d for case_id in data.cases for peer in PEERS for d in compare(case_id, peer, data)]


def _pipeline(peer: str) -> Pipeline:
    if peer not in PEERS:
        raise ValueError(
            f"peer must be one of {sorted(PEERS)} (the others are recorded for reference only), got {peer!r}"
        )
    return PEERS[peer]


def _our_outcome(ours: Outcome) -> str:
    if ours.ok:
        return "ok"
    return f"RequestError at {ours.error}"  # the location, then the reason in the reader's language


def _their_outcome(recorded: dict) -> str:
    if recorded.get("ok"):
        return "ok"
    first_line = str(recorded.get("error") or "error").splitlines()[0]
    status = recorded.get("http_status_if_served")
    return f"error ({status}): {first_line}" if status else f"error: {first_line}"


# ---------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class Deviation:
    """A documented difference: in `case_id`, against `peer`, at these output `paths`."""

    case_id: str
    peer: str
    kind: str  # a short key shared by entries with the same cause
    paths: tuple[str, ...]
    what: str  # what differs, in a line
    why: str  # why we differ, in a sentence or two
    provisional: bool = False  # not deliberate: waiting for a fix in the module

    def what_in(self) -> str:
        """What differs, in the current language."""
        return _KINDS_ZH[self.kind][0] if current() == "zh" else self.what

    def why_in(self) -> str:
        """Why we differ, in the current language."""
        return _KINDS_ZH[self.kind][1] if current() == "zh" else self.why


_KINDS: dict[str, tuple[str, str, bool]] = {
    # kind: (what, why, provisional)
    "image-placeholder": (
        'an image block becomes the user text "[image omitted]"; Slime writes the block\'s Python repr',
        "Slime puts the Python repr of an image block, base64 data and all, into user text, so "
        "the model reads a dict dump and a screenshot adds megabytes of prompt; we write a "
        "placeholder (SPEC.md) and the loss report names the image.",
        False,
    ),
    "document-placeholder": (
        'a document block becomes the user text "[document omitted]"; Slime writes its Python repr',
        "A text-only template cannot read a PDF, and the repr of its base64 bytes is noise to the "
        "model; we write a placeholder naming the block type and report the block as lost.",
        False,
    ),
    "assistant-empty-content": (
        'an assistant turn with tool calls and no text has content ""; SGLang leaves the key out',
        'SPEC.md gives content "" when there is no text, so every assistant message carries a '
        "string a template can use without testing for a missing key; to the OpenAI API an "
        "empty and an absent content mean the same here.",
        False,
    ),
    "tool-strict-default": (
        'function tools have no "strict": false; SGLang\'s request model fills that default in',
        "Our tool shape carries only what the Anthropic tool declared (SPEC.md), and false is "
        "already the OpenAI default, so the API reads both the same; a template that dumps "
        "tools as JSON does show the extra key in SGLang's prompt.",
        False,
    ),
    "tool-choice-unsatisfiable": (
        'we accept tool_choice {"type": "any"} when every tool is a server tool (tools become '
        "None); SGLang refuses the request with 400",
        "Neither target interprets tool_choice: holding the model to a tool is the decoder's job after "
        "Action 2, so it stays in the body and the loss report names it. SGLang checks it at the "
        "endpoint; a stack built on our output must check it where it decodes.",
        False,
    ),
}

_KINDS_ZH: dict[str, tuple[str, str]] = {
    # kind: (what, why), in Chinese
    "image-placeholder": (
        '图片块变成 user 文本 "[image omitted]"；Slime 写入这个块的 Python repr',
        "Slime 把图片块的 Python repr 连同 base64 数据写进 user 文本，模型读到的是一段字典转储，一张截图就让 "
        "prompt 多出几 MB。本包改为写入占位符（SPEC.md），并在丢失报告里指出这张图片。",
    ),
    "document-placeholder": (
        '文档块变成 user 文本 "[document omitted]"；Slime 写入它的 Python repr',
        "纯文本模板读不了 PDF，base64 字节的 repr 对模型只是噪声，所以本包写入一个写明内容块类型的占位符，"
        "并在丢失报告里列出这个块。",
    ),
    "assistant-empty-content": (
        '只有工具调用、没有文本的 assistant 轮次，content 为 ""；SGLang 不写这个键',
        'SPEC.md 规定没有文本时 content 为 ""，这样每条 assistant 消息都带一个字符串，模板不必判断键是否存在；'
        "对 OpenAI API 来说，这里的空 content 和缺失的 content 意思相同。",
    ),
    "tool-strict-default": (
        '函数工具没有 "strict": false；SGLang 的请求模型会补上这个默认值',
        "本包的工具结构只带 Anthropic 工具声明过的内容（SPEC.md），而 false 本来就是 OpenAI 的默认值，"
        "所以 API 对两者的理解相同；不过把工具整个写成 JSON 的模板，会在 SGLang 的 prompt 里显示这个多出来的键。",
    ),
    "tool-choice-unsatisfiable": (
        '所有工具都是服务端工具时（tools 变成 None），本包仍接受 tool_choice {"type": "any"}；SGLang 以 400 拒绝这个请求',
        "两种目标格式都不解释 tool_choice：约束模型选哪个工具是 Action 2 之后解码阶段的事，所以它留在请求体里，由丢失报告列出。"
        "SGLang 在端点处就做这项检查，基于本包输出搭建的系统则必须在解码的地方检查。",
    ),
}

RULES: dict[str, tuple[str, str]] = {
    # kind: one sentence on why we differ, (English, Chinese); what differs comes from the entries
    "image-placeholder": (
        "A text-only template cannot show pixels: '[image omitted]' plus a loss-report entry, "
        "where Slime's Python repr would put the base64 data into the prompt.",
        "纯文本模板显示不了像素，所以本包写入 '[image omitted]'，并在丢失报告里记一条，而 Slime 的 Python repr "
        "会把 base64 数据放进 prompt。",
    ),
    "document-placeholder": (
        "A text-only template cannot read a PDF either: '[document omitted]' plus a loss-report "
        "entry instead of a repr of its bytes.",
        "纯文本模板也读不了 PDF，所以本包写入 '[document omitted]'，并在丢失报告里记一条，而不是写入文档字节的 repr。",
    ),
    "assistant-empty-content": (
        "Every assistant message carries a string, so no template has to test for a "
        "missing key; the OpenAI API reads \"\" and a missing content the same.",
        '每条 assistant 消息都带一个字符串，模板就不必判断键是否存在，而 OpenAI API 对 "" 和缺失的 content 理解相同。',
    ),
    "tool-strict-default": (
        "A function tool carries only what the Anthropic tool declared; false is already "
        "the OpenAI default (a template that prints tools as JSON does show SGLang's extra key).",
        "函数工具只带 Anthropic 工具声明过的内容，而 false 本来就是 OpenAI 的默认值，不过把工具写成 JSON 的模板"
        "会显示 SGLang 多出来的这个键。",
    ),
    "tool-choice-unsatisfiable": (
        "Holding the model to a tool is the decoder's job after Action 2: tool_choice stays "
        "in the body, named by the loss report, and whoever decodes must check it.",
        "约束模型选哪个工具是 Action 2 之后解码阶段的事，所以 tool_choice 留在请求体里，由丢失报告列出，由负责解码的一方检查。",
    ),
}
"""Chapter 10's table of rules: one sentence per kind of deviation, shorter than an entry's `why`."""

_STRICT = "tools[{}].function.strict"


def _entry(case_id: str, peer: str, kind: str, *paths: str) -> Deviation:
    what, why, provisional = _KINDS[kind]
    return Deviation(case_id, peer, kind, tuple(paths), what, why, provisional)


DEVIATIONS: tuple[Deviation, ...] = (
    # --- target "chat_template" (after preprocess) vs Slime @ 624b824a
    _entry("04_image_base64_and_url", "slime", "image-placeholder", "messages[1].content", "messages[2].content"),
    _entry("05_document_pdf", "slime", "document-placeholder", "messages[0].content"),
    # --- target "openai" vs SGLang 0.5.23
    _entry("06_thinking_signature_tool_use_roundtrip", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("08_tool_result_blocks_image_is_error", "sglang", "assistant-empty-content", "messages[1].content"),
    _entry("08_tool_result_blocks_image_is_error", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("09_text_before_tool_result_ordering", "sglang", "assistant-empty-content", "messages[1].content"),
    _entry("09_text_before_tool_result_ordering", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("10_parallel_tool_results", "sglang", "assistant-empty-content", "messages[1].content"),
    _entry("10_parallel_tool_results", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("11_tool_reference_glm", "sglang", "assistant-empty-content", "messages[1].content"),
    _entry("11_tool_reference_glm", "sglang", "tool-strict-default", _STRICT.format(0), _STRICT.format(1)),
    _entry("12_search_result_in_tool_result", "sglang", "assistant-empty-content", "messages[1].content"),
    _entry("12_search_result_in_tool_result", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("15_tool_choice_tool_and_disable_parallel", "sglang", "tool-strict-default", _STRICT.format(0)),
    _entry("16_tool_choice_any_server_tool_only", "sglang", "tool-choice-unsatisfiable", "outcome"),
)


def deviations_for(case_id: str, peer: str) -> list[Deviation]:
    """The table's entries for one case and peer."""
    return [entry for entry in DEVIATIONS if entry.case_id == case_id and entry.peer == peer]


@dataclass(frozen=True)
class Check:
    """The table held against the data: both lists are empty when they agree."""

    unexplained: list[Difference]  # differences no entry documents
    stale: list[tuple[Deviation, str]]  # (entry, path) pairs where nothing differs any more


def check(case_id: str, peer: str, data: Optional[PeerData] = None) -> Check:
    """Compare the computed differences of one case and peer with the table."""
    found = compare(case_id, peer, data)
    documented = {path: entry for entry in deviations_for(case_id, peer) for path in entry.paths}
    seen = {d.path for d in found}
    return Check(
        unexplained=[d for d in found if d.path not in documented],
        stale=[(entry, path) for path, entry in documented.items() if path not in seen],
    )


_TABLE_WORDS = {
    "en": {"entries": ("case", "peer", "what differs", "why", "status"), "provisional": "provisional: to fix",
           "deliberate": "deliberate", "rules": ("rule", "against", "what differs", "why", "recorded in")},
    "zh": {"entries": ("用例", "真实系统", "差异", "原因", "状态"), "provisional": "暂定：待修复",
           "deliberate": "有意保留", "rules": ("规则", "对照", "差异", "原因", "出现在")},
}


def _markdown(header: tuple, rows: list) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |" for cells in rows]
    return "\n".join(lines)


def markdown_table(deviations: tuple[Deviation, ...] = DEVIATIONS) -> str:
    """The table as Markdown, for the notebooks and the docs, in the current language."""
    words = _TABLE_WORDS[current()]
    rows = []
    for entry in deviations:
        status = words["provisional"] if entry.provisional else words["deliberate"]
        rows.append((entry.case_id, entry.peer, entry.what_in(), entry.why_in(), status))
    return _markdown(words["entries"], rows)


def by_rule(deviations: tuple[Deviation, ...] = DEVIATIONS) -> dict[str, list[Deviation]]:
    """The entries grouped by kind (one rule each), in the order the table first names them."""
    grouped: dict[str, list[Deviation]] = {}
    for entry in deviations:
        grouped.setdefault(entry.kind, []).append(entry)
    return grouped


def rules_table(deviations: tuple[Deviation, ...] = DEVIATIONS) -> str:
    """One Markdown row per rule: its kind, the peer, what differs (from the entries), why (`RULES`)
    and the cases where it shows, in the current language."""
    lang = current()
    rows = []
    for kind, entries in by_rule(deviations).items():
        cases = ", ".join(f"`{entry.case_id.split('_', 1)[0]}`" for entry in entries)
        why = RULES[kind][1 if lang == "zh" else 0]
        rows.append((kind, entries[0].peer, entries[0].what_in(), why, cases))
    return _markdown(_TABLE_WORDS[lang]["rules"], rows)
