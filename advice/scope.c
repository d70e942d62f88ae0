/*
 * Which launches read a setting, by its scope: one answer for the advice
 * (advice/launch.c: is the setting's state in this launch worth showing)
 * and for --set (engines/apply.c: may the rewrite give it).  Its own file
 * so that the injector, which links --set, does not take the advice's
 * reading of the journal with it.
 */
#include "rules.h"

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
