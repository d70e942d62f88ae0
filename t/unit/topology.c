/* common/topology.c: a launch's place in its job, as its launcher reads it. */
#include "common/topology.h"
#include "tap.h"

/* The script is the word "train.py"; the launcher options start at 1. */
static void
read_it(const char *grammar, char **argv, char **envp, struct topology *c)
{
	int script = 1;

	while (argv[script] != NULL && strcmp(argv[script], "train.py") != 0)
		script++;
	topology_read(grammar, argv, 1, script, envp, c);
}

static void
torchrun_options(void)
{
	char *argv[] = { "torchrun", "--nproc_per_node", "8", "--nnodes", "4",
	    "--node_rank", "2", "--master_addr", "10.0.0.1", "--master_port",
	    "6000", "train.py", "--node_rank", "9", NULL };
	char *envp[] = { "PET_NODE_RANK=3", "PET_NNODES=9", NULL };
	struct topology c;

	read_it("torchrun", argv, envp, &c);
	is_int(c.nnodes, 4, "torchrun: --nnodes wins over PET_NNODES");
	is_int(c.node_rank, 2, "torchrun: --node_rank wins over PET_NODE_RANK");
	is_str(c.node_rank_from, "--node_rank", "torchrun: where it came from");
	is_int(c.nlocal, 8, "torchrun: --nproc_per_node");
	is_int(c.first_rank, 16, "torchrun: the first rank of node 2");
	is_int(c.world, 32, "torchrun: world size");
	is_str(c.master_addr, "10.0.0.1", "torchrun: master address");
	is_int(c.master_port, 6000, "torchrun: master port");
}

static void
torchrun_pet(void)
{
	char *argv[] = { "torchrun", "train.py", "--nnodes", "7", NULL };
	char *envp[] = { "PET_NNODES=2", "PET_NODE_RANK=1",
	    "PET_NPROC_PER_NODE=4", "PET_MASTER_ADDR=master-0",
	    "PET_MASTER_PORT=23456", NULL };
	struct topology c;

	read_it("torchrun", argv, envp, &c);
	is_int(c.nnodes, 2, "PET_NNODES (an option after the script is "
	    "the script's)");
	is_int(c.node_rank, 1, "PET_NODE_RANK");
	is_str(c.node_rank_from, "PET_NODE_RANK", "PET_: where it came from");
	is_int(c.nlocal, 4, "PET_NPROC_PER_NODE");
	is_int(c.first_rank, 4, "PET_: node 1 holds ranks from 4");
	is_str(c.master_addr, "master-0", "PET_MASTER_ADDR");
	is_int(c.master_port, 23456, "PET_MASTER_PORT");
}

static void
torchrun_forms(void)
{
	char *dashes[] = { "torchrun", "--nproc-per-node=2", "--nnodes=2:2",
	    "--node-rank=1", "train.py", NULL };
	char *elastic[] = { "torchrun", "--nnodes", "1:4", "--nproc_per_node",
	    "8", "--rdzv_backend", "c10d", "--node_rank", "1", "train.py",
	    NULL };
	char *standalone[] = { "torchrun", "--standalone", "--nproc_per_node",
	    "auto", "train.py", NULL };
	char *none[] = { "torchrun", "train.py", NULL };
	char *envp[] = { NULL };
	struct topology c;

	read_it("torchrun", dashes, envp, &c);
	is_int(c.nlocal * 100 + c.nnodes * 10 + c.node_rank, 221,
	    "torchrun: --opt=value and dashes");
	read_it("torchrun", elastic, envp, &c);
	is_int(c.nnodes, -1, "torchrun: elastic 1:4 nodes: count unknown");
	is_int(c.node_rank, -1, "torchrun: c10d rendezvous: node rank unknown");
	is_int(c.first_rank, -1, "torchrun: c10d: first rank unknown");
	is_str(c.node_rank_from, "rendezvous", "torchrun: c10d: says so");
	read_it("torchrun", standalone, envp, &c);
	is_int(c.nnodes, 1, "torchrun --standalone: one node");
	is_int(c.node_rank, 0, "torchrun --standalone: node 0");
	is_int(c.nlocal, -1, "torchrun --nproc_per_node auto: unknown");
	read_it("torchrun", none, envp, &c);
	is_int(c.nnodes * 100 + c.node_rank * 10 + c.nlocal, 101,
	    "torchrun: defaults 1 node, rank 0, 1 process");
	is_int(c.master_port, 29500, "torchrun: default port");
}

static void
msrun_options(void)
{
	char *argv[] = { "msrun", "--worker_num=16", "--local_worker_num=8",
	    "--node_rank=1", "--master_addr=10.0.0.2", "--master_port=8119",
	    "--log_dir=msrun_log", "--join=True", "train.py", NULL };
	char *dyn[] = { "msrun", "--worker_num", "16", "--local_worker_num",
	    "8", "train.py", NULL };
	char *one[] = { "msrun", "--worker_num", "2", "--local_worker_num",
	    "2", "train.py", NULL };
	char *envp[] = { "PET_NODE_RANK=0", NULL };
	struct topology c;

	read_it("msrun", argv, envp, &c);
	is_int(c.nnodes, 2, "msrun: worker_num / local_worker_num nodes");
	is_int(c.node_rank, 1, "msrun: --node_rank");
	is_int(c.first_rank, 8, "msrun: node 1 holds ranks from 8");
	is_int(c.world, 16, "msrun: --worker_num");
	is_str(c.master_addr, "10.0.0.2", "msrun: --master_addr");
	is_int(c.master_port, 8119, "msrun: --master_port");
	read_it("msrun", dyn, envp, &c);
	is_int(c.node_rank, -1, "msrun: no --node_rank on 2 nodes: msrun "
	    "assigns it (PET_ is torchrun's)");
	read_it("msrun", one, envp, &c);
	is_int(c.node_rank, 0, "msrun: one node: node 0");
	is_int(c.master_port, 8118, "msrun: default port");
}

static void
direct_entry(void)
{
	char *argv[] = { "python", "train.py", NULL };
	char *torch[] = { "RANK=5", "WORLD_SIZE=16", "LOCAL_WORLD_SIZE=8",
	    "SLURM_PROCID=1", NULL };
	char *slurm[] = { "SLURM_PROCID=9", "SLURM_NTASKS=16",
	    "SLURM_NTASKS_PER_NODE=8", NULL };
	char *alone[] = { NULL };
	struct topology c;

	topology_read(NULL, argv, 1, 1, torch, &c);
	is_int(c.first_rank * 100 + c.nlocal * 10 + c.node_rank, 510,
	    "python entry: RANK, one rank, node 0 of 2");
	is_int(c.world, 16, "python entry: WORLD_SIZE");
	topology_read(NULL, argv, 1, 1, slurm, &c);
	is_int(c.first_rank, 9, "python entry under srun: SLURM_PROCID");
	is_int(c.node_rank, 1, "python entry under srun: node 1");
	is_str(c.node_rank_from, "SLURM_PROCID", "under srun: says so");
	topology_read(NULL, argv, 1, 1, alone, &c);
	is_int(c.first_rank * 10 + c.world, 1, "python entry alone: rank 0 of 1");
}

static void
other_launchers(void)
{
	char *ds[] = { "deepspeed", "--num_gpus", "4", "--master_port", "7000",
	    "train.py", NULL };
	char *ds_host[] = { "deepspeed", "--hostfile", "hosts", "train.py",
	    NULL };
	char *acc[] = { "accelerate", "launch", "--multi_gpu", "--num_processes",
	    "16", "--num_machines", "2", "--machine_rank", "1",
	    "--main_process_ip", "10.0.0.9", "train.py", NULL };
	char *acc_bare[] = { "accelerate", "launch", "train.py", NULL };
	char *loop[] = { "python3", "train.py", NULL };
	char *envp[] = { "RANK_ID=3", "RANK_SIZE=8", NULL };
	struct topology c;

	read_it("deepspeed", ds, NULL, &c);
	is_int(c.nlocal, 4, "deepspeed --num_gpus 4");
	is_int(c.nnodes * 100 + c.node_rank * 10 + c.first_rank, 100,
	    "deepspeed without a hostfile: one node, ranks from 0");
	is_int(c.master_port, 7000, "deepspeed --master_port");
	read_it("deepspeed", ds_host, NULL, &c);
	is_int(c.nnodes, -1, "deepspeed with a hostfile: nodes unknown");
	is_int(c.nlocal, -1, "... and, without --num_gpus, its devices");
	read_it("accelerate", acc, NULL, &c);
	is_int(c.nlocal, 8, "accelerate: 16 processes over 2 machines");
	is_int(c.node_rank, 1, "accelerate --machine_rank");
	is_int(c.first_rank, 8, "... holds ranks from 8");
	is_str(c.master_addr, "10.0.0.9", "accelerate --main_process_ip");
	is_int(c.master_port, 29500, "accelerate's default port");
	read_it("accelerate", acc_bare, NULL, &c);
	is_int(c.nlocal, -1, "accelerate without --num_processes: unknown");
	read_it(NULL, loop, envp, &c);
	is_int(c.first_rank * 10 + c.nlocal, 31,
	    "a model-zoo loop: rank RANK_ID, one process");
	is_int(c.world, 8, "... of RANK_SIZE");
	is_str(c.node_rank_from, "RANK_ID", "... from RANK_ID");
}

int
main(void)
{
	torchrun_options();
	torchrun_pet();
	torchrun_forms();
	msrun_options();
	direct_entry();
	other_launchers();
	return done_testing();
}
