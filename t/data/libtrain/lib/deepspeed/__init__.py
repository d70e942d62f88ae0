"""deepspeed.initialize: the engine steps its optimizer in step()."""
import torch


class DeepSpeedEngine:
    def __init__(self, model, optimizer):
        self.module = model
        self.optimizer = optimizer

    def __call__(self, *args):
        return self.module(*args)

    def backward(self, loss):
        loss.backward()

    def step(self):
        self.optimizer.step()
        self.optimizer.zero_grad()


def init_distributed(dist_backend="hccl"):
    pass


def add_config_arguments(parser):
    parser.add_argument("--deepspeed_config", default=None)
    parser.add_argument("--deepspeed", action="store_true")
    return parser


def initialize(args=None, model=None, model_parameters=None, config=None, **kwargs):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    return DeepSpeedEngine(model, optimizer), optimizer, None, None
