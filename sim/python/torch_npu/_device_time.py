"""The simulated NPU's time in a PyTorch training: the device runs the operators of a
micro-batch's forward and backward pass in MSPROF_SIM_STEP_MS milliseconds (default 25,
as an iteration of the MindSpeed stand-ins), and a process's first one takes
MSPROF_SIM_FIRST_STEP_MS more (default 5000): on a real NPU the first step compiles or
loads its operators, grows the caching allocator's pools and sets up the collective
communicators, which takes seconds.

The host waits for that time in the backward pass (torch.autograd.backward, which
Tensor.backward, deepspeed's engine.backward and accelerate's backward all end in): the
training loop's own calls take it, never torch_npu's profiler.  A forward pass alone
(inference) takes none."""

import functools
import os
import time

_first = True


def _env_ms(name, default):
    try:
        return max(int(os.environ.get(name, default)), 0)
    except ValueError:
        return default


def device_time():
    """The device time of this micro-batch, in seconds."""
    global _first
    ms = _env_ms("MSPROF_SIM_STEP_MS", 25)
    if _first:
        ms += _env_ms("MSPROF_SIM_FIRST_STEP_MS", 5000)
        _first = False
    try:
        # MSPROF_SIM_RESPOND's answer to the settings (respond.py), as the profile shows it
        slowdown = max(float(os.environ.get("MSPROF_SIM_SLOWDOWN", "1")), 0.0)
    except ValueError:
        slowdown = 1.0
    return ms * slowdown / 1000.0


def attach(torch):
    """Make TORCH's backward pass wait for the simulated device (once)."""
    autograd = getattr(torch, "autograd", None)
    backward = getattr(autograd, "backward", None)
    if backward is None or getattr(backward, "npu_device_time", False):
        return

    @functools.wraps(backward)
    def wrapper(*args, **kwargs):
        out = backward(*args, **kwargs)
        time.sleep(device_time())
        return out

    wrapper.npu_device_time = True
    autograd.backward = wrapper
