"""`python -m torch.distributed.launch` stand-in: prints the deprecation FutureWarning,
then launches like torchrun, passing --local-rank=N to the script unless --use-env."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))), "lib"))
from msprof_sim.launcher import launch_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(launch_main())
