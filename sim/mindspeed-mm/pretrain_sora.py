#!/usr/bin/env python3
"""MindSpeed-MM pretrain_sora.py stand-in (Megatron engine; --mm-data/--mm-model/--mm-tool)."""
import os
import sys

_d = os.path.dirname(os.path.realpath(__file__))
while not os.path.isdir(os.path.join(_d, "lib", "msprof_sim")) and _d != os.path.dirname(_d):
    _d = os.path.dirname(_d)
sys.path.insert(0, os.path.join(_d, "lib"))

from msprof_sim import mm  # noqa: E402

if __name__ == "__main__":
    sys.exit(mm.megatron_main("pretrain_sora.py", "SoRAModel"))
