"""Check what the notebooks need and print ✓ or the exact fix for each item.

Standard library only, and runnable as a file (`python tutorial/cli/doctor.py`), so it
works before anything is installed. `python -m tutorial doctor` runs the same checks.
"""

from __future__ import annotations

import importlib.metadata
import platform
import shutil
import subprocess
import sys
from pathlib import Path

SYSTEM = platform.system()  # "Linux", "Darwin" or "Windows"

INSTALL_DOT = {
    "Linux": "sudo apt-get install graphviz   (Fedora: sudo dnf install graphviz)",
    "Darwin": "brew install graphviz",
    "Windows": "winget install graphviz   (or: choco install graphviz), then open a new terminal",
}
INSTALL_FONT = {
    "Linux": "sudo apt-get install fonts-wqy-microhei   (Fedora: sudo dnf install wqy-microhei-fonts)",
    "Darwin": "macOS ships CJK fonts (PingFang); nothing to install",
    "Windows": "Windows ships CJK fonts (Microsoft YaHei); nothing to install",
}
SETUP = "python3 tasks.py lab   (creates .venv and installs everything)"
ROOT = Path(__file__).resolve().parents[2]  # a source checkout: notebooks/, tasks.py, .agent-cli/
CHROMIUM = "/usr/bin/chromium"  # what the browser test uses (Debian's package)

# package -> what it is for; the first is the core's only dependency
PACKAGES = {
    "pydantic": "the request contract (core)",
    "jupyterlab": "the notebooks",
    "ipywidgets": "the playground",
    "graphviz": "drawing the diagrams",
    "jinja2": "rendering chat templates",
    "tokenizers": "token ids from the real vocabularies",
    "transformers": "apply_chat_template, which the tests compare render with",
    "gguf": "the GGUF format of llama.cpp's vocabularies and models",
    "voila": "the playground as an app (tasks.py app)",
    "starlette": "the /v1/messages server",
    "uvicorn": "the /v1/messages server",
    "pytest": "the test suite",
    "hypothesis": "property tests",
    "nbval": "checking stored notebook outputs",
    "playwright": "the browser test",
    "anthropic": "the SDK the server tests drive",
    "httpx": "the server tests",
}


def check_python() -> tuple[bool, str]:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info >= (3, 11):
        return True, f"Python {version}"
    return False, f"Python {version} is too old: install Python 3.11 or newer"


def check_package(name: str, purpose: str) -> tuple[bool, str]:
    try:
        return True, f"{name} {importlib.metadata.version(name)} ({purpose})"
    except importlib.metadata.PackageNotFoundError:
        return False, f"{name} is missing ({purpose}): {SETUP}"


def check_dot() -> tuple[bool, str]:
    dot = shutil.which("dot")
    if not dot:
        return False, f"Graphviz's `dot` is not on PATH (pip installs only the Python bindings): {INSTALL_DOT.get(SYSTEM, INSTALL_DOT['Linux'])}"
    version = subprocess.run([dot, "-V"], capture_output=True, text=True).stderr.strip()
    return True, f"{version or 'dot'} at {dot}"


def check_cjk_font() -> tuple[bool, str]:
    if SYSTEM in ("Darwin", "Windows"):
        return True, f"CJK font: {INSTALL_FONT[SYSTEM]}"
    if not shutil.which("fc-list"):
        return False, f"fontconfig's fc-list is missing, so no font can be checked: sudo apt-get install fontconfig; then {INSTALL_FONT['Linux']}"
    fonts = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout.split("\n")
    families = sorted({line.split(",")[0].strip() for line in fonts if line.strip()})
    if not families:
        return False, f"no CJK font, so Chinese in diagrams shows as boxes: {INSTALL_FONT['Linux']}"
    preferred = "WenQuanYi Micro Hei"
    note = "" if preferred in families else f" (diagrams ask for {preferred!r}; another CJK font will stand in)"
    return True, f"CJK font: {', '.join(families[:3])}{note}"


def check_widgets() -> tuple[bool, str]:
    """ipywidgets 8 needs the jupyterlab_widgets extension in the same environment."""
    try:
        version = importlib.metadata.version("jupyterlab_widgets")
    except importlib.metadata.PackageNotFoundError:
        return False, f"the JupyterLab widget extension (jupyterlab_widgets) is missing, so widgets show as text: {SETUP}"
    extension = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter-widgets" / "jupyterlab-manager"
    if not extension.exists():
        return False, f"jupyterlab_widgets {version} is installed but its extension files are not in {extension.parent}: reinstall it in this environment"
    return True, f"JupyterLab widget extension {version} (restart JupyterLab after installing it)"


def check_chromium() -> tuple[bool, str]:
    if Path(CHROMIUM).exists():
        return True, f"Chromium for the browser test: {CHROMIUM}"
    if SYSTEM != "Linux":
        return False, f"optional: the browser test needs Debian's {CHROMIUM}, so it runs on Debian/Ubuntu only"
    return False, f"optional: {CHROMIUM} is missing, so the browser test cannot run (Debian: sudo apt-get install chromium)"


def check_trust() -> tuple[bool, str] | None:
    """Untrusted notebooks show their stored diagrams as text; set-up signs them for this user."""
    paths = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    if not paths:
        return None  # not a source checkout
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        return False, f"cannot check whether the notebooks are trusted (nbformat is missing): {SETUP}"
    notary = NotebookNotary()
    untrusted = [p.name for p in paths if not notary.check_signature(nbformat.read(p, as_version=4))]
    if untrusted:
        return False, (f"{len(untrusted)} of {len(paths)} notebooks are not trusted for this user, so their stored diagrams "
                       f"show as text: python3 tasks.py lab marks them trusted (or: jupyter trust notebooks/*.ipynb)")
    return True, f"all {len(paths)} notebooks trusted for this user"


def check_agent_cli() -> tuple[bool, str] | None:
    if not (ROOT / "tasks.py").exists():
        return None
    found = sorted((ROOT / ".agent-cli" / "node_modules" / ".bin").glob("claude*"))
    if found:
        return True, f"agent CLI for the server tests: {found[0]}"
    how = "python3 tasks.py test installs it" if shutil.which("npm") else "needs Node.js's npm, then python3 tasks.py test"
    return False, f"optional: the agent CLI is not installed in .agent-cli/ ({how})"


def check_sdist() -> tuple[bool, str]:
    """llama.cpp's sdist: the real chat templates and vocabularies (`render(template="qwen3")`)."""
    try:
        from tutorial.llama_cpp import sdist
    except ImportError:  # run as a file before the package is installed: load the module by its path
        import importlib.util

        spec = importlib.util.spec_from_file_location("sdist", ROOT / "tutorial" / "llama_cpp" / "sdist.py")
        sdist = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sdist)
    return sdist.status()


def check_engine() -> tuple[bool, str] | None:
    """llama.cpp's server, built from the sdist (`python3 tasks.py engine`): the real engine behind the bridge."""
    try:
        from tutorial.llama_cpp import build
    except ImportError:  # before the package is installed: the sdist line says what to do first
        return None
    return build.status()


OPTIONAL = {"chromium", "agent cli", "engine"}  # only some tests need them: reported, not counted as a failure


def checks() -> list[tuple[str, bool, str]]:
    results = [("python", *check_python())]
    results += [(name, *check_package(name, purpose)) for name, purpose in PACKAGES.items()]
    results += [("dot", *check_dot()), ("cjk font", *check_cjk_font()), ("widgets", *check_widgets()), ("chromium", *check_chromium())]
    results.append(("llama.cpp sdist", *check_sdist()))
    for name, check in (("trusted notebooks", check_trust), ("agent cli", check_agent_cli), ("engine", check_engine)):
        result = check()
        if result is not None:
            results.append((name, *result))
    return results


def main() -> int:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    results = checks()
    for name, ok, message in results:
        print(f"{'✓' if ok else ('·' if name in OPTIONAL else '✗')} {message}")
    failed = [name for name, ok, _ in results if not ok and name not in OPTIONAL]
    print("\nall good" if not failed else f"\n{len(failed)} to fix: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
