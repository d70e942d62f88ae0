"""torch.distributed stand-in: only what the launchers need (see sim/README.md)."""


def is_available():
    return True


def is_initialized():
    return False
