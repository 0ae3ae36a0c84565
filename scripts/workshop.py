#!/usr/bin/env python3
"""The workshop kit: a copy of the chapters for a class, and the files a hub builds from.

    python scripts/workshop.py DIR [--force] [--no-trust]   write a class copy of the chapters into DIR
    python scripts/workshop.py --hub           rewrite binder/requirements.txt from constraints.txt
    python scripts/workshop.py --check-hub     exit 1 when binder/ is out of step with the project

A class copy holds every chapter (notebooks/*.ipynb, and notebooks/<lang>/ where there are
translations), every file the chapters link to (the printable cheat sheet, the lesson's modules,
the glossary), each at the same place relative to the chapters as here, so every link in the copy
opens, and a short README for learners. In the copy, the cells that would give answers away
before the learner has tried show no output: exercise cells (tag `exercise`), solution cells (tag
`solution`) and the cells that reveal a prediction's answer (tag `reveal`). Every other output is
kept, the diagrams included, so a chapter still reads well before anything is run.

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
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CHEAT_SHEET = ROOT / "docs" / "cheat_sheet.html"
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

LEARNER_README = """# The chapters, for this class

Start JupyterLab in this folder (`jupyter lab`), open `notebooks/00_index.ipynb` and follow the
links at the top and bottom of each chapter; the files they link to are in this folder too.

- Run each chapter with **Kernel → Restart Kernel and Run All Cells**, or cell by cell.
- Cells with a line marked `# edit this line` are yours: replace the `...`, run the cell, and read the
  verdict (✓ right, ✗ not yet, with a hint that says where your answer differs).
- The cells that show an answer have no output in this copy: run them after you have answered.
- Each exercise has a collapsed cell below it: set `show=True` there to see the answer and why.
- `cheat_sheet.html` is the whole translation on two printable pages.

If a diagram shows as text, run its cell again (or run `jupyter trust notebooks/*.ipynb` once).
"""


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


def write_copy(target: Path, force: bool = False, trust: bool = True, source: Path = NOTEBOOKS) -> list[Path]:
    """Write the class copy into `target` (signed for this user unless `trust` is False);
    returns the notebooks written."""
    if target.exists() and any(target.iterdir()) and not force:
        raise SystemExit(f"{target} is not empty: choose an empty directory, or pass --force to write into it")
    if target.resolve().is_relative_to(source.resolve()):
        raise SystemExit(f"{target} is inside the chapters themselves; choose a directory outside {source}")
    tree = source.parent  # the copy mirrors this folder: DIR/notebooks/ is source
    written, linked = [], set()
    for path in chapters(source):
        destination = target / "notebooks" / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        destination.write_text(json.dumps(for_class(notebook), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(destination)
        linked.update(linked_files(path, notebook, tree))
    for path in sorted(linked):
        destination = target / path.relative_to(tree)
        if not destination.exists():  # a chapter is already there, as the class copy of it
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
    if CHEAT_SHEET.is_file():  # at the top too, for the instructor to print
        shutil.copyfile(CHEAT_SHEET, target / "cheat_sheet.html")
    (target / "README.md").write_text(LEARNER_README, encoding="utf-8")
    if trust:
        sign(written)
    return written


LINK = re.compile(r"""\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?:href|src)\s*=\s*["']([^"']+)["']""")
"""A Markdown link or image target, or an HTML href/src."""


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


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["--hub"]:
        (BINDER / "requirements.txt").write_text(requirements_text(), encoding="utf-8")
        print("wrote binder/requirements.txt")
        problems = hub_problems()
    elif arguments[:1] == ["--check-hub"]:
        problems = hub_problems()
    else:
        directory = [a for a in arguments if not a.startswith("--")]
        # --trust is what the copy always was before signing became the default; still accepted.
        unknown = [a for a in arguments if a.startswith("--") and a not in ("--force", "--trust", "--no-trust")]
        if len(directory) != 1 or unknown:
            print(__doc__, file=sys.stderr)
            return 2
        trust = "--no-trust" not in arguments
        written = write_copy(Path(directory[0]), force="--force" in arguments, trust=trust)
        print(f"wrote {len(written)} chapters, the files they link to, cheat_sheet.html and README.md into {directory[0]}")
        print("exercise, solution and reveal cells have no output there; diagrams and everything else are kept")
        print("signed for this user, so its diagrams show in this user's JupyterLab" if trust else
              "not signed (--no-trust): diagrams show as text until `jupyter trust notebooks/*.ipynb`")
        return 0
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
