"""`python -m eighteen`: the same as the `eighteen` command."""

import sys

from eighteen.cli import main

if __name__ == "__main__":
    sys.exit(main())
