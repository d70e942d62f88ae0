"""MindSpeed-LLM FSDP2 backend (train_fsdp2.py <yaml> [--section.field value ...]) in
simulation: the YAML is the first positional argument, `--section.field` CLI
arguments win over it, training.profile_* fields drive the torch_npu profiler
(steps count from 0, [start, end), end -1 = to the end)."""

import json
import os
import sys

from . import train, yamlish

SECTIONS = ("model", "data", "parallel", "training")
BOOL_FIELDS = {"training.profile", "training.profile_data_simplification", "training.profile_with_cpu",
               "training.profile_with_stack", "training.profile_with_memory", "training.profile_record_shapes",
               "model.trust_remote_code", "model.train_from_scratch", "parallel.recompute",
               "training.dataloader_drop_last", "data.overwrite_cache"}
INT_FIELDS = {"training.profile_step_start", "training.profile_step_end", "training.max_steps",
              "training.per_device_train_batch_size", "training.gradient_accumulation_steps", "training.seed",
              "training.save_steps", "training.logging_steps", "parallel.fsdp_size", "parallel.tp_size",
              "parallel.ep_size", "data.cutoff_len", "data.max_samples"}
LIST_INT_FIELDS = {"training.profile_ranks"}
DEFAULTS = {
    "training.profile": False, "training.profile_step_start": 0, "training.profile_step_end": -1,
    "training.profile_ranks": [-1], "training.profile_level": "level0", "training.profile_export_type": "text",
    "training.profile_data_simplification": False, "training.profile_with_cpu": False,
    "training.profile_with_stack": False, "training.profile_with_memory": False,
    "training.profile_record_shapes": False, "training.profile_save_path": "./profile",
    "training.per_device_train_batch_size": 1, "training.gradient_accumulation_steps": 1,
    "training.lr": 1.0e-5, "training.output_dir": "./output",
}
SIM_DEFAULT_MAX_STEPS = 10


class UsageError(Exception):
    pass


def string_to_bool(v, name):
    if isinstance(v, bool):
        return v
    low = str(v).lower()
    if low in ("yes", "true", "t", "y", "1"):
        return True
    if low in ("no", "false", "f", "n", "0"):
        return False
    raise UsageError("argument --%s: Truthy value expected: got %s but expected one of yes/no, true/false, t/f, "
                     "y/n, 1/0 (case insensitive)." % (name, v))


def convert(name, raw):
    """Value of one --section.field from its CLI words (nargs='?' for bools, '+' for lists)."""
    if name in BOOL_FIELDS:
        return string_to_bool(raw[0], name) if raw else True
    if not raw:
        raise UsageError("argument --%s: expected at least one argument" % name)
    if name in LIST_INT_FIELDS:
        try:
            return [int(x) for x in raw]
        except ValueError:
            raise UsageError("argument --%s: invalid int value: '%s'" % (name, raw[0]))
    if len(raw) > 1:
        return [yamlish.parse_scalar(x) for x in raw]
    if name in INT_FIELDS:
        try:
            return int(raw[0])
        except ValueError:
            raise UsageError("argument --%s: invalid int value: '%s'" % (name, raw[0]))
    return yamlish.parse_scalar(raw[0])


def parse_cli(words):
    overrides, unknown = {}, []
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("--") and "." in w.split("=", 1)[0]:
            name, eq, val = w[2:].partition("=")
            if eq:
                vals = [val]
                i += 1
            else:
                vals = []
                i += 1
                while i < len(words) and not words[i].startswith("--"):
                    vals.append(words[i])
                    i += 1
            if name.split(".", 1)[0] in SECTIONS:
                overrides[name] = convert(name, vals)
            else:
                unknown.append(w)
        else:
            unknown.append(w)
            i += 1
    return overrides, unknown


def typed_yaml_value(name, value):
    if name in BOOL_FIELDS and not isinstance(value, bool):
        return string_to_bool(value, name)
    if name in LIST_INT_FIELDS:
        value = value if isinstance(value, list) else [value]
        return [int(v) for v in value]
    if name in INT_FIELDS and isinstance(value, str):
        return int(value)
    return value


def load_config(argv):
    if not argv or not argv[0].endswith((".yaml", ".yml")):
        raise UsageError("the first argument must be the path of a YAML config file (train_fsdp2.py <config.yaml> "
                         "[--section.field value ...])")
    path = argv[0]
    if not os.path.isfile(path):
        raise FileNotFoundError("[Errno 2] No such file or directory: '%s'" % path)
    data = yamlish.load_file(path) or {}
    cfg = dict(DEFAULTS)
    for section in SECTIONS:
        for key, value in (data.get(section) or {}).items():
            name = "%s.%s" % (section, key)
            cfg[name] = typed_yaml_value(name, value)
    overrides, unknown = parse_cli(argv[1:])
    cfg.update(overrides)          # the CLI wins over the YAML
    return cfg, unknown


def validate(cfg):
    if cfg["training.profile"]:
        if cfg["training.profile_step_start"] < 0:
            raise ValueError("`profile_step_start` must be >= 0")
        end = cfg["training.profile_step_end"]
        if not (end == -1 or end > cfg["training.profile_step_start"]):
            raise ValueError("`profile_step_end` must be > profile_step_start or -1")


def profile_this_rank(cfg, dist):
    ranks = cfg["training.profile_ranks"]
    return cfg["training.profile"] and (-1 in ranks or dist.rank in ranks)


def build_profiler(cfg, dist):
    import torch_npu
    tp = torch_npu.profiler
    levels = {"level_none": tp.ProfilerLevel.Level_none, "level0": tp.ProfilerLevel.Level0,
              "level1": tp.ProfilerLevel.Level1, "level2": tp.ProfilerLevel.Level2}
    level = cfg["training.profile_level"]
    if level not in levels:
        raise ValueError("Invalid profile_level: %s" % level)
    export = cfg["training.profile_export_type"]
    if export not in ("text", "db"):
        raise ValueError("Invalid profile_export_type: %s" % export)
    start, end = cfg["training.profile_step_start"], cfg["training.profile_step_end"]
    active = 1000000 if end == -1 else end - start
    activities = [tp.ProfilerActivity.NPU]
    if cfg["training.profile_with_cpu"]:
        activities.append(tp.ProfilerActivity.CPU)
    prof = tp.profile(
        activities=activities,
        schedule=tp.schedule(wait=0, warmup=0 if start == 0 else 1, active=active, repeat=1,
                             skip_first=max(0, start - 1)),
        on_trace_ready=tp.tensorboard_trace_handler(cfg["training.profile_save_path"]),
        record_shapes=cfg["training.profile_record_shapes"], profile_memory=cfg["training.profile_with_memory"],
        with_stack=cfg["training.profile_with_stack"],
        experimental_config=tp._ExperimentalConfig(
            aic_metrics=tp.AiCMetrics.PipeUtilization, profiler_level=levels[level],
            export_type=tp.ExportType.Db if export == "db" else tp.ExportType.Text,
            data_simplification=cfg["training.profile_data_simplification"]))
    prof.add_metadata_json("distributed_args", json.dumps({"rank": dist.rank, "world_size": dist.world_size}))
    return prof


def check_paths(cfg):
    for key in ("model.model_name_or_path", "model.tokenizer_name_or_path"):
        path = cfg.get(key)
        if path and not os.path.exists(str(path)):
            raise OSError("%s is not a local folder and is not a valid model identifier listed on "
                          "'https://huggingface.co/models'" % path)
    dataset = cfg.get("data.dataset")
    if dataset:
        for item in str(dataset).split(","):
            if not os.path.exists(item.strip()):
                raise FileNotFoundError("Unable to find '%s'" % item.strip())


def main():
    dist = train.Dist()
    console = train.Console(dist)
    try:
        cfg, unknown = load_config(sys.argv[1:])
    except UsageError as e:
        train.err("usage: train_fsdp2.py <config.yaml> [--section.field value ...]")
        train.err("train_fsdp2.py: error: %s" % e)
        return 2
    if unknown:
        console.rank0("[WARNING] Unknown arguments are ignored: %s" % " ".join(unknown))
    validate(cfg)
    train.init_device(dist)
    console.rank0("[INFO] TRAINING_BACKEND=%s, world size %d, fsdp size %s"
                  % (os.environ.get("TRAINING_BACKEND", "mindspeed_fsdp"), dist.world_size,
                     cfg.get("parallel.fsdp_size", dist.world_size)))
    check_paths(cfg)
    prof = None
    if profile_this_rank(cfg, dist):
        os.makedirs(cfg["training.profile_save_path"], exist_ok=True)
        prof = build_profiler(cfg, dist)
        prof.start()
    steps = cfg.get("training.max_steps") or SIM_DEFAULT_MAX_STEPS
    gbs = cfg["training.per_device_train_batch_size"] * cfg["training.gradient_accumulation_steps"] * dist.world_size
    console.rank0("training ...")
    train.train_loop(dist, console, int(steps), global_batch_size=gbs, lr=float(cfg["training.lr"]),
                     loss_name="loss", on_step=prof.step if prof else None)
    if prof:
        prof.stop()
    console.rank0("[after training is done] datetime: %s " % train.now())
    return 0
