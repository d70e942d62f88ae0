/* Unit tests of reading a launcher's nodes and processes (topology.c). */
#include <stdlib.h>

#include "tap.h"
#include "common/topology.h"

static struct topology t;

/* Read ARGV with the script at SCRIPT. */
static void
read_args(int script, char **argv)
{
	topology_read(&t, argv, script);
}

int
main(void)
{
	char *torchrun[] = { "torchrun", "--nnodes", "2", "--node_rank=1",
	    "--nproc-per-node", "8", "--master_addr", "10.0.0.1",
	    "--master_port=6000", "pretrain_gpt.py", "--node_rank", "5", NULL };
	char *msrun[] = { "msrun", "--worker_num=16", "--local_worker_num=8",
	    "--node_rank=1", "--master_port", "8118", "pretrain_sora.py", NULL };
	char *elastic[] = { "torchrun", "--nnodes=1:4", "--rdzv_endpoint",
	    "host-0:29400", "train.py", NULL };
	char *bare[] = { "python", "pretrain_gpt.py", "--nproc_per_node", "4",
	    NULL };
	char *last[] = { "torchrun", "--nproc_per_node", NULL };

	topology_init(&t);
	read_args(9, torchrun);
	is_int(t.nnodes, 2, "torchrun: --nnodes N");
	is_int(t.node_rank, 1, "torchrun: --node_rank=N (not the script's)");
	is_int(t.nproc_per_node, 8, "torchrun: --nproc-per-node N");
	is_str(t.master_addr, "10.0.0.1", "torchrun: --master_addr");
	is_int(t.master_port, 6000, "torchrun: --master_port=N");
	is_int(topology_first_rank(&t), 8, "node 1 of 8 processes: rank 8 first");
	is_int(topology_local(&t), 8, "eight local processes");

	read_args(6, msrun);
	is_int(t.nproc_per_node, 8, "msrun: --local_worker_num");
	is_int(t.nnodes, 2, "msrun: nodes from --worker_num / local workers");
	is_int(t.node_rank, 1, "msrun: --node_rank");
	is_int(t.master_port, 8118, "msrun: --master_port N");
	ok(t.master_addr == NULL, "msrun: no master address given");

	read_args(4, elastic);
	is_int(t.nnodes, 4, "elastic --nnodes MIN:MAX: MAX");
	is_str(t.master_addr, "host-0", "rendezvous endpoint: the host");
	is_int(t.master_port, 29400, "rendezvous endpoint: the port");
	is_int(t.node_rank, -1, "no --node_rank: unset");
	is_int(topology_first_rank(&t), 0, "unset node rank counts as 0");
	is_int(topology_local(&t), 1, "unset process count counts as 1");

	read_args(1, bare);
	is_int(t.nproc_per_node, -1, "python SCRIPT: the script's options "
	    "are not the launcher's");

	read_args(-1, last);
	is_int(t.nproc_per_node, -1, "an option without its value: unset");
	topology_free(&t);
	return done_testing();
}
