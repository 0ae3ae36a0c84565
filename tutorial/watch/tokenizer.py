"""Real vocabularies from llama.cpp's `models/ggml-vocab-*.gguf`, as Hugging Face tokenizers.

    from tutorial.watch.tokenizer import qwen3_vocabulary, backend_tokenizer, fast_tokenizer
    vocabulary = qwen3_vocabulary()            # tokens, merges, token types, added tokens
    ids = backend_tokenizer("qwen3").encode(prompt, add_special_tokens=False).ids

The sdist that set-up fetches (tutorial/llama_cpp/sdist.py) ships the vocabularies llama.cpp
tests its tokenizer with: every token and every BPE merge of the real model, in GGUF's
key-value metadata. This module reads those keys and builds the same byte-level BPE
tokenizer the model's own `tokenizer.json` describes — no torch, no hub, no network.

Which file serves which vocabulary (`VOCABULARIES`):
- "qwen2.5": ggml-vocab-qwen2.gguf. Its ids 151646..151942 are placeholders ("[PAD151646]");
  the real Qwen2.5 tokenizer puts its added tokens in the first of those slots, so they are
  put back here (`QWEN25_ADDED`: <tool_call> 151657, </tool_call> 151658, the vision and
  fill-in-the-middle markers).
- "qwen3": the same, plus the four Qwen3 added (`QWEN3_ADDED`: <tool_response> 151665,
  </tool_response> 151666, <think> 151667, </think> 151668). Qwen3-Coder uses it too.
- "qwen3.5": ggml-vocab-qwen35.gguf, with its own split pattern (it also keeps combining
  marks with letters); its placeholder slots are filled as Qwen3's are. Its 151,936 tokens
  and its merges are those of ggml-vocab-qwen2.gguf, id for id (checked here): llama.cpp's
  test file differs in the split pattern only. Whether a released Qwen3.5 checkpoint has a
  larger vocabulary the sdist does not say; the ids given are this file's.
- "llama-3": ggml-vocab-llama-bpe.gguf, whose special tokens (<|begin_of_text|>,
  <|start_header_id|>, <|eot_id|>, ...) are already in the file.

The added-token lists are written from the models' published `tokenizer_config.json`
(`added_tokens_decoder`); the GGUF test files leave those slots as placeholders.

GGUF is read by a small reader of our own (`read_metadata`): the `gguf` package's
`GGUFReader` maps every string of a 150 000-token array to its own array view, which takes
20-50 s per file on a busy machine; reading the same keys with `struct` takes well under a
second. tests/test_real_templates.py checks that both readers agree.

`tokenizers` is imported where a tokenizer is built, `transformers` only by `fast_tokenizer`.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from ..llama_cpp import sdist
from ..words import current, words_for

__all__ = [
    "AddedToken",
    "VOCABULARIES",
    "Vocabulary",
    "backend_tokenizer",
    "fast_tokenizer",
    "qwen3_vocabulary",
    "read_metadata",
    "vocabulary",
]

# What this module says when a file or a name is wrong, per language (tutorial.words picks which).
WORDS = {
    "en": {
        "not gguf": "{path}: not a GGUF file",
        "version": "{path}: GGUF version {version} is not supported (2 and 3 are)",
        "value type": "{path}: unknown GGUF value type {kind}",
        "no vocabulary": "no vocabulary {name!r}; known: {known}",
        "not a placeholder": "ggml-vocab-{file}.gguf holds {present!r} at {id}, not a placeholder",
        "wrong id": "vocabulary {name!r}: {content!r} got id {got}, expected {id}",
    },
    "zh": {
        "not gguf": "{path}：不是 GGUF 文件",
        "version": "{path}：不支持 GGUF 版本 {version}（支持 2 和 3）",
        "value type": "{path}：未知的 GGUF 值类型 {kind}",
        "no vocabulary": "没有名为 {name!r} 的词表，已有的词表是 {known}",
        "not a placeholder": "ggml-vocab-{file}.gguf 在 {id} 处是 {present!r}，不是占位符",
        "wrong id": "词表 {name!r}：{content!r} 得到的 id 是 {got}，应为 {id}",
    },
}  # fmt: skip


def _listed(names: Any) -> str:
    return ("、" if current() == "zh" else ", ").join(names)


# GGUF token types (llama.cpp's llama_token_type)
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class AddedToken:
    """A token matched whole before the BPE runs; `special` as in `added_tokens_decoder`."""

    id: int
    content: str
    special: bool


@dataclass
class Vocabulary:
    """What a byte-level BPE tokenizer is built from: every field a GGUF model writer needs too."""

    name: str
    source: str  # the ggml-vocab file it was read from
    tokens: list[str]  # id -> token text (byte-level alphabet: "Ġ" is a space)
    merges: list[str]  # "Ġ t", in rank order
    token_types: list[int]  # id -> GGUF token type (NORMAL, CONTROL, USER_DEFINED, ...)
    added_tokens: list[AddedToken]  # matched whole, before the BPE
    split_pattern: str  # the pre-tokenizer's regex, as in the model's tokenizer.json
    special: dict[str, str] = field(default_factory=dict)  # {"eos_token": "<|im_end|>", ...}


# ---------------------------------------------------------------------------
# Reading GGUF metadata

_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def read_metadata(path: Path, prefix: str = "tokenizer.") -> dict[str, Any]:
    """The key-value metadata of a GGUF file whose key starts with `prefix` (all keys with "").

    Strings come back as `str`, arrays as lists. Only the metadata is read, never tensors.
    """
    data = Path(path).read_bytes()
    if data[:4] != b"GGUF":
        raise ValueError(words_for(WORDS, "not gguf", path=path))
    version, _tensors, count = struct.unpack_from("<IQQ", data, 4)
    if version not in (2, 3):
        raise ValueError(words_for(WORDS, "version", path=path, version=version))
    offset = 24
    found: dict[str, Any] = {}

    def string(at: int) -> tuple[str, int]:
        (length,) = struct.unpack_from("<Q", data, at)
        at += 8
        return data[at : at + length].decode("utf-8"), at + length

    def value(kind: int, at: int) -> tuple[Any, int]:
        if kind == _STRING:
            return string(at)
        if kind in _SCALARS:
            fmt = _SCALARS[kind]
            return struct.unpack_from(fmt, data, at)[0], at + struct.calcsize(fmt)
        if kind == _ARRAY:
            item_kind, length = struct.unpack_from("<IQ", data, at)
            at += 12
            if item_kind in _SCALARS:
                fmt = _SCALARS[item_kind]
                size = struct.calcsize(fmt)
                items = list(struct.unpack_from("<" + fmt[1] * length, data, at))
                return items, at + size * length
            items = []
            for _ in range(length):
                item, at = value(item_kind, at)
                items.append(item)
            return items, at
        raise ValueError(words_for(WORDS, "value type", path=path, kind=kind))

    for _ in range(count):
        key, offset = string(offset)
        (kind,) = struct.unpack_from("<I", data, offset)
        item, offset = value(kind, offset + 4)
        if key.startswith(prefix):
            found[key] = item
    return found


# ---------------------------------------------------------------------------
# The vocabularies

# The pre-tokenizers' split patterns, as the models' tokenizer.json write them (llama.cpp's
# src/llama-vocab.cpp quotes them beside its own rewrites).
QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
QWEN35_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)
LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)

# Qwen2.5's added tokens after <|endoftext|>, <|im_start|>, <|im_end|> (151643-151645, in the file).
QWEN25_ADDED = [
    AddedToken(151646, "<|object_ref_start|>", True),
    AddedToken(151647, "<|object_ref_end|>", True),
    AddedToken(151648, "<|box_start|>", True),
    AddedToken(151649, "<|box_end|>", True),
    AddedToken(151650, "<|quad_start|>", True),
    AddedToken(151651, "<|quad_end|>", True),
    AddedToken(151652, "<|vision_start|>", True),
    AddedToken(151653, "<|vision_end|>", True),
    AddedToken(151654, "<|vision_pad|>", True),
    AddedToken(151655, "<|image_pad|>", True),
    AddedToken(151656, "<|video_pad|>", True),
    AddedToken(151657, "<tool_call>", False),
    AddedToken(151658, "</tool_call>", False),
    AddedToken(151659, "<|fim_prefix|>", False),
    AddedToken(151660, "<|fim_middle|>", False),
    AddedToken(151661, "<|fim_suffix|>", False),
    AddedToken(151662, "<|fim_pad|>", False),
    AddedToken(151663, "<|repo_name|>", False),
    AddedToken(151664, "<|file_sep|>", False),
]
# What Qwen3 adds to them.
QWEN3_ADDED = [
    AddedToken(151665, "<tool_response>", False),
    AddedToken(151666, "</tool_response>", False),
    AddedToken(151667, "<think>", False),
    AddedToken(151668, "</think>", False),
]
QWEN_SPECIAL = {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>"}

# name -> (ggml-vocab file, split pattern, added tokens to put in placeholder slots, special tokens)
VOCABULARIES: dict[str, tuple[str, str, list[AddedToken], dict[str, str]]] = {
    "qwen2.5": ("qwen2", QWEN2_SPLIT, QWEN25_ADDED, QWEN_SPECIAL),
    "qwen3": ("qwen2", QWEN2_SPLIT, QWEN25_ADDED + QWEN3_ADDED, QWEN_SPECIAL),
    "qwen3.5": ("qwen35", QWEN35_SPLIT, QWEN25_ADDED + QWEN3_ADDED, QWEN_SPECIAL),
    "llama-3": ("llama-bpe", LLAMA3_SPLIT, [], {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}),
}


@lru_cache(maxsize=None)
def _metadata(file_name: str) -> dict[str, Any]:
    return read_metadata(sdist.vocab_file(file_name))


def vocabulary(name: str) -> Vocabulary:
    """The vocabulary `name` (a key of VOCABULARIES), read from the sdist's GGUF file.

    Raises `sdist.SdistMissing` (whose message names the set-up command) when not fetched,
    `KeyError` for an unknown name. A fresh object each call: change it freely.
    """
    if name not in VOCABULARIES:
        raise KeyError(words_for(WORDS, "no vocabulary", name=name, known=_listed(VOCABULARIES)))
    file_name, split_pattern, extra, special = VOCABULARIES[name]
    fields = _metadata(file_name)
    tokens = list(fields["tokenizer.ggml.tokens"])
    types = list(fields["tokenizer.ggml.token_type"])
    added = []
    for token in extra:
        present = tokens[token.id]
        if present != token.content and not present.startswith("[PAD"):
            raise ValueError(words_for(WORDS, "not a placeholder", file=file_name, present=present, id=token.id))
        tokens[token.id] = token.content
        types[token.id] = CONTROL if token.special else USER_DEFINED
    for token_id, (text, kind) in enumerate(zip(tokens, types)):
        if kind in (CONTROL, USER_DEFINED) and not text.startswith("[PAD"):
            added.append(AddedToken(token_id, text, kind == CONTROL))
    return Vocabulary(
        name=name,
        source=f"ggml-vocab-{file_name}.gguf",
        tokens=tokens,
        merges=list(fields["tokenizer.ggml.merges"]),
        token_types=types,
        added_tokens=added,
        split_pattern=split_pattern,
        special=dict(special),
    )


def qwen3_vocabulary() -> Vocabulary:
    """Qwen3's vocabulary: ggml-vocab-qwen2.gguf with Qwen2.5's and Qwen3's added tokens in place.

    tokens[151657] == "<tool_call>", ..., tokens[151668] == "</think>"; `token_types` marks
    them USER_DEFINED (not special) and <|im_start|> etc. CONTROL, as a GGUF model file
    (`tokenizer.ggml.token_type`) wants them. Engineer-facing: a tiny GGUF model can take
    `tokens`, `merges` and `token_types` as they are.
    """
    return vocabulary("qwen3")


@lru_cache(maxsize=None)
def backend_tokenizer(name: str):
    """A `tokenizers.Tokenizer` for the vocabulary `name`: byte-level BPE, as the model's tokenizer.json."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers
    from tokenizers import AddedToken as HFAddedToken

    vocab = vocabulary(name)
    ids = {text: token_id for token_id, text in enumerate(vocab.tokens) if not text.startswith("[PAD")}
    merges = [tuple(merge.split(" ", 1)) for merge in vocab.merges]
    model = models.BPE(vocab=ids, merges=merges, fuse_unk=False, byte_fallback=False, ignore_merges=name == "llama-3")
    tokenizer = Tokenizer(model)
    if name.startswith("qwen"):
        tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(vocab.split_pattern), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_tokens([
        HFAddedToken(token.content, special=token.special, normalized=False) for token in vocab.added_tokens
    ])
    _check_ids(tokenizer, vocab)
    return tokenizer


def _check_ids(tokenizer: Any, vocab: Vocabulary) -> None:
    """Each added token must land on its own id (add_tokens appends those it does not know)."""
    for token in vocab.added_tokens:
        got = tokenizer.token_to_id(token.content)
        if got != token.id:
            raise ValueError(words_for(WORDS, "wrong id", name=vocab.name, content=token.content, got=got, id=token.id))


def fast_tokenizer(name: str, chat_template: Optional[str] = None):
    """The vocabulary as a transformers `PreTrainedTokenizerFast` (what `apply_chat_template` runs on).

    Built from the tokenizer object alone: transformers reads no file and reaches no hub
    (HF_HUB_OFFLINE is set before it loads, unless the caller set it otherwise).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import PreTrainedTokenizerFast

    vocab = vocabulary(name)
    return PreTrainedTokenizerFast(tokenizer_object=backend_tokenizer(name), chat_template=chat_template, **vocab.special)
