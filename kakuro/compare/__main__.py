"""`python -m kakuro.compare`."""

import sys

from kakuro.compare.cli import main

sys.exit(main())
