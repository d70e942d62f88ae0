"""`python -m torch.distributed.run` stand-in: the same launcher as sim/bin/torchrun."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))), "lib"))
from msprof_sim.launcher import main, run  # noqa: E402,F401

if __name__ == "__main__":
    sys.exit(main())
