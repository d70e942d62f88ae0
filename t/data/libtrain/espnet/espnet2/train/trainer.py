"""espnet2/train/trainer.py: Trainer.run() and its train_one_epoch()."""
import os

import torch


class Trainer:
    def __init__(self):
        raise RuntimeError("This class can't be instantiated.")

    @classmethod
    def run(cls, model, optimizers, max_epoch):
        for iepoch in range(1, max_epoch + 1):
            cls.train_one_epoch(model=model, optimizers=optimizers)

    @classmethod
    def train_one_epoch(cls, model, optimizers):
        for iiter in range(int(os.environ.get("ITERS", "8"))):
            loss = model(torch.randn(4, 16)).mean()
            loss.backward()
            for optimizer in optimizers:
                optimizer.step()
                optimizer.zero_grad()
