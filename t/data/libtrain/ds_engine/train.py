"""DeepSpeedExamples' training shape: the engine steps, not the optimizer."""
import argparse
import os

import deepspeed
import torch
import torch.distributed as dist

from utils.engine import setup_engine


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--steps", type=int, default=int(os.environ.get("ITERS", "14")))
    parser = deepspeed.add_config_arguments(parser)
    args, _ = parser.parse_known_args()
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group("hccl")
    model_engine = setup_engine(args, torch.nn.Linear(16, 1))
    for step in range(args.steps):
        loss = model_engine(torch.randn(8, 16)).mean()
        model_engine.backward(loss)
        model_engine.step()


if __name__ == "__main__":
    main()
