"""No English sentence a Chinese learner must read in the Chinese chapters' stored outputs.

Every output of notebooks/zh/*.ipynb (streams, text/plain, HTML, the text of SVG pictures) and
every kept answer in notebooks/.reveals/zh/*.json is read line by line. A finding is

- a run of four or more English words with no Chinese between them, or
- a label: two or more English words ending in a colon ("dicts equal: True").

Not words: code (a name with _ or a digit, a path, a quoted single value like 'user'), the
English a Chinese engineer keeps (JSON, token, prompt, schema, SSE, API, …), an option letter
(a), and a capitalised name inside a run (OpenAI Chat Completions API). A live widget's text
is not read (the playground's tests check its labels), nor a text/plain beside HTML or SVG.

Data stays data, so a run is allowed when it is one of these, each found in the package itself
(nothing is allowed by a list of phrases kept here); a long run is allowed when such texts of
four words or more cover all of it but stretches shorter than four words:

1. data: a string of the JSON the package ships (tutorial/examples/**, tutorial/peers/data/:
   the README example, the SDK bodies, the Claude Code session, the peers' recorded outputs),
   a string a chapter's own code writes into a request (not a label of the catalogue), or what
   chapter 11's hand-wired tiny model says;
2. the lesson's own text: a line of the lesson's source (tutorial/*.py, tutorial/contract/), as
   a chapter prints it (`inspect.getsource`). A RequestError's reason is not among them: under
   Chinese it reads in Chinese after its location ("messages[2].content[0].tool_use_id: 是必填项…");
3. a chat template's own words: text of a template the package renders (tutorial/watch/templates,
   the llama.cpp sdist's templates), in a prompt or in a template's refusal;
4. a Python exception's own message after its name ("TypeError: 'NoneType' object is not iterable").

Everything else English comes from the apparatus and must be written in Chinese there.

    python tests/test_zh_outputs.py FILE.ipynb|FILE.json ...   # the English found, by cell
    python tests/test_zh_outputs.py                             # every zh chapter and answer file
"""

from __future__ import annotations

import ast
import functools
import html
import json
import re
import sys
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZH = ROOT / "notebooks" / "zh"
REVEALS = ROOT / "notebooks" / ".reveals" / "zh"

MIN_WORDS = 4  # a run this long is a sentence
MIN_LABEL_WORDS = 2  # "dicts equal:" is a label

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_WORD = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
_EDGE = "\"'`,;.!?()[]{}<>|*#…“”‘’"
_BREAK = re.compile(r"^[|·→↓←=+\-—–>/\\*#]+$")  # a token of symbols only ends a run
# Words a Chinese sentence keeps in English (the term table's choices, and code words): not English prose.
_KEPT = {"JSON", "token", "tokens", "SSE", "schema", "prompt", "rollout", "harness", "commit", "repr", "id", "ids", "API",
         "HTTP", "CLI", "SDK", "Python", "OK"}
_EXCEPTION = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)）?[:：] ?([^\u3400-\u9fff\n]*)")  # also 渲染时出错（TypeError）：…


class Finding(NamedTuple):
    cell: str
    text: str

    def __str__(self) -> str:
        return f"{self.cell}: {self.text}"


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ------------------------------------------------------------------ what the package itself allows


def _json_strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


@functools.lru_cache(maxsize=1)
def _data() -> str:
    """The strings of the JSON the package ships, one per line, whitespace squashed."""
    texts = []
    for path in [*(ROOT / "tutorial" / "examples").rglob("*.json"), *(ROOT / "tutorial" / "peers" / "data").glob("*.json")]:
        for text in _json_strings(json.loads(path.read_text(encoding="utf-8"))):
            texts += [_squash(line) for line in text.splitlines()]
    return "\n".join(texts)


@functools.lru_cache(maxsize=None)
def _chapter_strings(chapter: str) -> str:
    """The string literals of a chapter's code (the requests it builds), less the labels of the
    catalogue: those are printed in Chinese."""
    from tutorial.notebook.catalogue import LABELS

    path = Path(chapter) if chapter.endswith(".ipynb") else ZH / f"{chapter}.ipynb"  # the notebook itself, or its zh chapter
    if not path.is_file():
        return ""
    texts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        try:
            tree = ast.parse("".join(cell["source"]))
        except SyntaxError:
            continue
        printed = set()  # what the code prints or shows as a label is no data: f-strings, print/say/said, titles, keys
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                printed.update(id(part) for part in node.values)
            elif isinstance(node, ast.Dict):
                printed.update(id(key) for key in node.keys)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name in ("print", "say", "said"):
                    printed.update(id(argument) for argument in node.args)
                elif name in _TITLES:
                    printed.update(id(node.args[i]) for i in _TITLES[name] if i < len(node.args))
                    printed.update(id(keyword.value) for keyword in node.keywords)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value not in LABELS and id(node) not in printed:
                texts += [_squash(line) for line in node.value.splitlines()]
    return "\n".join(texts)


_TITLES = {"show_json": (1,), "side_by_side": (2, 3), "expect": (2,), "show_step": (), "show_losses": ()}


@functools.lru_cache(maxsize=1)
def _model_output() -> str:
    """What the hand-wired tiny model of chapter 11 says (tutorial/llama_cpp/tiny_model.py's
    module-level strings): a model's output is data."""
    tree = ast.parse((ROOT / "tutorial" / "llama_cpp" / "tiny_model.py").read_text(encoding="utf-8"))
    return "\n".join(_squash(node.value.value) for node in tree.body
                     if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))


def _lesson_files() -> list[Path]:
    return sorted([*(ROOT / "tutorial").glob("*.py"), *(ROOT / "tutorial" / "contract").glob("*.py")])


@functools.lru_cache(maxsize=1)
def _lesson() -> str:
    """The lesson's source, a line each, whitespace squashed: what `inspect.getsource` prints,
    and the constant messages of the contract."""
    return "\n".join(_squash(line) for path in _lesson_files() for line in path.read_text(encoding="utf-8").splitlines())


@functools.lru_cache(maxsize=1)
def _templates() -> str:
    """The literal text of every chat template the package renders, a line each."""
    paths = sorted((ROOT / "tutorial").rglob("*.jinja"))
    try:
        from tutorial.llama_cpp import sdist

        if sdist.is_fetched():
            paths += sorted(sdist.templates_dir().glob("*.jinja"))
    except Exception:  # noqa: BLE001 - no sdist: the templates of the package alone
        pass
    texts = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        pieces = re.split(r"\{[%{#].*?[%}#]\}", source, flags=re.S)  # text between the tags
        for tag in re.findall(r"\{[%{#](.*?)[%}#]\}", source, flags=re.S):  # quoted strings and comments in the tags
            pieces.append(tag)
            pieces += [a or b for a, b in re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", tag)]
        for piece in pieces:
            for line in re.split(r"\n|\\n", piece):
                texts.append(_squash(line))
    return "\n".join(texts)


def templates_at_hand() -> bool:
    try:
        from tutorial.llama_cpp import sdist

        return sdist.is_fetched()
    except Exception:  # noqa: BLE001
        return False


def _allowed(run: str, chapter: str) -> bool:
    squashed = _squash(run)
    return any(squashed in corpus for corpus in (_data(), _lesson(), _templates(), _model_output(), _chapter_strings(chapter)))


# ------------------------------------------------------------------ reading a line


def _masked(line: str) -> str:
    """`line` with exceptions' own messages blanked ("TypeError: 'NoneType' object is not iterable")."""

    return _EXCEPTION.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + " " * len(m.group(1)), line)


def _runs(line: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The runs of English words in one line, as [(kind, [(start, end) of each word])]."""
    found = []
    words: list[tuple[int, int]] = []

    def close(label: bool) -> None:
        if len(words) >= MIN_WORDS:
            found.append(("sentence", list(words)))
        elif label and len(words) >= MIN_LABEL_WORDS:
            found.append(("label", list(words)))
        words.clear()

    for match in re.finditer(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+|[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+", line):
        token = match.group(0)
        if _CJK.match(token):  # Chinese ends a run; a full-width colon ends a label
            close(label=token.startswith("："))
            continue
        if _BREAK.match(token):
            close(label=False)
            continue
        opened = token.lstrip("([{")
        if token.count('"') % 2 or opened[:1] in ("'", "“") and {"'": "'", "“": "”"}[opened[0]] not in opened[1:]:
            close(label=False)  # a quoted text of several words begins: what a display quotes is read on its own
        core = token.strip(_EDGE + ":")
        at = token.find(core) if core else -1
        quoted = at > 0 and token[at - 1] in "'\"" and token[at + len(core) : at + len(core) + 1] == token[at - 1]
        word = not quoted and bool(_WORD.fullmatch(core)) and not (len(core) == 1 and token.startswith("("))  # (a) is a label of an option
        if word and (core in _KEPT or words and core[0].isupper()):
            word = False  # a word engineers keep in English (prompt, token), or a name inside a run (OpenAI Chat Completions)
        if word:
            words.append((match.start() + at, match.start() + at + len(core)))
        if token.rstrip("\"'").endswith(":"):
            close(label=word)
    close(label=False)
    return found


def english_runs(line: str) -> list[tuple[str, str]]:
    """The runs of English words in one line: [(kind, text)], kind "sentence" or "label".
    Code (a name with _ or a digit, a path, a quoted single value), a kept word (JSON, prompt)
    and a capitalised name inside a run neither count nor break it; Chinese, a colon and a
    symbol (| · → =) end one."""
    return [(kind, line[words[0][0] : words[-1][1]] + (":" if kind == "label" else "")) for kind, words in _runs(line)]


def _not_allowed(line: str, words: list[tuple[int, int]], chapter: str) -> list[str]:
    """The parts of a run that are no data: each stretch of MIN_WORDS words or more that no
    allowed text of MIN_WORDS words or more covers (a template's sentence may come in two
    strings, a data string may follow a command name)."""
    if _allowed(line[words[0][0] : words[-1][1]], chapter):
        return []
    covered = [False] * len(words)
    i = 0
    while i <= len(words) - MIN_WORDS:
        last = None
        j = i + MIN_WORDS - 1
        while j < len(words) and _allowed(line[words[i][0] : words[j][1]], chapter):
            last, j = j, j + 1
        if last is None:
            i += 1
            continue
        covered[i : last + 1] = [True] * (last + 1 - i)
        i = last + 1
    stretches, current = [], []
    for span, done in zip(words + [None], covered + [True]):
        if not done:
            current.append(span)
        elif current:
            stretches.append(current)
            current = []
    return [line[part[0][0] : part[-1][1]] for part in stretches if len(part) >= MIN_WORDS]


def english_in_text(text: str, chapter: str, cell: str) -> list[Finding]:
    found = []
    for line in re.split(r"\n|\\n|\\t", text):
        line = _masked(line)
        for kind, words in _runs(line):
            if kind == "label":
                label = line[words[0][0] : words[-1][1]]
                if not _allowed(label, chapter):
                    found.append(Finding(cell, label + ":"))
            else:
                found += [Finding(cell, part) for part in _not_allowed(line, words, chapter)]
    return found


# ------------------------------------------------------------------ reading outputs


def _html_text(markup: str) -> str:
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", "\n", markup))


def _svg_text(svg: str) -> str:
    return "\n".join(html.unescape(re.sub(r"<[^>]+>", "", t)) for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S))


def output_texts(output: dict) -> list[str]:
    """What a learner reads of one output: its text, its HTML's text, its picture's words."""
    data = output.get("data", {})
    if "application/vnd.jupyter.widget-view+json" in data:
        return []  # a live widget: the playground's tests check its labels
    join = lambda value: "".join(value) if isinstance(value, list) else value  # noqa: E731
    texts = []
    if "text" in output:
        texts.append(join(output["text"]))
    if output.get("output_type") == "error":
        texts.append(f"{output.get('ename')}: {output.get('evalue')}")
    if "text/plain" in data and not {"text/html", "image/svg+xml"} & set(data):  # a front end shows the richer form
        texts.append(join(data["text/plain"]))
    if "text/html" in data:
        texts.append(_html_text(join(data["text/html"])))
    if "image/svg+xml" in data:
        texts.append(_svg_text(join(data["image/svg+xml"])))
    return texts


def _findings(outputs_by_cell: Iterator[tuple[str, list]], chapter: str) -> list[Finding]:
    found: list[Finding] = []
    for cell, outputs in outputs_by_cell:
        for output in outputs:
            for text in output_texts(output):
                found += [f for f in english_in_text(text, chapter, cell) if f not in found]
    return found


def english_in_notebook(path: Path) -> list[Finding]:
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return _findings(((cell.get("id", "?"), cell.get("outputs", [])) for cell in cells if cell["cell_type"] == "code"), str(path))


def english_in_reveals(path: Path) -> list[Finding]:
    kept = json.loads(Path(path).read_text(encoding="utf-8"))["outputs"]
    return _findings(iter(kept.items()), Path(path).stem)


def english_in(path: Path) -> list[Finding]:
    path = Path(path)
    return english_in_reveals(path) if path.suffix == ".json" else english_in_notebook(path)


# ------------------------------------------------------------------ the tests

CHAPTERS = sorted(ZH.glob("*.ipynb"))
ANSWERS = sorted(REVEALS.glob("*.json"))
NEED_TEMPLATES = {"04b_real_chat_templates"}  # prompts of the sdist's templates: allowed only when they are at hand


@pytest.mark.parametrize("path", CHAPTERS + ANSWERS, ids=[p.relative_to(ROOT / "notebooks").as_posix() for p in CHAPTERS + ANSWERS])
def test_no_english_sentence_in_a_chinese_output(path):
    if path.stem in NEED_TEMPLATES and not templates_at_hand():
        pytest.skip("the sdist's templates are not fetched (python3 tasks.py setup)")
    found = english_in(path)
    assert found == [], f"{len(found)} English runs (re-run the chapter, or write them in Chinese where they come from):\n" + "\n".join(
        map(str, found[:40])
    )


@pytest.mark.parametrize(
    "line, expected",
    [
        ("dicts equal: True", [("label", "dicts equal:")]),
        ("两个字典相等：True", []),
        ("reply blocks (sent to the CLI)", [("sentence", "reply blocks (sent to the")]),
        ("tool \"Tool loaded: Bash\"", [("label", "Tool loaded:")]),
        ("tool [text:\"Tool loaded: Bash\"]", []),
        ("note: ours: chat_template = preprocess + target 'chat_template'; ours: openai", [("label", "target 'chat_template'; ours:")]),
        ("  \"reply blocks (sent to the CLI)\": [", [("sentence", "reply blocks (sent to the")]),
        ("['system', 'user', 'user', 'user']", []),
        ('  "role": "assistant",', []),
        ("stop_reason: tool_use · blocks: ['text']", []),
        ("这个 prompt 有 213 个 token", []),
        ("  (a) system：它是请求的一项设置", []),
        ("max_tokens: a sampling limit: it stays in the body for the sampling step",
         [("label", "a sampling limit:"), ("sentence", "it stays in the body for the sampling step")]),
        ("它抛出了 TypeError：'NoneType' object is not iterable", [("sentence", "object is not iterable")]),
    ],
)
def test_english_runs(line, expected):
    assert english_runs(line) == expected


def test_what_is_allowed_comes_from_the_package():
    chapter = "01_request"
    assert english_in_text("messages[2].content[0].tool_use_id: 是必填项（tool_result 要写明它回答的是哪个 tool_use）", chapter, "c") == []
    assert english_in_text("它抛出了 TypeError：'NoneType' object is not iterable (line 2, in hurried_flatten)", chapter, "c") == []
    assert english_in_text("(located, e.g. at `messages[2].content[0].tool_use_id`) before producing anything.", chapter, "c") == []
    assert english_in_text("You have been invoked in the following environment", chapter, "c") == []  # the Claude Code session
    assert english_in_text("max_tokens: a sampling limit: it stays in the body for the sampling step", chapter, "c") != []
    assert english_in_text("dicts equal: True", chapter, "c") == [Finding("c", "dicts equal:")]
    assert english_in_text("第 10 行，第 15 列：Unterminated string starting at（文本还不是有效的 JSON）", chapter, "c") == [
        Finding("c", "Unterminated string starting at")
    ]


def test_pictures_and_tables_are_read():
    svg = '<svg><text x="1">no id</text><text x="2">the call stays behind here</text></svg>'
    assert output_texts({"data": {"image/svg+xml": svg}}) == ["no id\nthe call stays behind here"]
    table = "<style>td{}</style><table><tr><th>where</th><th>why it stays behind</th></tr></table>"
    assert english_in_text(output_texts({"data": {"text/html": table}})[0], "x", "c") == [Finding("c", "why it stays behind")]


def main(arguments: list[str]) -> int:
    paths = [Path(a) for a in arguments] or CHAPTERS + ANSWERS
    total = 0
    for path in paths:
        found = english_in(path)
        total += len(found)
        if found:
            print(f"== {path} ({len(found)})")
            for finding in found:
                print(f"  {finding}")
    print(f"{total} English runs in {len(paths)} files")
    return 1 if total else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
