/*
 * Unit tests of the static script scan: the example script shapes of
 * MindSpeed-LLM and MindSpeed-MM (fixtures in t/scan/), shell expansion
 * details (scripts written to a temporary directory), and inputs meant to
 * break it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tap.h"
#include "common/launchtab.h"
#include "scan/scan.h"
#include "scan/sh.h"

static struct launchtab tab;

static char	*repeat(const char *, const char *, size_t, const char *);
static void	 as_bash(const char *, const char *);
static char tmpdir[] = "/tmp/msprof-scan.XXXXXX";

#define LLM_DIST(n, port) "--nproc_per_node " #n " --nnodes 1 --node_rank 0 " \
	"--master_addr localhost --master_port " #port

static char *
joined(const struct strv *sv)
{
	char *s = xstrdup(""), *t;

	for (size_t i = 0; i < sv->n; i++) {
		t = xasprintf("%s%s%s", s, i > 0 ? " | " : "", sv->v[i]);
		free(s);
		s = t;
	}
	return s;
}

#define is_list(sv, want, ...) do {					\
	char *j_ = joined(sv);						\
	is_str(j_, want, __VA_ARGS__);					\
	free(j_);							\
} while (0)

static const char *
launch(const struct scan *s, size_t i)
{
	return i < s->launches.n ? s->launches.v[i] : NULL;
}

static int
scan_path(const char *path, char **envp, struct scan *s)
{
	char *why = NULL;
	int rc = scan_script(&tab, path, envp, s, &why);

	if (rc != 0)
		printf("# %s\n", why);
	free(why);
	return rc;
}

static char *
write_tmp(const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		printf("Bail out! cannot write %s: %s\n", path,
		    strerror(errno));
		exit(1);
	}
	return path;
}

/* Scan TEXT written to a file called NAME. */
static int
scan_len(const char *name, const char *text, size_t len, char **envp,
    struct scan *s)
{
	char *path = write_tmp(name, text, len);
	int rc = scan_path(path, envp, s);

	unlink(path);
	free(path);
	return rc;
}

static int
scan_str(const char *name, const char *text, char **envp, struct scan *s)
{
	return scan_len(name, text, strlen(text), envp, s);
}

static void
counts(const struct scan *s, int npus, int nnodes, int rank, int port,
    const char *what)
{
	is_int(s->npus_per_node, npus, "%s: NPUs per node", what);
	is_int(s->nnodes, nnodes, "%s: nodes", what);
	is_int(s->node_rank, rank, "%s: node rank", what);
	is_int(s->master_port, port, "%s: master port", what);
}

static void
launch_of(const struct scan *s, enum engine e, const char *entry,
    const char *launcher, const char *what)
{
	is_str(engine_name(s->engine), engine_name(e), "%s: engine", what);
	is_str(s->entry, entry, "%s: entry", what);
	is_str(s->launcher, launcher, "%s: launcher", what);
}

static void
qwen3_standard(void)
{
	struct scan s;
	const char *w = "qwen3 torchrun";

	is_int(scan_path("t/scan/pretrain_qwen3_8b_4K_ptd.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "qwen3_8b", "%s: model from the file name", w);
	counts(&s, 8, 1, 0, 6000, w);
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py", "torchrun", w);
	is_int(s.launches.n, 1, "%s: one launch", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(8, 6000) " pretrain_gpt.py "
	    "--use-mcore-models --tensor-model-parallel-size 2 "
	    "--pipeline-model-parallel-size 2 --num-layers 36 "
	    "--hidden-size 4096 --seq-length 4096 --micro-batch-size 1 "
	    "--global-batch-size 128 "
	    "--tokenizer-type PretrainedFromHF --tokenizer-name-or-path your "
	    "tokenizer path --train-iters 2000 --lr 1.25e-6 --bf16 --data-path "
	    "your data path --split 100,0,0 --log-interval 1 --save-interval "
	    "2000 --eval-interval 2000 --eval-iters 0 --distributed-backend "
	    "nccl --load your model ckpt path --save your model save ckpt path",
	    "%s: the launch expanded, without '| tee'", w);
	is_int(s.train_iters, 2000, "%s: --train-iters", w);
	is_int(s.configs.n, 0, "%s: no config files", w);
	is_int(s.existing.n, 0, "%s: no profiling settings", w);
	is_int(s.nruns, 1, "%s: kept as argv", w);
	if (s.nruns == 1) {
		is_int(s.runs[0].line, 64, "%s: the line the launch starts on",
		    w);
		is_str(s.runs[0].script, "t/scan/pretrain_qwen3_8b_4K_ptd.sh",
		    "%s: the script it is in", w);
		is_list(&s.runs[0].env, "HCCL_CONNECT_TIMEOUT=1800 | "
		    "CUDA_DEVICE_MAX_CONNECTIONS=1 | "
		    "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True | "
		    "TASK_QUEUE_ENABLE=2", "%s: the exported variables, not "
		    "MASTER_ADDR and the others", w);
	}
	is_int(s.crlf, 0, "%s: LF line ends", w);
	scan_free(&s);
}

static void
llama2_launch_module(void)
{
	struct scan s;
	const char *w = "llama2 torch.distributed.launch";

	is_int(scan_path("t/scan/pretrain_llama2_13b_ptd.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "llama2_13b", "%s: model", w);
	counts(&s, 8, 1, 0, 6001, w);
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py",
	    "torch.distributed.launch", w);
	is_str(launch(&s, 0), "python -m torch.distributed.launch "
	    LLM_DIST(8, 6001) " pretrain_gpt.py --tensor-model-parallel-size 8 "
	    "--pipeline-model-parallel-size 1 --sequence-parallel "
	    "--num-layers 40 --tokenizer-type Llama2Tokenizer "
	    "--tokenizer-model your tokenizer path --train-iters=5000 --fp16 "
	    "--data-path your data path "
	    "--distributed-backend nccl --save your model save ckpt path",
	    "%s: launch with TOKENIZER_MODEL", w);
	is_int(s.train_iters, 5000, "%s: --train-iters=N", w);
	is_int(s.configs.n + s.existing.n, 0, "%s: no configs, no profiling",
	    w);
	scan_free(&s);
}

static void
msrun(void)
{
	struct scan s;
	const char *w = "msrun";

	is_int(scan_path("t/scan/pretrain_qwen3_8b_4K_ms.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "qwen3_8b", "%s: model without _4K_ms", w);
	counts(&s, 8, 2, 1, 9110, w);
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py", "msrun", w);
	is_str(launch(&s, 0), "msrun --local_worker_num 8 --master_port 9110 "
	    "--worker_num 16 --node_rank 1 --master_addr localhost "
	    "--log_dir=msrun_log --join=True --cluster_time_out=300 "
	    "pretrain_gpt.py --use-mcore-models --num-layers 36 --ai-framework "
	    "mindspore --distributed-backend nccl", "%s: launch", w);
	is_int(s.train_iters, -1, "%s: no --train-iters", w);
	scan_free(&s);
}

static void
a3(void)
{
	struct scan s;
	const char *w = "A3";

	is_int(scan_path("t/scan/pretrain_qwen3_8b_4K_ptd_A3.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "qwen3_8b", "%s: model without _4K_ptd_A3", w);
	counts(&s, 16, 1, 0, 6010, w);
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py", "torchrun", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(16, 6010) " pretrain_gpt.py "
	    "--num-layers 36 --train-iters 100 --distributed-backend nccl",
	    "%s: launch", w);
	is_int(s.train_iters, 100, "%s: --train-iters", w);
	scan_free(&s);
}

static void
env_defaults(void)
{
	struct scan s;
	const char *w = "NPUS_PER_NODE=${NPUS_PER_NODE:-4}";
	char *env[] = { "HOME=/root", "NPUS_PER_NODE=2", "NNODES=4",
	    "NODE_RANK=3", "MASTER_PORT=7777", NULL };
	char *empty[] = { "NPUS_PER_NODE=", NULL };

	is_int(scan_path("t/scan/finetune_step3_vl_10b.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "step3_vl_10b", "%s: model", w);
	counts(&s, 4, 1, 0, 6000, "defaults, no environment");
	launch_of(&s, ENGINE_MM_MEGATRON, "pretrain_vlm.py", "torchrun", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(4, 6000) " pretrain_vlm.py "
	    "--mm-data ./examples/step3_vl/data_10b.json --mm-model "
	    "./examples/step3_vl/model_10b.json --mm-tool "
	    "./mindspeed_mm/tools/tools.json --train-iters 10 "
	    "--distributed-backend nccl", "%s: launch with MM_ARGS", w);
	is_list(&s.configs, "./examples/step3_vl/data_10b.json | "
	    "./examples/step3_vl/model_10b.json | "
	    "./mindspeed_mm/tools/tools.json",
	    "%s: --mm-data, --mm-model, --mm-tool (MM_TOOL once)", w);
	is_int(s.train_iters, 10, "%s: --train-iters", w);
	scan_free(&s);

	is_int(scan_path("t/scan/finetune_step3_vl_10b.sh", env, &s), 0,
	    "%s with the environment: scanned", w);
	counts(&s, 2, 4, 3, 7777, "values from the environment");
	ok(launch(&s, 0) != NULL && strstr(launch(&s, 0), "--nproc_per_node 2 "
	    "--nnodes 4 --node_rank 3 --master_addr localhost --master_port "
	    "7777 pretrain_vlm.py") != NULL,
	    "%s: the environment in the launch", w);
	scan_free(&s);

	is_int(scan_path("t/scan/finetune_step3_vl_10b.sh", empty, &s), 0,
	    "%s with it empty: scanned", w);
	is_int(s.npus_per_node, 4,
	    "an empty NPUS_PER_NODE takes the :- default");
	scan_free(&s);
}

static void
gpus_per_node_mm(void)
{
	struct scan s;
	const char *w = "GPUS_PER_NODE, MM_TOOL";

	is_int(scan_path("t/scan/pretrain_opensoraplan1_3.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "opensoraplan1_3", "%s: model", w);
	counts(&s, 8, 1, 0, 29505, w);
	launch_of(&s, ENGINE_MM_MEGATRON, "pretrain_sora.py", "torchrun", w);
	is_int(s.launches.n, 1, "%s: one launch (not the grep|awk after)", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(8, 29505)
	    " pretrain_sora.py --tensor-model-parallel-size 1 "
	    "--micro-batch-size 1 --global-batch-size 8 --train-iters 5010 "
	    "--mm-data ./examples/opensoraplan1.3/t2v/data.json --mm-model "
	    "./examples/opensoraplan1.3/t2v/model_opensoraplan1_3.json "
	    "--mm-tool ./mindspeed_mm/tools/tools.json --log-interval 1 "
	    "--save-interval 10000 --distributed-backend nccl "
	    "--save path to save your wandit "
	    "weight", "%s: launch, GBS from nested arithmetic", w);
	is_list(&s.configs, "./examples/opensoraplan1.3/t2v/data.json | "
	    "./examples/opensoraplan1.3/t2v/model_opensoraplan1_3.json | "
	    "./mindspeed_mm/tools/tools.json", "%s: configs", w);
	is_int(s.train_iters, 5010, "%s: --train-iters", w);
	is_int(s.existing.n, 0, "%s: nothing profiles yet", w);
	scan_free(&s);
}

/* The standard script with CRLF line ends reads the same. */
static void
crlf(void)
{
	struct scan lf, cr;
	size_t len, n = 0;
	char *text = read_file("t/scan/pretrain_qwen3_8b_4K_ptd.sh", &len);
	char *dos, *path;
	char *lf_list, *cr_list;

	if (text == NULL) {
		ok(0, "CRLF: fixture readable");
		return;
	}
	dos = xmalloc(2 * len + 1);
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			dos[n++] = '\r';
		dos[n++] = text[i];
	}
	ok(n > len && memmem(dos, n, "\\\r\n", 3) != NULL,
	    "CRLF: the copy has CRLF ends, also after backslashes");
	path = write_tmp("pretrain_qwen3_8b_4K_ptd.sh", dos, n);
	is_int(scan_path("t/scan/pretrain_qwen3_8b_4K_ptd.sh", NULL, &lf), 0,
	    "CRLF: LF scanned");
	is_int(scan_path(path, NULL, &cr), 0, "CRLF: CRLF scanned");
	is_str(cr.model, lf.model, "CRLF: model");
	counts(&cr, lf.npus_per_node, lf.nnodes, lf.node_rank, lf.master_port,
	    "CRLF");
	ok(lf.npus_per_node == 8, "CRLF: the LF reference is right");
	launch_of(&cr, lf.engine, lf.entry, lf.launcher, "CRLF");
	lf_list = joined(&lf.launches);
	cr_list = joined(&cr.launches);
	is_str(cr_list, lf_list, "CRLF: the same launch, no stray \\r");
	is_int(cr.train_iters, lf.train_iters, "CRLF: --train-iters");
	is_int(cr.crlf, 1, "CRLF: said, for a warning");
	is_int(lf.crlf, 0, "CRLF: not said of the LF script");
	free(lf_list);
	free(cr_list);
	scan_free(&lf);
	scan_free(&cr);
	unlink(path);
	free(path);
	free(dos);
	free(text);
}

static void
comments(void)
{
	struct scan s;
	const char *w = "comments and quotes";

	is_int(scan_path("t/scan/comments_and_quotes.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, NULL, "%s: no model in the name", w);
	is_int(s.launches.n, 1, "%s: the commented-out launch is not one", w);
	is_str(launch(&s, 0), "torchrun --nproc_per_node 4 --master_port "
	    "7000#not-a-comment pretrain_gpt.py --data-path /data/#1/corpus "
	    "--tag 'run #2 \"quoted\"' --note "
	    "'a \"quoted\" word and a $DOLLAR' --save ckpt#1",
	    "%s: '#' in words and quotes is kept", w);
	is_int(s.npus_per_node, 4, "%s: value before a comment", w);
	is_int(s.master_port, -1, "%s: a port that is no number is unknown", w);
	is_int(s.existing.n, 0, "%s: --profile in a comment is not there", w);
	scan_free(&s);
}

static void
continuations(void)
{
	struct scan s;
	const char *w = "continuations";

	is_int(scan_path("t/scan/continuation_override.sh", NULL, &s), 0,
	    "%s: scanned", w);
	counts(&s, 2, 1, 0, 29500, "the launch's own options win");
	is_str(launch(&s, 0), "torchrun --nproc-per-node=2 --nnodes=1 "
	    "--node-rank=0 --master-port 29500 pretrain_gpt.py --num-layers 2 "
	    "--train-iters 30 --lr 1e-4", "%s: one launch over many lines", w);
	is_int(s.train_iters, 30, "%s: value on the next line", w);
	scan_free(&s);
}

static void
fsdp2_pipefail(void)
{
	struct scan s;
	const char *w = "set -eo pipefail, \"$@\"";
	char *env[] = { "MODEL_PATH=/models/mine", NULL };

	is_int(scan_path("t/scan/pretrain_qwen3_1point7b_4k_fsdp2_A2.sh", NULL,
	    &s), 0, "%s: scanned", w);
	is_str(s.model, "qwen3_1point7b", "%s: model", w);
	counts(&s, 8, 1, 0, 6499, w);
	launch_of(&s, ENGINE_LLM_FSDP2, "train_fsdp2.py", "torchrun", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(8, 6499) " train_fsdp2.py "
	    "examples/fsdp2/qwen3/pretrain_qwen3_1p7b_4k_fsdp2_A2.yaml "
	    "--model.model_name_or_path /models/Qwen3-1.7B --data.dataset "
	    "/datasets/alpaca --parallel.fsdp_size 8 --training.output_dir "
	    "./output", "%s: \"$@\" without arguments is no word", w);
	is_list(&s.configs,
	    "examples/fsdp2/qwen3/pretrain_qwen3_1p7b_4k_fsdp2_A2.yaml",
	    "%s: the YAML argument", w);
	scan_free(&s);

	is_int(scan_path("t/scan/pretrain_qwen3_1point7b_4k_fsdp2_A2.sh", env,
	    &s), 0, "%s with MODEL_PATH: scanned", w);
	ok(launch(&s, 0) != NULL && strstr(launch(&s, 0),
	    "--model.model_name_or_path /models/mine ") != NULL,
	    "%s: ${MODEL_PATH:-...} takes the environment", w);
	scan_free(&s);
}

static void
two_launches(void)
{
	struct scan s;
	const char *w = "two launches";

	is_int(scan_path("t/scan/high_availability_error_dump_ptd.sh", NULL,
	    &s), 0, "%s: scanned", w);
	is_str(s.model, NULL, "%s: no model", w);
	is_int(s.launches.n, 2, "%s: both recorded", w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(8, 6000) " pretrain_gpt.py "
	    "--num-layers 2 --hidden-size 256 --distributed-backend nccl "
	    "--train-iters 15 --enable-high-availability --save ./ckpt",
	    "%s: the first", w);
	is_str(launch(&s, 1), "torchrun --nproc_per_node 4 --master_port 6001 "
	    "posttrain_gpt.py --num-layers 2 --hidden-size 256 "
	    "--distributed-backend nccl --train-iters 20 --load ./ckpt",
	    "%s: the second, with the variable as it is then", w);
	is_int(s.nruns, 2, "%s: both kept as argv", w);
	if (s.nruns == 2) {
		is_str(s.runs[1].argv.v[0], "torchrun", "%s: argv[0]", w);
		is_str(s.runs[1].argv.v[4], "6001", "%s: a word on its own",
		    w);
		is_str(s.runs[1].argv.v[s.runs[1].argv.n - 1], "./ckpt",
		    "%s: the last word", w);
	}
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py", "torchrun",
	    "two launches, the first");
	counts(&s, 8, 1, 0, 6000, "two launches, the first");
	is_int(s.train_iters, 15, "%s: --train-iters of the first", w);
	scan_free(&s);
}

static void
no_launch(void)
{
	struct scan s;
	const char *w = "data conversion";

	is_int(scan_path("t/scan/data_convert_qwen3_pretrain.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_int(s.launches.n, 0, "%s: python preprocess_data.py is none", w);
	is_str(engine_name(s.engine), "none", "%s: no engine", w);
	is_str(s.entry, NULL, "%s: no entry", w);
	is_str(s.launcher, NULL, "%s: no launcher", w);
	is_str(s.model, NULL, "%s: no model", w);
	counts(&s, -1, -1, -1, -1, w);
	is_int(s.train_iters, -1, "%s: no --train-iters", w);
	is_int(s.configs.n + s.existing.n, 0, "%s: nothing else", w);
	scan_free(&s);
}

static void
yaml_scripts(void)
{
	struct scan s;
	const char *w = "MM YAML entry", *f = "MM FSDP2 engine";

	is_int(scan_path("t/scan/finetune_qwen3vl_8B.sh", NULL, &s), 0,
	    "%s: scanned", w);
	is_str(s.model, "qwen3vl_8B", "%s: model", w);
	launch_of(&s, ENGINE_MM_YAML, "pretrain_transformers.py", "torchrun",
	    w);
	is_str(launch(&s, 0), "torchrun " LLM_DIST(8, 6000)
	    " pretrain_transformers.py "
	    "examples/qwen3vl/qwen3vl_full_sft_8B.yaml "
	    "--distributed-backend nccl", "%s: launch", w);
	is_list(&s.configs, "examples/qwen3vl/qwen3vl_full_sft_8B.yaml",
	    "%s: the YAML", w);
	scan_free(&s);

	is_int(scan_path("t/scan/finetune_qwen3_5_35B.sh", NULL, &s), 0,
	    "%s: scanned", f);
	is_str(s.model, "qwen3_5_35B", "%s: model", f);
	counts(&s, 16, 1, 0, 6000, f);
	launch_of(&s, ENGINE_MM_FSDP2, "mindspeed_mm/fsdp/train/trainer.py",
	    "torchrun", f);
	is_list(&s.configs, "examples/qwen3_5/qwen3_5_35B_config.yaml",
	    "%s: the YAML", f);
	is_list(&s.existing, "tools.profile.enable=true | "
	    "tools.profile.static_param.start_step=5",
	    "%s: tools.profile overrides, not other key=value", f);
	scan_free(&s);
}

static void
profile_args(void)
{
	struct scan s;
	const char *w = "PROFILE_ARGS";

	is_int(scan_path("t/scan/qwen2_moe_tp1_pp2_ep2_cp2_32k.sh", NULL, &s),
	    0, "%s: scanned", w);
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py", "torchrun", w);
	is_list(&s.existing, "--profile | --profile-step-start 5 | "
	    "--profile-step-end 6 | --profile-ranks 0 | "
	    "--profile-level level1 | --profile-with-cpu | "
	    "--profile-record-shapes | --profile-save-path ./profile_dir",
	    "%s: each option with its values", w);
	is_int(s.train_iters, 15, "%s: --train-iters", w);
	scan_free(&s);
}

static void
two_nodes(void)
{
	struct scan s;
	const char *w = "two nodes";
	char *env[] = { "NODE_RANK=1", NULL };

	is_int(scan_path("t/scan/pretrain_deepseek3_671b_4k_ptd.sh", NULL, &s),
	    0, "%s: scanned", w);
	is_str(s.model, "deepseek3_671b", "%s: model", w);
	counts(&s, 8, 2, 0, 6000, "two nodes, first node");
	launch_of(&s, ENGINE_LLM_MCORE, "pretrain_gpt.py",
	    "torch.distributed.launch", w);
	is_str(launch(&s, 0), "python -m torch.distributed.launch "
	    "--nproc_per_node 8 --nnodes 2 --node_rank 0 "
	    "--master_addr localhost --master_port 6000 pretrain_gpt.py "
	    "--num-layers 61 "
	    "--expert-model-parallel-size 16 --train-iters 2000 "
	    "--distributed-backend nccl", "%s: launch, WORLD_SIZE computed", w);
	scan_free(&s);

	is_int(scan_path("t/scan/pretrain_deepseek3_671b_4k_ptd.sh", env, &s),
	    0, "%s, second node: scanned", w);
	counts(&s, 8, 2, 1, 6000, "two nodes, NODE_RANK=1 in the environment");
	scan_free(&s);
}

/* Expansion: arithmetic, defaults, declarations, unknown values. */
static void
expansion(void)
{
	struct scan s;
	char *six[] = { "NPUS_PER_NODE=3", NULL };

	scan_str("t.sh", "A=3\nB=4\nX=$(( $A * $B ))\nY=$((A*B+2))\n"
	    "Z=$(( (A+B) / 2 - 10 ))\nW=$((X % 5))\nV=$((-A + 010 + 0x10))\n"
	    "L=${#Y}\nNPUS_PER_NODE=$(( $((A)) + 1 ))\n"
	    "torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py "
	    "--x $X --y $Y --z $Z --w $W --v $V --l $L\n", NULL, &s);
	is_str(launch(&s, 0), "torchrun --nproc_per_node 4 pretrain_gpt.py "
	    "--x 12 --y 14 --z -7 --w 2 --v 21 --l 2", "arithmetic forms");
	as_bash("A=3\nB=4\nX=$(( $A * $B ))\nY=$((A*B+2))\n"
	    "Z=$(( (A+B) / 2 - 10 ))\nW=$((X % 5))\nV=$((-A + 010 + 0x10))\n"
	    "L=${#Y}\nNPUS_PER_NODE=$(( $((A)) + 1 ))\n"
	    "torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py "
	    "--x $X --y $Y --z $Z --w $W --v $V --l $L\n", "arithmetic");
	is_int(s.npus_per_node, 4, "nested arithmetic");
	scan_free(&s);

	scan_str("t.sh", "NPUS_PER_NODE=$(npu-smi info -l | grep -c NPU)\n"
	    "MASTER_ADDR=$(head -n1 $HOSTFILE)\nQ=$((1/0))\nR=${X/a/b}\n"
	    "MASTER_PORT=$((B+))\n"
	    "torchrun --nproc_per_node $NPUS_PER_NODE "
	    "--master_addr $MASTER_ADDR --master_port $MASTER_PORT "
	    "pretrain_gpt.py --q $Q --r $R --t `date` --u $?\n", NULL, &s);
	is_str(launch(&s, 0), "torchrun --nproc_per_node $(npu-smi info -l | "
	    "grep -c NPU) --master_addr $(head -n1 $HOSTFILE) --master_port "
	    "$((B+)) pretrain_gpt.py --q $((1/0)) --r ${X/a/b} --t `date` "
	    "--u $?",
	    "unknown values are shown as written, one word each");
	is_str(s.nruns == 1 && s.runs[0].argv.n > 4 ? s.runs[0].argv.v[4] :
	    NULL, "$(head -n1 $HOSTFILE)", "the same word in the argv kept");
	counts(&s, -1, -1, -1, -1, "unknown values");
	is_str(s.entry, "pretrain_gpt.py", "unknown values: entry still found");
	scan_free(&s);

	scan_str("t.sh", "D=$(dirname /a/b/c.sh)\nB=$(basename /a/b/c.sh .sh)\n"
	    "E=$(dirname c.sh)\nF=`dirname a//b//`\nG=$(basename /)\n"
	    "H=$(echo x  y)\nI=$(dirname /)\nJ=$(basename a/b/)\n"
	    "torchrun pretrain_gpt.py $D $B $E $F $G \"$H\" $I $J "
	    "$(date) $(cd x || exit; pwd) $(echo -n x) \"$(dirname $0)\"\n",
	    NULL, &s);
	{
		char *want = xasprintf("torchrun pretrain_gpt.py /a/b c . a / "
		    "'x y' / b $(date) $(cd x || exit; pwd) $(echo -n x) %s",
		    tmpdir);

		is_str(launch(&s, 0), want, "command substitutions the scan "
		    "evaluates (dirname, basename, echo), and others not");
		free(want);
	}
	scan_free(&s);

	scan_str("t.sh", ": ${NPUS_PER_NODE:=6}\n: ${NNODES=2}\n"
	    "torchrun pretrain_gpt.py\n", NULL, &s);
	is_int(s.npus_per_node, 6, "${X:=8} assigns");
	is_int(s.nnodes, 2, "${X=8} assigns");
	scan_free(&s);
	scan_str("t.sh", ": ${NPUS_PER_NODE:=6}\ntorchrun pretrain_gpt.py\n",
	    six, &s);
	is_int(s.npus_per_node, 3, "${X:=8} keeps the environment's value");
	scan_free(&s);

	scan_str("t.sh", "export MASTER_PORT=6100\nreadonly NNODES=3\n"
	    "f() {\n  local NODE_RANK=2\n}\ndeclare -x GPUS_PER_NODE=\"5\"\n"
	    "typeset -r ARGS='--a 1'\nARGS+=\" --b 2\"\nexport ARGS\n"
	    "torchrun pretrain_gpt.py $ARGS\n", NULL, &s);
	counts(&s, 5, 3, 2, 6100, "export, readonly, local, declare");
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py --a 1 --b 2",
	    "typeset and += append");
	scan_free(&s);

	scan_str("t.sh", "E=\"\"\ntorchrun pretrain_gpt.py --a ${E-dash} "
	    "--b ${E:-colon} --c ${E:+plus} --d ${UNSET+plus} --e ${E+set} "
	    "--f \"$E\" --g ${1:-default.yaml} $2 $# $* --h ${E:-\"a b\"} "
	    "--i ${E:-a b} --j ${E:+\"$E\"}\n", NULL, &s);
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py --a --b colon --c --d "
	    "--e set --f '' --g default.yaml 0 --h 'a b' --i a b --j",
	    "-, :-, +, :+, quotes in the word, no arguments");
	as_bash("E=\"\"\ntorchrun pretrain_gpt.py --a ${E-dash} "
	    "--b ${E:-colon} --c ${E:+plus} --d ${UNSET+plus} --e ${E+set} "
	    "--f \"$E\" --g ${1:-default.yaml} $2 $# $* --h ${E:-\"a b\"} "
	    "--i ${E:-a b} --j ${E:+\"$E\"}\n", "parameter forms");
	scan_free(&s);

	scan_str("t.sh", "NNODES=2\nunset NNODES\nMASTER_PORT=6000\n"
	    "NPUS_PER_NODE=8\nread -r NPUS_PER_NODE < npus.txt\n"
	    "for NODE_RANK in 0 1; do\n"
	    "  torchrun pretrain_gpt.py --rank $NODE_RANK\n"
	    "done\nMASTER_PORT=7000\n", NULL, &s);
	is_int(s.nnodes, -1, "unset forgets");
	is_int(s.npus_per_node, -1, "read makes a variable unknown");
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py --rank $NODE_RANK",
	    "a loop variable is unknown");
	is_int(s.node_rank, -1, "a loop variable is no number");
	is_int(s.master_port, 6000, "counts as the first launch runs");
	scan_free(&s);
}

/* Which commands are launches. */
static void
commands(void)
{
	struct scan s;
	char *t;

	scan_str("t.sh", "exec env -u X ASCEND_RT_VISIBLE_DEVICES=0,1 nohup "
	    "time -p torchrun --nproc_per_node 2 pretrain_gpt.py > log "
	    "2>&1 &\n", NULL, &s);
	is_str(launch(&s, 0), "torchrun --nproc_per_node 2 pretrain_gpt.py",
	    "exec env nohup time skipped, redirections dropped");
	is_int(s.npus_per_node, 2, "prefixed launch: --nproc_per_node");
	scan_free(&s);

	scan_str("t.sh", "L=torchrun\nif [ \"$(hostname)\" = 1 ]; then\n"
	    "  $L --nproc_per_node 2 pretrain_gpt.py --a\nelse\n"
	    "  for i in 1 2; do python3 -u pretrain_gpt.py --b; done\nfi\n"
	    "mkdir -p logs && { VAR=1 python posttrain_gpt.py --c; } | tee x\n",
	    NULL, &s);
	is_list(&s.launches, "torchrun --nproc_per_node 2 pretrain_gpt.py "
	    "--a | python3 -u pretrain_gpt.py --b | "
	    "python posttrain_gpt.py --c",
	    "launches in if, loops, lists and groups");
	is_str(s.launcher, "torchrun", "the launcher from a variable");
	scan_free(&s);

	scan_str("t.sh", "cat > run.sh <<EOF\ntorchrun --nproc_per_node 8 "
	    "pretrain_gpt.py\nEOF\ncat <<-'END' | sh\n"
	    "\ttorchrun pretrain_gpt.py\n\tEND\n"
	    "torchrun --nproc_per_node 2 pretrain_gpt.py <<< hi\n", NULL, &s);
	is_list(&s.launches, "torchrun --nproc_per_node 2 pretrain_gpt.py",
	    "here-documents are not commands");
	scan_free(&s);

	scan_str("t.sh", "accelerate launch train.py\ntorchrun other.py\n"
	    "python -c 'import torch'\necho torchrun pretrain_gpt.py\n"
	    "torchrun --nnodes\npython3 /v/bin/torchrun --nproc_per_node 3 "
	    "pretrain_gpt.py\n", NULL, &s);
	is_list(&s.launches, "python3 /v/bin/torchrun --nproc_per_node 3 "
	    "pretrain_gpt.py", "only the MindSpeed launch counts");
	is_str(s.launcher, "torchrun", "python running torchrun: torchrun");
	is_int(s.npus_per_node, 3, "python running torchrun: its options");
	scan_free(&s);

	scan_str("t.sh", "export MM_TOOL=./tools_custom.json\n"
	    "torchrun pretrain_sora.py --mm-data=d.json --mm-model m.json "
	    "--mm-tool \"\" cfg.yaml\n", NULL, &s);
	is_list(&s.configs, "d.json | m.json | ./tools_custom.json",
	    "MM_TOOL only in the environment, = forms, no YAML here");
	scan_free(&s);

	t = repeat("", "torchrun pretrain_gpt.py\n", 100, "");
	scan_str("t.sh", t, NULL, &s);
	is_int(s.launches.n, 64, "at most 64 launches are recorded");
	scan_free(&s);
	free(t);

	scan_str("t.sh", "python pretrain_gpt.py --profile-ranks -1 3 "
	    "--profile-level=level2 --training.profile true "
	    "--profile-with-stack --lr 1 --profile-save-path /p x.yaml\n",
	    NULL, &s);
	is_str(s.launcher, "python", "python entry.py: python");
	is_list(&s.existing, "--profile-ranks -1 3 | --profile-level=level2 | "
	    "--profile-with-stack | --profile-save-path /p",
	    "values of profiling options, by the rule of the launch's engine");
	is_int(s.configs.n, 0, "no YAML argument for an mcore entry");
	scan_free(&s);

	scan_str("t.sh", "torchrun train_fsdp2.py missing.yaml "
	    "--training.profile true --training.profile_ranks 0 1 "
	    "--profile-level level2 --training.lr 1\n", NULL, &s);
	is_list(&s.existing, "--training.profile true | "
	    "--training.profile_ranks 0 1", "FSDP2: its own options, with values");
	scan_free(&s);
}

static void
model_names(void)
{
	static const char *const cases[][2] = {
		{ "tune_deepseek3_671b_16k_lora_A3_ptd.sh", "deepseek3_671b" },
		{ "pretrain_glm4_9b_32k_ms.sh", "glm4_9b" },
		{ "tune_qwen3_8b_4K_full_ptd.sh", "qwen3_8b" },
		{ "pretrain_qwen3_30b_4k_fsdp2_quant_A5.sh", "qwen3_30b" },
		{ "posttrain_x.sh", "x" },
		{ "finetune_qwen2_5_vl_7b.sh", "qwen2_5_vl_7b" },
		{ "pretrain_ptd.sh", "ptd" },
		{ "pretrain_.sh", NULL },
		{ "pretrain.sh", NULL },
		{ "train.sh", NULL },
		{ "ckpt_convert_qwen3_hf2mcore.sh", NULL },
		{ "pretrain_qwen3_8b_4K_ptd_edited.sh", "qwen3_8b" },
		{ "finetune_qwen2_5_vl_7b_copy.sh", "qwen2_5_vl_7b" },
	};
	static const char *const dirs[] = { "examples", "examples/wan2.1",
	    "examples/wan2.1/1.3b", "examples/wan2.1/1.3b/t2v" };
	struct scan s;
	int made_dir = 1;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		scan_str(cases[i][0], "true\n", NULL, &s);
		is_str(s.model, cases[i][1], "model of %s", cases[i][0]);
		scan_free(&s);
	}
	/* a script named for its task: the model its directories name */
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		char *d = xasprintf("%s/%s", tmpdir, dirs[i]);

		made_dir &= mkdir(d, 0700) == 0;
		free(d);
	}
	ok(made_dir, "examples/wan2.1/1.3b/t2v made");
	scan_str("examples/wan2.1/1.3b/t2v/pretrain.sh", "true\n", NULL, &s);
	is_str(s.model, "wan2.1_1.3b_t2v", "model of examples/wan2.1/1.3b/"
	    "t2v/pretrain.sh");
	scan_free(&s);
	for (size_t i = sizeof(dirs) / sizeof(*dirs); i-- > 0;) {
		char *d = xasprintf("%s/%s", tmpdir, dirs[i]);

		rmdir(d);
		free(d);
	}
}

static void
unreadable(void)
{
	struct scan s;
	char *why = NULL;

	is_int(scan_script(&tab, "t/scan/nosuch.sh", NULL, &s, &why), -1,
	    "a missing script fails");
	is_str(why, "cannot read t/scan/nosuch.sh: No such file or directory",
	    "and says why");
	free(why);
	why = NULL;
	scan_free(&s);
	is_int(scan_script(&tab, "t/scan", NULL, &s, &why), -1,
	    "a directory fails");
	is_str(why, "cannot read t/scan: Is a directory", "and says why");
	free(why);
	scan_free(&s);
}

static char *
repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
	char *s = xmalloc(hl + n * ul + tl + 1), *p = s;

	memcpy(p, head, hl);
	p += hl;
	for (size_t i = 0; i < n; i++, p += ul)
		memcpy(p, unit, ul);
	memcpy(p, tail, tl + 1);
	return s;
}

/*
 * A script of N lines FMT, each formatted with the line number I (and
 * whatever else uses it), then TAIL; into the string T.
 */
#define NUMBERED(t, n, tail, fmt, ...) do {				\
	struct buf b_ = { 0 };						\
	char l_[256];							\
									\
	for (int i = 1; i <= (n); i++)					\
		buf_add(&b_, l_, (size_t)snprintf(l_, sizeof(l_), fmt,	\
		    __VA_ARGS__));					\
	buf_add(&b_, tail, strlen(tail));				\
	(t) = b_.s;							\
} while (0)

/* Map each byte of BUF to one of the N characters of SET. */
static void
shell_like(char *buf, size_t len, const char *set, size_t n)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = set[(unsigned char)buf[i] % n];
}

/* Scan TEXT (freed); 0 if it was scanned. */
static int
survives(char *text, size_t launches, const char *what)
{
	struct scan s;
	int rc = scan_str("t.sh", text, NULL, &s);

	is_int(rc, 0, "survives %s", what);
	is_int(s.launches.n, launches, "%s: %zu launch(es)", what, launches);
	scan_free(&s);
	free(text);
	return rc;
}

static void
adversarial(void)
{
	static const char *const units[] = { "a", "$(", "${", "\"", "'", "\\",
	    "$((", "`", "(", "<<", "#", "${X:-", "$", "=(" };
	static const char shellish[] = "$({\"'`\\)}\n #=<>|&;:-+*/%a1";
	struct scan s;
	char *t, garbage[65536];
	unsigned int seed = 12345;

	survives(xstrdup(""), 0, "an empty file");
	survives(xstrdup("torchrun --nproc_per_node 2 pretrain_gpt.py "
	    "--x \"abc"), 1, "an unterminated double quote");
	survives(xstrdup("X='abc\ntorchrun pretrain_gpt.py\n"), 0,
	    "an unterminated single quote");
	survives(xstrdup("X=$((1+2\ntorchrun pretrain_gpt.py\n"), 0,
	    "$(( without end");
	survives(xstrdup("X=${A:-8\ntorchrun pretrain_gpt.py\n"), 0,
	    "${ without end");
	survives(xstrdup("torchrun pretrain_gpt.py --x $((\n"), 1,
	    "$(( at the end");
	t = repeat("torchrun --nproc_per_node 2 pretrain_gpt.py --x ", "A",
	    10000, "\n");
	scan_str("t.sh", t, NULL, &s);
	ok(launch(&s, 0) != NULL && strlen(launch(&s, 0)) == 10000 + 48,
	    "a 10,000-character launch is kept whole");
	scan_free(&s);
	free(t);
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		survives(repeat("torchrun pretrain_gpt.py ", units[i], 10000,
		    "\n"), 1, units[i]);

	t = repeat("NPUS_PER_NODE=", "${A:-", 10000, "8");
	{
		char *u = repeat(t, "}", 10000, "\ntorchrun pretrain_gpt.py\n");

		scan_str("t.sh", u, NULL, &s);
		is_int(s.npus_per_node, -1,
		    "${...} nested 10,000 deep: unknown");
		is_int(s.launches.n, 1, "${...} nested deep: the launch after");
		scan_free(&s);
		free(u);
	}
	free(t);
	t = xstrdup("NPUS_PER_NODE=${A:-${B:-${C:-${D:-${E:-8}}}}}\n"
	    "torchrun pretrain_gpt.py\n");
	scan_str("t.sh", t, NULL, &s);
	is_int(s.npus_per_node, 8, "${...} nested 5 deep: evaluated");
	scan_free(&s);
	free(t);
	t = repeat("NPUS_PER_NODE=$((", "(", 10000, "1");
	{
		char *u = repeat(t, ")", 10000,
		    "))\ntorchrun pretrain_gpt.py\n");

		survives(u, 1, "$(( with 10,000 parentheses");
	}
	free(t);

	t = repeat("X=ab\n", "X=$X$X$X$X\n", 40,
	    "torchrun pretrain_gpt.py $X\n");
	scan_str("t.sh", t, NULL, &s);
	ok(launch(&s, 0) != NULL && strlen(launch(&s, 0)) <= 65536 + 25,
	    "a value that doubles each line is bounded");
	scan_free(&s);
	free(t);
	NUMBERED(t, SH_MAX_VARS + 10, "torchrun pretrain_gpt.py $UNSET_NAME "
	    "$V1\n", "V%d=1\n", i);
	scan_str("t.sh", t, NULL, &s);
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py $UNSET_NAME 1",
	    "past the variable limit an unset name is unknown");
	scan_free(&s);
	free(t);

	for (int round = 0; round < 8; round++) {
		for (size_t i = 0; i < sizeof(garbage); i++) {
			seed = seed * 1103515245 + 12345;
			garbage[i] = (char)(seed >> 16);
		}
		if (round % 2)		/* shell-like, no NUL to stop at */
			shell_like(garbage, sizeof(garbage), shellish,
			    sizeof(shellish) - 1);
		is_int(scan_len("garbage.sh", garbage, sizeof(garbage), NULL,
		    &s), 0, "binary garbage, round %d", round);
		scan_free(&s);
	}
}

/*
 * The variable table: 20,000 names, set, read, changed and unset; and a
 * chain of 20,000 variables each set from the one before.
 */
static void
many_variables(void)
{
	struct scan s;
	char *t, *u;

	NUMBERED(u, 20000, "unset V500\nV7=seven\ntorchrun pretrain_gpt.py "
	    "$V1 $V7 ${V500-gone} $V12345 $V20000 ${#V19999} $V20001\n",
	    "V%d=%d\n", i, i);
	scan_str("t.sh", u, NULL, &s);
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py 1 seven gone 12345 "
	    "20000 5", "20,000 variables: set, changed, unset, unset names");
	scan_free(&s);
	free(u);

	NUMBERED(t, 20000, "torchrun pretrain_gpt.py --c \"$C20000\" "
	    "--d $C1\n", "C%d=$C%d\n", i, i - 1);
	u = xasprintf("C0=end\n%s", t);
	scan_str("t.sh", u, NULL, &s);
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py --c end --d end",
	    "a chain of 20,000 variables");
	scan_free(&s);
	as_bash(u, "a chain of 20,000 variables");
	free(t);
	free(u);
}

/* "X=$X..." appends, and means what the shell means by it. */
static void
self_append(void)
{
	struct scan s;
	char *t;

	scan_str("t.sh", "X=a\nX=\"$X b\"\nX=${X}c\nX=$X'd e'\n"
	    "XY=1\nZ=2\nZ=$XY\nY=1\nY=\"$Y$Y\"\nU=$(cmd)\nU=\"$U u\"\n"
	    "W=${W}w\nN=\"$NPUS\"\n"
	    "torchrun pretrain_gpt.py --x \"$X\" --z $Z --y $Y --u \"$U\" "
	    "--w $W --n \"$N\"\n", NULL, &s);
	is_str(launch(&s, 0), "torchrun pretrain_gpt.py --x 'a bcd e' --z 1 "
	    "--y 11 --u '$(cmd) u' --w w --n ''",
	    "X=$X... appends; $XY is another name; unknown stays unknown");
	scan_free(&s);

	NUMBERED(t, 3000, "torchrun pretrain_gpt.py $ARGS\n",
	    "ARGS=\"$ARGS --opt-%d %d\"\n", i, i);
	scan_str("t.sh", t, NULL, &s);
	ok(s.nruns == 1 && s.runs[0].argv.n == 2 + 2 * 3000 &&
	    strcmp(s.runs[0].argv.v[2], "--opt-1") == 0 &&
	    strcmp(s.runs[0].argv.v[2 * 3000], "--opt-3000") == 0 &&
	    strcmp(s.runs[0].argv.v[2 * 3000 + 1], "3000") == 0,
	    "ARGS grown over 3,000 lines: every option, in order");
	scan_free(&s);
	as_bash(t, "ARGS grown over 3,000 lines");
	free(t);
}

static char *stub_env[2];	/* PATH with the stub torchrun first */

/* A torchrun that prints its words, then its environment sorted. */
static void
make_stub(void)
{
	static const char stub[] = "#!/bin/sh\nprintf torchrun\n"
	    "for a; do printf ' %s' \"$a\"; done\necho\n"
	    "env | grep -v -e '^PWD=' -e '^OLDPWD=' -e '^SHLVL=' -e '^_=' | "
	    "LC_ALL=C sort | sed 's/^/  /'\n";
	char *bin = xasprintf("%s/bin", tmpdir), *path;

	if (mkdir(bin, 0700) == -1) {
		printf("Bail out! %s: %s\n", bin, strerror(errno));
		exit(1);
	}
	path = write_tmp("bin/torchrun", stub, strlen(stub));
	chmod(path, 0755);
	free(path);
	stub_env[0] = xasprintf("PATH=%s:/usr/bin:/bin", bin);
	free(bin);
}

static void
remove_stub(void)
{
	char *path = xasprintf("%s/bin/torchrun", tmpdir);

	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
	free(stub_env[0]);
}

/*
 * The torchrun commands real bash runs for SCRIPT, from the current
 * directory with only ENVP, as the stub prints them.
 */
static char *
bash_torchruns(const char *script, char *const envp[])
{
	struct buf cmd = { 0 }, out = { 0 };
	char line[4096];
	FILE *p;

	buf_add(&cmd, "env -i", 6);
	for (size_t i = 0; envp[i] != NULL; i++) {
		buf_add(&cmd, " '", 2);
		buf_add(&cmd, envp[i], strlen(envp[i]));
		buf_add(&cmd, "'", 1);
	}
	buf_add(&cmd, " bash ", 6);
	buf_add(&cmd, script, strlen(script));
	buf_add(&cmd, " 2>/dev/null", 12);
	if ((p = popen(cmd.s, "r")) == NULL) {
		printf("Bail out! popen: %s\n", strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), p) != NULL)
		buf_add(&out, line, strlen(line));
	pclose(p);
	free(cmd.s);
	return out.s != NULL ? out.s : xstrdup("");
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The same from the scan: each launch, then its environment sorted. */
static char *
scan_torchruns(const struct scan *s)
{
	struct buf out = { 0 };
	char **env;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct strv *e = &s->runs[i].env;
		char *words = strv_join(s->runs[i].argv.v, " ");

		buf_add(&out, words, strlen(words));
		buf_add(&out, "\n", 1);
		free(words);
		env = xcalloc(e->n + 1, sizeof(*env));
		memcpy(env, e->v, e->n * sizeof(*env));
		qsort(env, e->n, sizeof(*env), by_string);
		for (size_t k = 0; k < e->n; k++) {
			buf_add(&out, "  ", 2);
			buf_add(&out, env[k], strlen(env[k]));
			buf_add(&out, "\n", 1);
		}
		free(env);
	}
	return out.s != NULL ? out.s : xstrdup("");
}

/*
 * SCRIPT (in the current directory) scanned with ENVP gives the launches
 * and environments bash gives them.
 */
static void
as_bash_runs(const char *script, char *const envp[], const char *what)
{
	struct scan s;
	char *want = bash_torchruns(script, envp), *got;

	scan_path(script, envp, &s);
	got = scan_torchruns(&s);
	ok(*want != '\0', "%s: bash ran torchrun", what);
	is_str(got, want, "%s: the launches and environments bash runs",
	    what);
	free(got);
	free(want);
	scan_free(&s);
}

/* TEXT as a script under the temporary directory: as bash runs it. */
static void
as_bash(const char *text, const char *what)
{
	char *path = write_tmp("bash.sh", text, strlen(text));

	as_bash_runs(path, stub_env, what);
	unlink(path);
	free(path);
}

/* The environment each launch runs with. */
static void
launch_env(void)
{
	struct scan s;
	char *env[] = { "HOME=/root", "GONE=1", "PATH=/usr/bin", NULL };

	scan_str("t.sh", "export MM_TOOL=./tools.json\nLOCAL=1\nX=2\n"
	    "export X\nunset GONE\ndeclare -x D=4\nset -a\nA=5\nset +a\n"
	    "B=6\nexport U=$(cmd)\n"
	    "MM_MODEL=m.json PATH=/p torchrun pretrain_gpt.py\n"
	    "env -u HOME E=7 python pretrain_gpt.py\n"
	    "X=3 env -i F=8 python pretrain_gpt.py\n", env, &s);
	is_int(s.nruns, 3, "env: three launches");
	if (s.nruns != 3)
		goto out;
	is_list(&s.runs[0].env, "HOME=/root | MM_TOOL=./tools.json | X=2 | "
	    "D=4 | A=5 | U=$(cmd) | MM_MODEL=m.json | PATH=/p",
	    "env: inherited, exported, set -a, prefix assignments");
	is_int(s.runs[0].line, 12, "env: line of the first launch");
	is_list(&s.runs[1].env, "PATH=/usr/bin | MM_TOOL=./tools.json | "
	    "X=2 | D=4 | A=5 | U=$(cmd) | E=7", "env: env -u and env X=y");
	is_int(s.runs[1].line, 13, "env: line of the second launch");
	is_list(&s.runs[2].env, "F=8", "env: env -i starts empty");
out:
	scan_free(&s);

	{
		char *envb[] = { "HOME=/root", "GONE=1", stub_env[0], NULL };
		static const char text[] = "export MM_TOOL=./tools.json\n"
		    "LOCAL=1\nX=2\nexport X\nunset GONE\ndeclare -x D=4\n"
		    "set -a\nA=5\nset +a\nB=6\n"
		    "MM_MODEL=m.json torchrun pretrain_gpt.py --one\n"
		    "env -u HOME E=7 torchrun pretrain_gpt.py --two\n"
		    "X=3 env -i F=8 PATH=$PATH torchrun pretrain_gpt.py "
		    "--three\n";
		char *path = write_tmp("env.sh", text, strlen(text));

		as_bash_runs(path, envb, "env");
		unlink(path);
		free(path);
	}
}

static struct strv made;		/* files put_file() wrote */

/* Write TEXT to NAME under the temporary directory. */
static void
put_file(const char *name, const char *text)
{
	char *path = write_tmp(name, text, strlen(text));

	strv_push(&made, path);
	free(path);
}

/*
 * Wrappers: scripts that run scripts, read from the directory the scan
 * runs in, as the shell resolves them.
 */
static void
wrappers(void)
{
	struct scan s;
	int here = open(".", O_RDONLY | O_DIRECTORY);
	char *sub = xasprintf("%s/w", tmpdir), *subsub;

	subsub = xasprintf("%s/w", sub);
	if (here == -1 || mkdir(sub, 0700) == -1 ||
	    mkdir(subsub, 0700) == -1 || chdir(tmpdir) == -1) {
		printf("Bail out! wrappers: %s\n", strerror(errno));
		exit(1);
	}
	put_file("w/pretrain_qwen3_8b_4K_ptd.sh", "#!/bin/bash\n"
	    "NPUS_PER_NODE=${NPUS:-4}\n"
	    "torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py "
	    "--a $A --l $LOCAL\n");
	put_file("w/w/pretrain_qwen3_8b_4K_ptd.sh",
	    "torchrun pretrain_gpt.py --decoy\n");
	put_file("w/wrap.sh", "export A=1\nLOCAL=2\nNPUS=8\n"
	    "M=7 bash -x w/pretrain_qwen3_8b_4K_ptd.sh --arg\n");
	is_int(scan_path("w/wrap.sh", NULL, &s), 0, "wrapper: scanned");
	is_list(&s.launches, "torchrun --nproc_per_node 4 pretrain_gpt.py "
	    "--a 1 --l", "wrapper: bash X from the directory of the scan, "
	    "with the exported variables only");
	is_int(s.npus_per_node, 4, "wrapper: counts of the script run");
	is_str(s.model, "qwen3_8b", "wrapper: the model of the script run");
	if (s.nruns == 1) {
		is_str(s.runs[0].script, "w/pretrain_qwen3_8b_4K_ptd.sh",
		    "wrapper: the launch is in the script run");
		is_int(s.runs[0].line, 3, "wrapper: its line there");
		is_list(&s.runs[0].env, "A=1 | M=7",
		    "wrapper: the environment it gets");
	}
	scan_free(&s);

	put_file("w/vars.sh", "NPUS_PER_NODE=2\nB=src\n");
	put_file("w/src.sh", ". w/vars.sh\ntorchrun --nproc_per_node "
	    "$NPUS_PER_NODE pretrain_gpt.py --b $B\nsource w/nosuch.sh\n");
	scan_path("w/src.sh", NULL, &s);
	is_list(&s.launches, "torchrun --nproc_per_node 2 pretrain_gpt.py "
	    "--b src", "source: the variables stay set");
	scan_free(&s);

	put_file("w/cd.sh", "cd w/w\nsh ./pretrain_qwen3_8b_4K_ptd.sh\n"
	    "cd \"$(dirname \"$0\")\"\nbash pretrain_qwen3_8b_4K_ptd.sh\n");
	scan_path("w/cd.sh", NULL, &s);
	is_list(&s.launches, "torchrun pretrain_gpt.py --decoy | "
	    "torchrun pretrain_gpt.py --decoy",
	    "cd: followed while its directory is known, a failing cd stays");
	scan_free(&s);
	put_file("w/cdunknown.sh", "cd \"$(hostname)\"\n"
	    "bash w/pretrain_qwen3_8b_4K_ptd.sh\n");
	scan_path("w/cdunknown.sh", NULL, &s);
	is_int(s.launches.n, 0, "cd to an unknown directory: not followed");
	scan_free(&s);

	put_file("w/idiom.sh", "SCRIPT_DIR=$(cd \"$(dirname "
	    "\"${BASH_SOURCE[0]}\")\" && pwd)\n"
	    "bash \"$SCRIPT_DIR/pretrain_qwen3_8b_4K_ptd.sh\"\n"
	    "cd \"$(dirname \"$0\")\"\nsource ./vars.sh\n"
	    "torchrun pretrain_gpt.py --b $B --e `basename $0 .sh`\n");
	scan_path("w/idiom.sh", NULL, &s);
	is_list(&s.launches, "torchrun --nproc_per_node 4 pretrain_gpt.py "
	    "--a --l | torchrun pretrain_gpt.py --b src --e idiom",
	    "the idioms of wrappers: $(cd \"$(dirname ...)\" && pwd), "
	    "cd \"$(dirname \"$0\")\"");
	if (s.nruns == 2)
		ok(s.runs[0].script[0] == '/' && ends_with(s.runs[0].script,
		    "/w/pretrain_qwen3_8b_4K_ptd.sh"), "the script found by "
		    "its absolute path (%s)", s.runs[0].script);
	scan_free(&s);

	/* MindSpeed-MM's and the model zoo's "cd .. when run from test/" */
	put_file("w/branch.sh", "p=$(pwd)\n"
	    "if [ x\"${p##*/}\" == x\"test\" ]; then\n  cd w\nelse\n"
	    "  cd w/w\nfi\ntorchrun pretrain_gpt.py --in ${p##*/}\n");
	scan_path("w/branch.sh", NULL, &s);
	ok(s.nruns == 1 && strcmp(s.runs[0].cwd, "w/w/") == 0 &&
	    !s.runs[0].guarded, "if [ x\"${p##*/}\" == x\"test\" ]: "
	    "decided, only the branch taken, its cd sure");
	scan_free(&s);
	put_file("w/undecided.sh", "if [ \"$(hostname)\" = x ]; then cd w; "
	    "fi\ntorchrun pretrain_gpt.py --u\n");
	scan_path("w/undecided.sh", NULL, &s);
	ok(s.nruns == 1 && s.runs[0].guarded, "a cd in a branch not "
	    "decided: the launch after it is checked when it starts");
	scan_free(&s);
	put_file("w/andcd.sh", "[ -d w ] && cd w\ntorchrun pretrain_gpt.py\n");
	scan_path("w/andcd.sh", NULL, &s);
	ok(s.nruns == 1 && s.runs[0].guarded, "a cd after &&: the same");
	scan_free(&s);
	put_file("w/elif.sh", "X=b\nA=0\nfor p in $*; do A=$p; done\n"
	    "if [ $X = a ]; then Y=1\nelif [ $X = b ]; then Y=2\n"
	    "else Y=3\nfi\nif ! [ $X = b ]; then Y=4; fi\n"
	    "if [[ $X != b ]]; then Y=5; fi\nif [[ $X == b* ]]; then Z=6; fi\n"
	    "if [ $X = a ] || [ $X = b ]; then B=9; fi\n"
	    "P=/a/b/c.sh\ntorchrun pretrain_gpt.py --y $Y --z $Z --a $A --b $B "
	    "--d ${P%/*} --e ${P##*/} --f ${P%%/*}x --g ${P#*/}\n");
	scan_path("w/elif.sh", NULL, &s);
	is_list(&s.launches, "torchrun pretrain_gpt.py --y 2 --z 6 --a 0 --b 9 "
	    "--d /a/b --e c.sh --f x --g a/b/c.sh", "elif and else, !, "
	    "[[ != ]], a pattern or a list (||) not decided (both read), a "
	    "loop over no arguments run no time, ${P%%/*} ${P##*/} "
	    "${P%%%%/*} ${P#*/}");
	ok(s.nruns == 1 && !s.runs[0].guarded, "... and no cd: the launch "
	    "is sure");
	scan_free(&s);

	put_file("w/tool", "#!/usr/bin/python3 -u\n"
	    "torchrun pretrain_gpt.py --python\n");
	put_file("w/tool.sh", "#!/usr/bin/env -S bash -e\n"
	    "torchrun pretrain_gpt.py --bash\n");
	put_file("w/plain", "torchrun pretrain_gpt.py --plain\n");
	put_file("w/noexec", "torchrun pretrain_gpt.py --noexec\n");
	chmod("w/tool", 0755);
	chmod("w/tool.sh", 0755);
	chmod("w/plain", 0755);
	put_file("w/exec.sh", "./w/tool --x\nw/tool.sh\n$(hostname)/w/plain\n"
	    "./w/plain\ntool.sh\nw/noexec\n");
	scan_path("w/exec.sh", NULL, &s);
	is_list(&s.launches, "torchrun pretrain_gpt.py --bash | "
	    "torchrun pretrain_gpt.py --plain", "./X: its #! decides; "
	    "no #! is shell; unknown paths, PATH lookups and files that "
	    "cannot run are not read");
	scan_free(&s);
	scan_path("w/tool", NULL, &s);
	is_int(s.launches.n, 0, "a #!python script is not read as shell");
	scan_free(&s);

	as_bash_runs("w/wrap.sh", stub_env, "wrapper");
	as_bash_runs("w/src.sh", stub_env, "source");
	as_bash_runs("w/cd.sh", stub_env, "cd");
	as_bash_runs("w/idiom.sh", stub_env, "wrapper idioms");
	as_bash_runs("w/exec.sh", stub_env, "./X");

	put_file("w/self.sh", "torchrun pretrain_gpt.py\nbash w/self.sh\n"
	    "source w/self.sh\n");
	scan_path("w/self.sh", NULL, &s);
	is_int(s.launches.n, 1 + SH_MAX_SCRIPTS,
	    "a script running itself: %d scripts at most", SH_MAX_SCRIPTS);
	scan_free(&s);

	put_file("w/dev.sh", ". /dev/null\nsource /dev/zero\nbash /\n"
	    "bash -c 'torchrun pretrain_gpt.py'\nbash\n"
	    "torchrun pretrain_gpt.py\n");
	scan_path("w/dev.sh", NULL, &s);
	is_int(s.launches.n, 1, "devices, directories and bash -c are not "
	    "read");
	scan_free(&s);

	if (fchdir(here) == -1)
		exit(1);
	close(here);
	for (size_t i = 0; i < made.n; i++)
		unlink(made.v[i]);
	strv_free(&made);
	rmdir(subsub);
	rmdir(sub);
	free(sub);
	free(subsub);
}

int
main(void)
{
	char *why = NULL;

	if (launchtab_load(&tab, "config/launchers.conf", engine_names(), &why) == -1) {
		printf("Bail out! %s\n", why);
		return 1;
	}
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	make_stub();
	qwen3_standard();
	llama2_launch_module();
	msrun();
	a3();
	env_defaults();
	gpus_per_node_mm();
	crlf();
	comments();
	continuations();
	fsdp2_pipefail();
	two_launches();
	no_launch();
	yaml_scripts();
	profile_args();
	two_nodes();
	expansion();
	commands();
	model_names();
	unreadable();
	adversarial();
	many_variables();
	self_append();
	launch_env();
	wrappers();
	remove_stub();
	rmdir(tmpdir);
	launchtab_free(&tab);
	return done_testing();
}
