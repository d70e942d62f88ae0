"""mindspeed_mm.training stand-in: pretrain() runs the simulated Megatron loop
of sim/lib/msprof_sim/mm.py (--mm-tool tools.json) under the entry's name."""
import os
import sys

_d = os.path.dirname(os.path.realpath(__file__))
while not os.path.isdir(os.path.join(_d, "lib", "msprof_sim")) and _d != os.path.dirname(_d):
    _d = os.path.dirname(_d)
sys.path.insert(0, os.path.join(_d, "lib"))

from msprof_sim import mm  # noqa: E402


def pretrain(train_valid_test_dataset_provider, model_provider, model_type=None,
             forward_step_func=None, **kwargs):
    rc = mm.megatron_main(os.path.basename(sys.argv[0]), getattr(model_provider, "NAME", "MMModel"))
    if rc:
        sys.exit(rc)
