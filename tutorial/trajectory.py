"""Action 3.5, the turn's trajectory: what a training run keeps of every turn.

Each turn the adapter renders `translated` to prompt ids with the model's chat template,
the engine writes output ids, and the turn is recorded:

    manager = TrajectoryManager()
    turn = TurnRecord(prompt_ids, output_ids, "stop", output_log_probs)
    manager.record_turn(sid, turn=turn, prompt_messages=translated, response_message=manager_message)
    ...                                           # the client sends the next request, and so on
    samples = manager.get_trajectory(sid)         # training rows, when the session is over

A `Sample` is one strip of tokens with a loss mask over its response region: 1 where the
model wrote the token and is trained on it, 0 where the token is context (a prompt, a tool
result, or a response that was overwritten). Turns join one strip while each new prompt
starts with the tokens already held; `drift_kind` says what happens when it does not:

- "clean":   the prompt extends the held tokens exactly; append the new part of the prompt
             (mask 0), then the response (mask 1).
- "realign": the prompt parts from the held tokens inside the last response, and the new
             response is short (under `fork_threshold_tokens`): the last response is
             overwritten by the prompt's own tokens, at mask 0 — it is no longer trained.
- "fork":    anything else: the strip is closed and a new one begins (one more Sample).

Why a prompt would not extend the held tokens: the chat template re-renders history
(Qwen3 drops an empty think block from an earlier answer, a changed system prompt shifts
everything), and the model's tokens are not necessarily the template's.

Which turns belong to one strip is decided by the messages, not the tokens: a session is a
tree of chat messages, matched by dict equality (why `tool_call_dict` drops the call's id).
Each leaf of the tree is one line of conversation; its generated turns go into strips in
order, and a turn shared by two leaves is trained on the first and is context for the rest.

The rules are Slime's (THUDM/slime@624b824a, `slime/agent/trajectory.py`); the recorded
sessions in `peers/data/trajectory/` and tests/test_trajectory_conformance.py hold this
module to the samples Slime's own manager made. The differences on purpose are DEVIATIONS.
Plain Python only: no tokenizer, no template (those are the adapter's).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Optional

from .errors import RequestError

logger = logging.getLogger(__name__)

CLEAN, REALIGN, FORK = "clean", "realign", "fork"

DEVIATIONS = [
    ("Sample", "our own small dataclass with the fields the trajectory fills (tokens, response_length, "
     "loss_mask, rollout_log_probs, metadata, reward, and the base sample's index, group_index, "
     "rollout_id, prompt, label); Slime's `slime.utils.types.Sample` needs torch, and a lesson should not"),
    ("base_sample", "optional: without it the base fields stay None (Slime requires one); any object "
     "with those attributes will do, Slime's own Sample included"),
    ("bad input", "a RequestError located in the arguments (`turn.output_log_probs: ...`) where Slime "
     "asserts: an assert vanishes under `python -O`, and the package never answers with a traceback"),
    ("drift_log", "an addition: the manager keeps, per session, each classification and append it made, "
     "so that a chapter can show them; Slime computes the same and keeps none of it"),
]  # fmt: skip


# ---------------------------------------------------------------------------
# What the adapter records per turn, and what the training run receives


@dataclass(frozen=True)
class TurnRecord:
    """One turn as the engine saw it: the ids it read, the ids it wrote, why it stopped.

    `output_log_probs` (one per output id, or none) are copied into the sample untouched;
    `ill_formed` says the way back could not parse the output (a broken tool call).
    """

    prompt_ids: list[int]
    output_ids: list[int]
    finish_reason: str
    output_log_probs: list[float] = field(default_factory=list)
    ill_formed: bool = False


@dataclass
class Sample:
    """One training row. `tokens` is the whole strip, first prompt included; the three
    response fields cover what follows the first prompt, `response_length` tokens long."""

    tokens: list[int]
    response_length: int
    loss_mask: list[int]
    rollout_log_probs: list[float]
    metadata: dict = field(default_factory=dict)
    reward: float = 0.0
    index: Any = None  # these five come from the base sample, when one is given
    group_index: Any = None
    rollout_id: Any = None
    prompt: Any = None
    label: Any = None


# ---------------------------------------------------------------------------
# How a new prompt relates to the tokens held: the drift classification


def common_prefix(a: list[int], b: list[int]) -> int:
    """How many ids `a` and `b` share from the start."""
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared


def drift_kind(held: list[int], response_start: Optional[int], turn: TurnRecord, fork_threshold: int) -> str:
    """CLEAN, REALIGN or FORK for `turn` arriving at a strip holding `held`, whose last
    response starts at `response_start` (None: the strip is empty)."""
    shared = common_prefix(held, turn.prompt_ids)
    if shared == len(held):
        return CLEAN
    # Overwriting is only allowed inside the last response, and only when the turn that
    # asks for it is short: a long response is worth a sample of its own.
    inside_last_response = response_start is not None and shared >= response_start
    if inside_last_response and len(turn.output_ids) < fork_threshold:
        return REALIGN
    return FORK


class SampleBuilder:
    """One strip of tokens under construction: `classify` a turn, then `append` it."""

    def __init__(self, fork_threshold: int, log: Optional[list] = None):
        self.fork_threshold = fork_threshold
        self.tokens: list[int] = []
        self.loss_mask: list[int] = []
        self.log_probs: list[float] = []
        self.response_start: Optional[int] = None  # where the last response begins
        self.first_prompt_length = 0  # the part no sample trains: cut off in to_sample
        self.log = log if log is not None else []

    def classify(self, turn: TurnRecord) -> str:
        kind = drift_kind(self.tokens, self.response_start, turn, self.fork_threshold)
        shared = common_prefix(self.tokens, turn.prompt_ids)
        self.log.append({"classified": kind, "held": len(self.tokens), "prompt": len(turn.prompt_ids),
                         "common_prefix": shared})  # fmt: skip
        return kind

    def append(self, turn: TurnRecord, kind: str, *, trained: bool = True) -> None:
        """The turn's prompt (the part not held yet, mask 0), then its response."""
        if kind not in (CLEAN, REALIGN):
            raise ValueError(f"a strip appends a {CLEAN!r} or {REALIGN!r} turn, not {kind!r}: a fork starts a new one")
        self.log.append({"appended": kind, "trained": trained, "held": len(self.tokens),
                         "prompt": len(turn.prompt_ids)})  # fmt: skip
        first = self.response_start is None
        if kind == REALIGN:
            # Cut the strip back to where the last response began; the prompt's own tokens
            # take its place from there, as context: what the model wrote is not trained.
            del self.tokens[self.response_start :], self.loss_mask[self.response_start :]
            del self.log_probs[self.response_start :]
        self._add(turn.prompt_ids[len(self.tokens) :], mask=0)
        self.response_start = len(self.tokens)
        self._add(turn.output_ids, mask=int(trained), log_probs=turn.output_log_probs if trained else None)
        if first:
            self.first_prompt_length = len(turn.prompt_ids)

    def _add(self, ids: list[int], *, mask: int, log_probs: Optional[list[float]] = None) -> None:
        self.tokens += ids
        self.loss_mask += [mask] * len(ids)
        self.log_probs += log_probs or [0.0] * len(ids)  # no log-probs recorded: zeros

    def trains_anything(self) -> bool:
        return any(self.loss_mask[self.first_prompt_length :])

    def to_sample(self, metadata: dict, base: Any = None, max_tokens: int = 0) -> Sample:
        end = max_tokens or len(self.tokens)  # a context budget cuts the strip's tail
        start = self.first_prompt_length
        mask = self.loss_mask[:end]
        base_fields = {name: getattr(base, name, None) for name in ("index", "group_index", "prompt", "label")}
        rollout_id = getattr(base, "rollout_id", None)
        return Sample(tokens=self.tokens[:end], response_length=len(mask) - start, loss_mask=mask[start:],
                      rollout_log_probs=self.log_probs[:end][start:], metadata=dict(metadata),
                      rollout_id=base_fields["index"] if rollout_id is None else rollout_id,
                      **base_fields)  # fmt: skip


# ---------------------------------------------------------------------------
# The session tree: which turns share a line of conversation


@dataclass(eq=False)
class Node:
    """One chat message in a session's tree. `turn` is set on an assistant message the model
    generated; every other node (prompt messages, replayed answers) only routes."""

    role: Optional[str] = None
    message: Optional[dict] = None
    parent: Optional["Node"] = None
    children: list["Node"] = field(default_factory=list)
    turn: Optional[TurnRecord] = None
    turn_index: Optional[int] = None
    trained: bool = False  # claimed by the first line of conversation that reaches it
    metadata: dict = field(default_factory=dict)

    def add(self, child: "Node") -> "Node":
        child.parent = self
        self.children.append(child)
        return child

    def line(self) -> list["Node"]:
        """The messages from the first one down to this node."""
        nodes, node = [], self
        while node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def leaves(self) -> list["Node"]:
        """The nodes without children below this one, depth first, oldest child first (a
        loop, not recursion: a long session is a deep tree)."""
        found, waiting = [], [self]
        while waiting:
            node = waiting.pop()
            if node.children:
                waiting.extend(reversed(node.children))
            else:
                found.append(node)
        return found


class TrajectoryManager:
    """Per session: a tree of messages while turns arrive, a list of Samples at the end."""

    KEPT_LOGS = 256  # drift logs of the sessions consumed last; a server sees sessions without end

    def __init__(self, *, fork_threshold_tokens: Optional[int] = 1024):
        self.fork_threshold = 1024 if fork_threshold_tokens is None else fork_threshold_tokens
        self._trees: dict[str, Node] = {}
        self._turns: dict[str, int] = {}
        self._logs: dict[str, list[dict]] = {}

    def has_session(self, sid: str) -> bool:
        return sid in self._trees

    def turn_count(self, sid: str) -> int:
        return self._turns.get(sid, 0)

    def drop_session(self, sid: str) -> None:
        self._trees.pop(sid, None)
        self._turns.pop(sid, None)
        self._logs.pop(sid, None)

    def drift_log(self, sid: str) -> list[dict]:
        """What the last `get_trajectory(sid)` decided, in order: `{"classified": kind, ...}`
        when a turn met a strip, `{"appended": kind, "trained": ...}` when it joined one.
        Kept for the last KEPT_LOGS sessions consumed."""
        return list(self._logs.get(sid, []))

    def record_turn(self, sid: str, *, turn: TurnRecord, prompt_messages: list[dict],
                    response_message: Optional[dict], metadata: Optional[dict] = None) -> None:  # fmt: skip
        """Hang the turn's prompt messages in the session's tree (sharing what matches) and
        the generated answer below them, carrying `turn`."""
        _check_turn(turn, prompt_messages)
        if not prompt_messages:
            logger.warning("record_turn(sid=%s): no prompt messages, the turn is not recorded", sid)
            return
        node = self._trees.setdefault(sid, Node())
        depth = 0
        while depth < len(prompt_messages):
            wanted = prompt_messages[depth]
            match = next((c for c in node.children if c.role == wanted.get("role") and c.message == wanted), None)
            if match is None:
                break
            node, depth = match, depth + 1
        node, depth = self._merge_rewritten_answer(node, prompt_messages, depth)
        for message in prompt_messages[depth:]:
            node = node.add(Node(role=message.get("role"), message=message))
        self._turns[sid] = self.turn_count(sid) + 1
        answer = Node(role="assistant", message=response_message, metadata=dict(metadata or {}))
        answer.turn, answer.turn_index = turn, self._turns[sid]
        node.add(answer)

    def _merge_rewritten_answer(self, node: Node, messages: list[dict], depth: int) -> tuple[Node, int]:
        """A client may replay our last answer slightly changed (a trailing space). Left as
        it is, the replay would branch off and the original answer would train on its own,
        a dead end. When the changed message is the only answer below `node`, generated,
        short and without a continuation, it takes the replay's place and stops training."""
        if self.fork_threshold <= 0 or depth >= len(messages) or messages[depth].get("role") != "assistant":
            return node, depth
        answers = [c for c in node.children if c.role == "assistant"]
        if len(answers) != 1:  # none to merge with, or no telling which was rewritten
            return node, depth
        old = answers[0]
        if old.children or old.turn is None or len(old.turn.output_ids) >= self.fork_threshold:
            return node, depth
        old.metadata["merged_rewrite"] = {"abandoned_turn_index": old.turn_index,
                                          "abandoned_response_tokens": len(old.turn.output_ids)}  # fmt: skip
        old.turn = old.turn_index = None
        old.message = messages[depth]
        return old, depth + 1

    def get_trajectory(self, sid: str, base_sample: Any = None, *, reward: float = 0.0,
                       extra_metadata: Optional[dict] = None, max_sample_tokens: int = 0) -> list[Sample]:  # fmt: skip
        """The session's Samples, leaf by leaf (depth first, in the order turns arrived);
        the session is consumed: a second call gives []. Every sample gets the whole `reward`."""
        root = self._trees.pop(sid, None)
        self._turns.pop(sid, None)
        self._logs.pop(sid, None)
        self._logs[sid] = log = []  # the newest last, so the oldest goes first
        while len(self._logs) > self.KEPT_LOGS:
            del self._logs[next(iter(self._logs))]
        if root is None:
            return []
        samples = []
        for leaf in root.leaves():
            generated = [n for n in leaf.line() if n.role == "assistant" and n.turn is not None]
            metadata = {**(extra_metadata or {}),
                        "truncated": bool(generated) and generated[-1].turn.finish_reason == "length",
                        "use_tool": any(bool((n.message or {}).get("tool_calls")) for n in generated),
                        "ill_formed": any(n.turn.ill_formed for n in generated)}  # fmt: skip
            for strip in self._strips(generated, log):
                if strip.trains_anything():
                    samples.append(strip.to_sample(metadata, base_sample, max_sample_tokens))
        for sample in samples:
            sample.reward = reward
        return samples

    def _strips(self, generated: list[Node], log: list) -> list[SampleBuilder]:
        """The line's generated turns, in order, packed into strips: a turn that cannot
        join the current strip (a fork) starts the next one."""
        strips: list[SampleBuilder] = []
        for node in generated:
            trained, node.trained = not node.trained, True
            kind = strips[-1].classify(node.turn) if strips else FORK
            if kind == FORK:
                strips.append(SampleBuilder(self.fork_threshold, log))
                kind = CLEAN
            strips[-1].append(node.turn, kind, trained=trained)
        return strips


def _check_turn(turn: Any, prompt_messages: Any) -> None:
    """Refuse, located, what would corrupt a sample later (Slime asserts the log-prob length)."""
    if not isinstance(turn, TurnRecord):
        raise RequestError(("turn",), "must be a TurnRecord, got {got}", got=type(turn).__name__)
    for name in ("prompt_ids", "output_ids"):
        ids = getattr(turn, name)
        if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise RequestError(("turn", name), "must be a list of integer token ids")
    if turn.output_log_probs and len(turn.output_log_probs) != len(turn.output_ids):
        raise RequestError(("turn", "output_log_probs"),
                           "has {n} values for {ids} output ids", n=len(turn.output_log_probs), ids=len(turn.output_ids))
    if not isinstance(prompt_messages, list):
        kind = type(prompt_messages).__name__
        raise RequestError(("prompt_messages",), "must be a list of chat messages, got {got}", got=kind)
    for i, message in enumerate(prompt_messages):
        if not isinstance(message, dict):
            kind = type(message).__name__
            raise RequestError(("prompt_messages", i), "must be a chat message (an object), got {got}", got=kind)


__all__ = ["CLEAN", "DEVIATIONS", "FORK", "REALIGN", "Sample", "SampleBuilder", "TrajectoryManager",
           "TurnRecord", "common_prefix", "drift_kind"]  # fmt: skip
