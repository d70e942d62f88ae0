"""Evaluation: the config and the model of trainer.py, never its train()."""
import torch

from trainer import Config, build_model


def evaluate(model):
    model.eval() if hasattr(model, "eval") else None
    return [model(torch.randn(8, 16)) for _ in range(3)]


if __name__ == "__main__":
    cfg = Config()
    model = build_model(cfg)
    print("evaluated", len(evaluate(model)), "batches")
