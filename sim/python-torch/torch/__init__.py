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


class Tensor:
    """A tensor of a shape and no values: enough for a training loop to run through."""

    def __init__(self, shape):
        self.shape = Size(shape)
        self.grad = None

    def _same(self, *other):
        return Tensor(self.shape)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __pow__ = _same

    def pow(self, exponent):
        return Tensor(self.shape)

    def mean(self, *dims):
        return Tensor(())

    def sum(self, *dims):
        return Tensor(())

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def item(self):
        return 0.0

    def to(self, *args, **kwargs):
        return self

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]


def randn(*shape, **kwargs):
    return Tensor(shape)


def zeros(*shape, **kwargs):
    return Tensor(shape)


from . import autograd, distributed, nn, optim  # noqa: E402,F401

# torch >= 2.5 loads the device backends last, torch itself complete
if _os.environ.get("TORCH_DEVICE_BACKEND_AUTOLOAD", "1") == "1":
    try:
        import torch_npu as _torch_npu  # noqa: F401  (attaches torch.npu)
    except ImportError:
        pass
