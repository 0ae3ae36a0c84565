"""What does it cost to render every turn's prompt as a session grows?

The adapter renders the whole history through the chat template and tokenizes it, every
turn: turn k costs O(k), a session of N turns O(N²). An incremental renderer keeps the ids
it already holds (the last prompt and the model's output) and renders only the messages the
request adds (`tutorial.watch.trajectory_strategies.IncrementalRenderer`, the
token-in-token-out prompt): O(1) a turn. The catch is parity: the incremental prompt equals
the full one only while the template re-renders history exactly as the model wrote it.

Two sessions of 200 turns (`trajectory_strategies.tool_loop`: the README example's question,
then one read_file call and its result per turn, Qwen3's real template and vocabulary):

    reasoning, results alone     every answer thinks; Qwen3 keeps that in history: parity holds
    reasoning, reminder text     each result comes with a reminder, a new query to Qwen3,
                                 which drops earlier reasoning from history: parity breaks

Each session is run turn by turn once, both ways, with the parity check at every turn and the
sum of all turns' times; then at turns 1, 10, 50, 100 and 200, in interleaved rounds, the
median of one turn's cost both ways. Times are CPU time (`time.process_time`). The output ids
of each turn are made outside the timing (they stand for the model). Needs the fetched sdist
and the `real` extra. Run: python benchmarks/trajectory_cost.py [ROUNDS]
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial.llama_cpp import sdist  # noqa: E402
from tutorial.watch import trajectory_strategies as ts  # noqa: E402

TURNS = 200
CHECKPOINTS = (1, 10, 50, 100, 200)
SESSIONS = {"reasoning, results alone": {"reasoning": True, "reminder": False},
            "reasoning, reminder text": {"reasoning": True, "reminder": True}}  # fmt: skip


def walk(session, tools, answers):
    """Every turn both ways, once: per turn the two CPU times, the parity, the prompt's length."""
    renderer = ts.IncrementalRenderer(tools)
    rows = []
    for (messages, answer), output in zip(session, answers):
        start = time.process_time()
        full = ts.canonical_ids(messages, tools)
        full_time = time.process_time() - start
        start = time.process_time()
        incremental, _ = renderer.prompt(messages)
        incremental_time = time.process_time() - start
        renderer.record(messages, incremental, answer, output)
        rows.append((full_time, incremental_time, incremental == full, len(full)))
    return rows, renderer


def one_turn(session, tools, renderer, turn):
    """The two ways of making turn `turn`'s prompt (1-based), from the renderer's held lines."""
    messages = session[turn - 1][0]
    held_messages, held = renderer.lines[turn - 2] if turn > 1 else ([], [])

    def incremental():
        if turn == 1:
            return ts.canonical_ids(messages, tools)
        return held + ts.new_messages_ids(messages[len(held_messages) :], held)

    return (lambda: ts.canonical_ids(messages, tools)), incremental


def median_times(cases: dict, rounds: int) -> dict:
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, function in cases.items():
            gc.collect()
            start = time.process_time()
            function()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main(rounds: int = 5) -> dict:
    if not sdist.is_fetched():
        print(f"skipped: {sdist.FETCH_HINT}")
        return {}
    results = {}
    for label, shape in SESSIONS.items():
        session, tools = ts.tool_loop(TURNS, **shape)
        answers = [ts.answer_ids(answer) for _, answer in session]
        ts.canonical_ids(session[0][0], tools)  # warm up: the template compiled, the vocabulary built
        walked, renderer = walk(session, tools, answers)
        parted = next((turn for turn, row in enumerate(walked, 1) if not row[2]), None)
        total_full = sum(row[0] for row in walked)
        total_incremental = sum(row[1] for row in walked)
        cases = {}
        for turn in CHECKPOINTS:
            cases[(turn, "full")], cases[(turn, "incremental")] = one_turn(session, tools, renderer, turn)
        for function in cases.values():
            function()
        medians = median_times(cases, rounds)
        print(f"{label}: {TURNS} turns, {walked[-1][3]:,} Qwen3 tokens at the last turn; median of {rounds} rounds")
        print("  turn  prompt tokens   full re-render   incremental   full ÷ incremental   incremental == full")
        for turn in CHECKPOINTS:
            full, incremental = medians[(turn, "full")], medians[(turn, "incremental")]
            print(f"  {turn:>4}  {walked[turn - 1][3]:>13,}   {full * 1e3:11.2f} ms   {incremental * 1e3:8.2f} ms"
                  f"   {full / incremental:17.1f}×   {'yes' if walked[turn - 1][2] else 'no'}")  # fmt: skip
        print(f"  all {TURNS} turns, one pass: full {total_full:.2f} s, incremental {total_incremental:.3f} s "
              f"({total_full / total_incremental:.0f}×); first turn where they part: {parted or 'none'}")  # fmt: skip
        results[label] = {"medians": medians, "total_full": total_full, "total_incremental": total_incremental,
                          "parted": parted}  # fmt: skip
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
