/*
 * Where a launch's processes run, as the launcher reads its own options
 * (torchrun, python -m torch.distributed.launch, msrun): the node's rank,
 * the number of nodes, the processes of this node, and the master.
 */
#ifndef MSPROF_TOPOLOGY_H
#define MSPROF_TOPOLOGY_H

/* -1 (NULL) for what the command line does not say: the launcher's default. */
struct topology {
	int	 node_rank;
	int	 nnodes;
	int	 nproc_per_node;
	char	*master_addr;
	int	 master_port;
};

void	topology_init(struct topology *);
/*
 * Read the launcher options of ARGV, those before the training script
 * (argv index SCRIPT; -1 when there is none: all of them).
 */
void	topology_read(struct topology *, char *const argv[], int script);
void	topology_free(struct topology *);
/* The global rank of this node's first process (node_rank * nproc). */
int	topology_first_rank(const struct topology *);
/* This node's process count, 1 when the command line does not say. */
int	topology_local(const struct topology *);

#endif
