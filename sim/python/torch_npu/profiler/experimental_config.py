"""torch_npu.profiler._ExperimentalConfig and its enum-like constant holders."""

from ._log import print_warn_msg

__all__ = ["ProfilerLevel", "AiCMetrics", "ExportType", "_ExperimentalConfig"]


class ProfilerLevel:
    Level_none = "Level_none"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class AiCMetrics:
    AiCoreNone = "ACL_AICORE_NONE"
    PipeUtilization = "ACL_AICORE_PIPE_UTILIZATION"
    ArithmeticUtilization = "ACL_AICORE_ARITHMETIC_UTILIZATION"
    Memory = "ACL_AICORE_MEMORY_BANDWIDTH"
    MemoryL0 = "ACL_AICORE_L0B_AND_WIDTH"
    ResourceConflictRatio = "ACL_AICORE_RESOURCE_CONFLICT_RATIO"
    MemoryUB = "ACL_AICORE_MEMORY_UB"
    L2Cache = "ACL_AICORE_L2_CACHE"
    MemoryAccess = "ACL_AICORE_MEMORY_ACCESS"


class ExportType:
    Text = "text"
    Db = "db"


_LEVELS = (ProfilerLevel.Level_none, ProfilerLevel.Level0, ProfilerLevel.Level1, ProfilerLevel.Level2)
_AIC = tuple(v for k, v in vars(AiCMetrics).items() if not k.startswith("_"))
# names used in profiler_config.json (dynamic profiling) -> values
AIC_BY_NAME = {k: v for k, v in vars(AiCMetrics).items() if not k.startswith("_")}
LEVEL_BY_NAME = {"Level_none": ProfilerLevel.Level_none, "Level0": ProfilerLevel.Level0,
                 "Level1": ProfilerLevel.Level1, "Level2": ProfilerLevel.Level2}


class _ExperimentalConfig:
    def __init__(self, profiler_level=ProfilerLevel.Level0, aic_metrics=AiCMetrics.AiCoreNone,
                 l2_cache=False, msprof_tx=False, data_simplification=True, record_op_args=False,
                 op_attr=False, gc_detect_threshold=None, export_type=ExportType.Text,
                 host_sys=None, mstx_domain_include=None, mstx_domain_exclude=None,
                 sys_io=False, sys_interconnection=False, mstx=False):
        self._profiler_level = profiler_level
        self._aic_metrics = aic_metrics
        self._l2_cache = l2_cache
        self._msprof_tx = msprof_tx
        self._mstx = mstx
        self._data_simplification = data_simplification
        self._record_op_args = record_op_args
        self._op_attr = op_attr
        self._gc_detect_threshold = gc_detect_threshold
        self._export_type = export_type
        self._host_sys = list(host_sys or [])
        self._mstx_domain_include = list(mstx_domain_include or [])
        self._mstx_domain_exclude = list(mstx_domain_exclude or [])
        self._sys_io = sys_io
        self._sys_interconnection = sys_interconnection
        self._check_params()

    def _check_params(self):
        if self._profiler_level not in _LEVELS:
            print_warn_msg("Invalid parameter profiler_level, reset it to ProfilerLevel.Level0.")
            self._profiler_level = ProfilerLevel.Level0
        if self._aic_metrics not in _AIC:
            print_warn_msg("Invalid parameter aic_metrics, reset it to default.")
            self._aic_metrics = AiCMetrics.AiCoreNone
        if self._profiler_level in (ProfilerLevel.Level1, ProfilerLevel.Level2) \
                and self._aic_metrics == AiCMetrics.AiCoreNone:
            self._aic_metrics = AiCMetrics.PipeUtilization
        types = self.export_types()
        if not types or any(t not in (ExportType.Text, ExportType.Db) for t in types):
            print_warn_msg("Invalid parameter export_type, reset it to text.")
            self._export_type = ExportType.Text
        if self._profiler_level == ProfilerLevel.Level_none and ExportType.Db in self.export_types():
            print_warn_msg("Level_none does not support db export type, parsed data of db will be empty.")

    def export_types(self):
        et = self._export_type
        if isinstance(et, (list, tuple, set)):
            out = []
            for t in et:
                t = str(t).lower()
                if t not in out:
                    out.append(t)
            return out
        return [str(et).lower()] if et is not None else []

    def to_dict(self):
        """profiler_info.json's experimental_config: torch_npu dumps the object's
        __dict__, so the keys come in the order __init__ sets them, and
        record_op_args has no leading underscore."""
        return {
            "_profiler_level": self._profiler_level,
            "_aic_metrics": self._aic_metrics,
            "_l2_cache": self._l2_cache,
            "_msprof_tx": self._msprof_tx,
            "_mstx": self._mstx,
            "_data_simplification": self._data_simplification,
            "record_op_args": self._record_op_args,
            "_export_type": self.export_types(),
            "_host_sys": self._host_sys,
            "_op_attr": self._op_attr,
            "_gc_detect_threshold": self._gc_detect_threshold,
            "_mstx_domain_include": self._mstx_domain_include,
            "_mstx_domain_exclude": self._mstx_domain_exclude,
            "_sys_io": self._sys_io,
            "_sys_interconnection": self._sys_interconnection,
        }
