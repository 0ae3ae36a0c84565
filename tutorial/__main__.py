"""`python -m tutorial ...`: see tutorial/cli.py."""

import sys

from .cli import main

sys.exit(main())
