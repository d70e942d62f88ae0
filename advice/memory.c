/*
 * Rules of the device memory (memory_record.csv, with --with memory):
 * each rank's peak against the device's capacity, which the session
 * records from npu-smi (unknown without one: no finding then).
 */
#include <math.h>
#include <stdlib.h>

#include "rules.h"

/*
 * The thresholds against npu-smi's HBM total: of the 65536 MB an Atlas
 * 800T A2 shows, torch_npu's allocator reports about 60.96 GiB as the
 * total capacity in its out-of-memory message (the rest is the driver's),
 * so a peak of 90 % is within some 5 % of running out.  Below half on
 * every rank, twice the activations of a micro-batch fit even if all of
 * the memory were activations.  The peak is the APP rows' (the process
 * as the driver counts it); from the allocator's rows alone it reads
 * lower, without HCCL's buffers and the driver's own.
 */
#define HEADROOM	0.50	/* every rank below this: room to grow */

static void
check_near_limit(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	double cap = a->in.device_mb;
	struct finding *f = NULL;
	size_t i, worst = 0;
	char lab[LABEL_MAX];

	if (!(cap > 0))
		return;
	for (i = 0; i < s->nr; i++) {
		if (!(mem_peak_of(s, i) >= rule->threshold * cap))
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		finding_who(f, i);
		if (f->nwho == 1 || mem_peak_of(s, i) > mem_peak_of(s, worst))
			worst = i;
	}
	if (f == NULL)
		return;
	finding_text(f, _("peak device memory is %.0f MB, %.1f %% of the %.0f "
	    "MB device (the most, %s; threshold %.0f %%): close to running "
	    "out"), mem_peak_of(s, worst),
	    100 * mem_peak_of(s, worst) / cap, cap,
	    rank_label(&s->r[worst], lab, sizeof(lab)), 100 * rule->threshold);
	finding_figure(f, "peak_mb", mem_peak_of(s, worst));
	finding_figure(f, "device_mb", cap);
}

static void
check_headroom(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	double cap = a->in.device_mb, hi = -INFINITY;
	struct finding *f;
	size_t i, n = 0;

	if (!(cap > 0))
		return;
	for (i = 0; i < s->nr; i++)
		if (!isnan(mem_peak_of(s, i))) {
			hi = fmax(hi, mem_peak_of(s, i));
			n++;
		}
	if (n == 0 || !(hi < rule->threshold * cap))
		return;
	f = finding_new(a, rule);
	for (i = 0; i < s->nr; i++)
		if (!isnan(mem_peak_of(s, i)))
			finding_who(f, i);
	finding_text(f, _("peak device memory is at most %.0f MB, %.1f %% of "
	    "the %.0f MB device (threshold %.0f %% on every rank): room for a "
	    "larger micro-batch, or less recompute"), hi, 100 * hi / cap, cap,
	    100 * rule->threshold);
	finding_figure(f, "peak_mb", hi);
	finding_figure(f, "device_mb", cap);
}

static const struct setting *const near_settings[] = {
	&set_recompute_granularity, &set_recompute_method,
	&set_recompute_num_layers, &set_recompute_activation,
	&set_swap_attention, &set_reuse_fp32_param, &set_alloc_conf,
	&set_mm_recompute, NULL,
};
static const struct setting *const room_settings[] = {
	&set_micro_batch, &set_recompute_granularity,
	&set_recompute_num_layers, &set_mm_recompute, NULL,
};

static const struct rule rules[] = {
	{ "memory-near-limit", "peak Total Reserved(MB) of each rank against "
	    "npu-smi's HBM", 0.90, "90 % of the device's memory", NULL,
	    near_settings, check_near_limit },
	{ "memory-headroom", "the highest peak Total Reserved(MB) against "
	    "npu-smi's HBM", HEADROOM, "50 % of the device's memory",
	    NULL, room_settings, check_headroom },
};

const struct family family_memory = {
	"memory", rules, sizeof(rules) / sizeof(rules[0]),
};
