/* Where a launch sits in its job, as its launcher reads it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/*
 * The value of option NAME (or its twin with '-' and '_' swapped) among
 * ARGV[FIRST..END), as "--name value" or "--name=value"; the last one
 * wins, as with argparse.  NULL when absent.
 */
static const char *
option(char *const argv[], int first, int end, const char *name)
{
	const char *found = NULL, *a;
	size_t n = strlen(name);

	for (int i = first; i < end && argv[i] != NULL; i++) {
		a = argv[i];
		if (strncmp(a, "--", 2) != 0 || strlen(a) < n)
			continue;
		size_t k = 0;
		for (; k < n; k++) {
			char c = a[k], w = name[k];
			if (c != w && !((c == '-' || c == '_') &&
			    (w == '-' || w == '_') && k > 1))
				break;
		}
		if (k < n)
			continue;
		if (a[n] == '=')
			found = a + n + 1;
		else if (a[n] == '\0' && i + 1 < end && argv[i + 1] != NULL)
			found = argv[++i];
	}
	return found;
}

static int
flag(char *const argv[], int first, int end, const char *name)
{
	for (int i = first; i < end && argv[i] != NULL; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

static const char *
env(char *const envp[], const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; envp != NULL && envp[i] != NULL; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* A whole number >= MIN, or -1. */
static int
whole(const char *s, int min)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	v = strtol(s, &end, 10);
	return *end != '\0' || v < min || v > INT_MAX ? -1 : (int)v;
}

/*
 * torchrun's option NAME, else PET_<NAME>, else DEF.  *FROM names where
 * the value came from.
 */
static const char *
torchrun_value(char *const argv[], int first, int end, char *const envp[],
    const char *opt, const char *pet, const char *def, const char **from)
{
	const char *v;

	if ((v = option(argv, first, end, opt)) != NULL) {
		*from = opt;
		return v;
	}
	if ((v = env(envp, pet)) != NULL) {
		*from = pet;
		return v;
	}
	*from = "default";
	return def;
}

/* --nnodes N or MIN:MAX (elastic: at most MAX nodes, known if MIN = MAX). */
static int
nnodes(const char *v)
{
	const char *colon = strchr(v, ':');
	char min[32];

	if (colon == NULL)
		return whole(v, 1);
	if ((size_t)(colon - v) >= sizeof(min))
		return -1;
	memcpy(min, v, (size_t)(colon - v));
	min[colon - v] = '\0';
	return whole(min, 1) == whole(colon + 1, 1) ? whole(min, 1) : -1;
}

static void
torchrun(char *const argv[], int first, int end, char *const envp[],
    struct topology *c)
{
	const char *from, *v, *backend;

	if (flag(argv, first, end, "--standalone") ||
	    env(envp, "PET_STANDALONE") != NULL)
		c->nnodes = 1;
	else
		c->nnodes = nnodes(torchrun_value(argv, first, end, envp,
		    "--nnodes", "PET_NNODES", "1", &from));
	c->nlocal = whole(torchrun_value(argv, first, end, envp,
	    "--nproc_per_node", "PET_NPROC_PER_NODE", "1", &from), 1);
	c->node_rank = whole(torchrun_value(argv, first, end, envp,
	    "--node_rank", "PET_NODE_RANK", "0", &c->node_rank_from), 0);
	backend = torchrun_value(argv, first, end, envp, "--rdzv_backend",
	    "PET_RDZV_BACKEND", "static", &from);
	if (c->nnodes != 1 && strcmp(backend, "static") != 0) {
		c->node_rank = -1;
		c->node_rank_from = "rendezvous";
	}
	v = torchrun_value(argv, first, end, envp, "--master_addr",
	    "PET_MASTER_ADDR", "127.0.0.1", &from);
	snprintf(c->master_addr, sizeof(c->master_addr), "%s", v);
	c->master_port = whole(torchrun_value(argv, first, end, envp,
	    "--master_port", "PET_MASTER_PORT", "29500", &from), 0);
	if (c->nnodes == 1)
		c->node_rank = 0;
}

static void
msrun(char *const argv[], int first, int end, struct topology *c)
{
	const char *v;
	int total, node;

	v = option(argv, first, end, "--local_worker_num");
	c->nlocal = whole(v != NULL ? v : "8", 1);
	v = option(argv, first, end, "--worker_num");
	total = whole(v != NULL ? v : "8", 1);
	c->world = total;
	c->nnodes = c->nlocal > 0 && total > 0 && total % c->nlocal == 0 ?
	    total / c->nlocal : -1;
	v = option(argv, first, end, "--node_rank");
	c->node_rank_from = v != NULL ? "--node_rank" : "default";
	node = v != NULL ? (int)strtol(v, NULL, 10) : -1;
	c->node_rank = node >= 0 ? node : c->nnodes == 1 ? 0 : -1;
	if (node < 0)
		c->node_rank_from = c->nnodes == 1 ? "default" : "msrun";
	v = option(argv, first, end, "--master_addr");
	snprintf(c->master_addr, sizeof(c->master_addr), "%s",
	    v != NULL ? v : "127.0.0.1");
	v = option(argv, first, end, "--master_port");
	c->master_port = whole(v != NULL ? v : "8118", 0);
}

/* An option's value as a whole number >= MIN, else DEF. */
static int
option_number(char *const argv[], int first, int end, const char *name,
    int min, int def)
{
	const char *v = option(argv, first, end, name);

	return v != NULL ? whole(v, min) : def;
}

/*
 * deepspeed (deepspeed/launcher/runner.py) on one node: --num_gpus or
 * --num_accelerators devices (else all the node has: unknown), ranks from
 * 0; more nodes come from a hostfile msprof-exec does not read.
 */
static void
deepspeed(char *const argv[], int first, int end, struct topology *c)
{
	const char *v;
	int n = option_number(argv, first, end, "--num_nodes", 1, -1);

	c->nlocal = option_number(argv, first, end, "--num_gpus", 1, -1);
	if (c->nlocal < 0)
		c->nlocal = option_number(argv, first, end, "--num_accelerators",
		    1, -1);
	c->nnodes = n > 0 ? n : option(argv, first, end, "--hostfile") ? -1 : 1;
	c->node_rank = c->nnodes == 1 ? 0 : option_number(argv, first, end,
	    "--node_rank", 0, -1);
	c->node_rank_from = c->nnodes == 1 ? "default" : "--node_rank";
	v = option(argv, first, end, "--master_addr");
	snprintf(c->master_addr, sizeof(c->master_addr), "%s",
	    v != NULL ? v : "127.0.0.1");
	c->master_port = option_number(argv, first, end, "--master_port", 0,
	    29500);
}

/*
 * accelerate launch: --num_processes over --num_machines (1), this one
 * --machine_rank (0); without --num_processes, as many as the node has
 * (unknown).
 */
static void
accelerate(char *const argv[], int first, int end, struct topology *c)
{
	const char *v;
	int total = option_number(argv, first, end, "--num_processes", 1, -1);

	c->nnodes = option_number(argv, first, end, "--num_machines", 1, 1);
	c->world = total;
	c->nlocal = total > 0 && c->nnodes > 0 && total % c->nnodes == 0 ?
	    total / c->nnodes : -1;
	c->node_rank = option_number(argv, first, end, "--machine_rank", 0, 0);
	c->node_rank_from = option(argv, first, end, "--machine_rank") ?
	    "--machine_rank" : "default";
	v = option(argv, first, end, "--main_process_ip");
	snprintf(c->master_addr, sizeof(c->master_addr), "%s",
	    v != NULL ? v : "127.0.0.1");
	c->master_port = option_number(argv, first, end,
	    "--main_process_port", 0, 29500);
}

/* One process: its rank from the variables torch.distributed reads. */
static void
direct(char *const envp[], struct topology *c)
{
	const char *rank = env(envp, "RANK"), *world = env(envp, "WORLD_SIZE");
	const char *local = env(envp, "LOCAL_WORLD_SIZE"), *v;
	int srun = env(envp, "SLURM_PROCID") != NULL;

	c->node_rank_from = "RANK";
	if (rank == NULL && env(envp, "RANK_ID") != NULL) {
		/* the per-rank loops of Ascend's model zoo */
		rank = env(envp, "RANK_ID");
		world = env(envp, "RANK_SIZE");
		c->node_rank_from = "RANK_ID";
	} else if (rank == NULL && srun) {
		rank = env(envp, "SLURM_PROCID");
		world = env(envp, "SLURM_NTASKS");
		local = env(envp, "SLURM_NTASKS_PER_NODE");
		c->node_rank_from = "SLURM_PROCID";
	}
	c->first_rank = rank != NULL ? whole(rank, 0) : 0;
	c->nlocal = 1;
	c->world = world != NULL ? whole(world, 1) : 1;
	if (local != NULL && whole(local, 1) > 0 && c->world > 0) {
		c->nnodes = c->world / whole(local, 1);
		c->node_rank = c->first_rank >= 0 ?
		    c->first_rank / whole(local, 1) : -1;
	} else if (c->world == 1) {
		c->nnodes = 1;
		c->node_rank = 0;
	}
	if ((v = env(envp, "MASTER_ADDR")) != NULL)
		snprintf(c->master_addr, sizeof(c->master_addr), "%s", v);
	if ((v = env(envp, "MASTER_PORT")) != NULL)
		c->master_port = whole(v, 0);
}

void
topology_read(const char *grammar, char *const argv[], int first, int script,
    char *const envp[], struct topology *c)
{
	memset(c, 0, sizeof(*c));
	c->nnodes = c->node_rank = c->nlocal = c->first_rank = -1;
	c->world = c->master_port = -1;
	c->node_rank_from = "default";
	if (grammar == NULL)
		direct(envp, c);
	else if (strcmp(grammar, "msrun") == 0)
		msrun(argv, first, script, c);
	else if (strcmp(grammar, "deepspeed") == 0)
		deepspeed(argv, first, script, c);
	else if (strcmp(grammar, "accelerate") == 0)
		accelerate(argv, first, script, c);
	else
		torchrun(argv, first, script, envp, c);
	if (c->first_rank < 0 && c->node_rank >= 0 && c->nlocal > 0)
		c->first_rank = c->node_rank * c->nlocal;
	if (c->world < 0 && c->nnodes > 0 && c->nlocal > 0)
		c->world = c->nnodes * c->nlocal;
}
