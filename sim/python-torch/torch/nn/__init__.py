"""torch.nn stand-in: Module, Parameter, Linear; a forward pass gives a Tensor of the
right shape, with no arithmetic behind it."""

from .. import Tensor, randn

__all__ = ["Module", "Parameter", "Linear", "MSELoss"]


class Parameter(Tensor):
    def __init__(self, data):
        Tensor.__init__(self, data.shape)


class Module:
    def __init__(self):
        self._parameters = []

    def parameters(self):
        return iter(self._parameters)

    def train(self, mode=True):
        return self

    def eval(self):
        return self

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.out_features = out_features
        self.weight = Parameter(randn(out_features, in_features))
        self._parameters.append(self.weight)

    def forward(self, x):
        return Tensor(x.shape[:-1] + (self.out_features,))


class MSELoss(Module):
    def forward(self, a, b):
        return Tensor(())
