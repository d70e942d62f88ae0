"""torch.distributed stand-in: what the launchers and the example trainings need (see
sim/README.md).  A process group only remembers its rank and size: nothing is
communicated."""

import os

_group = None


def is_available():
    return True


def is_initialized():
    return _group is not None


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None):
    """env:// (the default) reads RANK and WORLD_SIZE, as torch does."""
    global _group
    if _group is not None:
        raise RuntimeError("trying to initialize the default process group twice!")
    if rank is None or rank < 0:
        rank = int(os.environ["RANK"])
    if world_size is None or world_size < 0:
        world_size = int(os.environ["WORLD_SIZE"])
    _group = (backend, int(rank), int(world_size))


def get_rank(group=None):
    return _group[1] if _group is not None else -1


def get_world_size(group=None):
    return _group[2] if _group is not None else -1


def barrier(group=None):
    return None


def all_reduce(tensor, op=None, group=None, async_op=False):
    return None


def destroy_process_group(group=None):
    global _group
    _group = None
