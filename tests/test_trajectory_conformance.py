"""Conformance against Slime's trajectory manager (tutorial/peers/data/trajectory, see its README).

Every recorded session is fed to `tutorial.trajectory.TrajectoryManager` turn by turn, as Slime's
manager (THUDM/slime@624b824a) was fed; the samples it returns and the decisions it logged must equal
the recorded ones exactly: tokens, loss masks, log-probs, response lengths, metadata, order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutorial.trajectory import TrajectoryManager, TurnRecord

DATA = Path(__file__).resolve().parent.parent / "tutorial" / "peers" / "data" / "trajectory"
RECORDED = json.loads((DATA / "slime_cases.json").read_text(encoding="utf-8"))
CASES = RECORDED["cases"]


def replay(case: dict) -> tuple[TrajectoryManager, dict[str, list]]:
    """Feed the case's turns in order; the trajectory of every session, in first-seen order."""
    manager = TrajectoryManager(fork_threshold_tokens=case["fork_threshold"])
    sids = case["sids"] or ["s"] * len(case["turns"])
    for sid, turn in zip(sids, case["turns"]):
        record = TurnRecord(turn["prompt_ids"], turn["output_ids"], turn["finish_reason"], turn["output_log_probs"])
        manager.record_turn(sid, turn=record, prompt_messages=turn["prompt_messages"],
                            response_message=turn["response_message"])  # fmt: skip
    return manager, {sid: manager.get_trajectory(sid) for sid in dict.fromkeys(sids)}


def as_recorded(sid: str, sample) -> dict:
    return {"sid": sid, "tokens": sample.tokens, "response_length": sample.response_length,
            "loss_mask": sample.loss_mask, "rollout_log_probs": sample.rollout_log_probs,
            "metadata": sample.metadata}  # fmt: skip


def test_the_recording_is_the_cited_one():
    assert len(CASES) == 9
    assert RECORDED["peer"].startswith("THUDM/slime 624b824a898ab0ec1fcb4d373004c7f3852bf515")
    assert "624b824a898ab0ec1fcb4d373004c7f3852bf515" in (DATA / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(CASES))
def test_samples_equal_slimes(name):
    case = CASES[name]
    _, trajectories = replay(case)
    ours = [as_recorded(sid, s) for sid, samples in trajectories.items() for s in samples]
    expected = case["slime"]["samples"]
    assert len(ours) == len(expected)
    for got, want in zip(ours, expected):
        assert got == want


@pytest.mark.parametrize("name", list(CASES))
def test_drift_decisions_equal_slimes(name):
    case = CASES[name]
    manager, trajectories = replay(case)
    logged = [entry for sid in trajectories for entry in manager.drift_log(sid)]
    assert logged == case["slime"]["drift_kinds"]


def test_the_readme_example_loses_turn_one():
    # The headline the chapter tells, read off the data and reproduced: one sample of 223 tokens,
    # 10 trained — turn 1's 31 generated tokens were overwritten at mask 0.
    _, trajectories = replay(CASES["readme_two_turns"])
    [sample] = trajectories["s"]
    assert len(sample.tokens) == 223 and sample.response_length == 66 and sum(sample.loss_mask) == 10
    assert len(CASES["readme_two_turns"]["turns"][0]["output_ids"]) == 31


def test_every_kind_of_decision_is_exercised():
    kinds = {entry.get("classified") for case in CASES.values() for entry in case["slime"]["drift_kinds"]}
    assert {"clean", "realign", "fork"} <= kinds
