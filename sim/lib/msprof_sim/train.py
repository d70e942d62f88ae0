"""What every simulated training entry shares: the distributed identity read from
the launcher's environment, the rendezvous of the ranks (real with a real torch),
Megatron-style console output, the timed iteration loop, and the fault switches
(MSPROF_SIM_*; see sim/README.md)."""

import datetime
import math
import os
import random
import signal
import sys
import time


def env_int(name, default):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        return default


class Dist:
    """Rank identity as torchrun (RANK, LOCAL_RANK, WORLD_SIZE) or msrun
    (RANK_ID, RANK_SIZE, MS_*) set it; a plain `python x.py` is rank 0 of 1."""

    def __init__(self):
        self.rank = env_int("RANK", env_int("RANK_ID", 0))
        self.world_size = env_int("WORLD_SIZE", env_int("RANK_SIZE", env_int("MS_WORKER_NUM", 1)))
        self.local_rank = env_int("LOCAL_RANK", env_int("DEVICE_ID", self.rank))
        self.local_world_size = env_int("LOCAL_WORLD_SIZE", self.world_size)
        self.group = None       # torch.distributed once the ranks really rendezvoused

    @property
    def last(self):
        return self.rank == self.world_size - 1


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def out(msg):
    sys.stdout.write(msg + "\n")
    sys.stdout.flush()


def err(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


class Console:
    def __init__(self, dist):
        self.dist = dist

    def rank0(self, msg):
        if self.dist.rank == 0:
            out(msg)

    def last(self, msg):
        if self.dist.last:
            out(msg)


def step_seconds():
    ms = env_int("MSPROF_SIM_STEP_MS", 25)
    return max(ms, 0) / 1000.0


def hang_seconds():
    return env_int("MSPROF_SIM_HANG_S", 120)


def init_device(dist):
    """Megatron's _initialize_distributed: torch.npu.set_device(local_rank), failing
    like torch_npu without a device, then init_process_group."""
    import torch_npu
    torch_npu.npu.set_device(dist.local_rank)
    _rendezvous(dist)


def _real_distributed():
    """torch.distributed of a real torch, or None (the stand-in has no process groups)."""
    try:
        import torch.distributed as td
    except ImportError:
        return None
    if not hasattr(td, "init_process_group") or not td.is_available():
        return None
    return td


def _rendezvous(dist):
    """init_process_group("gloo") from the launcher's environment (MASTER_ADDR,
    MASTER_PORT, RANK, WORLD_SIZE; under torchrun the store of its agent), so that
    a rank waits for its peers and a node that never comes really blocks the job,
    as HCCL would (for MSPROF_SIM_HANG_S).  Only with a real torch, and not under
    the simulated launchers: they hold the port without running a c10d store."""
    if dist.world_size < 2 or not os.environ.get("MASTER_ADDR") or os.environ.get("MSPROF_SIM_LAUNCHER"):
        return
    td = _real_distributed()
    if td is None:
        return
    td.init_process_group("gloo", rank=dist.rank, world_size=dist.world_size,
                          timeout=datetime.timedelta(seconds=hang_seconds()))
    dist.group = td


def _step_collective(dist):
    """The all-reduce that ends a real step: ranks of a real group move in lockstep."""
    if dist.group is not None:
        import torch
        dist.group.all_reduce(torch.ones(1))


def load_checkpoint(console, load_dir, model_name="GPTModel", save_dir=None, finetune=False, ckpt_step=None):
    """Megatron's load_checkpoint: returns the iteration to resume from (0 when the
    directory holds no tracker file, a 'release' checkpoint, or with --finetune;
    --ckpt-step N loads iteration N instead of the tracker's).  A --load directory
    that is also the --save one may not exist yet (the first run of an
    auto-resuming job): Megatron only warns about the missing tracker."""
    if not load_dir:
        return 0
    first_run = save_dir is not None and os.path.abspath(load_dir) == os.path.abspath(save_dir)
    if not os.path.isdir(load_dir) and not first_run:
        raise FileNotFoundError("Checkpoint path not found: %s" % load_dir)
    tracker = os.path.join(load_dir, "latest_checkpointed_iteration.txt")
    if not os.path.isfile(tracker):
        console.rank0("WARNING: could not find the metadata file %s " % tracker)
        console.rank0("    will not load any checkpoints and will start from random")
        return 0
    with open(tracker) as f:
        text = f.read().strip()
    if text == "release":
        iteration, where = 0, "release"
    else:
        try:
            iteration = int(text)
        except ValueError:
            raise RuntimeError("ERROR: Invalid metadata file %s. Exiting" % tracker)
        if ckpt_step is not None:
            iteration = ckpt_step
        where = "iteration %d" % iteration
    console.rank0(" loading checkpoint from %s at %s" % (load_dir, where))
    if os.environ.get("MSPROF_SIM_SIZE_MISMATCH") == "1":
        raise RuntimeError(
            "Error(s) in loading state_dict for %s:\n"
            "\tsize mismatch for embedding.word_embeddings.weight: copying a param with shape "
            "torch.Size([75968, 4096]) from checkpoint, the shape in current model is torch.Size([151936, 4096]).\n"
            "\tsize mismatch for output_layer.weight: copying a param with shape torch.Size([75968, 4096]) "
            "from checkpoint, the shape in current model is torch.Size([151936, 4096])." % model_name)
    console.rank0("  successfully loaded checkpoint from %s [ t 0, p 0 ] at %s" % (load_dir, where))
    return 0 if finetune else iteration


def _oom(dist):
    dev = dist.local_rank
    return RuntimeError(
        "NPU out of memory. Tried to allocate 5.03 GiB (NPU %d; 60.96 GiB total capacity; 49.47 GiB already "
        "allocated; 49.47 GiB current active; 1.32 GiB free; 57.55 GiB reserved in total by PyTorch) If reserved "
        "memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation." % dev)


def _crash():
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # no core file in the user's directory
    except (ImportError, ValueError, OSError):
        pass
    sys.stdout.flush()
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(1)
    os._exit(139)


def _note_iteration(dist, iteration):
    """Say which iteration this rank is in, for its peers on the node (the simulated
    launchers give them MSPROF_SIM_STEPS_DIR)."""
    steps = os.environ.get("MSPROF_SIM_STEPS_DIR")
    if steps and dist.group is None:
        with open(os.path.join(steps, "rank%d" % dist.rank), "w") as f:
            f.write("%d\n" % iteration)


def _iteration_of(steps, rank):
    try:
        with open(os.path.join(steps, "rank%d" % rank)) as f:
            return int(f.read())
    except (OSError, ValueError):     # not started yet, or being written
        return 0


def _let_peers_catch_up(dist, iteration):
    """Real ranks move in lockstep (every step ends in collectives), so when one rank
    fails in iteration K the others have finished K-1.  Without a real group the
    simulated ranks run free: the failing one waits until its peers on the node
    are in K too (at most MSPROF_SIM_HANG_S)."""
    steps = os.environ.get("MSPROF_SIM_STEPS_DIR")
    if dist.world_size < 2 or dist.group is not None or not steps:
        return
    first = dist.rank - dist.local_rank
    peers = [r for r in range(first, first + dist.local_world_size) if r != dist.rank]
    deadline = time.time() + hang_seconds()
    while time.time() < deadline and any(_iteration_of(steps, r) < iteration for r in peers):
        time.sleep(0.01)


def _wait_for_dead_peer(dist):
    """A peer rank died in this iteration: the collective never completes, this rank
    hangs until the launcher stops it (HCCL would time out after HCCL_CONNECT_TIMEOUT).
    In a real group the step's collective really waits for the dead peer."""
    _step_collective(dist)
    deadline = time.time() + hang_seconds()
    while time.time() < deadline:
        time.sleep(0.05)
    raise RuntimeError("HCCL function error: HcclAllReduce(...), error code is 9\n"
                       "[ERROR] EI0002: The wait execution of the Notify register times out.")


def _pause(dist, iteration):
    """MSPROF_SIM_PAUSE=K:FILE holds every rank at the start of iteration K until
    FILE exists (at most MSPROF_SIM_HANG_S), each saying so with FILE.<rank>: a test
    acts on a running job (a signal, a trigger, a second job) while it is surely
    still running, however slow the machine."""
    when, _, gate = os.environ.get("MSPROF_SIM_PAUSE", "").partition(":")
    if not gate or when.strip() != str(iteration):
        return
    open("%s.%d" % (gate, dist.rank), "w").close()
    deadline = time.time() + hang_seconds()
    while not os.path.exists(gate):
        if time.time() > deadline:
            raise RuntimeError("MSPROF_SIM_PAUSE: %s did not appear within %d s" % (gate, hang_seconds()))
        time.sleep(0.01)


def _forward_backward(iteration):
    """Stand-in for a training step (kept in its own frame so an OOM traceback
    looks like it comes from inside the step)."""
    time.sleep(step_seconds())


def train_loop(dist, console, train_iters, start_iteration=0, global_batch_size=8, lr=1.0e-5,
               warmup_iters=0, loss_name="lm loss", on_step=None, seed=1234, device_ms=None, flops=None):
    """Megatron's train(): iterations start_iteration+1 .. train_iters, one log line
    per iteration on the last rank, on_step() after each one (prof.step()).
    device_ms(iteration), when given, is the time the simulated machine takes for
    the iteration (the step the profile shows), logged instead of the sleep's wall
    time; flops, when given, the model's FLOPs per iteration, logged as Megatron's
    --log-throughput does: flops / (time x 10^12 x world size)."""
    rnd = random.Random(seed + dist.rank)
    oom_step = env_int("MSPROF_SIM_OOM_STEP", 0)
    crash_rank = env_int("MSPROF_SIM_CRASH_RANK", -1)
    crash_step = env_int("MSPROF_SIM_CRASH_STEP", max(1, (start_iteration + train_iters + 1) // 2))
    iteration = start_iteration
    console.rank0("[before the start of training step] datetime: %s " % now())
    while iteration < train_iters:
        iteration += 1
        _note_iteration(dist, iteration)
        _pause(dist, iteration)
        t0 = time.time()
        if oom_step and iteration == oom_step:
            if dist.rank == 0:
                _let_peers_catch_up(dist, iteration)
                raise _oom(dist)
            _wait_for_dead_peer(dist)
        if crash_rank >= 0 and iteration == crash_step:
            if crash_rank == dist.rank:
                _let_peers_catch_up(dist, iteration)
                _crash()
            _wait_for_dead_peer(dist)
        _forward_backward(iteration)
        _step_collective(dist)
        elapsed = (time.time() - t0) * 1000.0
        if device_ms is not None and dist.last:
            elapsed = device_ms(iteration)
        throughput = ""
        if flops is not None:
            throughput = " throughput per GPU (TFLOP/s/GPU): %.1f |" % (
                flops / (elapsed / 1000.0 * 10 ** 12 * dist.world_size))
        cur_lr = lr * min(1.0, iteration / warmup_iters) if warmup_iters else lr
        loss = 2.0 + 8.5 * math.exp(-iteration / 40.0) + rnd.uniform(-0.05, 0.05)
        grad = 1.0 + 6.0 * math.exp(-iteration / 20.0) + rnd.uniform(0.0, 0.3)
        console.last(
            " [%s] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): %.1f |%s "
            "learning rate: %.6E | global batch size: %5d | %s: %.6E | loss scale: 1.0 | grad norm: %.3f | "
            "number of skipped iterations: %3d | number of nan iterations: %3d |"
            % (now(), iteration, train_iters, iteration * global_batch_size, elapsed, throughput, cur_lr,
               global_batch_size, loss_name, loss, grad, 0, 0))
        if iteration == start_iteration + 1:
            console.last("[Rank %d] (after %d iterations) memory (MB) | allocated: 3393.1 | max allocated: 4211.6 | "
                         "reserved: 4608.0 | max reserved: 4608.0" % (dist.rank, iteration))
        if on_step:
            on_step()
    return iteration

