"""Minimal stand-in `torch` package of the msprof-exec simulation.  sim/activate puts
it on PYTHONPATH only when the real torch is not importable.  Like torch >= 2.5 with
torch_npu installed, importing it autoloads the NPU backend (torch.npu), unless
TORCH_DEVICE_BACKEND_AUTOLOAD=0."""

import os as _os

__version__ = "2.1.0"


class Size(tuple):
    def __repr__(self):
        return "torch.Size([%s])" % ", ".join(str(x) for x in self)


def manual_seed(seed):
    return None


if _os.environ.get("TORCH_DEVICE_BACKEND_AUTOLOAD", "1") == "1":
    try:
        import torch_npu as _torch_npu  # noqa: F401  (attaches torch.npu)
    except ImportError:
        pass
