"""The simulated machine answering a launch's settings (MSPROF_SIM_RESPOND=1):
MindSpeed-LLM, the Megatron engine of MindSpeed-MM (apply) and a plain
torch_npu training (apply_torch, called as torch_npu is imported).

Without it the data is healthy unless a knob plants a symptom, whatever the
launch says.  With it the launch's own settings decide, as on a machine:

  no --overlap-grad-reduce (dp > 1)   the gradient all-reduce waits for the end of
                                      the backward pass (MSPROF_SIM_EXPOSED_COMM)
  TASK_QUEUE_ENABLE other than 2      host-bound: Free about 20 % (MSPROF_SIM_HOST_BOUND)
  pp > 1                              the 1F1B bubble (MSPROF_SIM_BUBBLE), divided by
                                      the virtual stages of
                                      --num-layers-per-virtual-pipeline-stage
  no --use-flash-attn, --use-fused-rmsnorm,
  --use-fused-rotary-pos-emb          the unfused kernels (MSPROF_SIM_UNFUSED), which
                                      take longer than the fused one would
  --no-bias-swiglu-fusion             unfused SwiGLU: Megatron fuses it unless told
                                      not to, and MindSpeed runs the fused one as
                                      npu_swiglu whatever --use-fused-swiglu says
                                      (that flag is parsed and read by nothing: not
                                      answered)

and, in any torch_npu process (a plain PyTorch or DDP training too):

  CPU_AFFINITY_CONF mode 1 or 2       with the host bound, its threads no longer
                                      migrate between cores: the launch gaps shrink
                                      by AFFINITY_CUT (MSPROF_SIM_HOST_GAP), so Free
                                      drops a little; with the device bound it
                                      changes nothing, as on a machine
  PYTORCH_NPU_ALLOC_CONF with         the caching allocator grows its segments
  expandable_segments:True (an item   instead of keeping blocks of every size:
  of its list, as torch_npu reads it)
                                      reserved memory drops toward the allocated
                                      (MSPROF_SIM_MEM_EXPANDABLE), the step time
                                      stays

The code settings of a DDP training (DataLoader num_workers, bucket_cap_mb,
gradient_as_bucket_view, static_graph) are not answered: no environment
variable or flag carries them.

Each run varies a little: the compute of the whole run by up to
RUN_NOISE, seeded by MSPROF_SIM_SEED and the settings (the same launch gives
the same data), and each step by up to STEP_JITTER.  A knob planted by hand
still plants its symptom.  For tests of a tuner, two more knobs name a
setting (a flag or an environment variable) by its name:

  MSPROF_SIM_NOOP=NAME[,NAME]     the setting has no effect
  MSPROF_SIM_SLOWER=NAME[,NAME]   the setting makes every step SLOWER_FACTOR longer
  MSPROF_SIM_REJECT=FLAG[,FLAG]   the flag is unknown to this version: the
                                  launch stops as argparse stops it

The answer is written into this process's environment as the knobs
profdata reads, so that the profiler's parse (in this process) and the
training's log (its throughput line) tell the same story; in a plain torch
training the device time of each backward pass follows the slowdown.
"""

import os
import random
import sys

# what each unfused form costs over its fused kernel, a share of the compute
UNFUSED_COST = {"attention": 0.12, "rmsnorm": 0.04, "swiglu": 0.04, "rotary": 0.03}
# the flag that fuses each form on the path MindSpeed-LLM takes
FUSED_FLAGS = {"attention": "--use-flash-attn", "rmsnorm": "--use-fused-rmsnorm",
               "rotary": "--use-fused-rotary-pos-emb"}
# the flag that unfuses a form fused by default
UNFUSING_FLAGS = {"swiglu": "--no-bias-swiglu-fusion"}
RUN_NOISE = 0.006
# what binding the host threads saves of each launch gap when the host is bound
AFFINITY_CUT = 0.25
STEP_JITTER = 0.01
SLOWER_FACTOR = 1.12
BUBBLE_SHARE = 0.30
# the settings whose presence seeds a run's noise
_SEEDING_FLAGS = ("--overlap-grad-reduce", "--overlap-param-gather", "--use-distributed-optimizer",
                  "--num-layers-per-virtual-pipeline-stage") + tuple(FUSED_FLAGS.values()) \
    + tuple(UNFUSING_FLAGS.values())
_SEEDING_ENV = ("TASK_QUEUE_ENABLE", "CPU_AFFINITY_CONF", "HCCL_BUFFSIZE", "PYTORCH_NPU_ALLOC_CONF")


def _names(var):
    return {n.strip() for n in os.environ.get(var, "").split(",") if n.strip()}


def has(name, argv=None):
    """Does the launch have setting NAME (a flag in its argv, a variable set)?"""
    argv = sys.argv if argv is None else argv
    if name.startswith("-"):
        return any(a == name or a.startswith(name + "=") for a in argv)
    return os.environ.get(name, "") not in ("", "0")


def reject(parser, argv=None):
    """A flag of MSPROF_SIM_REJECT in the launch: exit 2 with argparse's
    "PROG: error: unrecognized arguments: FLAG", as a version without it does."""
    argv = sys.argv if argv is None else argv
    bad = [a for a in argv[1:] if a.split("=", 1)[0] in _names("MSPROF_SIM_REJECT")]
    if bad:
        parser.error("unrecognized arguments: %s" % " ".join(bad))


def _seed(argv):
    key = "|".join(f for f in _SEEDING_FLAGS if has(f, argv))
    key += "|" + "|".join("%s=%s" % (v, os.environ.get(v, "")) for v in _SEEDING_ENV)
    h = 0
    for c in key:
        h = (h * 131 + ord(c)) % (1 << 32)
    try:
        seed = int(os.environ.get("MSPROF_SIM_SEED", "1"))
    except ValueError:
        seed = 1
    return seed * 1000003 + h


_answered_megatron = False


def _on(name, present):
    """A setting the launch has, unless MSPROF_SIM_NOOP plants it as a no-op."""
    return present and name not in _names("MSPROF_SIM_NOOP")


def affinity_mode(value):
    """CPU_AFFINITY_CONF's mode as torch_npu reads it (NPUAffinityController.cpp,
    parseModeOnly): the value when all digits, else its first item of digits
    or its mode:N item; 0 without."""
    if value.isdigit():
        return int(value)
    for item in value.split(","):
        key, colon, rest = item.partition(":")
        if not colon and item.isdigit():
            return int(item)
        if colon and key == "mode":
            return int(rest) if rest.isdigit() else 0
    return 0


def alloc_item(value, key):
    """KEY's value in PYTORCH_NPU_ALLOC_CONF as torch_npu lexes it: ',', ':',
    '[' and ']' each a token, spaces dropped, the last KEY outside brackets
    counting; None when not set."""
    tokens, word = [], ""
    for c in value:
        if c in ",:[]":
            if word:
                tokens.append(word)
            tokens.append(c)
            word = ""
        elif c != " ":
            word += c
    if word:
        tokens.append(word)
    found, depth = None, 0
    for i, t in enumerate(tokens):
        depth += (t == "[") - (t == "]")
        if depth == 0 and t == key and i + 2 < len(tokens) and tokens[i + 1] == ":":
            found = tokens[i + 2]
    return found


def _answer_host(env):
    """The settings of torch_npu's host side, alike for every torch_npu process."""
    bound = not _on("TASK_QUEUE_ENABLE", env.get("TASK_QUEUE_ENABLE", "").strip() == "2")
    if bound:
        env["MSPROF_SIM_HOST_BOUND"] = "1"
        if _on("CPU_AFFINITY_CONF", affinity_mode(env.get("CPU_AFFINITY_CONF", "")) in (1, 2)):
            env["MSPROF_SIM_HOST_GAP"] = "%.4f" % (1.0 - AFFINITY_CUT)
    if _on("PYTORCH_NPU_ALLOC_CONF",
           alloc_item(env.get("PYTORCH_NPU_ALLOC_CONF", ""), "expandable_segments") == "True"):
        env["MSPROF_SIM_MEM_EXPANDABLE"] = "1"


def _answer_run(env, argv, slowdown):
    """SLOWDOWN times the planted regressions the launch has, with the run's
    noise; each step's jitter."""
    for name in _names("MSPROF_SIM_SLOWER"):
        if has(name, argv):
            slowdown *= SLOWER_FACTOR
    slowdown *= 1.0 + random.Random(_seed(argv)).uniform(-RUN_NOISE, RUN_NOISE)
    env["MSPROF_SIM_SLOWDOWN"] = "%.5f" % slowdown
    env["MSPROF_SIM_JITTER"] = "%.4f" % STEP_JITTER


def _responding():
    return os.environ.get("MSPROF_SIM_RESPOND", "") not in ("", "0")


def apply_torch(argv=None):
    """Set the knobs for a torch_npu process: its host-side settings and the
    run's noise.  A Megatron launch's own answer (apply) covers these and
    more, so once it has answered this one does nothing."""
    if not _responding() or _answered_megatron:
        return
    argv = sys.argv if argv is None else argv
    _answer_host(os.environ)
    _answer_run(os.environ, argv, 1.0)


def apply(args, dist, argv=None):
    """Set the knobs for a Megatron launch (MindSpeed-LLM's, MindSpeed-MM's
    Megatron engine) of ARGS (parsed) on DIST."""
    global _answered_megatron
    if not _responding():
        return
    _answered_megatron = True
    argv = sys.argv if argv is None else argv
    on = _on
    env = os.environ
    if args.data_parallel_size > 1 and not on("--overlap-grad-reduce", args.overlap_grad_reduce):
        env["MSPROF_SIM_EXPOSED_COMM"] = "1"
    _answer_host(env)
    if args.pipeline_model_parallel_size > 1:
        env["MSPROF_SIM_BUBBLE"] = "1"
        chunks = 1
        per = args.num_layers_per_virtual_pipeline_stage
        if on("--num-layers-per-virtual-pipeline-stage", bool(per)) and args.num_layers:
            chunks = max(args.num_layers // args.pipeline_model_parallel_size // per, 1)
        env["MSPROF_SIM_BUBBLE_SHARE"] = "%.4f" % (BUBBLE_SHARE / chunks)
    planted = [f.strip() for f in env.get("MSPROF_SIM_UNFUSED", "").split(",") if f.strip()]
    unfused = [form for form in UNFUSED_COST
               if form in planted or "all" in planted
               or (form in FUSED_FLAGS and not on(FUSED_FLAGS[form], has(FUSED_FLAGS[form], argv)))
               or (form in UNFUSING_FLAGS and on(UNFUSING_FLAGS[form], has(UNFUSING_FLAGS[form], argv)))]
    if unfused:
        env["MSPROF_SIM_UNFUSED"] = ",".join(unfused)
    _answer_run(env, argv, 1.0 + sum(UNFUSED_COST[f] for f in unfused))


def check(args):
    """The checks Megatron (arguments.py validate_args, TransformerConfig),
    MindSpeed and MindSpeed-LLM (their features' validate_args) make of the
    settings msprof-exec knows, with their messages: a setting tried without
    what it needs stops the launch as it would on a machine."""
    def on(name):
        return getattr(args, name, None)

    if on("overlap_param_gather"):
        if not on("use_distributed_optimizer"):
            raise AssertionError("--overlap-param-gather only supported with distributed optimizer")
        if not on("overlap_grad_reduce"):
            raise AssertionError("Must use --overlap-param-gather with --overlap-grad-reduce")
    _check_moe(args, on)
    if on("reuse_fp32_param") and not on("bf16"):
        raise AssertionError("reuse_fp32_param requires bf16.")
    if on("num_layer_list") and on("num_layers_per_virtual_pipeline_stage"):
        raise ValueError("Dynamic pipeline model and virtual pipeline cannot be enabled at the same time.")
    granularity = on("recompute_granularity")
    if granularity == "selective" and on("recompute_method") is not None:
        raise AssertionError("recompute method is not yet supported for selective recomputing granularity")
    if granularity == "full" and on("recompute_method") is None:
        raise ValueError('Using recompute_granularity: full so recompute_method must be "block" or "uniform"')
    if granularity == "full" and on("recompute_num_layers") is None:
        raise ValueError("When using recompute_granularity: full recompute_num_layers must be between 1 and "
                         "num_layers_per_pipeline_rank: %d"
                         % ((on("num_layers") or 0) // (on("pipeline_model_parallel_size") or 1)))
    if granularity == "selective" and on("recompute_num_layers") is not None:
        raise ValueError("When using recompute_granularity: selective recompute_num_layers must be None.")


def _check_moe(args, on):
    """MindSpeed's MoEAlltoAllOverLapFeature.validate_args."""
    if not on("moe_alltoall_overlap_comm"):
        return
    dispatcher = on("moe_token_dispatcher_type")
    if dispatcher not in ("alltoall", "alltoall_seq"):
        raise AssertionError("`--moe-alltoall-overlap-comm` only support with `--moe-token-dispatcher-type "
                             "alltoall` or `--moe-token-dispatcher-type alltoall_seq`.")
    if (on("expert_model_parallel_size") or 1) == 1:
        raise AssertionError("`--moe-alltoall-overlap-comm` only support with `--expert-model-parallel-size` > 1.")
    if dispatcher == "alltoall" and not on("moe_grouped_gemm"):
        raise AssertionError("`--moe-alltoall-overlap-comm` and `--moe-allgather-overlap-comm` only support with "
                             "`--moe-grouped-gemm`.")
    if dispatcher == "alltoall_seq":
        if not on("moe_permutation_async_comm"):
            raise AssertionError("`--moe-alltoall-overlap-comm` with `alltoall_seq` dispatcher needs "
                                 "`--moe-permutation-async-comm`.")
        if not on("moe_grouped_gemm"):
            raise AssertionError("`--moe-alltoall-overlap-comm` with `alltoall_seq` dispatcher needs "
                                 "`--moe-grouped-gemm`.")
