/* A launch's nodes and processes, from its launcher's options. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "util.h"

/* The spellings each launcher accepts (torchrun takes both). */
static const char *const node_rank_opts[] = { "--node_rank", "--node-rank",
    NULL };
static const char *const nnodes_opts[] = { "--nnodes", NULL };
static const char *const nproc_opts[] = { "--nproc_per_node",
    "--nproc-per-node", "--local_worker_num", NULL };
static const char *const workers_opts[] = { "--worker_num", NULL };
static const char *const addr_opts[] = { "--master_addr", "--master-addr",
    NULL };
static const char *const port_opts[] = { "--master_port", "--master-port",
    NULL };
static const char *const rdzv_opts[] = { "--rdzv_endpoint",
    "--rdzv-endpoint", NULL };

void
topology_init(struct topology *t)
{
	t->node_rank = t->nnodes = t->nproc_per_node = t->master_port = -1;
	t->master_addr = NULL;
}

void
topology_free(struct topology *t)
{
	free(t->master_addr);
	topology_init(t);
}

/* The value of one of NAMES among ARGV[1..END), the last one given. */
static const char *
option(char *const argv[], int end, const char *const names[])
{
	const char *value = NULL;
	size_t n;

	for (int i = 1; i < end && argv[i] != NULL; i++)
		for (int k = 0; names[k] != NULL; k++) {
			n = strlen(names[k]);
			if (strncmp(argv[i], names[k], n) != 0)
				continue;
			if (argv[i][n] == '=')
				value = argv[i] + n + 1;
			else if (argv[i][n] == '\0' && i + 1 < end)
				value = argv[i + 1];
		}
	return value;
}

/* A decimal number in [0, 65536] (ports, ranks, process counts), or -1. */
static int
number(const char *s)
{
	char *end;
	long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end == '\0' && v <= 65536 ? (int)v : -1;
}

/* torchrun's --nnodes MIN:MAX (elastic) starts with MAX nodes at most. */
static int
nodes(const char *s)
{
	const char *colon = s != NULL ? strchr(s, ':') : NULL;

	return number(colon != NULL ? colon + 1 : s);
}

/* "HOST:PORT" of a rendezvous endpoint: the master unless one is given. */
static void
endpoint(struct topology *t, const char *s)
{
	const char *colon = s != NULL ? strrchr(s, ':') : NULL;

	if (s == NULL || t->master_addr != NULL)
		return;
	t->master_addr = colon != NULL ? xasprintf("%.*s", (int)(colon - s), s) :
	    xstrdup(s);
	if (colon != NULL && t->master_port < 0)
		t->master_port = number(colon + 1);
}

void
topology_read(struct topology *t, char *const argv[], int script)
{
	int end = script >= 0 ? script : INT_MAX;
	int workers;

	topology_free(t);
	if (argv == NULL || argv[0] == NULL)
		return;
	t->node_rank = number(option(argv, end, node_rank_opts));
	t->nnodes = nodes(option(argv, end, nnodes_opts));
	t->nproc_per_node = number(option(argv, end, nproc_opts));
	t->master_addr = xstrdup_null(option(argv, end, addr_opts));
	t->master_port = number(option(argv, end, port_opts));
	endpoint(t, option(argv, end, rdzv_opts));
	/* msrun counts workers in all, not nodes */
	workers = number(option(argv, end, workers_opts));
	if (t->nnodes < 0 && workers > 0 && t->nproc_per_node > 0)
		t->nnodes = (workers + t->nproc_per_node - 1) /
		    t->nproc_per_node;
}

int
topology_local(const struct topology *t)
{
	return t->nproc_per_node > 0 ? t->nproc_per_node : 1;
}

int
topology_first_rank(const struct topology *t)
{
	return (t->node_rank > 0 ? t->node_rank : 0) * topology_local(t);
}
