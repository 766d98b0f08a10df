"""``python -m showdown``: the same command as ``showdown``."""

import sys

from showdown.cli import main

sys.exit(main())
