"""A plain PyTorch training on torch_npu, as Ascend users write one: no MindSpeed, a
model, an optimizer and a loop.  Its rank comes from torchrun, deepspeed or accelerate
(RANK, WORLD_SIZE), or, started once per rank by a model-zoo script, from --local_rank
and RANK_SIZE.  Runs with the real torch or the stand-in of sim/python-torch."""
import argparse
import os

import torch
import torch_npu  # noqa: F401  (before torch 2.5 the NPU needs it imported)
import torch.distributed as dist


def setup(args):
    """Join the job's process group; the rank of this process."""
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group("hccl")  # env://: RANK, WORLD_SIZE, MASTER_*
    elif int(os.environ.get("RANK_SIZE", "1")) > 1:
        dist.init_process_group("hccl", init_method="tcp://127.0.0.1:%s" % os.environ.get("MASTER_PORT", "29500"),
                                world_size=int(os.environ["RANK_SIZE"]), rank=args.local_rank)
    torch.npu.set_device(args.local_rank)
    return dist.get_rank() if dist.is_initialized() else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=14)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--local_rank", "--local-rank", type=int, default=int(os.environ.get("LOCAL_RANK", "0")))
    args, _ = p.parse_known_args()
    rank = setup(args)
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        x, y = torch.randn(32, 16), torch.randn(32, 1)
        loss = (model(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if rank == 0:
            print("step %d loss %.4f" % (step, loss.item()), flush=True)
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
