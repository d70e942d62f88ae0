"""torch_npu.profiler stand-in (see sim/README.md)."""

from .profiler import profile, tensorboard_trace_handler, ProfilerActivity, supported_activities, analyse
from .scheduler import Schedule as schedule, ProfilerAction
from .experimental_config import _ExperimentalConfig, ProfilerLevel, AiCMetrics, ExportType

__all__ = ["profile", "schedule", "tensorboard_trace_handler", "ProfilerActivity", "ProfilerAction",
           "_ExperimentalConfig", "ProfilerLevel", "AiCMetrics", "ExportType", "supported_activities",
           "dynamic_profile"]

