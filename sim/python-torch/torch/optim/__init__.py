"""torch.optim stand-in: Optimizer as torch 2.x builds it (__init__ calls
_patch_step_function, which wraps the class's step once for the profiler; torch_npu's
non-intrusive mode replaces that hook) and a few optimizers whose step changes nothing."""

import functools

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self._patch_step_function()
        self.param_groups = [{"params": list(params), **defaults}]
        if not self.param_groups[0]["params"]:
            raise ValueError("optimizer got an empty parameter list")
        self.state = {}

    @staticmethod
    def profile_hook_step(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        return wrapper

    def _patch_step_function(self):
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def zero_grad(self, set_to_none=True):
        for p in self.param_groups[0]["params"]:
            p.grad = None

    def step(self, closure=None):
        raise NotImplementedError


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, weight_decay=0):
        super().__init__(params, {"lr": lr, "momentum": momentum, "weight_decay": weight_decay})

    def step(self, closure=None):
        return closure() if closure is not None else None


class Adam(SGD):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0):
        Optimizer.__init__(self, params, {"lr": lr, "betas": betas, "eps": eps,
                                          "weight_decay": weight_decay})


class AdamW(Adam):
    pass
