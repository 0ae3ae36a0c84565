"""Check what the notebooks need and print ✓ or the exact fix for each item.

Standard library only, and runnable as a file (`python tutorial/cli/doctor.py`), so it
works before anything is installed. `python -m tutorial doctor` runs the same checks.
`--lang zh` (or TUTORIAL_LANG=zh, or a Chinese locale) writes the report and every fix in Chinese.
"""

from __future__ import annotations

import importlib.metadata
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

SYSTEM = platform.system()  # "Linux", "Darwin" or "Windows"
ROOT = Path(__file__).resolve().parents[2]  # a source checkout: notebooks/, tasks.py, .agent-cli/
CHROMIUM = "/usr/bin/chromium"  # what the browser test uses (Debian's package)
FONT = "WenQuanYi Micro Hei"  # what the diagrams ask for

WORDS = {
    "en": {
        "install_dot": {
            "Linux": "sudo apt-get install graphviz   (Fedora: sudo dnf install graphviz)",
            "Darwin": "brew install graphviz",
            "Windows": "winget install graphviz   (or: choco install graphviz), then open a new terminal",
        },
        "install_font": {
            "Linux": "sudo apt-get install fonts-wqy-microhei   (Fedora: sudo dnf install wqy-microhei-fonts)",
            "Darwin": "macOS ships CJK fonts (PingFang); nothing to install",
            "Windows": "Windows ships CJK fonts (Microsoft YaHei); nothing to install",
        },
        "setup": "python3 tasks.py lab   (creates .venv and installs everything)",
        "purposes": {
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
        },
        "names": {},
        "python_ok": "Python {version}",
        "python_old": "Python {version} is too old: install Python 3.11 or newer",
        "not_the_venv": "this is {python}, not the project's {venv}, so what it lacks says nothing about .venv: "
        "python3 tasks.py doctor checks .venv",
        "package_ok": "{name} {version} ({purpose})",
        "package_missing": "{name} is missing ({purpose}): {setup}",
        "no_dot": "Graphviz's `dot` is not on PATH (pip installs only the Python bindings): {install}",
        "dot_ok": "{version} at {path}",
        "font_shipped": "CJK font: {install}",
        "no_fc_list": "fontconfig's fc-list is missing, so no font can be checked: sudo apt-get install fontconfig; then {install}",
        "no_font": "no CJK font, so Chinese in diagrams shows as boxes: {install}",
        "font_ok": "CJK font: {families}{note}",
        "font_join": ", ",
        "font_other": " (diagrams ask for {font!r}; another CJK font will stand in)",
        "no_widgets": "the JupyterLab widget extension (jupyterlab_widgets) is missing, so widgets show as text: {setup}",
        "widget_files": "jupyterlab_widgets {version} is installed but its extension files are not in {folder}: reinstall it in this environment",
        "widgets_ok": "JupyterLab widget extension {version} (a JupyterLab started before it was installed needs a restart)",
        "chromium_ok": "Chromium for the browser test: {path}",
        "chromium_debian": "optional: the browser test needs Debian's {path}, so it runs on Debian/Ubuntu only",
        "no_chromium": "optional: {path} is missing, so the browser test cannot run (Debian: sudo apt-get install chromium)",
        "trust_unknown": "cannot check whether the notebooks are trusted (nbformat is missing): {setup}",
        "untrusted": "{untrusted} of {total} notebooks are not trusted for this user, so their stored diagrams show as text: "
        "python3 tasks.py lab marks them trusted (or: jupyter trust notebooks/*.ipynb)",
        "trusted": "all {total} notebooks trusted for this user",
        "agent_ok": "agent CLI for the server tests: {path}",
        "agent_npm": "python3 tasks.py test installs it",
        "agent_no_npm": "needs Node.js's npm, then python3 tasks.py test",
        "no_agent": "optional: the agent CLI is not installed in .agent-cli/ ({how})",
        "all_good": "all good",
        "to_fix": "{count} to fix: {names}",
        "usage": "usage: python -m tutorial doctor [-h] [--lang {en,zh}]\n\n"
        "Check Python, packages, Graphviz, a CJK font and the widget extension; print ✓ or the exact fix for each.\n\n"
        "options:\n  -h, --help      show this help message and exit\n"
        "  --lang {en,zh}  language of the report (default: TUTORIAL_LANG, else the locale, else English)",
        "bad_argument": "error: {argument}: not an option of doctor (python -m tutorial doctor -h)",
    },
    "zh": {
        "install_dot": {
            "Linux": "sudo apt-get install graphviz   （Fedora 上用 sudo dnf install graphviz）",
            "Darwin": "brew install graphviz",
            "Windows": "winget install graphviz   （或 choco install graphviz），然后打开一个新终端",
        },
        "install_font": {
            "Linux": "sudo apt-get install fonts-wqy-microhei   （Fedora 上用 sudo dnf install wqy-microhei-fonts）",
            "Darwin": "macOS 自带中文字体（苹方），无需安装",
            "Windows": "Windows 自带中文字体（微软雅黑），无需安装",
        },
        "setup": "python3 tasks.py lab   （创建 .venv 并安装全部依赖）",
        "purposes": {
            "pydantic": "请求的契约，核心依赖",
            "jupyterlab": "各章 notebook",
            "ipywidgets": "交互练习场",
            "graphviz": "绘制图示",
            "jinja2": "渲染聊天模板",
            "tokenizers": "从真实词表得到 token id",
            "transformers": "apply_chat_template，测试时与 render 的结果对照",
            "gguf": "llama.cpp 的词表和模型所用的 GGUF 格式",
            "voila": "以应用形式运行交互练习场，即 tasks.py app",
            "starlette": "/v1/messages 服务器",
            "uvicorn": "/v1/messages 服务器",
            "pytest": "测试套件",
            "hypothesis": "基于性质的测试",
            "nbval": "检查 notebook 中保存的输出",
            "playwright": "浏览器测试",
            "anthropic": "服务器测试所驱动的 SDK",
            "httpx": "服务器测试",
        },
        "names": {"cjk font": "中文字体", "widgets": "widget 扩展", "trusted notebooks": "notebook 信任"},
        "python_ok": "Python {version}",
        "python_old": "Python {version} 太旧，请安装 Python 3.11 或更新的版本",
        "not_the_venv": "这是 {python}，不是本项目的 {venv}，这里缺什么并不说明 .venv 缺什么，python3 tasks.py doctor 检查的才是 .venv",
        "package_ok": "{name} {version}（{purpose}）",
        "package_missing": "缺少 {name}（{purpose}），请运行 {setup}",
        "no_dot": "PATH 中没有 Graphviz 的 `dot`（pip 只安装 Python 绑定），安装方法是 {install}",
        "dot_ok": "{version}，位于 {path}",
        "font_shipped": "中文字体：{install}",
        "no_fc_list": "缺少 fontconfig 的 fc-list，无法检查字体，请先运行 sudo apt-get install fontconfig，然后 {install}",
        "no_font": "没有中文字体，图示中的中文会显示成方框，安装方法是 {install}",
        "font_ok": "中文字体：{families}{note}",
        "font_join": "、",
        "font_other": "（图示指定的是 {font!r}，会用另一种中文字体代替）",
        "no_widgets": "缺少 JupyterLab 的 widget 扩展（jupyterlab_widgets），widget 会显示成文本，请运行 {setup}",
        "widget_files": "已安装 jupyterlab_widgets {version}，但扩展文件不在 {folder} 中，请在这个环境中重新安装 jupyterlab_widgets",
        "widgets_ok": "JupyterLab 的 widget 扩展 {version}（如果 JupyterLab 在安装之前就已启动，需要重启一次）",
        "chromium_ok": "浏览器测试用的 Chromium：{path}",
        "chromium_debian": "可选：浏览器测试需要 Debian 的 {path}，所以只能在 Debian/Ubuntu 上运行",
        "no_chromium": "可选：缺少 {path}，浏览器测试无法运行（Debian 上用 sudo apt-get install chromium 安装）",
        "trust_unknown": "无法检查 notebook 是否受信任（缺少 nbformat），请运行 {setup}",
        "untrusted": "{total} 个 notebook 中有 {untrusted} 个不受当前用户信任，其中保存的图示会显示成文本，"
        "python3 tasks.py lab 会把这些 notebook 标记为受信任（也可以运行 jupyter trust notebooks/*.ipynb）",
        "trusted": "全部 {total} 个 notebook 都受当前用户信任",
        "agent_ok": "服务器测试要用的智能体 CLI 在 {path}",
        "agent_npm": "python3 tasks.py test 会安装智能体 CLI",
        "agent_no_npm": "需要 Node.js 的 npm，然后运行 python3 tasks.py test",
        "no_agent": "可选：.agent-cli/ 中没有安装智能体 CLI（{how}）",
        "all_good": "一切正常",
        "to_fix": "需要修复 {count} 项：{names}",
        "usage": "用法：python -m tutorial doctor [-h] [--lang {en,zh}]\n\n"
        "检查 Python、依赖包、Graphviz、中文字体和 JupyterLab 的 widget 扩展，每一项打印 ✓ 或确切的修复方法。\n\n"
        "选项：\n  -h, --help      显示这条帮助信息并退出\n"
        "  --lang {en,zh}  报告的语言（默认取 TUTORIAL_LANG，其次是系统语言环境 LANG，都没有时用英文）",
        "bad_argument": "错误：doctor 没有 {argument} 这个选项（python -m tutorial doctor -h）",
    },
}

# Kept for whoever reads these names (tasks.py, the tests): the English texts.
INSTALL_DOT = WORDS["en"]["install_dot"]
INSTALL_FONT = WORDS["en"]["install_font"]
SETUP = WORDS["en"]["setup"]
PACKAGES = WORDS["en"]["purposes"]  # package -> what it is for; the first is the core's only dependency


def _words_room():
    """tutorial.words, the one place the language is set and read (loaded from its file when
    this runs as a file; once, so a `using` block holds for every check)."""
    global _room
    if _room is None:
        _room = _load("words", "words", "__init__.py")  # words imports nothing of tutorial
    return _room


_room = None


def _lang() -> str:
    return _words_room().current()


def _words_for(key: str, **fields) -> str:
    return _words_room().words_for(WORDS, key, **fields)


def _install(what: str) -> str:
    return WORDS[_lang()][what].get(SYSTEM, WORDS[_lang()][what]["Linux"])


def check_python() -> tuple[bool, str]:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info >= (3, 11):
        return True, _words_for("python_ok", version=version)
    return False, _words_for("python_old", version=version)


def check_package(name: str, purpose: str) -> tuple[bool, str]:
    try:
        return True, _words_for("package_ok", name=name, version=importlib.metadata.version(name), purpose=purpose)
    except importlib.metadata.PackageNotFoundError:
        return False, _words_for("package_missing", name=name, purpose=purpose, setup=WORDS[_lang()]["setup"])


def check_dot() -> tuple[bool, str]:
    dot = shutil.which("dot")
    if not dot:
        return False, _words_for("no_dot", install=_install("install_dot"))
    version = subprocess.run([dot, "-V"], capture_output=True, text=True).stderr.strip()
    return True, _words_for("dot_ok", version=version or "dot", path=dot)


def check_cjk_font() -> tuple[bool, str]:
    if SYSTEM in ("Darwin", "Windows"):
        return True, _words_for("font_shipped", install=_install("install_font"))
    if not shutil.which("fc-list"):
        return False, _words_for("no_fc_list", install=_install("install_font"))
    fonts = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout.split("\n")
    families = sorted({line.split(",")[0].strip() for line in fonts if line.strip()})
    if not families:
        return False, _words_for("no_font", install=_install("install_font"))
    note = "" if FONT in families else _words_for("font_other", font=FONT)
    return True, _words_for("font_ok", families=WORDS[_lang()]["font_join"].join(families[:3]), note=note)


def check_widgets() -> tuple[bool, str]:
    """ipywidgets 8 needs the jupyterlab_widgets extension in the same environment."""
    try:
        version = importlib.metadata.version("jupyterlab_widgets")
    except importlib.metadata.PackageNotFoundError:
        return False, _words_for("no_widgets", setup=WORDS[_lang()]["setup"])
    extension = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter-widgets" / "jupyterlab-manager"
    if not extension.exists():
        return False, _words_for("widget_files", version=version, folder=extension.parent)
    return True, _words_for("widgets_ok", version=version)


def check_chromium() -> tuple[bool, str]:
    if Path(CHROMIUM).exists():
        return True, _words_for("chromium_ok", path=CHROMIUM)
    if SYSTEM != "Linux":
        return False, _words_for("chromium_debian", path=CHROMIUM)
    return False, _words_for("no_chromium", path=CHROMIUM)


def check_trust() -> tuple[bool, str] | None:
    """Untrusted notebooks show their stored diagrams as text; set-up signs them for this user."""
    paths = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    if not paths:
        return None  # not a source checkout
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        return False, _words_for("trust_unknown", setup=WORDS[_lang()]["setup"])
    notary = NotebookNotary()
    untrusted = [p.name for p in paths if not notary.check_signature(nbformat.read(p, as_version=4))]
    if untrusted:
        return False, _words_for("untrusted", untrusted=len(untrusted), total=len(paths))
    return True, _words_for("trusted", total=len(paths))


def check_agent_cli() -> tuple[bool, str] | None:
    if not (ROOT / "tasks.py").exists():
        return None
    found = sorted((ROOT / ".agent-cli" / "node_modules" / ".bin").glob("claude*"))
    if found:
        return True, _words_for("agent_ok", path=found[0])
    how = WORDS[_lang()]["agent_npm" if shutil.which("npm") else "agent_no_npm"]
    return False, _words_for("no_agent", how=how)


def _load(name: str, *parts: str):
    """tutorial.<name>, or, run as a file before the package is installed, the module at its path."""
    import importlib

    try:
        return importlib.import_module(f"tutorial.{name}")
    except ImportError:
        import importlib.util

        spec = importlib.util.spec_from_file_location(name.rpartition(".")[2], ROOT.joinpath("tutorial", *parts))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def check_sdist() -> tuple[bool, str]:
    """llama.cpp's sdist: the real chat templates and vocabularies (`render(template="qwen3")`)."""
    sdist = _load("llama_cpp.sdist", "llama_cpp", "sdist.py")
    if _lang() != "zh":
        return sdist.status()
    if sdist.is_fetched():
        count = len(list(sdist.templates_dir().glob("*.jinja")))
        return True, f"{sdist.PACKAGE} {sdist.VERSION}：{sdist.unpacked()} 中有 {count} 个聊天模板和词表"
    command = sdist.FETCH_COMMAND
    return False, (f"还没有下载 {sdist.PACKAGE} {sdist.VERSION}（真实的聊天模板、词表和 llama.cpp），请运行 "
                   f"{command}   （下载 llama.cpp 的真实聊天模板和词表）")  # fmt: skip


def check_engine() -> tuple[bool, str] | None:
    """llama.cpp's server, built from the sdist (`python3 tasks.py engine`): the real engine behind the bridge."""
    try:
        from tutorial.llama_cpp import build, sdist
    except ImportError:  # before the package is installed: the sdist line says what to do first
        return None
    if _lang() != "zh":
        return build.status()
    if build.is_built():
        return True, f"llama.cpp 的 {build.TARGET} {sdist.VERSION} 已构建，位于 {build.binary()}"
    command = build.INSTALL_HINT.split("(")[0].strip()
    return False, (f"llama.cpp 的 {build.TARGET} 还没有构建（真实引擎的测试和第 11 章的引擎单元格会跳过），请运行 "
                   f"{command}   （用 cmake 构建 llama.cpp 的服务器，只需一次）")  # fmt: skip


OPTIONAL = {"chromium", "agent cli", "engine"}  # only some tests need them: reported, not counted as a failure


def check_project_python() -> tuple[bool, str] | None:
    """Run by another Python while the checkout has its .venv (the system's python3 running this
    file, say): every package would look missing, so say which Python this is instead."""
    venv = ROOT / ".venv"
    if not (venv / "pyvenv.cfg").is_file() or Path(sys.prefix).resolve() == venv.resolve():
        return None
    project = venv / ("Scripts/python.exe" if SYSTEM == "Windows" else "bin/python")
    return False, _words_for("not_the_venv", python=sys.executable, venv=project)


def checks() -> list[tuple[str, bool, str]]:
    """Every check, in the current language."""
    results = [("python", *check_python())]
    elsewhere = check_project_python()
    if elsewhere is not None:
        results.insert(0, (".venv", *elsewhere))
    results += [(name, *check_package(name, purpose)) for name, purpose in WORDS[_lang()]["purposes"].items()]
    results += [("dot", *check_dot()), ("cjk font", *check_cjk_font()), ("widgets", *check_widgets()),
                ("chromium", *check_chromium())]  # fmt: skip
    results.append(("llama.cpp sdist", *check_sdist()))
    for name, check in (("trusted notebooks", check_trust), ("agent cli", check_agent_cli), ("engine", check_engine)):
        result = check()
        if result is not None:
            results.append((name, *result))
    return results


def read_arguments(argv: list[str]) -> tuple[Optional[str], bool, Optional[str]]:
    """(the --lang given, whether help was asked for, the first argument doctor does not take)."""
    lang, wants_help, i = None, False, 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            wants_help = True
        elif arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in WORDS:
            lang, i = argv[i + 1], i + 1
        elif arg.startswith("--lang=") and arg.partition("=")[2] in WORDS:
            lang = arg.partition("=")[2]
        else:
            return lang, wants_help, " ".join(argv[i : i + 2]) if arg == "--lang" else arg
        i += 1
    return lang, wants_help, None


def main(argv: Optional[list[str]] = None) -> int:
    """Print one line per check; 1 when something must be fixed. It reads its own arguments
    (`--lang zh`, `-h`) when run as a file; `python -m tutorial doctor` has read them and runs
    it inside `using(the language)` with none. Without --lang: the `using` block it runs in,
    else TUTORIAL_LANG, else the locale, else English, as the command line decides."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    if argv is None:
        argv = sys.argv[1:]
    given, wants_help, unknown = read_arguments(list(argv))
    room = _words_room()
    with room.using(room.for_a_command(given)):
        return _report(wants_help, unknown)


def _report(wants_help: bool, unknown: Optional[str]) -> int:
    words = WORDS[_lang()]
    if unknown is not None:
        print(_words_for("bad_argument", argument=unknown), file=sys.stderr)
        return 2
    if wants_help:
        print(words["usage"])
        return 0
    results = checks()
    for name, ok, message in results:
        print(f"{'✓' if ok else ('·' if name in OPTIONAL else '✗')} {message}")
    failed = [name for name, ok, _ in results if not ok and name not in OPTIONAL]
    names = words["font_join"].join(words["names"].get(name, name) for name in failed)
    print("\n" + (_words_for("all_good") if not failed else _words_for("to_fix", count=len(failed), names=names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
