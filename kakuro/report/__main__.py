"""`python -m kakuro.report`: the same program as `kakuro report`."""

import sys

from kakuro.cli.campaigns import report_main

sys.exit(report_main(prog="python -m kakuro.report"))
