"""The hand-wired model's wiring, computed in numpy (`tiny_model.next_token`), no engine needed:
what it answers after each kind of prompt, that its texts use no token twice, and that the
margins make sampling pick the wired token. tests/test_engine.py runs the same model in llama.cpp."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gguf")

from tutorial.llama_cpp import sdist, tiny_model  # noqa: E402

if not sdist.is_fetched():
    pytest.skip(f"llama.cpp's sdist is not fetched: {sdist.FETCH_HINT}", allow_module_level=True)

IM_START, ASSISTANT = 151644, 77091  # <|im_start|>, "assistant"


@pytest.fixture(scope="module")
def wired():
    vocab = tiny_model.vocabulary()
    chains = tiny_model.chains(vocab)
    return vocab, chains, tiny_model.weights(chains, vocab_size=len(vocab.tokens))


def prompt(*markers: int, seed: int = 0) -> list[int]:
    """Ordinary tokens with the given special tokens among them, ending with the generation prompt."""
    rng = random.Random(seed)
    ids = [rng.randrange(1000, 100000) for _ in range(60)]
    for n, marker in enumerate(markers):
        ids.insert(10 + 20 * n, marker)
    return ids + [IM_START, ASSISTANT, tiny_model.NEWLINE]


def said(vocab, ids: list[int]) -> str:
    alphabet = {char: byte for char, byte in tiny_model._byte_of_char().items()}
    out = b""
    for token_id in ids:
        token = vocab.tokens[token_id]
        out += token.encode() if token.startswith("<") else bytes(alphabet[char] for char in token)
    return out.decode()


def test_without_tools_it_thinks_then_answers(wired):
    vocab, _, tensors = wired
    assert said(vocab, tiny_model.generate(tensors, prompt())) == tiny_model.ANSWER_TEXT + "<|im_end|>"


def test_with_tools_offered_it_calls_the_wired_tool(wired):
    vocab, _, tensors = wired
    said_text = said(vocab, tiny_model.generate(tensors, prompt(tiny_model.TOOL_CALL)))
    assert said_text == tiny_model.TOOL_TEXT + "<|im_end|>"
    assert '{"name":"Read","arguments":{"file_path":"notes.txt"}}' in said_text


def test_after_a_tool_result_it_answers(wired):
    vocab, _, tensors = wired
    ids = prompt(tiny_model.TOOL_CALL, tiny_model.TOOL_RESPONSE)
    assert said(vocab, tiny_model.generate(tensors, ids)) == tiny_model.ANSWER_TEXT + "<|im_end|>"


def test_a_result_without_tools_still_answers(wired):
    vocab, _, tensors = wired
    ids = prompt(tiny_model.TOOL_RESPONSE)
    assert said(vocab, tiny_model.generate(tensors, ids)) == tiny_model.ANSWER_TEXT + "<|im_end|>"


def test_any_other_last_token_ends_the_turn(wired):
    _, _, tensors = wired
    assert tiny_model.next_token(tensors, prompt()[:-1]) == tiny_model.IM_END  # ends with "assistant"


def test_the_heads_find_their_token_at_any_distance(wired):
    """RoPE turns the heads' query/key pair by less than 1e-7 rad over the whole context."""
    vocab, chains, tensors = wired
    far = [tiny_model.TOOL_CALL] + [500] * 3000 + [IM_START, ASSISTANT, tiny_model.NEWLINE]
    assert tiny_model.next_token(tensors, far) == chains.tool[0]


def test_the_texts_use_no_token_twice(wired):
    _, chains, _ = wired
    texts = chains.tool + chains.answer
    assert len(set(texts)) == len(texts)
    assert tiny_model.NEWLINE not in texts and tiny_model.IM_END not in texts


def test_the_endless_model_repeats_its_answer(wired):
    vocab, chains, _ = wired
    tensors = tiny_model.weights(chains, endless=True, vocab_size=len(vocab.tokens))
    text = said(vocab, tiny_model.generate(tensors, prompt(), limit=60))
    assert text.startswith(tiny_model.THINKING_TEXT + tiny_model.ANSWER + tiny_model.ANSWER)


def test_every_margin_is_at_least_25_logits(wired):
    """The wired token beats the next best by >= 25 logits, so any usual temperature samples it."""
    _, chains, tensors = wired
    ids = prompt(tiny_model.TOOL_CALL)
    for _ in range(len(chains.tool)):
        scores = tiny_model.logits(tensors, ids)
        best, second = np.sort(scores)[-2:][::-1]
        assert best - second >= 25, (best, second)
        ids.append(int(np.argmax(scores)))
