"""The comparison with real stacks: `data/` records what Slime, SGLang, vLLM and LiteLLM
built from the same requests (see data/README.md for versions and sources);
`deviations.py` is the table of every place our targets differ from the two they imitate,
and why; `tables.py` builds the comparison tables of the chapter on where stacks disagree.

May import: the lesson and `watch/`.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
