"""torch.multiprocessing stand-in: spawn(fn, args, nprocs) runs fn(i, *args) in nprocs
processes started the "spawn" way, as torch does, and raises when one fails."""
import multiprocessing as _mp


class ProcessRaisedException(Exception):
    pass


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    ctx = _mp.get_context(start_method)
    procs = [ctx.Process(target=fn, args=(i,) + tuple(args), daemon=daemon) for i in range(nprocs)]
    for p in procs:
        p.start()
    if not join:
        return procs
    for p in procs:
        p.join()
    for i, p in enumerate(procs):
        if p.exitcode != 0:
            raise ProcessRaisedException("process %d terminated with exit code %d" % (i, p.exitcode))
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    return start_processes(fn, args, nprocs, join, daemon, start_method)
