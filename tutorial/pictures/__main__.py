"""`python -m tutorial.pictures [DIR]`: write every committed picture's .dot (and .svg when
Graphviz's `dot` is installed) into DIR (default: diagrams)."""

import shutil
import sys

from .committed import write_all
from .render import INSTALL_HINT

target = sys.argv[1] if len(sys.argv) > 1 else "diagrams"
if shutil.which("dot") is None:
    print(INSTALL_HINT + " Writing the .dot files only.")
for path in write_all(target):
    print(f"wrote {path}")
