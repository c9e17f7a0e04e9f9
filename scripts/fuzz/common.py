"""Shared by the generators: the PTX module header, the PTX writer's
helpers and the command line
(`python3 gen_X.py SEED` prints the kernel of that seed)."""

import sys

PTX_HEADER = ".version 8.0\n.target sm_80\n.address_size 64\n\n"


class PtxWriter:
    """What the PTX generators share: `self.r` (a `random.Random`) makes
    the choices, `self.out` collects the lines of the kernel."""

    def ch(self, *a):
        return self.r.choice(a)

    def p(self, x):
        return self.r.random() < x

    def e(self, s):
        self.out.append("\t" + s)


def cli(generate, name):
    """Prints `generate(SEED)` for the one argument SEED."""
    if len(sys.argv) != 2:
        sys.exit("usage: %s SEED" % name)
    sys.stdout.write(generate(int(sys.argv[1])))
