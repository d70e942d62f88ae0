"""MindSpeed-LLM MCore entries (pretrain_gpt.py, posttrain_gpt.py) in simulation:
Megatron/MindSpeed argument parsing with the profile flags of master, the checks
and failures users meet, and the profiler built like mindspeed_llm's get_profiler()."""

import argparse
import json
import os
import time

from . import respond, train


def build_parser(prog):
    p = argparse.ArgumentParser(prog=prog, description="Megatron-LM Arguments (MindSpeed-LLM simulation)",
                                allow_abbrev=False)
    g = p.add_argument_group("profiling")
    g.add_argument("--profile", action="store_true", help="Enable profiling (torch_npu profiler).")
    g.add_argument("--profile-step-start", type=int, default=10, help="Global step to start profiling.")
    g.add_argument("--profile-step-end", type=int, default=12, help="Global step to stop profiling.")
    g.add_argument("--profile-ranks", nargs="+", type=int, default=[0], help="Global ranks to profile.")
    g.add_argument("--profile-level", type=str, default="level0",
                   choices=["level_none", "level0", "level1", "level2"])
    g.add_argument("--profile-export-type", type=str, default="text", choices=["text", "db"])
    g.add_argument("--profile-data-simplification", action="store_true")
    g.add_argument("--profile-with-stack", action="store_true")
    g.add_argument("--profile-with-memory", action="store_true")
    g.add_argument("--profile-record-shapes", action="store_true")
    g.add_argument("--profile-with-cpu", action="store_true")
    g.add_argument("--profile-save-path", type=str, default="./profile_dir")
    g = p.add_argument_group("training")
    g.add_argument("--train-iters", type=int, default=None)
    g.add_argument("--micro-batch-size", type=int, default=1)
    g.add_argument("--global-batch-size", type=int, default=None)
    g.add_argument("--seq-length", type=int, default=4096)
    g.add_argument("--lr", type=float, default=1.0e-5)
    g.add_argument("--min-lr", type=float, default=0.0)
    g.add_argument("--lr-warmup-iters", type=int, default=0)
    g.add_argument("--lr-warmup-fraction", type=float, default=None)
    g.add_argument("--log-interval", type=int, default=100)
    g.add_argument("--seed", type=int, default=1234)
    g = p.add_argument_group("distributed")
    g.add_argument("--tensor-model-parallel-size", type=int, default=1)
    g.add_argument("--pipeline-model-parallel-size", type=int, default=1)
    g.add_argument("--context-parallel-size", type=int, default=1)
    g.add_argument("--expert-model-parallel-size", type=int, default=1)
    g.add_argument("--sequence-parallel", action="store_true")
    g.add_argument("--num-layers-per-virtual-pipeline-stage", type=int, default=None)
    g.add_argument("--use-distributed-optimizer", action="store_true")
    g.add_argument("--overlap-grad-reduce", action="store_true")
    g.add_argument("--overlap-param-gather", action="store_true")
    g.add_argument("--distributed-backend", default="nccl")
    g.add_argument("--local-rank", "--local_rank", type=int, default=None)
    g = p.add_argument_group("data and checkpoints")
    g.add_argument("--data-path", nargs="*", default=None)
    g.add_argument("--split", type=str, default="969, 30, 1")
    g.add_argument("--tokenizer-type", type=str, default=None)
    g.add_argument("--tokenizer-model", type=str, default=None)
    g.add_argument("--tokenizer-name-or-path", type=str, default=None)
    g.add_argument("--load", type=str, default=None)
    g.add_argument("--save", type=str, default=None)
    g.add_argument("--finetune", action="store_true")
    g.add_argument("--ckpt-step", type=int, default=None)
    g = p.add_argument_group("model")
    g.add_argument("--num-layers", type=int, default=None)
    g.add_argument("--hidden-size", type=int, default=None)
    g.add_argument("--ffn-hidden-size", type=int, default=None)
    g.add_argument("--num-attention-heads", type=int, default=None)
    g.add_argument("--group-query-attention", action="store_true")
    g.add_argument("--num-query-groups", type=int, default=1)
    g.add_argument("--kv-channels", type=int, default=None)
    g.add_argument("--swiglu", action="store_true")
    g.add_argument("--num-experts", type=int, default=None)
    g.add_argument("--moe-router-topk", type=int, default=2)
    g.add_argument("--moe-ffn-hidden-size", type=int, default=None)
    g.add_argument("--moe-shared-expert-intermediate-size", type=int, default=None)
    g.add_argument("--moe-layer-freq", type=int, default=1)
    # the settings whose prerequisites MindSpeed and Megatron check (respond.check)
    g.add_argument("--moe-token-dispatcher-type", default="allgather",
                   choices=["allgather", "alltoall", "flex", "alltoall_seq"])
    g.add_argument("--moe-grouped-gemm", action="store_true")
    g.add_argument("--moe-alltoall-overlap-comm", action="store_true")
    g.add_argument("--moe-permutation-async-comm", action="store_true")
    g.add_argument("--moe-tp-extend-ep", action="store_true")
    g.add_argument("--bf16", action="store_true")
    g.add_argument("--reuse-fp32-param", action="store_true")
    g.add_argument("--recompute-granularity", default=None, choices=["full", "selective"])
    g.add_argument("--recompute-method", default=None, choices=["uniform", "block"])
    g.add_argument("--recompute-num-layers", type=int, default=None)
    g.add_argument("--num-layer-list", type=str, default=None)
    g.add_argument("--padded-vocab-size", type=int, default=None)
    g.add_argument("--vocab-size", type=int, default=None)
    g.add_argument("--make-vocab-size-divisible-by", type=int, default=128)
    g = p.add_argument_group("logging")
    g.add_argument("--log-throughput", action="store_true")
    return p


SIM_DEFAULT_TRAIN_ITERS = 10


def validate_args(args, dist, mindspeed_llm=True):
    # MindSpeed-LLM ProfilingFeature.validate_args: runs even without --profile
    if mindspeed_llm and args.profile_step_start < 1:
        raise AssertionError("profile_step_start should be greater than 0 but now it is %d"
                             % args.profile_step_start)
    tp, pp, cp = args.tensor_model_parallel_size, args.pipeline_model_parallel_size, args.context_parallel_size
    model_parallel = tp * pp * cp
    if dist.world_size % model_parallel != 0:
        raise AssertionError("world size (%d) is not divisible by tensor model parallel size (%d) times pipeline "
                             "model parallel size (%d) times context parallel size (%d)"
                             % (dist.world_size, tp, pp, cp))
    args.data_parallel_size = dist.world_size // model_parallel
    if args.global_batch_size is None:
        args.global_batch_size = args.micro_batch_size * args.data_parallel_size
    if args.global_batch_size % (args.micro_batch_size * args.data_parallel_size) != 0:
        raise AssertionError("global batch size (%d) is not divisible by micro batch size (%d) times data "
                             "parallel size (%d)" % (args.global_batch_size, args.micro_batch_size,
                                                     args.data_parallel_size))
    if args.train_iters is None:
        args.train_iters = SIM_DEFAULT_TRAIN_ITERS
    respond.check(args)


def print_arguments(console, args, dist):
    console.rank0("using world size: %d, data-parallel size: %d, context-parallel size: %d, "
                  "tensor-model-parallel size: %d, pipeline-model-parallel size: %d "
                  % (dist.world_size, args.data_parallel_size, args.context_parallel_size,
                     args.tensor_model_parallel_size, args.pipeline_model_parallel_size))
    if dist.rank != 0:
        return
    train.out("------------------------ arguments ------------------------")
    for key in sorted(vars(args)):
        if key.startswith("_"):
            continue
        train.out("  %s %s %s" % (key, "." * max(48 - len(key), 3), getattr(args, key)))
    train.out("-------------------- end of arguments ---------------------")


def build_tokenizer(console, args):
    kind = args.tokenizer_type or ("PretrainedFromHF" if args.tokenizer_name_or_path else "Llama2Tokenizer")
    console.rank0("> building %s tokenizer ..." % kind)
    if args.tokenizer_name_or_path is not None:
        path = args.tokenizer_name_or_path
        if not os.path.isdir(path) and not os.path.isfile(path):
            raise OSError(
                "Can't load tokenizer for '%s'. If you were trying to load it from 'https://huggingface.co/models', "
                "make sure you don't have a local directory with the same name. Otherwise, make sure '%s' is the "
                "correct path to a directory containing all relevant files for a Qwen2TokenizerFast tokenizer."
                % (path, path))
    if args.tokenizer_model is not None and not os.path.isfile(args.tokenizer_model):
        raise OSError('Not found: "%s": No such file or directory Error #2' % args.tokenizer_model)
    # the simulated tokenizers: Llama-2's sentencepiece model, else Qwen's
    vocab = args.vocab_size or (32000 if kind == "Llama2Tokenizer" else 151669)
    if args.padded_vocab_size is None:
        multiple = args.make_vocab_size_divisible_by * args.tensor_model_parallel_size
        args.padded_vocab_size = -(-vocab // multiple) * multiple
    console.rank0(" > padded vocab (size: %d) with %d dummy tokens (new size: %d)"
                  % (vocab, args.padded_vocab_size - vocab, args.padded_vocab_size))


def num_floating_point_operations(args, batch_size):
    """Megatron's count for a standard transformer (MHA/GQA, dense or MoE), as in
    megatron/training/training.py, or None when the model's size is not given."""
    if args.num_layers is None or args.hidden_size is None or args.num_attention_heads is None:
        return None
    h, s, n = args.hidden_size, args.seq_length, args.num_attention_heads
    ffn = args.ffn_hidden_size
    if ffn is None:
        ffn = int((4 * h * 2 / 3) / 64) * 64 if args.swiglu else 4 * h
    kv = args.kv_channels or h // n
    groups = args.num_query_groups if args.group_query_attention else n
    if args.num_experts is None:
        dense, moe, topk = args.num_layers, 0, 0
    else:
        moe = sum(1 for i in range(args.num_layers) if i % args.moe_layer_freq == 0)
        dense, topk = args.num_layers - moe, args.moe_router_topk
    moe_ffn = args.moe_ffn_hidden_size or ffn
    shared = args.moe_shared_expert_intermediate_size or 0
    gated = 3 / 2 if args.swiglu else 1
    expansion = 3 * 2 * 2
    q_ratio = kv * n / h
    attn = expansion * args.num_layers * h * h * ((1 + groups / n + s / h / 2) * q_ratio)
    return batch_size * s * (
        expansion * args.num_layers * h * (ffn * gated * dense / args.num_layers
                                           + moe_ffn * topk * gated * moe / args.num_layers
                                           + shared * gated * moe / args.num_layers)
        + attn + 3 * 2 * h * args.padded_vocab_size)


def _layout(args, dist, seed):
    from . import profdata
    dargs = {"tensor_model_parallel_size": args.tensor_model_parallel_size,
             "pipeline_model_parallel_size": args.pipeline_model_parallel_size,
             "context_parallel_size": args.context_parallel_size,
             "expert_model_parallel_size": args.expert_model_parallel_size,
             "world_size": dist.world_size}
    layout = profdata.Layout.from_args(dargs, dist.world_size, seed)
    if layout.world != dist.world_size:
        layout = profdata.Layout(dist.world_size, seed=seed)
    return layout


def device_nominal_us(args, dist):
    """The nominal step of the simulated device, in us: with the model's size
    given, the time its FLOPs take on the simulated 910B3s at MSPROF_SIM_MFU (a
    healthy job of this layout then lasts that long a step; a planted slow rank
    makes it longer); without, MSPROF_SIM_STEP_MS.  It is the simulated
    machine's time, not the wall clock's: the iteration still sleeps
    MSPROF_SIM_STEP_MS.  The parse reads it from MSPROF_SIM_DEVICE_STEP_US,
    which is set here for this process (the collection keeps it with the raw
    data, for a parse elsewhere)."""
    from . import profdata
    flops = num_floating_point_operations(args, args.global_batch_size)
    if not flops:
        return train.step_seconds() * 1e6
    seed = profdata.Knobs.from_env().seed
    nominal = profdata.nominal_for_step(_layout(args, dist, seed), seed,
                                        profdata.model_step_us(flops, dist.world_size))
    os.environ["MSPROF_SIM_DEVICE_STEP_US"] = "%.3f" % nominal
    return nominal


def device_step_ms(args, dist, loaded, nominal_us):
    """The time the simulated machine takes for an iteration: the step the profile
    of this rank shows (profdata's model of the job, as the parse replays it), so
    that the log and the profiled data tell the same story."""
    from . import profdata
    knobs = profdata.Knobs.from_env()
    job = profdata.Job(_layout(args, dist, knobs.seed), knobs, nominal_us)

    def step_ms(iteration):
        # ProfilerStep#k is iteration k + loaded + 1 (skip_first, one warm-up)
        _comp, _ops, span = job.step(iteration - loaded - 1)
        return span[max(dist.rank, 0)] / 1000.0
    return step_ms


def data_prefixes(data_path):
    """--data-path PREFIX, or a weighted list `w1 p1 w2 p2`."""
    if not data_path:
        return []
    if len(data_path) == 1:
        return [data_path[0]]
    if len(data_path) % 2 == 0:
        try:
            [float(w) for w in data_path[0::2]]
            return list(data_path[1::2])
        except ValueError:
            pass
    return list(data_path)


def build_datasets(console, args):
    console.rank0("> building train, validation, and test datasets ...")
    prefixes = data_prefixes(args.data_path)
    if not prefixes:
        console.rank0(" > no --data-path given: using mock data")
        return
    for prefix in prefixes:
        if not (os.path.isfile(prefix + ".bin") and os.path.isfile(prefix + ".idx")):
            raise AssertionError("%s not exists" % prefix)
    console.rank0(" > finished creating indexed datasets for %s" % ", ".join(prefixes))


_LEVELS = {"level_none": "Level_none", "level0": "Level0", "level1": "Level1", "level2": "Level2"}


def is_profile_enabled(args, dist):
    if not args.profile:
        return False
    return args.profile_ranks == [-1] or dist.rank in args.profile_ranks


def get_profiler(args, dist, iteration):
    import torch_npu
    tp = torch_npu.profiler
    active = args.profile_step_end - args.profile_step_start
    skip_first = args.profile_step_start - iteration - 2
    if args.profile_step_start == iteration + 1:
        warmup = 0
    elif args.profile_step_start > iteration + 1:
        warmup = 1
    else:
        raise AssertionError("When loading checkpoint, iteration will be loaded from checkpoint, profile_step_start "
                             "should be greater than %d but now it is %d." % (iteration, args.profile_step_start))
    activities = [tp.ProfilerActivity.NPU]
    if args.profile_with_cpu:
        activities.append(tp.ProfilerActivity.CPU)
    export = tp.ExportType.Db if args.profile_export_type == "db" else tp.ExportType.Text
    experimental = tp._ExperimentalConfig(aic_metrics=tp.AiCMetrics.PipeUtilization,
                                          profiler_level=_LEVELS[args.profile_level], export_type=export,
                                          data_simplification=args.profile_data_simplification)
    prof = tp.profile(with_stack=args.profile_with_stack, record_shapes=args.profile_record_shapes,
                      profile_memory=args.profile_with_memory, activities=activities,
                      schedule=tp.schedule(wait=0, warmup=warmup, active=active, repeat=1, skip_first=skip_first),
                      on_trace_ready=tp.tensorboard_trace_handler(args.profile_save_path),
                      experimental_config=experimental)
    prof.add_metadata_json("distributed_args", json.dumps({
        "tensor_model_parallel_size": args.tensor_model_parallel_size,
        "pipeline_model_parallel_size": args.pipeline_model_parallel_size,
        "data_parallel_size": args.data_parallel_size,
        "context_parallel_size": args.context_parallel_size,
        "expert_model_parallel_size": args.expert_model_parallel_size,
        "sequence_parallel": args.sequence_parallel,
        "rank": dist.rank,
        "world_size": dist.world_size}))
    return prof


def main(prog, model_provider="GPT", loss_name="lm loss"):
    t0 = time.time()
    dist = train.Dist()
    console = train.Console(dist)
    parser = build_parser(prog)
    args, _unknown = parser.parse_known_args()
    respond.reject(parser)
    validate_args(args, dist)
    print_arguments(console, args, dist)
    console.rank0("> initializing torch distributed ...")
    train.init_device(dist)
    console.rank0("> initialized tensor model parallel with size %d" % args.tensor_model_parallel_size)
    console.rank0("> initialized pipeline model parallel with size %d" % args.pipeline_model_parallel_size)
    build_tokenizer(console, args)
    console.rank0("time to initialize megatron (seconds): %.3f" % (time.time() - t0))
    console.rank0("[after megatron is initialized] datetime: %s " % train.now())
    console.rank0("building %s model ..." % model_provider)
    console.rank0(" > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8190735360")
    iteration = train.load_checkpoint(console, args.load, save_dir=args.save, finetune=args.finetune,
                                      ckpt_step=args.ckpt_step)
    console.rank0("[after model, optimizer, and learning rate scheduler are built] datetime: %s " % train.now())
    build_datasets(console, args)
    console.rank0("[after dataloaders are built] datetime: %s " % train.now())
    console.rank0("done with setup ...")
    console.rank0("training ...")
    # the machine's answer to the launch's settings (MSPROF_SIM_RESPOND), before
    # the profiler and the log read the knobs
    respond.apply(args, dist)
    nominal = device_nominal_us(args, dist)
    prof = None
    if is_profile_enabled(args, dist):
        prof = get_profiler(args, dist, iteration)
        prof.start()
    warmup = args.lr_warmup_iters
    if args.lr_warmup_fraction:
        warmup = int(args.lr_warmup_fraction * args.train_iters)
    flops = num_floating_point_operations(args, args.global_batch_size) if args.log_throughput else None
    step_ms = device_step_ms(args, dist, iteration, nominal) if dist.last else None
    train.train_loop(dist, console, args.train_iters, start_iteration=iteration,
                     global_batch_size=args.global_batch_size, lr=args.lr, warmup_iters=warmup,
                     loss_name=loss_name, on_step=prof.step if prof else None, seed=args.seed,
                     device_ms=step_ms, flops=flops)
    if prof:
        prof.stop()
    console.rank0("[after training is done] datetime: %s " % train.now())
    return 0
