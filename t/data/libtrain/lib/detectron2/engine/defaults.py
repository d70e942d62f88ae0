"""detectron2/engine/defaults.py: the trainer whose train() runs the loop."""
import argparse

import torch


def default_argument_parser(epilog=None):
    p = argparse.ArgumentParser(epilog=epilog)
    p.add_argument("--config-file", default="")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--eval-only", action="store_true")
    p.add_argument("--num-gpus", type=int, default=1)
    p.add_argument("--num-machines", type=int, default=1)
    p.add_argument("--machine-rank", type=int, default=0)
    p.add_argument("--dist-url", default="tcp://127.0.0.1:29500")
    p.add_argument("opts", nargs=argparse.REMAINDER)
    return p


def default_setup(cfg, args):
    return cfg


class DefaultTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = self.build_model(cfg)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.02)

    @classmethod
    def build_model(cls, cfg):
        return torch.nn.Linear(16, 1)

    @classmethod
    def test(cls, cfg, model, evaluators=None):
        return {}

    def resume_or_load(self, resume=True):
        pass

    def train(self):
        for it in range(self.cfg["max_iter"]):
            loss = self.model(torch.randn(2, 16)).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
