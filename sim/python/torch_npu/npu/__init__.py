"""torch_npu.npu / torch.npu stand-in: the device API MindSpeed touches.

Devices are simulated: MSPROF_SIM_NPUS (default 8) cards, none at all when
MSPROF_SIM_NO_NPU=1; ASCEND_RT_VISIBLE_DEVICES narrows the visible set."""

import os

_current = None


def _visible():
    if os.environ.get("MSPROF_SIM_NO_NPU") == "1":
        return []
    try:
        total = int(os.environ.get("MSPROF_SIM_NPUS", "8"))
    except ValueError:
        total = 8
    vis = os.environ.get("ASCEND_RT_VISIBLE_DEVICES")
    if vis is None or vis.strip() == "":
        return list(range(total))
    out = []
    for item in vis.split(","):
        item = item.strip()
        if item.isdigit() and int(item) < total and int(item) not in out:
            out.append(int(item))
    return out


def is_available():
    return len(_visible()) > 0


def device_count():
    return len(_visible())


def _device_index(device):
    if device is None:
        return current_device()
    if isinstance(device, int):
        return device
    text = str(device)
    if text.startswith("npu:"):
        text = text[4:]
    elif text == "npu":
        return current_device()
    return int(text)


def set_device(device):
    global _current
    idx = _device_index(device)
    n = device_count()
    if n == 0:
        raise RuntimeError(
            "Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:216 NPU function error: "
            "aclrtGetDeviceCount(&device_count), error code is 507033\n"
            "[ERROR] dcmi module initialize failed. ret is -8005\n"
            "[Error]: The device is not available.\n"
            "        Check whether the driver is installed and the NPU is visible (npu-smi info).")
    if idx < 0 or idx >= n:
        raise RuntimeError(
            "SetDevice failed: Initialize:torch_npu/csrc/core/npu/NPUFunctions.cpp:89 NPU function error: "
            "aclrtSetDevice(device), error code is 107001\n"
            "[ERROR] EE1001: Invalid device ID. The device ID %d is out of range [0, %d).\n"
            "        Check whether the device ID is valid." % (idx, n))
    _current = idx


def current_device():
    if _current is not None:
        return _current
    try:
        return int(os.environ.get("LOCAL_RANK", "0"))
    except ValueError:
        return 0


def get_device_name(device=None):
    return "Ascend910B3"


def synchronize(device=None):
    return None


def empty_cache():
    return None


def memory_allocated(device=None):
    return 3393 * 1024 * 1024


def max_memory_allocated(device=None):
    return 4211 * 1024 * 1024


def memory_reserved(device=None):
    return 4608 * 1024 * 1024


def max_memory_reserved(device=None):
    return 5120 * 1024 * 1024


def manual_seed(seed):
    return None


def manual_seed_all(seed):
    return None
