"""`python -m kakuro.report`."""

import sys

from kakuro.report.cli import main

sys.exit(main())
