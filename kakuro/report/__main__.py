"""`python -m kakuro.report`: the same program as `kakuro report` (an entry point: the command
line is `kakuro.cli.report`)."""

import sys

from kakuro.cli.report import main

sys.exit(main())
