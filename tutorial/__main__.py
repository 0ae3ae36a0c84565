"""`python -m tutorial ...`: the command line lives in tutorial/cli/ (walk, translate, serve, doctor)."""

import sys

from .cli import main

sys.exit(main())
