"""What does Action 3 (the chat template, then the tokenizer) cost next to Action 2?

The agent session (`tutorial.examples.agent_request`, about 0.05 and 0.5 MB: turns of text,
thinking, tool_use and tool_result, 30 tools) is translated once; then, in rounds (every
case once per round, so a busy neighbour slows all of them alike):

    translate                       Action 2 on the parsed body (the unit)
    render (family)                 the family's real chat template, in our sandbox
    render, tokenize=True (family)  the same, then the family's real vocabulary
    apply_chat_template (family)    transformers' own, for comparison (text only)

It prints the median of each as a ratio to `translate` of the same body, and once the time
to build each vocabulary's tokenizer from its GGUF file (paid once per process).
Needs the fetched sdist and the `real` extra. Run: python benchmarks/render_cost.py [ROUNDS]
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial import translate  # noqa: E402
from tutorial.examples import agent_request  # noqa: E402
from tutorial.llama_cpp import sdist  # noqa: E402
from tutorial.watch import families  # noqa: E402
from tutorial.watch.rendering import RenderError, render  # noqa: E402

FAMILIES = ("qwen3", "qwen3.5", "llama-3.3", "glm-4.6", "gpt-oss")
BODIES = {"agent session, 0.05 MB": lambda: agent_request(40), "agent session, 0.5 MB": lambda: agent_request(400)}


def cases(body: dict) -> dict:
    try:
        from transformers.utils.chat_template_utils import render_jinja_template
    except ImportError:  # the real extra leaves transformers out on Python 3.15 (pyproject.toml)
        render_jinja_template = None
    messages, tools = translate(body)
    found = {"translate": lambda: translate(body)}
    for name in FAMILIES:
        chosen = families.family(name)
        try:
            render(messages, tools, template=name)
        except RenderError as error:
            print(f"  {name} refuses the agent session: {error.problem}")
            continue
        found[f"render ({name})"] = lambda name=name: render(messages, tools, template=name)
        if chosen.vocabulary:
            found[f"render, tokenize=True ({name})"] = lambda name=name: render(messages, tools, template=name, tokenize=True)
        if render_jinja_template is None:
            continue
        found[f"apply_chat_template ({name})"] = lambda chosen=chosen: render_jinja_template(
            [messages], tools=tools, chat_template=chosen.template_text, add_generation_prompt=True, **chosen.special_tokens
        )
    return found


def interleaved(found: dict, rounds: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in found}
    for _ in range(rounds):
        for name, function in found.items():
            gc.collect()
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main(rounds: int = 7) -> dict:
    if not sdist.is_fetched():
        print(f"skipped: {sdist.FETCH_HINT}")
        return {}
    from tutorial.watch.tokenizer import VOCABULARIES, backend_tokenizer

    print("building each vocabulary's tokenizer from its GGUF file (once per process):")
    for name in VOCABULARIES:
        start = time.perf_counter()
        backend_tokenizer(name)
        print(f"  {name:<10} {time.perf_counter() - start:6.2f} s")
    results = {}
    for label, build in BODIES.items():
        body = build()
        found = cases(body)
        for function in found.values():  # warm up: compiled templates, validators
            function()
        seconds = interleaved(found, rounds)
        results[label] = seconds
        base = seconds["translate"]
        tokens = len(render(*translate(body), template="qwen3", tokenize=True))
        print(f"{label}: {len(body['messages'])} messages, {tokens:,} Qwen3 tokens, median of {rounds} interleaved rounds")
        for name, value in seconds.items():
            print(f"  {name:<40} {value * 1e3:9.2f} ms   {value / base:6.2f}x translate")
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
