"""`python -m kakuro.compare`: the same program as `kakuro compare` (an entry point, like the
`kakuro` console script: it runs the command line, where the harness meets the report's
summary; no module of the harness imports the report)."""

import sys

from kakuro.cli.campaigns import compare_main

sys.exit(compare_main(prog="python -m kakuro.compare"))
