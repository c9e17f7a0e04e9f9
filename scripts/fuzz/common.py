"""Shared by the generators: the PTX module header and the command line
(`python3 gen_X.py SEED` prints the kernel of that seed)."""

import sys

PTX_HEADER = ".version 8.0\n.target sm_80\n.address_size 64\n\n"


def cli(generate, name):
    """Prints `generate(SEED)` for the one argument SEED."""
    if len(sys.argv) != 2:
        sys.exit("usage: %s SEED" % name)
    sys.stdout.write(generate(int(sys.argv[1])))
