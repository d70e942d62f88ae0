"""mindspeed_llm.training stand-in: pretrain() runs the simulated Megatron loop
of sim/lib/msprof_sim/llm.py under the name of the entry that called it."""
import os
import sys

_d = os.path.dirname(os.path.realpath(__file__))
while not os.path.isdir(os.path.join(_d, "lib", "msprof_sim")) and _d != os.path.dirname(_d):
    _d = os.path.dirname(_d)
sys.path.insert(0, os.path.join(_d, "lib"))

from msprof_sim import llm  # noqa: E402


def pretrain(train_valid_test_dataset_provider, model_provider, model_type=None,
             forward_step_func=None, **kwargs):
    rc = llm.main(os.path.basename(sys.argv[0]), model_provider=getattr(model_provider, "NAME", "GPT"))
    if rc:
        sys.exit(rc)
