/* The report as one JSON document (--json FILE). */
#include <stdlib.h>

#include "common/jsonfile.h"
#include "summary/summary.h"
#include "model.h"

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
	cJSON *d = cJSON_CreateObject();

	/* null: not known (-1 would read as "all ranks") */
	if (rd->rank >= 0)
		cJSON_AddNumberToObject(d, "rank", rd->rank);
	else
		cJSON_AddNullToObject(d, "rank");
	cJSON_AddStringToObject(d, "path", rd->path);
	cJSON_AddBoolToObject(d, "raw", rd->raw);
	cJSON_AddBoolToObject(d, "parsed", rd->parsed);
	cJSON_AddNumberToObject(d, "bytes", (double)rd->bytes);
	return d;
}

static cJSON *
output_json(const struct report_model *m, const struct report_output *out)
{
	const struct outdir *o = out->dir;
	cJSON *j = cJSON_CreateObject(), *found;

	cJSON_AddStringToObject(j, "path", o->path);
	/* whose data: the index of its launch in "launches" */
	if (o->launch != NULL)
		cJSON_AddNumberToObject(j, "launch",
		    (double)(o->launch - m->journal->recs));
	cJSON_AddBoolToObject(j, "analyse", o->analyse);
	cJSON_AddItemToObject(j, "expected_ranks", out->unknown || out->kept ?
	    cJSON_CreateNull() : json_ints(o->expected, o->nexpected));
	found = cJSON_AddArrayToObject(j, "found");
	for (size_t i = 0; i < o->ndirs; i++)
		cJSON_AddItemToArray(found, rankdir_json(&o->dirs[i]));
	cJSON_AddItemToObject(j, "missing_ranks",
	    json_ints(out->missing, out->nmissing));
	if (o->mixed.n > 0) {
		cJSON_AddItemToObject(j, "mixed_with", json_strv(o->mixed.v));
		cJSON_AddNumberToObject(j, "unattributed", (double)o->unclear);
	}
	return j;
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

cJSON *
report_json(const struct report_model *m)
{
	cJSON *doc = cJSON_CreateObject(), *outs, *launches;

	cJSON_AddNumberToObject(doc, "version", 1);
	if (m->session != NULL)
		cJSON_AddStringToObject(doc, "session", m->session);
	add_ending(doc, m);
	outs = cJSON_AddArrayToObject(doc, "outputs");
	for (size_t i = 0; i < m->verify.nouts; i++)
		cJSON_AddItemToArray(outs, output_json(m, &m->outs[i]));
	if (m->next_step != NULL)
		cJSON_AddStringToObject(doc, "next_step", m->next_step);
	launches = cJSON_AddArrayToObject(doc, "launches");
	for (size_t i = 0; i < m->journal->n; i++)
		cJSON_AddItemToArray(launches,
		    launch_record_json(&m->journal->recs[i]));
	if (m->torch.dir != NULL)
		cJSON_AddItemToObject(doc, "torch_npu", torch_json(&m->torch));
	cJSON_AddItemToObject(doc, "diagnosis",
	    json_strv(m->diagnosis.texts.v));
	cJSON_AddItemToObject(doc, "causes", json_strv(m->causes.v));
	if (m->summary != NULL)
		cJSON_AddItemToObject(doc, "summary", summary_json(m->summary));
	else if (m->summary_why != NULL)
		cJSON_AddStringToObject(doc, "summary_not_made", m->summary_why);
	return doc;
}
