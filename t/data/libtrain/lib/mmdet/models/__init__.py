import torch


def build_detector(cfg, train_cfg=None, test_cfg=None):
    return torch.nn.Linear(16, 1)
