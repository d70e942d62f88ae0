"""Shared code of the msprof-exec Ascend simulation (launchers, training stand-ins).
Not part of the product: see sim/README.md."""

import os

SIM_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
