"""`python -m controller` is the `layli` command."""

import sys

from controller.cli import main

sys.exit(main())
