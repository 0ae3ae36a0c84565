"""Chapter 11's engine steps as they ran where the engine is built, for a machine where it is not.

    from tutorial.llama_cpp.recording import show as recorded
    recorded("tool_call")        # a note that this is a recording, then the step's outputs as stored

Chapter 11 starts llama.cpp's server (`python3 tasks.py engine` builds it, about 6 minutes,
once). On a fresh clone the server is not built yet, so each engine cell shows what it
printed on a machine that had it, in the reader's language, and says so first.

The outputs are copied from the chapter's own stored outputs (English and Chinese), so they
are exactly what the live cells print; `python -m tutorial.llama_cpp.recording update`
copies them again after the chapter is re-executed (tests/test_engine_recording.py checks
that they agree). Each step is found by a line of code only its cell has (STEPS).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RECORDING = Path(__file__).with_name("chapter_11_recording.json")
CHAPTER = "11_capture_a_real_client.ipynb"

# step -> a line of code only that engine cell of chapter 11 has
STEPS = {
    "start": "real_engine = llama.start(",
    "tool_call": "called = real_client.messages.create(",
    "tool_result": "answered = real_client.messages.create(",
    "same_prompt": 'engine_prompt = real_engine.post("/apply-template"',
    "stream_events": "events = real_client.messages.create(",
    "stop": "real_engine.stop()",
}

NOTE = {
    "en": "[recorded: this machine has no engine built yet (python3 tasks.py engine builds it, once, about 6 minutes); "
    "below is what this cell printed where it runs]",
    "zh": "[录制的输出：这台机器还没有构建引擎（运行 python3 tasks.py engine 构建，只需一次，约 6 分钟）；"
    "下面是这个单元格在有引擎的机器上打印的内容]",
}


def show(step: str) -> None:
    """Print the note, then the step's recorded outputs (text as printed, displays as displayed),
    as the edition of the current language recorded them."""
    from tutorial import words

    lang = words.current()
    print(NOTE[lang])
    for output in load()[step][lang]:
        if output["output_type"] == "stream":
            stream = sys.stderr if output.get("name") == "stderr" else sys.stdout
            print("".join(output["text"]), end="", file=stream)
        else:
            from IPython.display import display

            display({kind: _joined(value) for kind, value in output["data"].items()}, raw=True)


def load() -> dict:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def _joined(value):
    return "".join(value) if isinstance(value, list) else value


def from_chapter(notebooks: Path) -> dict:
    """Each step's stored outputs in both editions of chapter 11, as the recording keeps them."""
    recording: dict = {step: {} for step in STEPS}
    for lang, path in (("en", notebooks / CHAPTER), ("zh", notebooks / "zh" / CHAPTER)):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for step, marker in STEPS.items():
            found = [cell for cell in cells if cell["cell_type"] == "code" and marker in "".join(cell["source"])]
            if len(found) != 1:
                raise LookupError(f"{path}: {len(found)} code cells have {marker!r}, not 1")
            recording[step][lang] = [_kept(output) for output in found[0].get("outputs", [])]
    return recording


def _kept(output: dict) -> dict:
    """An output without what changes between runs (execution counts, metadata)."""
    if output["output_type"] == "stream":
        return {"output_type": "stream", "name": output["name"], "text": _joined(output["text"])}
    return {"output_type": "display_data", "data": {kind: _joined(value) for kind, value in output["data"].items()}}


def main(argv: list[str]) -> int:
    if argv[:1] != ["update"]:
        print("usage: python -m tutorial.llama_cpp.recording update   (copy chapter 11's stored engine outputs)")
        return 2
    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    RECORDING.write_text(json.dumps(from_chapter(notebooks), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORDING}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
