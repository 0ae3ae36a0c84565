"""The whole turn of the rollout adapter, top to bottom: where Action 2 sits.

`vertical_flow(highlight="translate")` lights one of `STAGES`: generate, harness, cli,
run_turn, preprocess, translate, render_token_ids, sampling, respond, after_cli,
environment.
"""

from __future__ import annotations

from typing import Optional

from .captions import CAPTIONS, words
from .dot import BLUE, CODE, INPUT, NOTE, OUTPUT, Dot, Graph

STAGES = dict(CAPTIONS["en"]["stages"])
"""Stage id -> (what runs, one line about it), in pipeline order (English captions)."""


def vertical_flow(highlight: Optional[str] = "translate", *, answers: bool = True) -> Dot:
    """The whole turn as DOT, top to bottom; `highlight` names one of `STAGES` (or None).

    `answers=False` leaves out the captions that answer a chapter's question (how the two
    lists are handed on, where max_tokens is read, what preprocess folds): the picture a
    learner sees before those chapters (chapter 00)."""
    if highlight is not None and highlight not in STAGES:
        raise ValueError(f"unknown stage {highlight!r}; stages: {', '.join(STAGES)}")
    w = words()
    stages = w["stages"]
    if not answers:
        stages = {**stages, **{name: stages[name][:1] for name in ("preprocess", "sampling")}}
        w = {**w, "function return": w["function return"][:1], "stages": stages}
    g = Graph("vertical_flow", [w["turn title"]], highlight, rankdir="TB", nodesep="0.5")

    def stage(name: str, style: dict = CODE) -> None:
        g.node(name, list(stages[name]), style, tags=(name,))

    stage("generate")
    stage("harness")
    stage("cli", INPUT)
    # The turn runs inside the adapter, once per HTTP request from the CLI.
    with g.cluster("cluster_run_turn", list(stages["run_turn"]), tags=("run_turn",), color=BLUE):
        for name in ("preprocess", "translate", "render_token_ids", "sampling", "respond"):
            stage(name, OUTPUT if name == "translate" else CODE)
    stage("after_cli")
    stage("environment", NOTE)

    g.edge("generate", "harness")
    g.edge("harness", "cli", w["start cli"], tags=("harness",))
    g.edge("cli", "preprocess", w["http post"], tags=("cli",), lhead="cluster_run_turn")
    g.edge("preprocess", "translate", w["a dict"], tags=("preprocess", "translate"))
    g.edge("translate", "render_token_ids", w["function return"], tags=("translate",))
    g.edge("render_token_ids", "sampling", w["prompt ids"], tags=("render_token_ids",))
    g.edge("sampling", "respond", w["sampled"], tags=("sampling",))
    g.edge(
        "respond", "cli", w["http response"], tags=("respond",),
        ltail="cluster_run_turn", style="dashed", constraint="false",
    )  # fmt: skip
    # after_cli follows the harness (Action 6 waits for the CLI to end); the invisible
    # edge only puts it at the bottom, below the turn.
    g.edge("respond", "after_cli", style="invis")
    g.edge("harness", "after_cli", tags=("harness", "after_cli"), style="dotted", constraint="false")
    # The environment serves every stage, so it hangs beside the pipeline, not in it.
    g.same_rank("harness", "environment")
    for name in ("generate", "harness", "after_cli"):
        g.edge(
            "environment", name, tags=("environment",),
            style="dashed", arrowhead="none", color="#b59b3b", constraint="false",
        )  # fmt: skip
    return g.text(tuple(STAGES))
