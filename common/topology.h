/*
 * The place of one launch in its job: how many nodes, which one this is,
 * how many ranks it starts here, read from the same places and with the
 * same precedence as the launcher itself reads them.
 *
 *   torchrun, python -m torch.distributed.run|launch: an option on the
 *     command line, else its PET_<NAME> environment variable, else the
 *     default (1 node, node rank 0, 1 process, 127.0.0.1:29500).  With a
 *     rendezvous backend other than "static" and more than one node the
 *     rendezvous gives the node its ranks: the node rank is unknown.
 *   msrun: its options (--worker_num, --local_worker_num, --node_rank,
 *     --master_addr, --master_port; defaults 8, 8, -1, 127.0.0.1, 8118);
 *     node rank -1 means msrun assigns it, unknown unless there is one node.
 *   deepspeed: --num_gpus (--num_accelerators) on each of --num_nodes
 *     nodes (one without a hostfile), --node_rank, --master_addr,
 *     --master_port (29500).
 *   accelerate launch: --num_processes over --num_machines (1),
 *     --machine_rank (0), --main_process_ip, --main_process_port (29500).
 *   an entry started directly (python pretrain_gpt.py): one rank, from
 *     RANK / WORLD_SIZE / LOCAL_WORLD_SIZE, or RANK_ID / RANK_SIZE (the
 *     per-rank loops of Ascend's model zoo), or under srun from
 *     SLURM_PROCID / SLURM_NTASKS / SLURM_NTASKS_PER_NODE.
 */
#ifndef MSPROF_TOPOLOGY_H
#define MSPROF_TOPOLOGY_H

struct topology {
	int		 nnodes;	/* -1: unknown */
	int		 node_rank;	/* -1: unknown */
	int		 nlocal;	/* ranks started on this node; -1 unknown */
	int		 first_rank;	/* global rank of the first; -1 unknown */
	int		 world;		/* all ranks of the job; -1 unknown */
	int		 master_port;	/* -1: unknown */
	char		 master_addr[256];	/* "" unknown */
	const char	*node_rank_from; /* "--node_rank", "PET_NODE_RANK", ... */
};

/*
 * Read the launch ARGV whose launcher options are ARGV[FIRST] up to the
 * entry script ARGV[SCRIPT], for the option grammar GRAMMAR ("torchrun",
 * "msrun"; NULL for an entry started directly), with the environment
 * ENVP (NULL: empty).  GRAMMAR "deepspeed" and "accelerate" are theirs,
 * any other is torchrun's.
 */
void	topology_read(const char *grammar, char *const argv[], int first,
	    int script, char *const envp[], struct topology *);

#endif
