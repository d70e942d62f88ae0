"""MindSpeed-MM in simulation: the Megatron-engine entries (pretrain_sora.py,
pretrain_vlm.py, pretrain_transformers.py <yaml>) and the FSDP2 engine
(mindspeed_mm/fsdp/train/trainer.py <yaml> [key=value ...]), with the tools.json /
tools.profile semantics of mindspeed_mm/tools/profiler.py (0-based steps [start,end),
warmup 0, ranks [-1] = all, analyse_flag, dynamic mode)."""

import argparse
import datetime
import json
import os
import pickle
import sys
import time

from . import llm, respond, train, yamlish

SIM_DEFAULT_TRAIN_ITERS = 10


class ConfigReader:
    """Attribute view of a JSON/YAML dict, like MindSpeed-MM's ConfigReader."""

    def __init__(self, data):
        for k, v in (data or {}).items():
            setattr(self, k, ConfigReader(v) if isinstance(v, dict) else v)

    def to_dict(self):
        return {k: (v.to_dict() if isinstance(v, ConfigReader) else v) for k, v in vars(self).items()}


class MMConfig:
    def __init__(self, paths):
        errors = []
        for name, path in paths.items():
            if not path:
                continue
            if not os.path.isfile(path):
                errors.append("Warning: Config file not found: %s" % path)
                continue
            try:
                if path.endswith((".yaml", ".yml")):
                    data = yamlish.load_file(path)
                else:
                    with open(path) as f:
                        data = json.load(f)
            except (ValueError, OSError) as e:
                errors.append("Warning: Failed to load config file %s: %s" % (path, e))
                continue
            setattr(self, name, ConfigReader(data))
        if errors:
            for e in errors:
                train.out(e)
            raise RuntimeError("One or more config files failed to load. See above errors.")


# --------------------------------------------------------------------------- profiler
class Profiler:
    """mindspeed_mm/tools/profiler.py Profiler (static_only=True: the FSDP engine's)."""

    def __init__(self, config, dist, static_only=False):
        self.sp = None
        self.dp = None
        self.enable = bool(getattr(config, "enable", False))
        if not self.enable:
            return
        ranks = getattr(config, "ranks", [0])
        ranks = ranks if isinstance(ranks, list) else [ranks]
        self.profile_type = getattr(config, "profile_type", "static")
        if static_only and self.profile_type != "static":
            raise ValueError("profile_type only supports static, but gets %s" % self.profile_type)
        if self.profile_type not in ("static", "dynamic"):
            raise ValueError("profile_type only supports static and dynamic, but gets %s" % self.profile_type)
        if not (ranks == [-1] or dist.rank in ranks):
            self.enable = False
            return
        if self.profile_type == "dynamic":
            dyn = getattr(config, "dynamic_param", None)
            self.config_path = getattr(dyn, "config_path", None)
            from torch_npu.profiler import dynamic_profile
            self.dp = dynamic_profile
            return
        sp = config.static_param
        import torch_npu
        tp = torch_npu.profiler
        level = getattr(sp, "level", "level1")
        levels = {"level0": tp.ProfilerLevel.Level0, "level1": tp.ProfilerLevel.Level1,
                  "level2": tp.ProfilerLevel.Level2}
        if level not in levels:
            raise ValueError("profiler_level only supports level0, 1, and 2, but gets %s" % level)
        aic = getattr(sp, "aic_metrics_type", "PipeUtilization")
        aics = {"PipeUtilization": tp.AiCMetrics.PipeUtilization,
                "ArithmeticUtilization": tp.AiCMetrics.ArithmeticUtilization}
        if aic not in aics:
            raise ValueError("aic_metrics_type only supports PipeUtilization and ArithmeticUtilization")
        start, end = sp.start_step, sp.end_step
        if static_only:
            analyse_flag = getattr(sp, "analyse_flag", True)
        else:
            analyse_flag = sp.analyse_flag   # an old tools.json without it fails like master does
        activities = [tp.ProfilerActivity.NPU]
        if getattr(sp, "with_cpu", False):
            activities.append(tp.ProfilerActivity.CPU)
        self.sp = tp.profile(
            with_stack=getattr(sp, "with_stack", False), record_shapes=getattr(sp, "record_shapes", False),
            profile_memory=getattr(sp, "with_memory", False), activities=activities,
            schedule=tp.schedule(wait=0, warmup=0, active=end - start, repeat=1, skip_first=start),
            on_trace_ready=tp.tensorboard_trace_handler(getattr(sp, "save_path", "./npu_profiling"),
                                                        analyse_flag=analyse_flag),
            experimental_config=tp._ExperimentalConfig(aic_metrics=aics[aic], profiler_level=levels[level],
                                                       data_simplification=getattr(sp, "data_simplification",
                                                                                   False)))

    def start(self):
        if not self.enable:
            return
        if self.sp is not None:
            self.sp.start()
        elif self.dp is not None:
            self.dp.init(self.config_path)

    def step(self):
        if not self.enable:
            return
        if self.sp is not None:
            self.sp.step()
        elif self.dp is not None:
            self.dp.step()

    def stop(self):
        if self.enable and self.sp is not None:
            self.sp.stop()


class MemoryProfiler:
    """memory_profile: a snapshot file per dumped rank at end_step (mem_profiler.py)."""

    def __init__(self, config, dist):
        self.dist = dist
        self.enable = bool(config is not None and getattr(config, "enable", False))
        if self.enable:
            self.start_step = getattr(config, "start_step", 0)
            self.end_step = getattr(config, "end_step", 2)
            self.save_path = getattr(config, "save_path", "./memory_snapshot")
            self.dump_ranks = getattr(config, "dump_ranks", [0])
        self.current = 0

    def step(self):
        if not self.enable:
            return
        self.current += 1
        if self.current == self.end_step and (self.dump_ranks == [-1] or self.dist.rank in self.dump_ranks):
            os.makedirs(self.save_path, exist_ok=True)
            name = "snapshot_%s_%d.pickle" % (datetime.datetime.now().strftime("%Y-%m-%d-%H-%M"), self.dist.rank)
            with open(os.path.join(self.save_path, name), "wb") as f:
                pickle.dump({"segments": [], "device_traces": [[]], "sim": True}, f)


# ---------------------------------------------------------------- Megatron engine
def build_parser(prog):
    p = llm.build_parser(prog)
    g = p.add_argument_group("mm")
    g.add_argument("--mm-data", type=str, default="")
    g.add_argument("--mm-model", type=str, default="")
    g.add_argument("--mm-tool", type=str, default="")
    return p


def _flag(key):
    return "--" + key.replace("_", "-")


def argv_from_yaml(argv):
    """mindspeed_mm/configs/read_yaml_config.py: sys.argv rebuilt from the YAML."""
    path = argv[1]
    cfg = yamlish.load_file(path) or {}
    new = [argv[0]]
    for section in ("gpt_args", "lora_args"):
        block = cfg.get(section) or {}
        for key, value in block.items():
            if value is None or value is False:
                continue
            if value is True:
                new.append(_flag(key))
            elif isinstance(value, list):
                new.append(_flag(key))
                new.extend(str(v) for v in value)
            else:
                new.extend([_flag(key), str(value)])
    if "MM_TOOL_PATH" not in cfg:
        raise KeyError("The required keyword 'MM_TOOL_PATH' is missing from the configuration file.")
    new += ["--mm-data", path, "--mm-model", path, "--mm-tool", str(cfg["MM_TOOL_PATH"])]
    return new


def megatron_main(prog, model_name, loss_name="loss"):
    t0 = time.time()
    dist = train.Dist()
    console = train.Console(dist)
    args, _unknown = build_parser(prog).parse_known_args()
    llm.validate_args(args, dist, mindspeed_llm=False)
    llm.print_arguments(console, args, dist)
    console.rank0("> initializing torch distributed ...")
    train.init_device(dist)
    mm = MMConfig({"model": args.mm_model, "data": args.mm_data, "tool": args.mm_tool})
    console.rank0("time to initialize megatron (seconds): %.3f" % (time.time() - t0))
    console.rank0("[after megatron is initialized] datetime: %s " % train.now())
    console.rank0("building %s model ..." % model_name)
    iteration = train.load_checkpoint(console, args.load, model_name)
    console.rank0("[after model, optimizer, and learning rate scheduler are built] datetime: %s " % train.now())
    console.rank0("[after dataloaders are built] datetime: %s " % train.now())
    console.rank0("done with setup ...")
    console.rank0("training ...")
    # the machine's answer to the launch's settings (MSPROF_SIM_RESPOND), before
    # the profiler reads the knobs
    respond.apply(args, dist)
    prof = None
    if os.environ.get("OOTB_OPTIMIZER_PROFILING") != "TRUE":
        prof = Profiler(mm.tool.profile, dist)
        prof.start()
    mem = MemoryProfiler(getattr(mm.tool, "memory_profile", None), dist)

    def on_step():
        if prof:
            prof.step()
        mem.step()

    train.train_loop(dist, console, args.train_iters, start_iteration=iteration,
                     global_batch_size=args.global_batch_size, lr=args.lr, loss_name=loss_name,
                     on_step=on_step, seed=args.seed)
    if prof:
        prof.stop()
    console.rank0("[after training is done] datetime: %s " % train.now())
    return 0


def transformers_main():
    if len(sys.argv) > 1 and sys.argv[1].endswith((".yaml", ".yml")):
        sys.argv = argv_from_yaml(sys.argv)
    return megatron_main("pretrain_transformers.py", "TransformersModel")


# --------------------------------------------------------------------- FSDP2 engine
TOOLS_DEFAULTS = {
    "profile": {"enable": False, "profile_type": "static", "ranks": [0],
                "static_param": {"level": "level1", "with_stack": False, "with_memory": False,
                                 "record_shapes": False, "with_cpu": False, "save_path": "./profiling",
                                 "start_step": 10, "end_step": 11, "data_simplification": False,
                                 "aic_metrics_type": "PipeUtilization", "analyse_flag": True}},
    "memory_profile": {"enable": False, "start_step": 1, "end_step": 2, "save_path": "./memory_snapshot",
                       "dump_ranks": [0], "stacks": "all", "max_entries": None, "mem_info": False},
}


def heuristic_value(text):
    """ConfigManager's CLI value parsing: bool words, digit strings, floats, comma lists."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if text.isdigit():
        return int(text)
    try:
        return float(text)
    except ValueError:
        pass
    if "," in text:
        return [heuristic_value(x.strip()) for x in text.split(",") if x.strip()]
    return text


def _deep_merge(base, extra):
    out = dict(base)
    for k, v in (extra or {}).items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def fsdp_config(argv):
    if not argv or not argv[0].endswith((".yaml", ".yml")):
        raise ValueError("Please provide a yaml config file as the first argument, e.g. "
                         "trainer.py config.yaml key=value ...")
    path = argv[0]
    if not os.path.isfile(path):
        raise FileNotFoundError("Config file not found: %s" % path)
    cfg = yamlish.load_file(path) or {}
    cfg["tools"] = _deep_merge(TOOLS_DEFAULTS, cfg.get("tools"))
    for word in argv[1:]:
        if "=" not in word or word.startswith("-"):
            raise ValueError("Invalid argument: %s. Only key=value format is supported for command line "
                             "arguments (e.g. tools.profile.enable=true)." % word)
        key, value = word.split("=", 1)
        node = cfg
        parts = key.split(".")
        for part in parts[:-1]:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        node[parts[-1]] = heuristic_value(value)
    return cfg


def fsdp_main():
    dist = train.Dist()
    console = train.Console(dist)
    cfg = fsdp_config(sys.argv[1:])
    train.init_device(dist)
    model = cfg.get("model") or {}
    path = model.get("model_name_or_path")
    if path and not os.path.exists(str(path)):
        raise OSError("Incorrect path_or_model_id: '%s'. Please provide either the path to a local folder or the "
                      "repo_id of a model on the Hub." % path)
    training = cfg.get("training") or {}
    load = training.get("load")
    if load and not os.path.exists(str(load)):
        raise FileNotFoundError("Checkpoint path not found: %s" % load)
    tools = ConfigReader(cfg["tools"])
    console.rank0("[INFO] FSDP2 engine: world size %d, model %s" % (dist.world_size, model.get("model_id", "?")))
    prof = Profiler(tools.profile, dist, static_only=True)
    prof.start()
    mem = MemoryProfiler(tools.memory_profile, dist)
    iters = int(training.get("train_iters") or SIM_DEFAULT_TRAIN_ITERS)
    mbs = int(training.get("micro_batch_size") or 1)
    gas = int(training.get("gradient_accumulation_steps") or 1)

    def on_step():
        prof.step()
        mem.step()

    console.rank0("training ...")
    train.train_loop(dist, console, iters, global_batch_size=mbs * gas * dist.world_size,
                     lr=float(training.get("lr") or 1.0e-5), loss_name="loss", on_step=on_step)
    prof.stop()
    console.rank0("[after training is done] datetime: %s " % train.now())
    return 0


# --------------------------------------------------------------- offline parse CLI
def offline_parse_main(fsdp=False):
    """mindspeed_mm/tools/profiler.py (and fsdp/tools/profiler.py) as a script."""
    p = argparse.ArgumentParser(description="Offline parse of torch_npu profiling data")
    if not fsdp:
        p.add_argument("--mm-tool", type=str, default="./mindspeed_mm/tools/tools.json")
    p.add_argument("--profiler-path", type=str, default=None, required=fsdp)
    p.add_argument("--max-process-number", type=int, default=None)
    p.add_argument("--export-type", action="append", choices=["text", "db"], default=None)
    args = p.parse_args()
    path = args.profiler_path
    if path is None:
        with open(args.mm_tool) as f:
            path = json.load(f)["profile"]["static_param"]["save_path"]
    from torch_npu.profiler.profiler import analyse
    export = args.export_type or ["text"]
    analyse(path, max_process_number=args.max_process_number or max((os.cpu_count() or 2) // 2, 1),
            export_type=export if len(export) > 1 else export[0])
    return 0
