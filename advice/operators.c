/*
 * Rules of the operators (kernel_details.csv, every rank together): the
 * flags of the top-operator table (AI_CPU tasks, low pipe utilisation),
 * operators compiled at run time (api_statistic.csv), an operator that
 * dominates without being one of those a transformer is made of, format
 * conversion, and the unfused forms of the kernels MindSpeed can fuse.
 *
 * How the unfused forms were identified: MindSpeed's fused paths call
 * torch_npu.npu_fusion_attention, npu_rms_norm, npu_swiglu and
 * npu_rotary_position_embedding (mindspeed/core/fusions/, 028de58), whose
 * aclnn kernels are FlashAttentionScore(Grad), RmsNorm(Grad), SwiGlu(Grad)
 * and RotaryPositionEmbedding(Grad) (RotaryMul for the older
 * npu_rotary_mul; AddRmsNorm for npu_add_rms_norm).  Their unfused paths
 * are PyTorch operators, each an aclnn kernel named by the l0op it runs
 * (CANN's ops: aclnnSoftmax runs SoftmaxV2, aclnnSilu Swish,
 * aclnnSiluBackward SiluGrad, aclnnRsqrt Rsqrt): softmax for attention (or
 * ScaledMaskedSoftmax(Grad) with MindSpeed's fused softmax, op-plugin's
 * aclops, and ScaledMaskedSoftmaxV2 and ScaledMaskedSoftmaxGradV2 where
 * its aclnn path runs), x * rsqrt(mean(x^2) + eps) for RMSNorm
 * (fused_rms_norm.py's unfused_rmsnorm), silu(a) * b for SwiGLU, and
 * (t * cos) + (rotate_half(t) * sin) for rotary embedding, whose
 * rotate_half negates half of t (Neg).  msprof-analyze's
 * timeline_fusion_ops.yaml lists the same PyTorch sequences.  A marker
 * kernel that only the unfused form runs, with no fused kernel at all, is
 * the finding.
 *
 * Swish, Rsqrt and Neg also run outside those forms: the SiLU of a
 * diffusion transformer's time embedding (MindSpeed-MM's Wan DiT, a few a
 * step), Mamba's A = -exp(A_log) (a Neg a layer, and no attention), a
 * subtraction's backward.  The unfused forms of RMSNorm, rotary embedding
 * and SwiGLU run in every transformer layer, as attention does: their
 * markers must come at least once for every two attention kernels
 * (forward), in a job that runs attention at all.
 *
 * Dynamic shapes: torch_npu runs its aclnn kernels, and the binary kernels
 * of its older operators, as dynamic-shape kernels that nothing compiles,
 * so every kernel of a real run has OP State dynamic and that state is no
 * finding.  What costs is an operator compiled while the job runs (the
 * aclop path, jit_compile on, a shape not seen before): CANN times that
 * step as opCompile in api_statistic.csv, microseconds when its cache has
 * the operator and milliseconds to seconds when it compiles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules.h"

#define MAX_LISTED	5

/* "A, B (and 3 more)" of the operator types WANT picks. */
static char *
op_list(const struct summary *s, int (*want)(const struct summary *,
    const struct op *), size_t *n)
{
	struct op **v = optab_sorted(ops_all(s, NULL));
	char *out = xstrdup(""), *t;
	size_t i, shown = 0;

	*n = 0;
	for (i = 0; v[i] != NULL; i++) {
		if (!want(s, v[i]))
			continue;
		if (shown++ < MAX_LISTED) {
			t = xasprintf("%s%s%s", out, *out ? ", " : "", v[i]->type);
			free(out);
			out = t;
		}
		(*n)++;
	}
	if (*n > MAX_LISTED) {
		t = xasprintf(_("%s (and %zu more)"), out, *n - MAX_LISTED);
		free(out);
		out = t;
	}
	free(v);
	return out;
}

static int
want_aicpu(const struct summary *s, const struct op *op)
{
	return op_aicpu(op);
}

/*
 * A finding for the operator types WANT picks, when there are any, and
 * their list in *LIST (the caller's to free).
 */
static struct finding *
listed(const struct rule *rule, struct advice *a,
    int (*want)(const struct summary *, const struct op *), char **list)
{
	size_t n;
	struct finding *f;

	*list = NULL;
	if (ops_all(a->s, NULL) == NULL)
		return NULL;
	*list = op_list(a->s, want, &n);
	if (n == 0)
		return NULL;
	f = finding_new(a, rule);
	finding_figure(f, "operator_types", (double)n);
	return f;
}

static void
check_aicpu(const struct rule *rule, struct advice *a)
{
	char *list;
	struct finding *f = listed(rule, a, want_aicpu, &list);

	if (f != NULL)
		finding_text(f, _("AI_CPU tasks of %.0f us or more: %s"),
		    rule->threshold, list);
	free(list);
}

/* opCompile's time a step, in microseconds; NaN when not known. */
static double
compile_per_step(const struct summary *s, size_t i)
{
	const struct rank_data *r = &s->r[i];

	if (r->steps_why != NULL || r->nsteps == 0 ||
	    !(r->mean.step_time > 0))
		return NAN;
	return ops_compile_us(s, i) / (double)r->nsteps;
}

static double
compile_share(const struct rule *rule, const struct summary *s, size_t i)
{
	return compile_per_step(s, i) / s->r[i].mean.step_time;
}

static void
check_dynamic(const struct rule *rule, struct advice *a)
{
	struct finding *f;
	double worst, wt;
	size_t at;

	if ((f = finding_over(a, rule, compile_share, 0, &worst,
	    &at)) == NULL)
		return;
	wt = compile_per_step(a->s, at);
	finding_text(f, _("operators are compiled while the job runs: "
	    "opCompile takes %.1f ms a step, %.1f %% of the step (the most; "
	    "threshold %.0f %%)"), wt / 1000, 100 * worst,
	    100 * rule->threshold);
	finding_figure(f, "compile_share_max", worst);
	finding_figure(f, "compile_us_per_step", wt);
}

static void
check_low_pipe(const struct rule *rule, struct advice *a)
{
	char *list;
	struct finding *f = listed(rule, a, op_low_pipe, &list);

	if (f != NULL)
		finding_text(f, _("operators of %.0f %% or more of the device "
		    "time whose pipe ratios all average below %.1f: %s"),
		    100 * LOW_PIPE_SHARE, rule->threshold, list);
	free(list);
}

/*
 * Matrix multiplies and attention are what a transformer spends its
 * device time on: their leading the table is no finding.
 */
static int
expected_leader(const char *type)
{
	static const char *const normal[] = { "matmul", "conv",
	    "flashattention", "attention", NULL };
	size_t i;

	for (i = 0; normal[i] != NULL; i++)
		if (strcasestr(type, normal[i]) != NULL)
			return 1;
	return 0;
}

/*
 * torch_npu's level0 kernel_details.csv has N/A for every kernel's type:
 * no operator type, and all of them together.
 */
static int
no_type(const char *type)
{
	return *type == '\0' || strcmp(type, "N/A") == 0;
}

static void
check_dominant(const struct rule *rule, struct advice *a)
{
	const struct optab *t = ops_all(a->s, NULL);
	struct op **v;
	size_t i;

	if (t == NULL || !(t->total > 0))
		return;
	v = optab_sorted(t);
	for (i = 0; v[i] != NULL && (expected_leader(v[i]->type) ||
	    no_type(v[i]->type)); i++)
		;
	if (v[i] != NULL && v[i]->total >= rule->threshold * t->total) {
		struct finding *f = finding_new(a, rule);

		finding_text(f, _("%s (%s) takes %.1f %% of the device time of "
		    "all operators (threshold %.0f %%; matrix multiplies and "
		    "attention, which lead a transformer, do not count)"),
		    v[i]->type, v[i]->core, 100 * v[i]->total / t->total,
		    100 * rule->threshold);
		finding_figure(f, "share", v[i]->total / t->total);
	}
	free(v);
}

/*
 * TransData converts between a tensor's base format and the internal
 * ones the kernels prefer (NC1HWC0, FRACTAL_Z, FRACTAL_NZ), which
 * torch_npu keeps tensors in while allow_internal_format is on.
 */
static void
check_transdata(const struct rule *rule, struct advice *a)
{
	const struct optab *t = ops_all(a->s, NULL);
	struct op **v;
	double total = 0;
	unsigned long n = 0;
	size_t i;

	if (t == NULL || !(t->total > 0))
		return;
	v = optab_sorted(t);
	for (i = 0; v[i] != NULL; i++)
		if (strcmp(v[i]->type, "TransData") == 0) {
			total += v[i]->total;
			n += v[i]->count;
		}
	free(v);
	if (total >= rule->threshold * t->total) {
		struct finding *f = finding_new(a, rule);

		finding_text(f, _("format conversion: TransData takes %.1f %% "
		    "of the device time of all operators (%lu kernels; "
		    "threshold %.0f %%)"), 100 * total / t->total, n,
		    100 * rule->threshold);
		finding_figure(f, "share", total / t->total);
		finding_figure(f, "kernels", (double)n);
	}
}

/* The kernels of a fused form and the marker of its unfused form. */
struct form {
	const char	*what;		/* N_() */
	const char	*fused[6];
	const char	*marker[7];
	int		 per_attention;	/* the rule's threshold is per attention
					   kernel, not per step */
};

/* The forward attention kernels, fused or not: one a layer and micro-batch. */
static const char *const attention_kernels[] = { "FlashAttentionScore",
	"SoftmaxV2", "ScaledMaskedSoftmax", "ScaledMaskedSoftmaxV2", NULL };

static const struct form attention = { N_("attention"),
	{ "FlashAttentionScore", "FlashAttentionScoreGrad", NULL },
	{ "SoftmaxV2", "SoftmaxGrad", "ScaledMaskedSoftmax",
	    "ScaledMaskedSoftmaxGrad", "ScaledMaskedSoftmaxV2",
	    "ScaledMaskedSoftmaxGradV2", NULL }, 0 };
static const struct form rmsnorm = { N_("RMSNorm"),
	{ "RmsNorm", "RmsNormGrad", "AddRmsNorm", NULL },
	{ "Rsqrt", NULL }, 1 };
static const struct form rotary = { N_("rotary embedding"),
	{ "RotaryPositionEmbedding", "RotaryPositionEmbeddingGrad",
	    "RotaryMul", "RotaryMulGrad", NULL },
	{ "Neg", NULL }, 1 };
static const struct form swiglu = { N_("SwiGLU"),
	{ "SwiGlu", "SwiGluGrad", NULL },
	{ "Swish", "SiluGrad", NULL }, 1 };

static int
one_of(const char *type, const char *const names[])
{
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(type, names[i]) == 0)
			return 1;
	return 0;
}

/* The kernels of FORM and the attention kernels, over all the ranks. */
struct kernels {
	double		 fused, count, time, attention;
	struct strv	 types;	/* the marker types that ran, each once */
};

static void
count_kernels(const struct optab *t, const struct form *form,
    struct kernels *k)
{
	struct op **v = optab_sorted(t);
	size_t i;

	for (i = 0; v[i] != NULL; i++) {
		if (one_of(v[i]->type, attention_kernels))
			k->attention += (double)v[i]->count;
		if (one_of(v[i]->type, form->fused))
			k->fused += (double)v[i]->count;
		else if (one_of(v[i]->type, form->marker)) {
			k->count += (double)v[i]->count;
			k->time += v[i]->total;
			if (!strv_has(&k->types, v[i]->type))
				strv_push(&k->types, v[i]->type);
		}
	}
	free(v);
}

static void
check_unfused(const struct rule *rule, struct advice *a,
    const struct form *form)
{
	size_t steps;
	const struct optab *t = ops_all(a->s, &steps);
	struct kernels k = { 0, 0, 0, 0, { 0 } };
	double per_step, ratio, share;
	struct finding *f;
	char *types;

	if (t == NULL || steps == 0)
		return;
	count_kernels(t, form, &k);
	per_step = k.count / (double)steps;
	ratio = k.attention > 0 ? k.count / k.attention : NAN;
	share = t->total > 0 ? k.time / t->total : NAN;
	if (k.fused > 0 || !(form->per_attention ? ratio >= rule->threshold :
	    per_step >= rule->threshold)) {
		strv_free(&k.types);
		return;
	}
	f = finding_new(a, rule);
	types = strv_join(k.types.v, ", ");
	if (form->per_attention)
		finding_text(f, _("unfused %s: %s kernels, %.0f a step on each "
		    "rank, %.1f for each attention kernel (%.1f %% of the "
		    "device time), and no %s kernel"), _(form->what), types,
		    per_step, ratio, isnan(share) ? 0 : 100 * share,
		    form->fused[0]);
	else
		finding_text(f, _("unfused %s: %s kernels, %.0f a step on each "
		    "rank (%.1f %% of the device time), and no %s kernel"),
		    _(form->what), types, per_step,
		    isnan(share) ? 0 : 100 * share, form->fused[0]);
	finding_figure(f, "per_step", per_step);
	finding_figure(f, "per_attention_kernel", ratio);
	finding_figure(f, "share", share);
	free(types);
	strv_free(&k.types);
}

static void
check_attention(const struct rule *rule, struct advice *a)
{
	check_unfused(rule, a, &attention);
}

static void
check_rmsnorm(const struct rule *rule, struct advice *a)
{
	check_unfused(rule, a, &rmsnorm);
}

static void
check_rotary(const struct rule *rule, struct advice *a)
{
	check_unfused(rule, a, &rotary);
}

static void
check_swiglu(const struct rule *rule, struct advice *a)
{
	check_unfused(rule, a, &swiglu);
}

static const struct setting *const compile_settings[] = {
	&set_compile_mode, &set_internal_format, NULL,
};
static const struct setting *const format_settings[] = {
	&set_internal_format, NULL,
};
static const struct setting *const flash_settings[] = {
	&set_flash_attn, NULL,
};
static const struct setting *const rmsnorm_settings[] = {
	&set_fused_rmsnorm, NULL,
};
static const struct setting *const rotary_settings[] = {
	&set_fused_rotary, NULL,
};

static const struct rule rules[] = {
	{ "aicpu-operator", "AI_CPU tasks of each operator type",
	    AICPU_LONG_US, "a task of 20 us",
	    N_("AI_CPU runs what AI Core does not: look at the operator's "
	    "input types (int64, double) and shapes, or a fused replacement"),
	    NULL, check_aicpu },
	{ "dynamic-shape", "opCompile time in each rank's api_statistic.csv "
	    "against its step (OP State dynamic alone is every aclnn kernel)",
	    0.03, "3 % of the step (msprof-analyze advisor: operator "
	    "compilation 3 % of the step medium, 5 % high priority)",
	    N_("operators compiled at run time: turn off online compilation "
	    "(binary kernels), or pad the inputs to a few fixed shapes so "
	    "that each is compiled once"), compile_settings, check_dynamic },
	{ "low-pipe-utilisation", "the *_ratio columns of PipeUtilization",
	    LOW_PIPE, "every ratio below 0.4, in an operator of 5 % of the "
	    "device time",
	    N_("look at the operator's shapes and formats (tiling, "
	    "alignment to 16 elements), or a fused replacement"), NULL,
	    check_low_pipe },
	{ "dominant-operator", "the share of device time of the first "
	    "operator that is not a matrix multiply or attention", 0.30,
	    "30 % of the device time",
	    N_("look at why it runs so long or so often: a data type or "
	    "format conversion (Cast, TransData) that a fused kernel or a "
	    "bf16 path avoids"), NULL, check_dominant },
	{ "format-conversion", "the share of TransData in the device time of "
	    "all operators", 0.05, "5 % of the device time (msprof-analyze "
	    "advisor rates an issue of 5 % of the step time high priority, "
	    "base_analyzer.py; MindSpeed-LLM's FSDP2 tuning guide, whose "
	    "remedy this is, names no figure)",
	    N_("conversions a kernel needs (NCHW to NC1HWC0 before a "
	    "convolution) remain: measure again after the change"),
	    format_settings, check_transdata },
	{ "unfused-attention", "SoftmaxV2, SoftmaxGrad, ScaledMaskedSoftmax "
	    "(Grad, V2) kernels without FlashAttentionScore", 1,
	    "once a step on each rank", NULL, flash_settings,
	    check_attention },
	{ "unfused-rmsnorm", "Rsqrt kernels without RmsNorm, against the "
	    "attention kernels", 0.5, "once for every two attention kernels",
	    NULL, rmsnorm_settings, check_rmsnorm },
	{ "unfused-rotary", "Neg kernels without RotaryPositionEmbedding "
	    "or RotaryMul, against the attention kernels", 0.5,
	    "once for every two attention kernels", NULL, rotary_settings,
	    check_rotary },
	{ "unfused-swiglu", "Swish, SiluGrad kernels without SwiGlu, against "
	    "the attention kernels", 0.5,
	    "once for every two attention kernels",
	    /* MindSpeed runs Megatron's fused SwiGLU as npu_swiglu whatever
	     * its --use-fused-swiglu says: no flag turns it on */
	    N_("Megatron fuses SwiGLU (MindSpeed runs it as SwiGlu) unless "
	    "--no-bias-swiglu-fusion is given: drop that flag; an MLP "
	    "outside Megatron can call torch_npu.npu_swiglu"), NULL,
	    check_swiglu },
};

const struct family family_operators = {
	"operators", rules, sizeof(rules) / sizeof(rules[0]),
};
