"""`python -m kakuro`: the command line (see kakuro.cli)."""

import sys

from kakuro.cli import main

sys.exit(main())
