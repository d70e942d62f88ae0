"""detectron2/engine/launch.py: launch(main, N) starts N worker processes itself
(detectron2 uses torch.multiprocessing.start_processes with start_method="spawn")."""
import multiprocessing

import torch.distributed as dist


def _distributed_worker(local_rank, main_func, world_size, dist_url, args):
    dist.init_process_group("hccl", init_method=dist_url, world_size=world_size, rank=local_rank)
    main_func(*args)


def launch(main_func, num_gpus_per_machine, num_machines=1, machine_rank=0, dist_url=None, args=(), timeout=None):
    world_size = num_machines * num_gpus_per_machine
    if world_size <= 1:
        main_func(*args)
        return
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_distributed_worker, args=(i, main_func, world_size, dist_url, args))
             for i in range(num_gpus_per_machine)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    if any(p.exitcode != 0 for p in procs):
        raise SystemExit(1)
