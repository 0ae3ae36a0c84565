"""`python -m tutorial ...`: the command line lives in tutorial/cli/ (walk, translate, grade, serve, doctor; --lang en|zh)."""

import sys

from .cli import main

sys.exit(main())
