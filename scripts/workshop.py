#!/usr/bin/env python3
"""The workshop kit: a copy of the chapters for a class, and the files a hub builds from.

    python scripts/workshop.py DIR [--force] [--no-trust] [--lang en|zh]   write a class copy of the chapters into DIR
    python scripts/workshop.py --hub           rewrite binder/requirements.txt from constraints.txt
    python scripts/workshop.py --check-hub     exit 1 when binder/ is out of step with the project

A class copy holds every chapter (notebooks/*.ipynb, and notebooks/<lang>/ where there are
translations), every file the chapters link to (the printable cheat sheet, the lesson's modules,
the glossary), each at the same place relative to the chapters as here, so every link in the copy
opens, and a short README for learners, in their language: README.md in `--lang` (default:
TUTORIAL_LANG, else the locale, else English), and the other edition's README beside it
(README.zh.md or README.en.md) when its chapters are in the copy, each linking the other. In the copy, the cells that would give answers away
before the learner has tried show no output: exercise cells (tag `exercise`), solution cells (tag
`solution`) and the cells that reveal a prediction's answer (tag `reveal`). Every other output is
kept, the diagrams that give nothing away included, so a chapter still reads well before anything
is run (a picture that draws an answer is itself a `reveal` cell, drawn when run).

JupyterLab shows stored diagrams (SVG) only in notebooks it trusts, so the copy is signed for the
user who writes it, as set-up signs notebooks/ (`--no-trust`: leave it unsigned). A signature
lives in that user's Jupyter data folder, not in the file: learners working under other accounts
see the diagrams after `jupyter trust notebooks/*.ipynb` once, or when they run the cells.

binder/ is what repo2docker (Binder, JupyterHub with repo2docker images) reads: apt.txt (the
Debian packages tasks.py installs), runtime.txt (the oldest Python the project supports),
requirements.txt (exact pins, copied from constraints.txt, of everything the chapters need on
Linux) and postBuild (installs the package itself and signs the chapters). `--hub` rewrites
requirements.txt; `tests/test_workshop.py` fails when any of the four disagrees with the project.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Optional
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
BINDER = ROOT / "binder"
CONSTRAINTS = ROOT / "constraints.txt"

CLEARED = ("exercise", "solution", "reveal")
"""Cell tags whose outputs a class copy leaves empty: they would show answers before the learner tries."""

HUB_EXTRAS = ("notebooks", "serve")
"""The extras a hub installs: the chapters, the diagrams, the playground and the local server."""

# The environment of a repo2docker image, for the markers in the packages' requirements.
HUB_MARKERS = {
    "python_version": "3.11",
    "python_full_version": "3.11.2",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "implementation_version": "3.11.2",
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "platform_release": "",
    "platform_version": "",
}

LEARNER_READMES = {
    "en": """# The chapters, for this class
{other}
Start JupyterLab in this folder (`jupyter lab`), open `{index}` and follow the
links at the top and bottom of each chapter; the files they link to are in this folder too.

- Run each chapter with **Kernel → Restart Kernel and Run All Cells**, or cell by cell.
- Cells with a line marked `# edit this line` are yours: replace the `...`, run the cell, and read the
  verdict (✓ right, ✗ not yet, with a hint that says where your answer differs).
- The cells that show an answer have no output in this copy: run them after you have answered.
- Each exercise has a collapsed cell below it: set `show=True` there to see the answer and why.
- `{cheat_sheet}` is the whole translation on two printable pages.

If a diagram shows as text, run its cell again (or run `jupyter trust {chapters}` once).
""",
    "zh": """# 本课的各章
{other}
在这个文件夹里启动 JupyterLab（`jupyter lab`），打开 `{index}`，再顺着每章开头和结尾的链接往下读；链接指向的文件也都在这个文件夹里。

- 运行一章：选择 **Kernel → Restart Kernel and Run All Cells**，或者逐个单元格运行。
- 带有 `# 改这一行` 那一行的单元格留给你：把 `...` 换成你的答案，运行单元格，再读判定（✓ 正确；✗ 还不对，并附一条提示，指出你的答案哪里不同）。
- 会显示答案的单元格在这份副本里没有输出：先作答，再运行它们。
- 每道练习下面都有一个折叠的单元格：在那里设置 `show=True`，就能看到答案和理由。
- `{cheat_sheet}` 是可以打印的速查表，列出整个翻译过程。

如果某个图示显示成了文本，重新运行它所在的单元格（或者运行一次 `jupyter trust {chapters}`）。
""",
}
"""The learner's README, per language: {other} links the other edition's README, if any."""

LEARNER_README = LEARNER_READMES["en"].format(other="", index="notebooks/00_index.ipynb", cheat_sheet="cheat_sheet.html",
                                              chapters="notebooks/*.ipynb")  # fmt: skip
OTHER_README = {"en": "\n中文版：[{name}]({name})\n", "zh": "\nEnglish: [{name}]({name})\n"}
"""The line in one edition's README that links the other's, written in the other's language."""

CHEAT_SHEETS = {"en": "cheat_sheet.html", "zh": "cheat_sheet.zh.html"}  # in docs/, and at the top of a copy

SAID = {
    "en": {
        "wrote": "wrote {count} chapters, the files they link to, the cheat sheets ({sheets}) and the learners' READMEs ({readmes}) into {target}",
        "cleared": "exercise, solution and reveal cells have no output there; diagrams and everything else are kept",
        "signed": "signed for this user, so its diagrams show in this user's JupyterLab",
        "unsigned": "not signed (--no-trust): diagrams show as text until `jupyter trust notebooks/*.ipynb`",
        "not_empty": "{target} is not empty: choose an empty directory, or pass --force to write into it",
        "inside": "{target} is inside the chapters themselves; choose a directory outside {source}",
        "and": ", ",
    },
    "zh": {
        "wrote": "已把 {count} 章、它们链接的文件、速查表（{sheets}）和学员 README（{readmes}）写入 {target}",
        "cleared": "其中练习、参考答案和揭示答案的单元格没有输出；图示和其他内容都保留",
        "signed": "已为当前用户签名，所以图示会在这个用户的 JupyterLab 中显示",
        "unsigned": "未签名（--no-trust）：运行 `jupyter trust notebooks/*.ipynb` 之前，图示会显示成文本",
        "not_empty": "{target} 不是空目录：请选择一个空目录，或者加上 --force 写入它",
        "inside": "{target} 在章节目录内部；请选择 {source} 之外的目录",
        "and": "、",
    },
}


def default_language(source: Path = NOTEBOOKS) -> str:
    """The copy's language when none is given: Chinese for a copy of the Chinese edition itself
    (notebooks/zh), else TUTORIAL_LANG, else the locale, else English."""
    if source.name == "zh":
        return "zh"
    import os

    if os.environ.get("TUTORIAL_LANG") in LEARNER_READMES:
        return os.environ["TUTORIAL_LANG"]
    sys.path.insert(0, str(ROOT))
    try:
        from tutorial.words import from_locale
    finally:
        sys.path.remove(str(ROOT))
    return from_locale() or "en"


def learner_readmes(target: Path, lang: str, source: Path = NOTEBOOKS) -> dict[str, str]:
    """{file name: text} of the learner's READMEs for the copy in `target`: README.md in `lang`,
    and the other edition's README beside it (README.zh.md, README.en.md) when the copy holds
    that edition's chapters, each linking the other."""
    if source.name == "zh":  # the Chinese edition alone: its chapters are the copy's notebooks/
        editions = {"zh": "notebooks"}
    else:
        editions = {"en": "notebooks"} | ({"zh": "notebooks/zh"} if (target / "notebooks" / "zh" / "00_index.ipynb").is_file() else {})
    editions.setdefault(lang, "notebooks")
    names = {language: "README.md" if language == lang else f"README.{language}.md" for language in editions}
    readmes = {}
    for language, folder in editions.items():
        others = [other for other in editions if other != language]
        link = OTHER_README[language].format(name=names[others[0]]) if others else ""
        sheet = CHEAT_SHEETS[language] if (target / CHEAT_SHEETS[language]).is_file() else CHEAT_SHEETS["en"]
        readmes[names[language]] = LEARNER_READMES[language].format(
            other=link, index=f"{folder}/00_index.ipynb", cheat_sheet=sheet, chapters=f"{folder}/*.ipynb"
        )
    return readmes


# ---------------------------------------------------------------------------
# The class copy


def chapters(source: Path = NOTEBOOKS) -> list[Path]:
    """Every chapter: notebooks/NN_*.ipynb and notebooks/<lang>/NN_*.ipynb."""
    found = sorted(source.glob("[0-9][0-9]*_*.ipynb")) + sorted(source.glob("*/[0-9][0-9]*_*.ipynb"))
    return [path for path in found if ".ipynb_checkpoints" not in path.parts]


def for_class(notebook: dict) -> dict:
    """The notebook with the outputs of exercise, solution and reveal cells removed."""
    copy = json.loads(json.dumps(notebook))
    for cell in copy["cells"]:
        if cell["cell_type"] == "code" and set(cell.get("metadata", {}).get("tags", [])) & set(CLEARED):
            cell["outputs"] = []
            cell["execution_count"] = None
    return copy


def write_copy(target: Path, force: bool = False, trust: bool = True, source: Path = NOTEBOOKS,
               lang: Optional[str] = None) -> list[Path]:  # fmt: skip
    """Write the class copy into `target` (signed for this user unless `trust` is False), its
    learner's README in `lang` (default: `default_language`); returns the notebooks written."""
    lang = lang or default_language(source)
    said = SAID[lang]
    if target.exists() and any(target.iterdir()) and not force:
        raise SystemExit(said["not_empty"].format(target=target))
    if target.resolve().is_relative_to(source.resolve()):
        raise SystemExit(said["inside"].format(target=target, source=source))
    tree = source.parent  # the copy mirrors this folder: DIR/notebooks/ is source
    written, linked = [], set()
    for path in chapters(source):
        destination = target / "notebooks" / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        destination.write_text(json.dumps(for_class(notebook), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(destination)
        linked.update(linked_files(path, notebook, tree))
    # A linked Markdown file (the glossary) links on, to modules and pages: those come too, except
    # the instructor's run-sheets (notebooks/README.md, its zh twin), which hold the answer key.
    pending = [path for path in linked if path.suffix == ".md"]
    while pending:
        page = pending.pop()
        for found in linked_files(page, {"cells": [{"cell_type": "markdown", "source": page.read_text(encoding="utf-8")}]}, tree):
            if found not in linked and not (found.name == "README.md" and found.is_relative_to(source.resolve())):
                linked.add(found)
                pending += [found] if found.suffix == ".md" else []
    for path in sorted(linked):
        destination = target / path.relative_to(tree)
        if not destination.exists():  # a chapter is already there, as the class copy of it
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
    for sheet in CHEAT_SHEETS.values():  # in docs/ as the chapters link them, and at the top for the instructor to print
        if (ROOT / "docs" / sheet).is_file():
            (target / "docs").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / "docs" / sheet, target / "docs" / sheet)
            shutil.copyfile(ROOT / "docs" / sheet, target / sheet)
    for name, text in learner_readmes(target, lang, source).items():
        (target / name).write_text(text, encoding="utf-8")
    for path in sorted(linked):  # what is left pointing outside the copy reads as text, not a dead link
        if path.suffix == ".md":
            copied = target / path.relative_to(tree)
            copied.write_text(MARKDOWN_LINK.sub(lambda m: _kept_link(m, copied.parent), copied.read_text(encoding="utf-8")),
                              encoding="utf-8")
    if trust:
        sign(written)
    return written


LINK = re.compile(r"""\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?:href|src)\s*=\s*["']([^"']+)["']""")
"""A Markdown link or image target, or an HTML href/src."""


MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]+)>?\s*\)")


def _kept_link(match: re.Match, folder: Path) -> str:
    """A Markdown link as it was, or its text alone when it is relative and its file is not in the copy."""
    link = unquote(match.group(2).split("#", 1)[0].split("?", 1)[0])
    if not link or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("/") or (folder / link).exists():
        return match.group(0)
    return match.group(1)


def linked_files(path: Path, notebook: dict, tree: Path) -> set[Path]:
    """The files inside `tree` that the notebook at `path` links to by a relative link, in its
    Markdown cells and in its stored HTML or Markdown outputs."""
    texts = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            for kind in ("text/html", "text/markdown"):
                value = output.get("data", {}).get(kind, "")
                texts.append("".join(value) if isinstance(value, list) else value)
    found = set()
    for text in texts:
        for match in LINK.finditer(text):
            link = unquote((match.group(1) or match.group(2)).split("#", 1)[0].split("?", 1)[0])
            if not link or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link) or link.startswith("/"):
                continue  # a web address, an anchor in the same page, or an absolute path
            target = (path.parent / link).resolve()
            if target.is_file() and target.is_relative_to(tree.resolve()):
                found.add(target)
    return found


def sign(paths: list[Path]) -> None:
    """What `jupyter trust` does: record each notebook's signature in this user's Jupyter data
    folder, so this user's JupyterLab shows its stored outputs, the diagrams included."""
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        print("nbformat is not installed here, so the copy is not signed: its diagrams show as text "
              "until `jupyter trust notebooks/*.ipynb` (python3 tasks.py workshop DIR signs it)", file=sys.stderr)
        return
    notary = NotebookNotary()
    for path in paths:
        notary.sign(nbformat.read(path, as_version=4))


# ---------------------------------------------------------------------------
# The hub files


def pins(constraints: Path = CONSTRAINTS) -> dict[str, tuple[str, str]]:
    """constraints.txt as {normalised name: (name as written, version)}."""
    found = {}
    for line in constraints.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, version = line.partition("==")
        found[_normalise(name)] = (name.strip(), version.strip())
    return found


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def hub_packages() -> list[str]:
    """Every distribution the package needs on a Linux hub with HUB_EXTRAS, found by walking the
    requirements of the installed distributions (markers evaluated for that hub)."""
    import tomllib
    from importlib import metadata

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    for extra in HUB_EXTRAS:
        wanted += [Requirement(r) for r in project["optional-dependencies"][extra]]
    seen: dict[str, set[str]] = {}
    queue = [(requirement, "") for requirement in wanted]
    while queue:
        requirement, parent_extra = queue.pop()
        if requirement.marker and not requirement.marker.evaluate({**HUB_MARKERS, "extra": parent_extra}):
            continue
        name = _normalise(requirement.name)
        new_extras = set(requirement.extras) - seen.get(name, set())
        if name in seen and not new_extras:
            continue
        seen.setdefault(name, set()).update(requirement.extras)
        try:
            requires = metadata.distribution(requirement.name).requires or []
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{requirement.name} is needed on the hub but not installed here: run python3 tasks.py lab first")
        for line in requires:
            child = Requirement(line)
            for extra in [""] + sorted(seen[name]):
                if not child.marker or child.marker.evaluate({**HUB_MARKERS, "extra": extra}):
                    queue.append((child, extra))
                    break
    return sorted(seen)


def requirements_text() -> str:
    pinned = pins()
    missing = [name for name in hub_packages() if name not in pinned]
    if missing:
        raise SystemExit(f"constraints.txt pins none of: {', '.join(missing)}")
    lines = [
        "# What repo2docker installs for the chapters on a hub (Linux, Python from runtime.txt):",
        f"# the package's dependencies and its {' and '.join(HUB_EXTRAS)} extras, with everything they bring,",
        "# at the exact versions of constraints.txt. Generated by `python scripts/workshop.py --hub`;",
        "# tests/test_workshop.py fails when this file and constraints.txt disagree. The package",
        "# itself is installed by postBuild.",
    ]
    lines += [f"{pinned[name][0]}=={pinned[name][1]}" for name in hub_packages()]
    return "\n".join(lines) + "\n"


def hub_problems() -> list[str]:
    """Where binder/ disagrees with the project; empty when it is in step."""
    sys.path.insert(0, str(ROOT))
    import tasks

    problems = []
    requirements = BINDER / "requirements.txt"
    if not requirements.is_file() or requirements.read_text(encoding="utf-8") != requirements_text():
        problems.append("binder/requirements.txt differs from constraints.txt: run python scripts/workshop.py --hub")
    apt = BINDER / "apt.txt"
    listed = sorted(line.strip() for line in apt.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")) if apt.is_file() else []
    if listed != sorted(tasks.DEBIAN_PACKAGES):
        problems.append(f"binder/apt.txt lists {listed}, tasks.py installs {sorted(tasks.DEBIAN_PACKAGES)}")
    runtime = BINDER / "runtime.txt"
    oldest = _oldest_python()
    if not runtime.is_file() or runtime.read_text(encoding="utf-8").strip() != f"python-{oldest}":
        problems.append(f"binder/runtime.txt should say python-{oldest} (the oldest Python constraints.txt is checked for)")
    post_build = BINDER / "postBuild"
    if not post_build.is_file() or "--no-deps" not in post_build.read_text(encoding="utf-8"):
        problems.append("binder/postBuild should install the package with --no-deps (requirements.txt pins the rest)")
    return problems


def _oldest_python() -> str:
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("# checked-python:"):
            versions = [tuple(int(p) for p in v.split(".")[:2]) for v in line.split(":", 1)[1].split()]
            return "%d.%d" % min(versions)
    return "3.11"


# ---------------------------------------------------------------------------


def _lang_option(arguments: list[str]) -> tuple[Optional[str], list[str]]:
    """(the value of `--lang X` / `--lang=X`, "" when it names no language; the other arguments)."""
    lang, rest, i = None, [], 0
    while i < len(arguments):
        if arguments[i] == "--lang":
            lang = arguments[i + 1] if i + 1 < len(arguments) else ""
            i += 2
            continue
        if arguments[i].startswith("--lang="):
            lang = arguments[i].partition("=")[2]
        else:
            rest.append(arguments[i])
        i += 1
    return (lang if lang in (None, *LEARNER_READMES) else ""), rest


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["--hub"]:
        (BINDER / "requirements.txt").write_text(requirements_text(), encoding="utf-8")
        print("wrote binder/requirements.txt")
        problems = hub_problems()
    elif arguments[:1] == ["--check-hub"]:
        problems = hub_problems()
    else:
        lang, rest = _lang_option(arguments)
        directory = [a for a in rest if not a.startswith("--")]
        # --trust is what the copy always was before signing became the default; still accepted.
        unknown = [a for a in rest if a.startswith("--") and a not in ("--force", "--trust", "--no-trust")]
        if len(directory) != 1 or unknown or lang == "":
            print(__doc__, file=sys.stderr)
            return 2
        trust = "--no-trust" not in rest
        target = Path(directory[0])
        lang = lang or default_language()
        said = SAID[lang]
        written = write_copy(target, force="--force" in rest, trust=trust, lang=lang)
        sheets = said["and"].join(sheet for sheet in CHEAT_SHEETS.values() if (target / sheet).is_file())
        readmes = said["and"].join(sorted(p.name for p in target.glob("README*.md")))
        print(said["wrote"].format(count=len(written), sheets=sheets, readmes=readmes, target=directory[0]))
        print(said["cleared"])
        print(said["signed"] if trust else said["unsigned"])
        return 0
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
