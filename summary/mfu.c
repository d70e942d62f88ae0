/*
 * How far the run is from the hardware: the model FLOPs utilisation (MFU)
 * of the profiled steps.  The model's FLOPs per step come from the
 * launch's own arguments (the session journal's command line), counted
 * as Megatron's num_floating_point_operations counts them for its
 * "throughput per GPU (TFLOP/s/GPU)" log line, so that the two figures
 * can be compared; they are divided by the mean profiled step time
 * (step_trace_time, read by steps.c), the world size and the chip's peak.
 * The peak is the one msprof-analyze computes for its operator MFU: the
 * AI cores of the raw data's device description (info.json.N in a
 * PROF_* directory's device_N) times their frequency times the cube's
 * 16 x 16 x 16 multiply-adds a cycle (fp16 and bf16).  Data without that
 * description (a db-only export, a copy without PROF_*) takes the same two
 * figures from the session: the chip npu-smi named when the run began,
 * and its AI cores and cube clock in CANN's platform_config/Ascend<chip>.ini.
 * The report says which source it used.
 * What is not known is said, with the reason, never guessed.  The report
 * prints it (report/summary_text.c, summary_json.c, summary_html.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal.h"
#include "common/jsonfile.h"
#include "common/util.h"
#include "common/yamldoc.h"
#include "engines/engine.h"
#include "engines/window.h"
#include "inventory.h"
#include "mfu.h"
#include "model.h"

/*
 * The value of the last FLAG in AV ("--flag V" or "--flag=V", as argparse
 * takes them; the last one wins), or NULL.
 */
static const char *
arg_value(const struct strv *av, const char *flag)
{
	const char *v = NULL;
	size_t i, n = strlen(flag);

	for (i = 0; i < av->n; i++) {
		if (strncmp(av->v[i], flag, n) != 0)
			continue;
		if (av->v[i][n] == '=')
			v = av->v[i] + n + 1;
		else if (av->v[i][n] == '\0' && i + 1 < av->n)
			v = av->v[i + 1];
	}
	return v;
}

/* A positive number of text V, else -1. */
static double
positive(const char *v)
{
	char *end;
	double d;

	if (v == NULL)
		return -1;
	d = strtod(v, &end);
	return end != v && *end == '\0' && isfinite(d) && d > 0 ? d : -1;
}

/* A positive number for FLAG, DEF when it is not given, -1 when it is bad. */
static double
arg_num(const struct strv *av, const char *flag, double def)
{
	const char *v = arg_value(av, flag);

	return v == NULL ? def : positive(v);
}

/* A number, or a number's text ("1800"), of O; NAN otherwise. */
static double
json_value(const cJSON *o, const char *key)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, key);
	char *end;
	double d;

	if (cJSON_IsNumber(e))
		return e->valuedouble;
	if (!cJSON_IsString(e))
		return NAN;
	d = strtod(e->valuestring, &end);
	return end != e->valuestring && *end == '\0' ? d : NAN;
}

/*
 * The padded vocabulary Megatron's log prints while it builds the
 * tokenizer: "> padded vocab (size: 151669) with 331 dummy tokens (new
 * size: 152000)"; NAN when the log has none.
 */
static double
log_vocab(const char *log)
{
	const char *p = log, *q;
	double v = NAN;

	while (p != NULL && (p = strstr(p, "padded vocab (size: ")) != NULL) {
		p += 20;
		if ((q = strstr(p, "(new size: ")) != NULL &&
		    q < p + strcspn(p, "\n"))
			v = strtod(q + 11, NULL);
	}
	return v > 0 ? v : NAN;
}

/* A flag with a bad value: said, naming it. */
static char *
bad_arg(const char *flag, const struct strv *av)
{
	return xasprintf(_("%s is \"%s\", not a positive number"), flag,
	    arg_value(av, flag));
}

/*
 * The shape from the arguments, with Megatron's defaults: the FFN of 4 h
 * (of 8 h / 3, cut to a multiple of 64, with SwiGLU), kv_channels h /
 * heads, the query groups of --group-query-attention only, every layer an
 * MoE layer when there are experts (--moe-layer-freq 1), 2 experts a
 * token.  NULL, or why not.
 */
static char *
shape_read(struct shape *m, const struct strv *av, const char *log,
    const struct layout *lay)
{
	static const char *const need[] = { "--num-layers", "--hidden-size",
	    "--num-attention-heads", "--seq-length" };
	static const char *const unsupported[] = {
		"--multi-latent-attention", "--is-hybrid-model",
		"--hybrid-override-pattern", "--experimental-attention-variant",
		"--moe-latent-size",
	};
	struct { const char *flag; double *to, def; } f[] = {
		{ "--num-layers", &m->layers, NAN },
		{ "--hidden-size", &m->hidden, NAN },
		{ "--num-attention-heads", &m->heads, NAN },
		{ "--seq-length", &m->seq, NAN },
		{ "--ffn-hidden-size", &m->ffn, NAN },
		{ "--kv-channels", &m->kv, NAN },
		{ "--num-query-groups", &m->groups, 1 },
		{ "--global-batch-size", &m->batch, NAN },
		{ "--num-experts", &m->experts, NAN },
		{ "--moe-router-topk", &m->topk, 2 },
		{ "--moe-ffn-hidden-size", &m->moe_ffn, NAN },
		{ "--moe-shared-expert-intermediate-size", &m->shared, 0 },
		{ "--moe-layer-freq", &m->freq, 1 },
		{ "--mtp-num-layers", &m->mtp, 0 },
		{ "--padded-vocab-size", &m->vocab, NAN },
	};
	size_t i;
	double mb, tp, div, v;

	for (i = 0; i < sizeof(unsupported) / sizeof(*unsupported); i++)
		if (arg_value(av, unsupported[i]) != NULL ||
		    strv_has(av, unsupported[i]))
			return xasprintf(_("%s: a model Megatron's dense and "
			    "MoE count does not cover"), unsupported[i]);
	for (i = 0; i < sizeof(need) / sizeof(*need); i++)
		if (arg_value(av, need[i]) == NULL)
			return xasprintf(_("the launch has no %s"), need[i]);
	for (i = 0; i < sizeof(f) / sizeof(*f); i++)
		if ((*f[i].to = arg_num(av, f[i].flag, f[i].def)) < 0)
			return bad_arg(f[i].flag, av);
	m->swiglu = strv_has(av, "--swiglu");
	if (!strv_has(av, "--group-query-attention"))
		m->groups = m->heads;
	if (isnan(m->ffn))
		m->ffn = m->swiglu ? floor(4 * m->hidden * 2 / 3 / 64) * 64 :
		    4 * m->hidden;
	if (isnan(m->kv))
		m->kv = floor(m->hidden / m->heads);
	if (isnan(m->moe_ffn))
		m->moe_ffn = m->ffn;
	if (isnan(m->batch)) {
		/* Megatron: one micro-batch a data-parallel rank */
		if ((mb = arg_num(av, "--micro-batch-size", 1)) < 0)
			return bad_arg("--micro-batch-size", av);
		if (!lay->known || lay->dp <= 0)
			return xstrdup(_("the launch has no --global-batch-size "
			    "and the data-parallel size is not known"));
		m->batch = mb * lay->dp;
	}
	m->vocab_from = "--padded-vocab-size";
	if (!isnan(m->vocab))
		return NULL;
	m->vocab_from = N_("the log's padded vocab");
	if (!isnan(m->vocab = log_vocab(log)))
		return NULL;
	/* --vocab-size: padded as Megatron pads it, to divisible-by x tp */
	m->vocab_from = "--vocab-size";
	if ((v = arg_num(av, "--vocab-size", NAN)) < 0)
		return bad_arg("--vocab-size", av);
	if ((div = arg_num(av, "--make-vocab-size-divisible-by", 128)) < 0)
		return bad_arg("--make-vocab-size-divisible-by", av);
	if ((tp = arg_num(av, "--tensor-model-parallel-size", 1)) < 0)
		return bad_arg("--tensor-model-parallel-size", av);
	if (isnan(v))
		return xstrdup(_("the vocabulary size is not known: no "
		    "--padded-vocab-size, no --vocab-size, and the log has no "
		    "\"padded vocab\" line"));
	m->vocab = ceil(v / (div * tp)) * div * tp;
	return NULL;
}

/*
 * Megatron's num_floating_point_operations for a standard transformer
 * whose every sequence fills --seq-length: per token, the MLP's GEMMs
 * (12 h ffn, x 3/2 with SwiGLU's gate; MoE layers: the routed experts'
 * and the shared expert's), the attention's projections (12 h^2 (1 + g /
 * n) q / h) and its core (6 s q: half the causal matrix), the MTP
 * layers' projections and the logits (6 h V, again for each MTP layer);
 * 3 GEMMs a forward GEMM (forward, both backward), 2 FLOPs a
 * multiply-add.
 */
static double
shape_flops(const struct shape *m)
{
	double g = m->swiglu ? 1.5 : 1, h = m->hidden, s = m->seq, q, moe,
	    dense, layers, last_moe, mlp, attn, mtp, logit;

	q = m->kv * m->heads;
	if (isnan(m->experts)) {
		moe = 0;
		last_moe = 0;
	} else {
		/* layer i is an MoE layer when i % freq == 0 */
		moe = ceil(m->layers / m->freq);
		last_moe = fmod(m->layers - 1, m->freq) == 0;
	}
	dense = m->layers - moe;
	/* the MTP layers are of the last layer's kind */
	moe += last_moe * m->mtp;
	dense += (1 - last_moe) * m->mtp;
	layers = m->layers + m->mtp;
	mlp = 12 * h * g * (m->ffn * dense + (isnan(m->experts) ? 0 :
	    (m->moe_ffn * m->topk + m->shared) * moe));
	attn = 12 * layers * h * h * (1 + m->groups / m->heads +
	    s / h / 2) * (q / h);
	mtp = 6 * m->mtp * (3 * h + 2 * h * h);
	logit = 6 * h * m->vocab * (m->mtp + 1);
	return m->batch * s * (mlp + attn + mtp + logit);
}

/*
 * The launch whose arguments the model is read from: a profiled
 * MindSpeed-LLM one, Megatron's or FSDP2's (*FSDP2 set).
 */
static const struct launch_record *
llm_launch(const struct journal *j, int *fsdp2, char **why)
{
	const struct launch_record *r;
	size_t i;

	for (i = 0; i < j->n; i++) {
		r = &j->recs[i];
		if (!launch_profiled(r) || r->engine == NULL)
			continue;
		*fsdp2 = strcmp(r->engine, "llm-fsdp2") == 0;
		if (*fsdp2 || strcmp(r->engine, "llm-mcore") == 0)
			return r;
	}
	for (i = 0; i < j->n; i++)
		if (launch_profiled(&j->recs[i]) && j->recs[i].engine != NULL) {
			*why = xasprintf(_("the profiled launch is of engine %s: "
			    "the model's shape is read of MindSpeed-LLM's "
			    "launches only (llm-mcore, llm-fsdp2)"),
			    j->recs[i].engine);
			return NULL;
		}
	*why = xstrdup(_("the session has no profiled launch"));
	return NULL;
}

/* PATH as the launch saw it: relative to its working directory. */
static char *
launch_path(const struct launch_record *r, const char *path)
{
	if (path[0] == '/' || r->cwd == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", r->cwd, path);
}

/* SECTION.KEY of FSDP2's YAML: "--SECTION.KEY V" of the launch wins. */
static const char *
fsdp2_value(const struct launch_record *r, struct ydoc *y,
    const char *section, const char *key)
{
	char *flag = xasprintf("--%s.%s", section, key);
	const char *v = arg_value(&r->argv, flag);

	free(flag);
	if (v != NULL)
		return v;
	return ydoc_scalar(y, ydoc_get(y, ydoc_get(y, ydoc_root(y), section),
	    key));
}

/*
 * The model of a Hugging Face config.json, as Megatron's arguments would
 * give it: a gated MLP (SwiGLU) when the activation is SiLU, as in the
 * LLaMA and Qwen families; experts when it has them.  Multi-latent
 * attention (kv_lora_rank) is not counted.
 */
static char *
hf_shape(struct shape *m, const char *path)
{
	char *why = NULL;
	cJSON *j = json_read(path, &why);
	const cJSON *act;

	if (j == NULL)
		return why;
	m->layers = json_value(j, "num_hidden_layers");
	m->hidden = json_value(j, "hidden_size");
	m->ffn = json_value(j, "intermediate_size");
	m->heads = json_value(j, "num_attention_heads");
	m->groups = json_value(j, "num_key_value_heads");
	m->kv = json_value(j, "head_dim");
	m->vocab = json_value(j, "vocab_size");
	m->experts = json_value(j, "num_experts");
	if (isnan(m->experts))
		m->experts = json_value(j, "n_routed_experts");
	m->topk = json_value(j, "num_experts_per_tok");
	m->moe_ffn = json_value(j, "moe_intermediate_size");
	m->shared = json_value(j, "shared_expert_intermediate_size");
	act = cJSON_GetObjectItemCaseSensitive(j, "hidden_act");
	m->swiglu = cJSON_IsString(act) &&
	    strcmp(act->valuestring, "silu") == 0;
	if (cJSON_GetObjectItemCaseSensitive(j, "kv_lora_rank") != NULL)
		why = xasprintf(_("%s: multi-latent attention (kv_lora_rank), "
		    "which Megatron's dense and MoE count does not cover"), path);
	else if (!(m->layers > 0 && m->hidden > 0 && m->heads > 0 &&
	    m->ffn > 0 && m->vocab > 0))
		why = xasprintf(_("%s: no num_hidden_layers, hidden_size, "
		    "intermediate_size, num_attention_heads or vocab_size"), path);
	cJSON_Delete(j);
	if (why != NULL)
		return why;
	if (isnan(m->groups))
		m->groups = m->heads;
	if (isnan(m->kv))
		m->kv = floor(m->hidden / m->heads);
	if (isnan(m->topk))
		m->topk = 1;
	if (isnan(m->moe_ffn))
		m->moe_ffn = m->ffn;
	if (isnan(m->shared))
		m->shared = 0;
	m->freq = 1;
	m->mtp = 0;
	m->vocab_from = "config.json";
	return NULL;
}

/*
 * MindSpeed-LLM's FSDP2 (train_fsdp2.py CONFIG.yaml [--SECTION.KEY V]):
 * the model is model.model_name_or_path's config.json; the sequence
 * data.cutoff_len, every sample counted at that length (what packing
 * makes of pretraining data); the batch per_device_train_batch_size x
 * gradient_accumulation_steps x the data-parallel size, the world over
 * parallel.tp_size.
 */
static char *
fsdp2_shape(struct shape *m, const struct launch_record *r, int world)
{
	const char *cfg = NULL, *model;
	struct ydoc y;
	char *path, *dir, *why = NULL;
	double mbs, gas, tp;
	size_t i;

	for (i = 0; i < r->argv.n && cfg == NULL; i++)
		if (ends_with(r->argv.v[i], ".yaml") ||
		    ends_with(r->argv.v[i], ".yml"))
			cfg = r->argv.v[i];
	if (cfg == NULL)
		return xstrdup(_("the FSDP2 launch names no YAML"));
	path = launch_path(r, cfg);
	if (ydoc_load(&y, path, &why) == -1) {
		free(path);
		return why;
	}
	free(path);
	model = fsdp2_value(r, &y, "model", "model_name_or_path");
	m->seq = positive(fsdp2_value(r, &y, "data", "cutoff_len"));
	mbs = positive(fsdp2_value(r, &y, "training",
	    "per_device_train_batch_size"));
	gas = positive(fsdp2_value(r, &y, "training",
	    "gradient_accumulation_steps"));
	tp = positive(fsdp2_value(r, &y, "parallel", "tp_size"));
	if (model == NULL)
		why = xasprintf(_("%s has no model.model_name_or_path"), cfg);
	else if (m->seq < 0)
		why = xasprintf(_("%s has no data.cutoff_len"), cfg);
	else if (world <= 0)
		why = xstrdup(_("the world size is not known"));
	else {
		dir = launch_path(r, model);
		path = xasprintf("%s/config.json", dir);
		free(dir);
		why = hf_shape(m, path);
		free(path);
	}
	ydoc_free(&y);
	if (why != NULL)
		return why;
	/* the YAML's defaults: one sample a device, no accumulation, no TP */
	m->batch = (mbs > 0 ? mbs : 1) * (gas > 0 ? gas : 1) *
	    floor(world / (tp > 0 ? tp : 1));
	return NULL;
}

static void *
mfu_init(struct summary *s)
{
	struct mfu *u = xcalloc(1, sizeof(*u));

	u->flops = u->peak = u->cores = u->mhz = u->log_tflops = NAN;
	return u;
}

static int
is_prof(const char *name)
{
	return strncmp(name, "PROF_", 5) == 0;
}

static int
is_device(const char *name)
{
	return name_numbered(name, "device_");
}

static int
is_info(const char *name)
{
	return name_numbered(name, "info.json.");
}

/*
 * FN on each entry of DIR that MATCH accepts, until one returns 1 (the
 * peak is found); 0 when none did.
 */
static int
walk(struct mfu *u, const char *dir, int (*match)(const char *),
    int (*fn)(struct mfu *, const char *))
{
	struct dirent *e;
	DIR *d;
	char *p;
	int found = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (!match(e->d_name))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		found = fn(u, p);
		free(p);
	}
	closedir(d);
	return found;
}

/* DeviceInfo[0]'s AI cores and their frequency (MHz): the peak. */
static int
info_file(struct mfu *u, const char *path)
{
	cJSON *j;
	const cJSON *d;
	char *why = NULL;
	double n, f;

	if ((j = json_read(path, &why)) == NULL) {
		if (u->peak_why == NULL)
			u->peak_why = why;
		else
			free(why);
		return 0;
	}
	d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j,
	    "DeviceInfo"), 0);
	n = json_value(d, "ai_core_num");
	f = json_value(d, "aic_frequency");
	cJSON_Delete(j);
	if (!(n > 0 && f > 0)) {
		if (u->peak_why == NULL)
			u->peak_why = xasprintf(_("%s: no DeviceInfo with "
			    "ai_core_num and aic_frequency"), path);
		return 0;
	}
	u->cores = n;
	u->mhz = f;
	u->peak = n * f * 1e6 * CUBE_OPS;
	u->peak_path = xstrdup(path);
	return 1;
}

static int
device_dir(struct mfu *u, const char *path)
{
	return walk(u, path, is_info, info_file);
}

static int
prof_dir(struct mfu *u, const char *path)
{
	return walk(u, path, is_device, device_dir);
}

/*
 * The rank's chip from PROF_{id}/device_{n}/info.json.{n}: those the
 * inventory found in the rank directory, or found now.
 */
static void
chip_of(struct mfu *u, const struct rank_data *rd)
{
	char *p;
	int found = 0;

	if (rd->inv == NULL) {
		walk(u, rd->path, is_prof, prof_dir);
		return;
	}
	for (size_t i = 0; i < rd->inv->infos.n && !found; i++) {
		p = xasprintf("%s/%s", rd->path, rd->inv->infos.v[i]);
		found = info_file(u, p);
		free(p);
	}
}

/*
 * One rank: its chip, until a rank has told it (the ranks of a job run
 * on one kind of chip, and a rank's raw data is a directory walk).
 */
static void
mfu_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct mfu *u = state;

	if (isnan(u->peak))
		chip_of(u, rd);
	if (rd->steps_why == NULL && rd->mean.step_time > 0) {
		u->step_us += rd->mean.step_time;
		u->nranks++;
	}
}

/*
 * The training's own TFLOP/s/GPU over the profiled iterations [FIRST,
 * END): Megatron's iteration lines with --log-throughput.
 */
static void
log_throughput(struct mfu *u, const char *log, long first, long end)
{
	const char *p, *t, *it, *eol;
	double sum = 0;
	long n;

	for (p = log; p != NULL && *p != '\0'; p = *eol ? eol + 1 : eol) {
		eol = p + strcspn(p, "\n");
		if ((t = strstr(p, "throughput per GPU (TFLOP/s/GPU): ")) ==
		    NULL || t > eol || (it = strstr(p, " iteration ")) == NULL ||
		    it > t)
			continue;
		n = strtol(it + 11, NULL, 10);
		if (n < first || n >= end)
			continue;
		sum += strtod(t + 34, NULL);
		if (u->log_n++ == 0)
			u->log_first = n;
		u->log_last = n;
	}
	if (u->log_n > 0)
		u->log_tflops = sum / u->log_n;
}

/* The world: torch_npu's distributed_args, else the launch's. */
static void
world_size(const struct summary *s, const struct launch_record *rec,
    const struct layout *lay, struct mfu *u)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->r[i].world > 0) {
			u->world = s->r[i].world;
			u->world_from = "profiler_metadata.json";
			return;
		}
	if (rec != NULL && rec->place.world_size > 0) {
		u->world = rec->place.world_size;
		u->world_from = N_("the launch");
	} else if (lay->known && lay->tp > 0 && lay->pp > 0 && lay->dp > 0) {
		u->world = lay->tp * lay->pp * lay->dp * (lay->cp > 0 ?
		    lay->cp : 1);
		u->world_from = N_("the parallel layout");
	}
}

/*
 * Why the session does not know the chip's peak: it has none, its checks
 * did not ask npu-smi, or what they found (the chip_why of the plan).
 */
static const char *
chip_why(const struct summary *s)
{
	if (s->opts.journal == NULL)
		return _("no session (a run under msprof-exec records the chip "
		    "npu-smi names)");
	if (s->opts.chip_why != NULL)
		return s->opts.chip_why;
	return _("the session's checks, which ask npu-smi, did not run "
	    "(--skip-checks)");
}

/*
 * No info.json gave the peak: the session's chip, or not known with the
 * reasons of both.
 */
static void
chip_peak(const struct summary *s, struct mfu *u)
{
	char *why;

	if (s->opts.chip != NULL && s->opts.chip_cores > 0 &&
	    s->opts.chip_mhz > 0 && s->opts.chip_ini != NULL) {
		u->cores = s->opts.chip_cores;
		u->mhz = s->opts.chip_mhz;
		u->peak = u->cores * u->mhz * 1e6 * CUBE_OPS;
		u->chip = xstrdup(s->opts.chip);
		u->peak_path = xstrdup(s->opts.chip_ini);
		free(u->peak_why);
		u->peak_why = NULL;
		return;
	}
	if (u->peak_why == NULL)
		u->peak_why = xstrdup(_("no PROF_*/device_*/info.json.* in the "
		    "rank directories (the raw data, whose chip description it "
		    "is, was not kept)"));
	why = xasprintf(_("%s; nor from npu-smi's chip and CANN's "
	    "platform_config: %s"), u->peak_why, chip_why(s));
	free(u->peak_why);
	u->peak_why = why;
}

static char *
mfu_finish(struct summary *s, void *state)
{
	struct mfu *u = state;
	const struct launch_record *rec = NULL;
	struct layout lay;
	int fsdp2 = 0;

	if (u->nranks == 0)
		return xstrdup(_("no rank has steps (step_trace_time)"));
	u->step_us /= u->nranks;
	summary_layout(s, &lay);
	if (s->opts.journal == NULL)
		u->flops_why = xstrdup(_("the model's arguments are not known: "
		    "no session (a run under msprof-exec records the launch's "
		    "command line; the profiling data holds the parallel "
		    "layout, not the model)"));
	else
		rec = llm_launch(s->opts.journal, &fsdp2, &u->flops_why);
	world_size(s, rec, &lay, u);
	if (rec != NULL) {
		u->flops_why = fsdp2 ? fsdp2_shape(&u->m, rec, u->world) :
		    shape_read(&u->m, &rec->argv, s->opts.log, &lay);
		if (u->flops_why == NULL)
			u->flops = shape_flops(&u->m);
	}
	if (isnan(u->peak))
		chip_peak(s, u);
	if (rec != NULL && s->opts.log != NULL) {
		/* the log prints iterations, the window counts steps */
		enum engine e = engine_parse(rec->engine);

		log_throughput(u, s->opts.log,
		    window_log_iteration(e, rec->step_start),
		    window_log_iteration(e, rec->step_end));
	}
	return NULL;
}

/* Achieved FLOP/s a device; NAN when a part is not known. */
double
mfu_achieved(const struct mfu *u)
{
	if (isnan(u->flops) || u->world <= 0)
		return NAN;
	return u->flops / (u->step_us / 1e6) / u->world;
}

/* Why the MFU is not known, or NULL. */
const char *
mfu_why(const struct mfu *u)
{
	if (isnan(u->flops))
		return u->flops_why;
	if (u->world <= 0)
		return _("the world size is not known");
	if (isnan(u->peak))
		return u->peak_why;
	return NULL;
}

double
mfu_log_difference(const struct mfu *u)
{
	return u->log_tflops / (mfu_achieved(u) / 1e12) - 1;
}

static void
mfu_free(void *state)
{
	struct mfu *u = state;

	free(u->flops_why);
	free(u->peak_path);
	free(u->peak_why);
	free(u->chip);
	free(u);
}

const struct kind kind_mfu = {
	"mfu", N_("Model FLOPs utilisation (MFU) against the chip's peak"),
	mfu_init, NULL, mfu_rank, mfu_finish, mfu_free,
};
