"""torch_npu's non-intrusive profiling (torch_npu/profiler/_non_intrusive_profile.py),
simulated: at import torch_npu reads PROF_CONFIG_PATH; unset or empty, nothing happens;
a path torch_npu refuses prints "The path '...' is invalid, and profiler will not be
enabled." and nothing more; else it calls dynamic_profile.init(path) and patches
torch.optim.Optimizer so that only the last optimizer made counts a step: from torch 2.0
Optimizer._patch_step_function, from 1.8 Optimizer._hook_for_profile, each called by
Optimizer.__init__ (the real torch, or the stand-in of sim/python-torch).

torch_npu imports torch first; this stand-in never does, so the patch waits until torch
has been imported (patch_optimizer, called when torch_npu attaches itself to torch).  It
compares versions as numbers: torch_npu compares the strings, which a '1.13' would fail,
but no torch_npu with this mode runs on torch 1.x."""

import functools
import os

from ._dynamic_profiler import check_input_directory_path, report_invalid
from . import dynamic_profile


def _version(torch):
    parts = []
    for p in str(getattr(torch, "__version__", "0")).split(".")[:2]:
        digits = "".join(c for c in p if c.isdigit()) or "0"
        parts.append(int(digits))
    return tuple(parts)


class _NonIntrusiveProfile:
    OPTIMIZER_ID = 0
    enabled = False
    _origin = None
    _hook_name = None

    @staticmethod
    def step_wrapper(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            out = func(*args, **kwargs)
            _NonIntrusiveProfile.step(*args, **kwargs)
            return out
        return wrapper

    @staticmethod
    def patch_step_function(optimizer):
        _NonIntrusiveProfile._origin(optimizer)
        _NonIntrusiveProfile.OPTIMIZER_ID = id(optimizer)  # the last optimizer made
        if not getattr(optimizer.__class__.step, "step_hooked", None):
            optimizer.__class__.step = _NonIntrusiveProfile.step_wrapper(optimizer.__class__.step)
            optimizer.__class__.step.step_hooked = True

    @staticmethod
    def step(*args, **kwargs):
        optimizer, *_ = args
        if id(optimizer) != _NonIntrusiveProfile.OPTIMIZER_ID:
            return
        dynamic_profile.step()

    @staticmethod
    def init():
        path = os.getenv("PROF_CONFIG_PATH", "")
        if not path:
            return
        try:
            check_input_directory_path(path)
        except RuntimeError:
            report_invalid(path)
            return
        dynamic_profile.init(path)
        _NonIntrusiveProfile.enabled = True

    @staticmethod
    def patch_optimizer(torch):
        """Once torch is there: wrap its Optimizer's profiling hook."""
        if not _NonIntrusiveProfile.enabled or _NonIntrusiveProfile._origin is not None:
            return
        version = _version(torch)
        if version >= (2, 0):
            name = "_patch_step_function"
        elif version >= (1, 8):
            name = "_hook_for_profile"
        else:
            return
        optimizer = torch.optim.Optimizer
        _NonIntrusiveProfile._origin = getattr(optimizer, name)
        _NonIntrusiveProfile._hook_name = name
        setattr(optimizer, name, _NonIntrusiveProfile.patch_step_function)
