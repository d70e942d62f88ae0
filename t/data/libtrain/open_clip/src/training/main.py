"""open_clip's src/training/main.py, run as python -m training.main."""
import argparse
import os
import sys

import torch
import torch.distributed as dist

from training.train import train_one_epoch, evaluate


def parse_args(args):
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--steps", type=int, default=int(os.environ.get("ITERS", "14")))
    p.add_argument("--train-data", default=None)
    return p.parse_known_args(args)[0]


def main(args):
    args = parse_args(args)
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group("hccl")
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=5e-4)
    for epoch in range(args.epochs):
        train_one_epoch(model, None, None, epoch, optimizer, None, None, None, args)
        evaluate(model, None, epoch + 1, args)


if __name__ == "__main__":
    main(sys.argv[1:])
