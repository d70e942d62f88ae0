"""mmdet/apis/train.py: train_detector builds the optimizer and runs the runner's loop."""
import torch


def init_random_seed(seed=None, device="npu"):
    return 0 if seed is None else seed


def set_random_seed(seed, deterministic=False):
    torch.manual_seed(seed)


def train_detector(model, dataset, cfg, distributed=False, validate=False, timestamp=None, meta=None):
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    for it in range(cfg["max_iters"]):
        losses = model(torch.randn(2, 16)).mean()
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
