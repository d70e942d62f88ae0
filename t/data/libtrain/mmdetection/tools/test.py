# Copyright (c) OpenMMLab. All rights reserved.
"""MMDetection 2.x tools/test.py: evaluation, no training."""
import argparse

import torch.distributed as dist

from mmdet.apis import single_gpu_test
from mmdet.models import build_detector


def main():
    parser = argparse.ArgumentParser(description="MMDet test (and eval) a model")
    parser.add_argument("config")
    parser.add_argument("checkpoint")
    parser.add_argument("--launcher", default="none")
    parser.add_argument("--local_rank", "--local-rank", type=int, default=0)
    args, _ = parser.parse_known_args()
    if args.launcher != "none":
        dist.init_process_group("hccl")
    model = build_detector({})
    outputs = single_gpu_test(model, [])
    print("evaluated %d batches" % len(outputs))


if __name__ == "__main__":
    main()
