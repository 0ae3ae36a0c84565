"""How long each chapter takes, and the two class agendas: the one source of every minute shown.

`scripts/minutes.py` writes these figures into the chapter table of `notebooks/00_index.ipynb`,
the run-sheet `notebooks/README.md`, and the same tables of their Chinese editions
(`notebooks/zh/`); totals and agenda clock times are computed here, never typed.
`tests/test_minutes.py` fails when a table disagrees with this file.

Where the figures come from
---------------------------
*Self-study* is a careful first reading by one learner: every cell run, every prediction and
exercise answered before its answer is shown, chapter 05 written to ✓, the "Check your
understanding" questions answered; extension tasks are not counted. *In class* is an
instructor running the cells on the projector while the room predicts, with chapter 05 done in
pairs. Neither includes breaks.

The floor is what people measured on the chapters (issue 20): about 5-6 hours of self-study for
chapters 00-12, chapter 05 alone 45-75 minutes, and chapters 08, 09 and 10 35-50 minutes each.
Chapter 05 takes the middle of its range, 60. The rest of the middle of the floor (330 - 60
minutes) is shared among the other chapters in proportion to what there is to read and answer
in each: its prose words plus 150 per exercise, counted in the committed chapters on
2026-12-01, which comes to about 106 such words a minute. That rate puts 08, 09 and 10 at 41,
37 and 40 minutes, inside their measured 35-50 without being told to. Each chapter 01-11 then
gains 5 minutes for its "Check your understanding" questions, and every figure is rounded to 5.
Chapter 04b (real chat templates) is new: its 30 minutes are its author's estimate (25-35),
not a measurement. The in-class figures are estimates for an instructor-paced room (chapter 05:
its stages in pairs); nobody has timed a class yet.

A timed dry run of chapters 01-05, doing every exercise (2026-12-01), was made by an AI agent,
not a human: it read each chapter's cells top to bottom, answered each of the 18 prediction
exercises by reasoning before running its check (all 18 right by content, though chapter 01's
answers and 04.losses were not blind: it had read chapters 00 and 01 while they still showed
their answers, and two letters it typed came from an older option order), and wrote chapter
05's seven functions (115 lines, all ✓ on the first run). Its clock read 4, 8, 6, 4 and 11
seconds for chapters 01-05 (33 in all). An agent's reading says nothing about a person's
minutes, so no figure here is taken from it. Replace these figures with a human's timed run
when one is made.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chapter:
    notebook: str
    """The file under notebooks/ (the same name in notebooks/zh/)."""
    title: str
    does: str
    """What a learner does there (the index, chapter 00)."""
    for_instructors: str
    """What an instructor uses it for (the run-sheet)."""
    self_study: int
    in_class: int


CHAPTERS: tuple[Chapter, ...] = (
    Chapter("00_index.ipynb", "00 Index", "the pipeline, how the chapters work",
            "the whole turn as a picture; where Action 2 sits", 10, 5),
    Chapter("01_request.ipynb", "01 The request", "read the body, the module's entry point, the contract, preprocessing",
            "the body, the contract, a located error, preprocessing", 25, 12),
    Chapter("02_messages_path.ipynb", "02 The messages path", "predict each stage of `translate_messages`, then check",
            "the core: each stage of `translate_messages`, predict before running", 25, 20),
    Chapter("03_tools_path.ipynb", "03 The tools path", "predict what `tools_to_chat_tools` makes of the tools",
            'short; "calls that happened" versus "tools on offer"', 15, 8),
    Chapter("04_hand_back.ipynb", "04 The hand-back", "how the two lists travel, what stays behind, the rendered prompt",
            "the tuple, the loss report, a rendered prompt", 15, 8),
    Chapter("04b_real_chat_templates.ipynb", "04b Real chat templates",
            "real models' chat templates render the README example, down to token ids",
            "Action 3 for real: several families side by side, and their own refusals", 30, 15),
    Chapter("05_build_it_yourself.ipynb", "05 Build it yourself", "write every stage, checked against the package on hundreds of inputs",
            "write the translation's pieces, in pairs; the longest chapter", 65, 45),
    Chapter("06_check_yourself.ipynb", "06 Check yourself", "the walk-through's three questions and predict-the-output exercises",
            "the walk-through's three questions, four predict-the-output exercises", 25, 15),
    Chapter("07_playground.ipynb", "07 The playground", "edit a request and watch every stage change",
            "a live demo: break the JSON on purpose, switch targets", 20, 10),
    Chapter("08_two_targets.ipynb", "08 Two targets", "the OpenAI shape, the mixed tool result, rendering a chat template",
            "the OpenAI shape, **the mixed tool result split**, rendering", 45, 25),
    Chapter("09_way_back.ipynb", "09 The way back", "reply blocks, the event stream, the echo (OPTIONAL in a short workshop)",
            "reply blocks, the SSE stream, the echo, the wire direction, thinking", 40, 20),
    Chapter("10_where_stacks_disagree.ipynb", "10 Where real stacks disagree", "four implementations on 22 recorded requests (OPTIONAL)",
            "OPTIONAL: four real stacks on 22 recorded requests", 45, 15),
    Chapter("11_capture_a_real_client.ipynb", "11 Capture a real client",
            "start a local endpoint, point the official SDK at it, read what a real agent CLI sends",
            "a live `/v1/messages` server in the kernel: the SDK, a streamed reply, the echo;"
            " what Claude Code really sends and what stays behind", 45, 20),
    Chapter("12_cheat_sheet.ipynb", "12 Cheat sheet", "every field and block kind, what each target makes of it, on two printed pages",
            "the table, computed; hand out the printed pages", 5, 5),
    Chapter("13_trajectory.ipynb", "13 The turn's trajectory",
            "the README example as two turns of training tokens: will turn 2 extend turn 1, and what is trained?",
            "Action 3.5: prompt and output ids per turn, Slime's clean / realign / fork, the family table,"
            " three strategies; build classify and append", 45, 25),
)


@dataclass(frozen=True)
class Slot:
    minutes: int
    chapters: str
    what: str


AGENDA_90 = (
    Slot(3, "00", "the picture of the whole turn; point at Action 2"),
    Slot(7, "01", "the README body; break it once to show a located error"),
    Slot(17, "02", "every stage: let the room predict, then run; linger on 2.4 (one message becomes two)"),
    Slot(8, "03, 04", "two kinds of tool data; the tuple and what stays behind"),
    Slot(30, "05 §5.1–5.4", "**in pairs**: `flatten_content`, `user_block_message`, `assistant_message`,"
         " `translate_messages`, each to ✓; the rest of 05 is homework"),
    Slot(5, "—", "break"),
    Slot(15, "08 §2", "**the mixed tool result**: the split, then the cases under the GLM-style template,"
         " a prediction before each"),
    Slot(5, "12", "hand out the cheat sheet; 06, 07, 09 and 10 are the reading for after"),
)
"""A 90-minute session: one request all the way through Action 2, written by the learners
themselves, then the moment where the shape of a message decides what the model reads."""

AGENDA_HALF_DAY = (
    Slot(15, "00, 01", "as in the 90-minute session, a little slower"),
    Slot(20, "02", "all five stages"),
    Slot(15, "03, 04", "the tools path; the tuple, what stays behind and the rendered prompt"),
    Slot(15, "04b", "two or three real families side by side; one real refusal"),
    Slot(10, "—", "break"),
    Slot(45, "05", "**in pairs**, every stage to ✓, 5.8 included; compare with the package's code after each ✓"),
    Slot(15, "06", "pairs again; compare answers before opening the solutions"),
    Slot(10, "—", "break"),
    Slot(10, "07", "learners drive the playground themselves"),
    Slot(25, "08", "all three sections"),
    Slot(20, "09", "sections 1–3; section 4 if the room works with Anthropic's API directly"),
    Slot(10, "12", "the cheat sheet, then questions"),
)
"""A half-day session (3½ hours with two breaks): chapter 05 gets its real time."""

AGENDAS = {"90 minutes": (AGENDA_90, 90), "half a day": (AGENDA_HALF_DAY, 210)}
"""Each agenda with the length it promises; tests check its slots add up to exactly that."""


def chapter(notebook: str) -> Chapter:
    for found in CHAPTERS:
        if found.notebook == notebook:
            return found
    raise KeyError(f"{notebook}: no minutes for it in tutorial/notebook/minutes.py")


def total(chapters, kind: str) -> int:
    """Minutes of `kind` ("self_study" or "in_class") over `chapters`, computed."""
    return sum(getattr(found, kind) for found in chapters)


def hours(minutes: int) -> str:
    """125 -> "2 h 05"."""
    return f"{minutes // 60} h {minutes % 60:02d}"


def clock(minutes: int) -> str:
    """65 -> "1:05": a time from the start of a session."""
    return f"{minutes // 60}:{minutes % 60:02d}"


def starts(slots) -> list[int]:
    """The minute each slot starts at, from 0."""
    times, elapsed = [], 0
    for slot in slots:
        times.append(elapsed)
        elapsed += slot.minutes
    return times
