/* The report as one JSON document (--json FILE). */
#include <stdlib.h>

#include "common/jsonfile.h"
#include "common/jsonw.h"
#include "summary/summary.h"
#include "findings.h"
#include "model.h"
#include "summary_writers.h"

static void
add_ending(cJSON *doc, const struct report_model *m)
{
	if (m->ending == ENDING_HIDDEN_FAILURE)
		cJSON_AddBoolToObject(doc, "training_failed", 1);
	else if (m->ending == ENDING_EXIT)
		cJSON_AddNumberToObject(doc, "exit_status", m->ending_code);
	else if (m->ending == ENDING_SIGNAL)
		cJSON_AddNumberToObject(doc, "signal", m->ending_code);
	else if (m->ending == ENDING_INTERRUPTED) {
		cJSON_AddStringToObject(doc, "interrupted",
		    signal_name(m->interrupted));
		cJSON_AddNumberToObject(doc, m->exited ? "exit_status" :
		    "signal", m->ending_code);
	}
	if (m->nrunning > 0)
		cJSON_AddItemToObject(doc, "still_running",
		    json_ints(m->running, m->nrunning));
}

static cJSON *
rankdir_json(const struct rankdir *rd)
{
	cJSON *d = cJSON_CreateObject(), *files;

	/* null: not known (-1 would read as "all ranks") */
	if (rd->rank >= 0)
		cJSON_AddNumberToObject(d, "rank", rd->rank);
	else
		cJSON_AddNullToObject(d, "rank");
	cJSON_AddStringToObject(d, "path", rd->path);
	if (rd->link && rd->target != NULL)
		cJSON_AddStringToObject(d, "link_to", rd->target);
	cJSON_AddBoolToObject(d, "raw", rd->raw);
	cJSON_AddBoolToObject(d, "parsed", rd->parsed);
	cJSON_AddNumberToObject(d, "bytes", (double)rd->bytes);
	files = cJSON_AddArrayToObject(d, "files");
	for (int f = 0; f < RANKDIR_NFILES; f++)
		if ((rd->files >> f) & 1)
			cJSON_AddItemToArray(files,
			    cJSON_CreateString(rankdir_files[f]));
	return d;
}

static cJSON *
set_json(const struct rankset *set)
{
	return json_ints(set->v, set->n);
}

/* What is odd about the output's ranks (text: the lines under it). */
static cJSON *
unusual_json(const struct unusual *u)
{
	static const char *const keys[U_NKINDS] = {
		[U_EMPTY] = "empty", [U_NO_RAW] = "no_raw_data",
		[U_UNPARSED] = "not_parsed", [U_OUTSIZED] = "outsized",
		[U_DUPLICATE] = "several_directories",
	};
	cJSON *j = cJSON_CreateObject(), *sz, *a, *x;

	sz = cJSON_AddObjectToObject(j, "bytes");
	cJSON_AddNumberToObject(sz, "min", (double)u->lo);
	cJSON_AddNumberToObject(sz, "max", (double)u->hi);
	cJSON_AddNumberToObject(sz, "median", (double)u->median);
	cJSON_AddNumberToObject(sz, "total", (double)u->total);
	for (int k = 0; k < U_NKINDS; k++)
		cJSON_AddItemToObject(j, keys[k], set_json(&u->set[k]));
	a = cJSON_AddArrayToObject(j, "incomplete");
	for (int f = 0; f < RANKDIR_NFILES; f++)
		if (u->lacking[f].n > 0) {
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "without", rankdir_files[f]);
			cJSON_AddItemToObject(x, "ranks", set_json(&u->lacking[f]));
			cJSON_AddNumberToObject(x, "ranks_with_it",
			    (double)u->have[f]);
			cJSON_AddItemToArray(a, x);
		}
	return j;
}

/* The errors the failed training's log gives, each where it is. */
static cJSON *
log_errors_json(const struct report_model *m)
{
	cJSON *a = cJSON_CreateArray(), *e;

	for (size_t i = 0; i < m->errors.n; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "kind", m->errors.v[i].kind);
		cJSON_AddStringToObject(e, "text", m->errors.v[i].text);
		cJSON_AddStringToObject(e, "file", m->log_path);
		cJSON_AddNumberToObject(e, "line", m->errors.v[i].line);
		cJSON_AddNumberToObject(e, "more", m->errors.v[i].more);
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

/* The torch engine: its config, the armings, each process's window. */
static cJSON *
torch_json(const struct torchnpu *t)
{
	cJSON *j = cJSON_CreateObject(), *procs;

	cJSON_AddStringToObject(j, "prof_config", t->dir);
	if (t->arming != NULL) {
		cJSON_AddNumberToObject(j, "armings", t->arming->armings);
		cJSON_AddNumberToObject(j, "unarmed", t->arming->unarmed);
	}
	procs = cJSON_AddArrayToObject(j, "processes");
	for (size_t i = 0; i < t->nprocs; i++) {
		cJSON *p = cJSON_CreateObject();

		cJSON_AddNumberToObject(p, "pid", (double)t->procs[i].pid);
		if (t->procs[i].rank >= 0)
			cJSON_AddNumberToObject(p, "rank", t->procs[i].rank);
		else
			cJSON_AddNullToObject(p, "rank");
		if (t->procs[i].start >= 0)
			cJSON_AddNumberToObject(p, "step_start",
			    t->procs[i].start);
		if (t->procs[i].stop >= 0)
			cJSON_AddNumberToObject(p, "step_end", t->procs[i].stop);
		cJSON_AddItemToArray(procs, p);
	}
	return j;
}

/* One output directory, its rank directories one at a time. */
static void
output_write(const struct report_model *m, const struct report_output *out,
    struct jsonw *w)
{
	const struct outdir *o = out->dir;

	jw_open(w, NULL, '{');
	jw_string(w, "path", o->path);
	/* whose data: the index of its launch in "launches" */
	if (o->launch != NULL)
		jw_number(w, "launch", (double)(o->launch - m->journal->recs));
	jw_take(w, "analyse", cJSON_CreateBool(o->analyse));
	jw_take(w, "expected_ranks", out->unknown || out->kept ?
	    cJSON_CreateNull() : json_ints(o->expected, o->nexpected));
	jw_open(w, "found", '[');
	for (size_t i = 0; i < o->ndirs; i++)
		jw_take(w, NULL, rankdir_json(&o->dirs[i]));
	jw_close(w, ']');
	jw_take(w, "missing_ranks", json_ints(out->missing, out->nmissing));
	jw_take(w, "unusual", unusual_json(&out->unusual));
	jw_take(w, "links_not_followed", json_strv(o->broken.v));
	if (o->mixed.n > 0) {
		jw_take(w, "mixed_with", json_strv(o->mixed.v));
		jw_number(w, "unattributed", (double)o->unclear);
	}
	jw_close(w, '}');
}

void
report_together_write(const struct report_together *t, struct jsonw *w,
    const char *key)
{
	jw_open(w, key, '{');
	jw_number(w, "outputs", (double)t->outs);
	if (t->parent != NULL)
		jw_string(w, "under", t->parent);
	jw_number(w, "ranks_found", (double)t->out.unusual.nranks);
	jw_take(w, "missing_ranks", json_ints(t->out.missing,
	    t->out.nmissing));
	jw_take(w, "unusual", unusual_json(&t->out.unusual));
	jw_take(w, "links_not_followed", json_strv(t->all.broken.v));
	jw_close(w, '}');
}

void
report_json_write(const struct report_model *m, struct jsonw *w,
    int summary)
{
	cJSON *head = cJSON_CreateObject(), *c;

	jw_open(w, NULL, '{');
	cJSON_AddNumberToObject(head, "version", 1);
	if (m->session != NULL)
		cJSON_AddStringToObject(head, "session", m->session);
	add_ending(head, m);
	cJSON_ArrayForEach(c, head)
		jw_value(w, c->string, c);
	cJSON_Delete(head);
	jw_open(w, "outputs", '[');
	for (size_t i = 0; i < m->verify.nouts; i++)
		output_write(m, &m->outs[i], w);
	jw_close(w, ']');
	if (m->next_step != NULL)
		jw_string(w, "next_step", m->next_step);
	jw_open(w, "launches", '[');
	for (size_t i = 0; i < m->journal->n; i++)
		jw_take(w, NULL, launch_record_json(&m->journal->recs[i]));
	jw_close(w, ']');
	if (m->torch.dir != NULL)
		jw_take(w, "torch_npu", torch_json(&m->torch));
	jw_take(w, "errors", log_errors_json(m));
	jw_take(w, "diagnosis", json_strv(m->diagnosis.texts.v));
	jw_take(w, "causes", json_strv(m->causes.v));
	if (summary)
		report_summary_write(m, w);
	jw_close(w, '}');
}

/*
 * The summary's JSON with its findings: "findings", a list, beside the
 * "summaries".
 */
static void
data_write(const struct report_model *m, struct jsonw *w)
{
	jw_open(w, "summary", '{');
	summary_json_members(m->summary, w);
	jw_take(w, "findings", findings_json(m->summary, m->findings));
	jw_close(w, '}');
}

void
report_summary_write(const struct report_model *m, struct jsonw *w)
{
	if (m->nruns > 1) {
		cJSON *a = cJSON_CreateArray();

		for (size_t i = 0; i < m->nruns; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "path", m->runs[i].path);
			if (*m->runs[i].stamp != '\0')
				cJSON_AddStringToObject(o, "begun",
				    m->runs[i].stamp);
			cJSON_AddNumberToObject(o, "directories",
			    (double)m->runs[i].nparents);
			cJSON_AddNumberToObject(o, "rank_directories",
			    (double)m->runs[i].ndirs);
			cJSON_AddBoolToObject(o, "summarised", i == 0);
			cJSON_AddItemToArray(a, o);
		}
		jw_take(w, "runs", a);
	}
	if (m->summary != NULL)
		data_write(m, w);
	else if (m->summary_why != NULL)
		jw_string(w, "summary_not_made", m->summary_why);
}
