/*
 * Which engines read the settings of each scope: a fact of the engines,
 * which --set (apply.c) and the advice (advice/launch.c) both ask.
 */
#include "scope.h"

int
engine_reads_scope(enum engine e, enum setting_scope scope)
{
	switch (scope) {
	case SCOPE_MEGATRON:
		return e == ENGINE_LLM_MCORE || e == ENGINE_MM_MEGATRON ||
		    e == ENGINE_MM_YAML;
	case SCOPE_MM_FSDP2:
		return e == ENGINE_MM_FSDP2;
	case SCOPE_DDP:
	case SCOPE_DEEPSPEED:
		return e == ENGINE_TORCH;
	default:
		return 1;
	}
}
