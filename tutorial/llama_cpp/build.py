"""Build llama.cpp's `llama-server` from the sdist's source, once per version, into the cache.

    python -m tutorial.llama_cpp.build            build it (about 6 minutes on 2 cores; then cached)
    python -m tutorial.llama_cpp.build status     one line: where it is, or how to get it

Needs cmake and a C++ compiler (on Debian: `apt-get install cmake g++`; set-up installs them
as root). The build folder is `.cache/llama_server-VERSION/`; a stamp there records the version
and the options, so a second run does nothing and a new pin builds afresh. Only the server is
built: no tests, examples, web UI download or OpenSSL (it serves loopback over plain HTTP).
Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

from . import sdist

CMAKE_OPTIONS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_APP=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",  # no download of the web UI: the server's API is all we use
    "-DLLAMA_OPENSSL=OFF",  # loopback only, plain HTTP
    "-DGGML_NATIVE=ON",  # this machine's CPU instructions: the binary stays in this machine's cache
]
TARGET = "llama-server"
INSTALL_HINT = "python3 tasks.py engine   (builds llama.cpp's server with cmake, about 6 minutes, once)"


class BuildFailed(RuntimeError):
    """The build could not run or failed; the message says why and where the log is."""


def build_dir() -> Path:
    return sdist.cache_root() / f"llama_server-{sdist.VERSION}"


def binary() -> Path:
    return build_dir() / "build" / "bin" / (TARGET + (".exe" if os.name == "nt" else ""))


def fingerprint() -> str:
    return hashlib.sha256(" ".join([sdist.VERSION, TARGET, *CMAKE_OPTIONS]).encode()).hexdigest()[:16]


def stamp() -> Path:
    return build_dir() / "stamp"


def is_built() -> bool:
    return binary().exists() and stamp().exists() and stamp().read_text().strip() == fingerprint()


def missing_tools() -> list[str]:
    """The build tools not on PATH (a C++ compiler under any of its usual names)."""
    missing = [] if shutil.which("cmake") else ["cmake"]
    if not any(shutil.which(name) for name in ("c++", "g++", "clang++")):
        missing.append("a C++ compiler (g++ or clang++)")
    return missing


def build(jobs: Optional[int] = None, quiet: bool = False) -> Path:
    """Configure and build llama-server unless it is built already; returns the binary."""
    if is_built():
        return binary()
    source = sdist.source_dir()  # raises SdistMissing with the fix
    missing = missing_tools()
    if missing:
        raise BuildFailed(f"building llama.cpp needs {' and '.join(missing)} (on Debian: sudo apt-get install cmake g++)")
    folder = build_dir()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "build.log"
    jobs = jobs or min(os.cpu_count() or 2, 4)
    steps = [
        ["cmake", "-S", str(source), "-B", str(folder / "build"), *CMAKE_OPTIONS],
        ["cmake", "--build", str(folder / "build"), "--target", TARGET, f"-j{jobs}"],
    ]
    started = time.monotonic()
    if not quiet:
        print(f"[engine] building llama.cpp's {TARGET} {sdist.VERSION} with cmake (-j{jobs}; log: {log})", flush=True)
    with log.open("a", encoding="utf-8") as output:
        for step in steps:
            output.write("$ " + " ".join(step) + "\n")
            output.flush()
            code = subprocess.call(step, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            if code:
                raise BuildFailed(f"{' '.join(step[:2])} failed (exit {code}); the last lines of {log}:\n{_tail(log)}")
    if not binary().exists():
        raise BuildFailed(f"the build finished but {binary()} is not there; see {log}")
    stamp().write_text(fingerprint() + "\n")
    if not quiet:
        print(f"[engine] built {binary()} in {(time.monotonic() - started) / 60:.1f} minutes", flush=True)
    return binary()


def _tail(log: Path, lines: int = 15) -> str:
    return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def status() -> tuple[bool, str]:
    if is_built():
        return True, f"llama.cpp's {TARGET} {sdist.VERSION} is built: {binary()}"
    return False, f"llama.cpp's {TARGET} is not built (the real-engine tests and chapter 11's engine cells skip): {INSTALL_HINT}"


def main(argv: list[str]) -> int:
    return sdist.command_line(argv, module="tutorial.llama_cpp.build", verb="build", action=build, failures=(sdist.SdistMissing, BuildFailed, OSError),
                              status=status, default="build")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
