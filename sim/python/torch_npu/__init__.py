"""Stand-in for torch_npu (the Ascend adapter for PyTorch) used by the msprof-exec
simulation.  It needs no real torch: importing it is cheap.  When a `torch`
module is importable (the real one or the stand-in in sim/python-torch) the
`npu` device module is attached to it as `torch.npu`, like the real adapter."""

import os as _os
import sys as _sys

__version__ = "2.7.1"  # master-like: start_step -1 starts at once, Device_id columns
version = __version__
cann_version = "8.0.RC3"

from . import npu  # noqa: E402
from . import _device_time  # noqa: E402

_sys.modules.setdefault("torch_npu.npu", npu)


def _register_hccl(torch):
    """torch_npu registers the "hccl" backend of torch.distributed; here it is gloo on
    the CPU (the real torch only: the stand-in takes any backend)."""
    try:
        backend = torch.distributed.Backend
        if "HCCL" in getattr(backend, "_plugins", {}):
            return
        from torch._C._distributed_c10d import ProcessGroupGloo
        backend.register_backend("hccl", lambda store, rank, size, timeout:
                                 ProcessGroupGloo(store, rank, size, timeout))
    except Exception:
        pass


def _attach(torch):
    try:
        setattr(torch, "npu", npu)
        _sys.modules["torch.npu"] = npu
    except Exception:
        pass
    _register_hccl(torch)
    _device_time.attach(torch)
    nip = _sys.modules.get("torch_npu.profiler._non_intrusive_profile")
    if nip is not None:
        nip._NonIntrusiveProfile.patch_optimizer(torch)


class _AttachOnTorchImport:
    """Meta-path hook: when `torch` is imported after torch_npu, attach torch.npu
    once torch has finished loading.  torch itself is never imported by torch_npu
    here, which keeps `import torch_npu` fast (the real torch takes ~1 s)."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        import importlib.util
        try:
            _sys.meta_path.remove(self)
        except ValueError:
            pass
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _attach(module)
        spec.loader.exec_module = exec_module
        return spec


if "torch" in _sys.modules:
    _attach(_sys.modules["torch"])
else:
    _sys.meta_path.insert(0, _AttachOnTorchImport())

# MSPROF_SIM_RESPOND: the simulated machine answers this process's settings
# (TASK_QUEUE_ENABLE, CPU_AFFINITY_CONF, PYTORCH_NPU_ALLOC_CONF) before anything
# reads the knobs; sim/lib holds the rules shared with the simulated MindSpeed
_LIB = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "..", "..", "lib")
if _LIB not in _sys.path:
    _sys.path.insert(0, _LIB)
from msprof_sim import respond as _respond  # noqa: E402

_respond.apply_torch()

# PROF_CONFIG_PATH: torch_npu starts its non-intrusive profiling at import.  Without it
# torch_npu.profiler is imported at its first use (torch_npu.profiler, from
# torch_npu.profiler import ...): it is half of this import, and most processes of a
# simulated job never profile
if _os.getenv("PROF_CONFIG_PATH", ""):
    from . import profiler  # noqa: E402,F401
    from .profiler import _non_intrusive_profile  # noqa: E402

    _non_intrusive_profile._NonIntrusiveProfile.init()
    if "torch" in _sys.modules:
        _non_intrusive_profile._NonIntrusiveProfile.patch_optimizer(_sys.modules["torch"])


def __getattr__(name):
    if name == "profiler":
        import importlib
        return importlib.import_module(".profiler", __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
