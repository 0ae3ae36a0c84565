#!/usr/bin/env python3
"""Set-up and everyday commands, in plain Python so they work on Linux, macOS and Windows.

    python3 tasks.py lab         set everything up, then open JupyterLab on notebooks/
    python3 tasks.py test        set everything up, then run the whole test suite
    python3 tasks.py app         the playground alone, in JupyterLab's single-document view
    python3 tasks.py notebooks   re-execute every notebook in order and store its outputs
    python3 tasks.py diagrams    regenerate diagrams/ (.dot sources and .svg renders)
    python3 tasks.py bench       run the benchmarks
    python3 tasks.py doctor      check the environment and print the fix for what is missing

Set-up creates `.venv/` beside this file and installs the package with its notebook and
test extras, pinned by constraints.txt (stored notebook outputs depend on versions).
System packages (Graphviz's `dot`, a CJK font, Chromium for the browser test) are
installed with apt-get when running as root on Debian/Ubuntu; elsewhere the README and
`doctor` say how to get them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"

# Debian package -> what it provides; `test` needs Chromium for the browser test too.
APT_FOR_LAB = {"graphviz": "dot", "fonts-wqy-microhei": None}
APT_FOR_TEST = {**APT_FOR_LAB, "chromium": "chromium"}


def say(message: str) -> None:
    print(f"[tasks] {message}", flush=True)


def run(*command: str | Path, **options) -> None:
    say("$ " + " ".join(str(part) for part in command))
    subprocess.run([str(part) for part in command], check=True, **options)


def system_packages(wanted: dict[str, str | None]) -> None:
    """On Debian/Ubuntu as root, apt-get what is missing; elsewhere, say what to install."""
    missing = [name for name in wanted if not _have_debian_package(name)]
    if not missing:
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env)
        return
    say("not root on Debian/Ubuntu, so system packages are not installed here. Missing: " + ", ".join(missing))
    say("see the README section 'System packages' (or run `python3 tasks.py doctor`) for your platform")


def _have_debian_package(name: str) -> bool:
    command = APT_FOR_TEST.get(name)
    if command and shutil.which(command):
        return True
    if shutil.which("dpkg-query"):
        probe = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
        return "install ok installed" in probe.stdout
    return command is None  # not Debian: fonts are the platform's business, doctor checks them


def python_environment() -> None:
    """Create .venv and install the pinned package; skipped when nothing changed."""
    if not _venv_works():
        _make_venv_possible()
        run(sys.executable, "-m", "venv", "--clear", VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + (ROOT / "constraints.txt").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-c", ROOT / "constraints.txt", "-e", f"{ROOT}[notebooks,test]")
    STAMP.write_text(wanted)


def _venv_works() -> bool:
    if not PYTHON.exists():
        return False
    return subprocess.run([str(PYTHON), "-m", "pip", "--version"], capture_output=True).returncode == 0


def _make_venv_possible() -> None:
    """Debian's own Python ships venv without pip (ensurepip) unless python3-venv is there."""
    if subprocess.run([sys.executable, "-c", "import ensurepip"], capture_output=True).returncode == 0:
        return
    package = f"python3.{sys.version_info.minor}-venv"
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", package, env=env)
    else:
        say(f"this Python cannot create virtual environments; on Debian/Ubuntu: sudo apt-get install {package}")


def setup(packages: dict[str, str | None]) -> None:
    system_packages(packages)
    python_environment()


def lab(arguments: list[str]) -> int:
    setup(APT_FOR_LAB)
    command = [PYTHON, "-m", "jupyter", "lab", "--notebook-dir", ROOT / "notebooks", *arguments]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    run(*command)
    return 0


def app(arguments: list[str]) -> int:
    """The playground alone, for a workshop screen: JupyterLab's single-document view."""
    return lab(["--LabApp.default_url=/doc/tree/06_playground.ipynb", *arguments])


def test(arguments: list[str]) -> int:
    setup(APT_FOR_TEST)
    # Everything: the unit and property tests, the browser test, and every notebook
    # under nbval in strict mode (stored outputs must match a fresh run).
    nbval = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(ROOT / "notebooks" / "sanitize.cfg")]
    return subprocess.run([str(PYTHON), "-m", "pytest", *nbval, *(arguments or ["tests", "notebooks"])], cwd=ROOT).returncode


def notebooks(arguments: list[str]) -> int:
    python_environment()
    return subprocess.run([str(PYTHON), str(ROOT / "scripts" / "run_notebooks.py"), *arguments], cwd=ROOT).returncode


def diagrams(arguments: list[str]) -> int:
    python_environment()
    return subprocess.run([str(PYTHON), "-m", "tutorial.diagrams", *(arguments or [str(ROOT / "diagrams")])], cwd=ROOT).returncode


def bench(arguments: list[str]) -> int:
    python_environment()
    code = 0
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        code |= subprocess.run([str(PYTHON), str(script), *arguments], cwd=ROOT).returncode
    return code


def doctor(arguments: list[str]) -> int:
    python = PYTHON if PYTHON.exists() else Path(sys.executable)
    # Run as a file, so it works even before pydantic is installed.
    return subprocess.run([str(python), str(ROOT / "tutorial" / "doctor.py"), *arguments], cwd=ROOT).returncode


COMMANDS = {"lab": lab, "app": app, "test": test, "notebooks": notebooks, "diagrams": diagrams, "bench": bench, "doctor": doctor}


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        print(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).", file=sys.stderr)
        return 2
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except subprocess.CalledProcessError as failure:
        print(f"[tasks] failed (exit {failure.returncode}): {' '.join(map(str, failure.cmd))}", file=sys.stderr)
        return failure.returncode or 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
