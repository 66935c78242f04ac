"""`python -m kakuro.compare`: the same program as `kakuro compare` (an entry point, like the
`kakuro` console script: the command line is `kakuro.cli.compare`, where the harness meets the
report's summary; no module of the harness imports the report)."""

import sys

from kakuro.cli.compare import main

sys.exit(main())
