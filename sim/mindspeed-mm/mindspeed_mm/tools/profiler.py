#!/usr/bin/env python3
"""Offline parse of profiling data (MindSpeed-MM mindspeed_mm/tools/profiler.py stand-in)."""
import os
import sys

_d = os.path.dirname(os.path.realpath(__file__))
while not os.path.isdir(os.path.join(_d, "lib", "msprof_sim")) and _d != os.path.dirname(_d):
    _d = os.path.dirname(_d)
sys.path.insert(0, os.path.join(_d, "lib"))

from msprof_sim import mm  # noqa: E402

if __name__ == "__main__":
    sys.exit(mm.offline_parse_main())
