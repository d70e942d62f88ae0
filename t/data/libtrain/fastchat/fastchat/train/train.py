"""FastChat's fastchat/train/train.py: train() holds the loop (a Trainer there;
a plain loop on the simulated torch here)."""
import os

import torch
import torch.distributed as dist


def make_supervised_data_module(data_path):
    return {"train_dataset": [torch.randn(4, 16) for _ in range(4)]}


def train(attn_implementation=None):
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group("hccl")
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5) if hasattr(torch.optim, "AdamW") else \
        torch.optim.SGD(model.parameters(), lr=2e-5)
    data_module = make_supervised_data_module(None)
    for step in range(int(os.environ.get("ITERS", "14"))):
        loss = model(torch.randn(4, 16)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train()
