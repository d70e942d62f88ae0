/*
 * The settings table: every row is found by its name, and its "safe to
 * try" mark keeps `msprof-exec tune` to settings that change neither the
 * numerics nor the checkpoints unless the user names them: a line of
 * code never (tune cannot set it), batch sizes, stage layouts and
 * recompute only when asked; scheduling, queues and fused kernels unasked.
 */
#include <string.h>

#include "tap.h"
#include "common/settings.h"

static int
safe(const char *name)
{
	const struct setting *set = setting_named(name);

	return set != NULL && set->trial == TRIAL_SAFE;
}

static void
every_row(void)
{
	const struct setting *set;
	size_t i, code_safe = 0, unnamed = 0, nsafe = 0, stray = 0;

	for (i = 0; (set = setting_nth(i)) != NULL; i++) {
		if (setting_named(set->name) != set)
			unnamed++;
		for (size_t k = 0; set->needs != NULL && set->needs[k] != NULL;
		    k++)
			stray += set->needs[k] == set ||
			    setting_named(set->needs[k]->name) != set->needs[k];
		if (set->kind == SET_CODE && set->trial == TRIAL_SAFE)
			code_safe++;
		nsafe += set->trial == TRIAL_SAFE;
	}
	ok(i >= 40, "the table has its %zu rows", i);
	is_int(unnamed, 0, "every row is found by its own name");
	is_int(stray, 0, "what a row needs is another row of the table");
	is_int(code_safe, 0, "no line of code is safe to try: tune cannot "
	    "set it");
	ok(nsafe > 0 && nsafe < i, "some rows are safe to try, not all "
	    "(%zu of %zu)", nsafe, i);
}

/* Megatron refuses --overlap-param-gather without both of these. */
static void
needs(void)
{
	const struct setting *pg = setting_named("--overlap-param-gather");
	const char *got = "";

	ok(pg != NULL && pg->needs != NULL && pg->needs[0] != NULL &&
	    pg->needs[1] != NULL && pg->needs[2] == NULL,
	    "--overlap-param-gather needs two settings");
	if (pg != NULL && pg->needs != NULL && pg->needs[0] != NULL)
		got = pg->needs[0]->name;
	is_str(got, "--use-distributed-optimizer", "... the distributed "
	    "optimizer first");
	ok(setting_named("--overlap-grad-reduce")->needs == NULL,
	    "--overlap-grad-reduce runs alone");
}

static void
marks(void)
{
	static const char *const yes[] = { "--overlap-grad-reduce",
	    "--overlap-param-gather", "TASK_QUEUE_ENABLE", "CPU_AFFINITY_CONF",
	    "--num-workers", "--use-flash-attn", "--use-fused-rmsnorm",
	    "--use-fused-rotary-pos-emb", "--ddp-bucket-size",
	    "PYTORCH_NPU_ALLOC_CONF", NULL };
	static const char *const no[] = { "--global-batch-size",
	    "--micro-batch-size", "--use-distributed-optimizer",
	    "--num-layers-per-virtual-pipeline-stage", "--num-layer-list",
	    "--recompute-granularity", "--recompute-activation-function",
	    "features.recompute", "--reuse-fp32-param",
	    "torch_npu.npu.config.allow_internal_format = False", NULL };

	for (size_t i = 0; yes[i] != NULL; i++)
		ok(safe(yes[i]), "%s is safe to try", yes[i]);
	for (size_t i = 0; no[i] != NULL; i++)
		ok(setting_named(no[i]) != NULL && !safe(no[i]),
		    "%s is tried only when named", no[i]);
	ok(setting_nth(1000) == NULL, "no row past the last");
}

int
main(void)
{
	every_row();
	needs();
	marks();
	return done_testing();
}
