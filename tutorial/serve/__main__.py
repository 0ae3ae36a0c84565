"""`python -m tutorial.serve [...]`: the same as `python -m tutorial serve [...]`."""

import sys

from .cli import main

sys.exit(main())
