"""A training module with its config, its model and its loop."""
import os

import torch


class Config:
    lr = 0.01
    steps = int(os.environ.get("ITERS", "14"))


def build_model(cfg):
    return torch.nn.Linear(16, 1)


def train(cfg):
    model = build_model(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    for step in range(cfg.steps):
        loss = model(torch.randn(8, 16)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train(Config())
