# Copyright (c) OpenMMLab. All rights reserved.
"""MMDetection 2.x tools/train.py: the loop is mmdet.apis.train_detector's."""
import argparse
import os

import torch.distributed as dist

from mmdet import __version__
from mmdet.apis import init_random_seed, set_random_seed, train_detector
from mmdet.models import build_detector


def parse_args():
    parser = argparse.ArgumentParser(description="Train a detector")
    parser.add_argument("config", help="train config file path")
    parser.add_argument("--work-dir", help="the dir to save logs and models")
    parser.add_argument("--launcher", choices=["none", "pytorch", "slurm", "mpi"], default="none")
    parser.add_argument("--local_rank", "--local-rank", type=int, default=0)
    args, _ = parser.parse_known_args()
    if "LOCAL_RANK" not in os.environ:
        os.environ["LOCAL_RANK"] = str(args.local_rank)
    return args


def main():
    args = parse_args()
    cfg = dict(lr=0.02, max_iters=int(os.environ.get("ITERS", "14")))
    distributed = args.launcher != "none"
    if distributed:
        dist.init_process_group("hccl")
    seed = init_random_seed(None)
    set_random_seed(seed)
    model = build_detector(cfg)
    datasets = []
    train_detector(model, datasets, cfg, distributed=distributed, validate=True, meta=dict(seed=seed))


if __name__ == "__main__":
    main()
