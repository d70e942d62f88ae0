"""The Ascend model zoo's ResNet50 main.py shape: --multiprocessing-distributed
spawns one main_worker per NPU (mp.spawn), the loop in train(), the loss scaled
by apex.amp."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from apex import amp


def main():
    parser = argparse.ArgumentParser(description="PyTorch ImageNet Training")
    parser.add_argument("--epochs", default=1, type=int)
    parser.add_argument("--steps", default=int(os.environ.get("ITERS", "14")), type=int)
    parser.add_argument("--world-size", default=-1, type=int)
    parser.add_argument("--rank", default=-1, type=int)
    parser.add_argument("--dist-url", default="tcp://127.0.0.1:29500", type=str)
    parser.add_argument("--multiprocessing-distributed", action="store_true")
    parser.add_argument("--device-num", default=2, type=int)
    parser.add_argument("--amp", action="store_true")
    args = parser.parse_args()
    ngpus_per_node = args.device_num
    if args.multiprocessing_distributed:
        args.world_size = ngpus_per_node * args.world_size
        mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))
    else:
        main_worker(0, ngpus_per_node, args)


def main_worker(gpu, ngpus_per_node, args):
    if args.multiprocessing_distributed:
        args.rank = args.rank * ngpus_per_node + gpu
        dist.init_process_group("hccl", init_method=args.dist_url, world_size=args.world_size, rank=args.rank)
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.SGD(model.parameters(), 0.1)
    if args.amp:
        model, optimizer = amp.initialize(model, optimizer, opt_level="O2", loss_scale=1024)
    for epoch in range(args.epochs):
        train(model, optimizer, epoch, args)


def train(model, optimizer, epoch, args):
    for i in range(args.steps):
        loss = model(torch.randn(8, 16)).mean()
        optimizer.zero_grad()
        if args.amp:
            with amp.scale_loss(loss, optimizer) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
