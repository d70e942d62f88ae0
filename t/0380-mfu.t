#!/usr/bin/env bash
# MFU on the simulated machine: the report's model FLOPs, achieved TFLOP/s
# and MFU equal a computation done here from the launch's stated
# arguments, the profiled step_trace_time.csv and the chip's info.json
# (a dense and an MoE model, and an FSDP2 one from its YAML and the model's
# config.json), agree with the training's own throughput
# line, and are "not known", with the reason, without the session, the
# raw data's chip description or a model argument.
. "$(dirname "$0")/lib.sh"
pyq_start
sim_env
cd "$T/mindspeed-llm"

# launch NAME MODEL-ARGS...: a script of two ranks, its report in NAME.json
launch() {
	local name=$1
	shift
	cat > "$name.sh" <<-EOF
	torchrun --nproc_per_node 2 --master_port $MASTER_PORT pretrain_gpt.py \\
	    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 \\
	    $* --micro-batch-size 1 \\
	    --tokenizer-type PretrainedFromHF \\
	    --tokenizer-name-or-path ./model_from_hf/qwen3-8b \\
	    --data-path ./dataset/enwiki_text_document --train-iters 6 \\
	    --log-interval 1 --log-throughput --bf16
	EOF
	"$MSPROF" -y --skip-checks -o "$name" --json "$name.json" \
	    bash "$name.sh" > "$name.out" 2> "$name.err"
}

# mfu FILE KEY: a figure of the report's MFU summary (Python's repr)
mfu() {
	pyq - "$@" <<-'EOF'
	import json, sys
	m = json.load(open(sys.argv[1]))["summary"]["summaries"]["mfu"]
	for k in sys.argv[2].split("."):
	    m = m[k] if m is not None else None
	print(m)
	EOF
}

# hand NAME VOCAB LAYERS HIDDEN FFN HEADS GROUPS KV SEQ GBS GATED EXPERTS TOPK
#     MOE_FFN: "FLOPS TFLOPS MFU" from the arguments, the profiled steps
# (Computing + Communication(Not Overlapped) + Free of every
# step_trace_time.csv row) and the chip (AI cores x MHz x 10^6 x 16^3 x 2)
hand() {
	pyq - "$@" <<-'EOF'
	import csv, glob, json, sys
	name = sys.argv[1]
	V, L, h, f, n, g, kv, s, B, gated, E, k, mf = map(float, sys.argv[2:])
	q = kv * n
	# per token: MLP GEMMs (2 of h x f, 3 with SwiGLU's gate), 3 passes,
	# 2 FLOPs a multiply-add; QKV and output projections; QK^T and AV
	# over half the causal matrix; the logits
	mats = 3 if gated else 2
	mlp = 6 * mats * h * (mf * k if E else f) * L
	proj = 6 * (h * (q + 2 * kv * g) + q * h) * L
	core = 6 * q * s * L
	logit = 6 * h * V
	flops = B * s * (mlp + proj + core + logit)
	steps = []
	for p in glob.glob(name + "/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"):
	    for r in csv.DictReader(open(p)):
	        steps.append(float(r["Computing"]) + float(r["Communication(Not Overlapped)"]) + float(r["Free"]))
	t = sum(steps) / len(steps) / 1e6
	info = json.load(open(glob.glob(name + "/*_ascend_pt/PROF_*/device_*/info.json.*")[0]))
	d = info["DeviceInfo"][0]
	peak = d["ai_core_num"] * float(d["aic_frequency"]) * 1e6 * 16 * 16 * 16 * 2
	print("%.6e %.6e %.6e" % (flops, flops / t / 2 / 1e12, flops / t / 2 / peak))
	EOF
}

# close A B: within 0.1 % of each other
close() { pyq -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a / b - 1) > 1e-3)' "$1" "$2"; }

# --- Dense: a GPT-2 small shape ---------------------------------------------
launch dense --num-layers 12 --hidden-size 768 --ffn-hidden-size 3072 \
    --num-attention-heads 12 --seq-length 1024 --global-batch-size 8 \
    --padded-vocab-size 50304
is "$?" 0 "dense: the run ends well"
read -r F A U <<< "$(hand dense 50304 12 768 3072 12 12 64 1024 8 0 0 0 0)"
close "$(mfu dense.json flops_per_step)" "$F"
ok $? "dense: the model's FLOPs per step are Megatron's count ($F)"
close "$(mfu dense.json tflops_per_device)" "$A"
ok $? "dense: achieved TFLOP/s a device from the profiled step time ($A)"
close "$(mfu dense.json mfu)" "$U"
ok $? "dense: MFU against 20 AI cores x 1800 MHz ($U)"
is "$(mfu dense.json peak.source)" "info.json" "dense: the peak's source is the raw data"
like "$(<dense.out)" "MFU: [0-9.]+ %" "dense: the text report gives the MFU"
like "$(<dense.out)" "chip peak: 294\.9 TFLOP/s" "dense: and the chip's peak"
diff=$(mfu dense.json log.relative_difference)
pyq -c 'import sys; sys.exit(abs(float(sys.argv[1])) > 0.01)' "$diff"
ok $? "dense: the training's own TFLOP/s/GPU agrees within 1 % ($diff)"
like "$(<dense.out)" "the training's log: [0-9.]+ TFLOP/s/GPU \(iterations 2-3\)" \
    "dense: the log's figure is over the profiled iterations"

# --- MoE: experts, top-k, SwiGLU, GQA; the vocabulary from the log ----------
launch moe --num-layers 8 --hidden-size 1024 --ffn-hidden-size 2816 \
    --num-attention-heads 16 --group-query-attention --num-query-groups 4 \
    --kv-channels 64 --swiglu --num-experts 16 --moe-router-topk 2 \
    --moe-ffn-hidden-size 512 --seq-length 2048 --global-batch-size 2 \
    --make-vocab-size-divisible-by 64
is "$?" 0 "moe: the run ends well"
# the tokenizer's 151669, padded to a multiple of 64 (x tp 1) as Megatron pads
read -r F A U <<< "$(hand moe 151680 8 1024 2816 16 4 64 2048 2 1 16 2 512)"
close "$(mfu moe.json flops_per_step)" "$F"
ok $? "moe: the model's FLOPs per step are Megatron's count ($F)"
close "$(mfu moe.json mfu)" "$U"
ok $? "moe: MFU ($U)"
is "$(mfu moe.json model.vocab_from)" "the log's padded vocab" \
    "moe: the vocabulary is the one the log printed"
diff=$(mfu moe.json log.relative_difference)
pyq -c 'import sys; sys.exit(abs(float(sys.argv[1])) > 0.01)' "$diff"
ok $? "moe: the training's own TFLOP/s/GPU agrees within 1 % ($diff)"

# --- FSDP2: the YAML's model directory, cutoff and batch --------------------
"$MSPROF" -y --skip-checks -o fsdp2 --json fsdp2.json \
    bash examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh > fsdp2.out 2>&1
is "$?" 0 "fsdp2: the run ends well"
# model_from_hf/qwen3-8b/config.json; cutoff_len 4096; 1 sample x 1 x 2 ranks
read -r F A U <<< "$(hand fsdp2 151936 36 4096 12288 32 8 128 4096 2 1 0 0 0)"
close "$(mfu fsdp2.json flops_per_step)" "$F"
ok $? "fsdp2: the model's FLOPs per step from config.json and the YAML ($F)"
is "$(mfu fsdp2.json model.vocab_from)" "config.json" \
    "fsdp2: the vocabulary is the model's"
like "$(<fsdp2.out)" "MFU: [0-9.]+ %: above the chip's peak" \
    "fsdp2: an 8B model in 18 ms a step is said to be impossible"

# a log whose figure is not the profile's: said
cp -r dense disagree
sed -i 's|(TFLOP/s/GPU): [0-9.]*|(TFLOP/s/GPU): 100.0|' disagree/msprof-exec_*/train.log
"$MSPROF" report disagree > dis.out 2>&1
like "$(<dis.out)" "the training's log: 100\.0 TFLOP/s/GPU .*: they disagree" \
    "a log figure more than 1 % away: they disagree"

# --- Megatron's count in its corners ----------------------------------------
# The dense run's journal given other arguments: the report's count against
# one written here after Megatron's num_floating_point_operations (layer
# patterns as lists, MTP layers of the last layer's kind).
# corner ARGS...: the report's FLOPs per step (or why not) with ARGS
corner() {
	pyq - corners/msprof-exec_*/journal.jsonl "$@" <<-'EOF'
	import json, sys
	path, args = sys.argv[1], sys.argv[2:]
	out = []
	for line in open(path):
	    r = json.loads(line)
	    r["argv"] = r["argv"][:r["argv"].index("pretrain_gpt.py") + 1] + args
	    out.append(json.dumps(r))
	open(path, "w").write("\n".join(out) + "\n")
	EOF
	"$MSPROF" report --json corner.json corners > /dev/null 2>&1
	mfu corner.json flops_per_step
}
# megatron KEY=VALUE...: the count (B s L h n: batch, sequence, layers,
# hidden, heads; the rest as Megatron's arguments, defaulted as it does)
megatron() {
	pyq - "$@" <<-'EOF'
	import sys
	a = {k: float(v) for k, v in (x.split("=") for x in sys.argv[1:])}
	B, s, L, h, n = (a[k] for k in "B s L h n".split())
	sw = a.get("swiglu", 0)
	f = a.get("f", int(4 * h * 2 / 3 / 64) * 64 if sw else 4 * h)
	g = a["g"] if a.get("gqa") else n
	kv = a.get("kv", h // n)
	V, mtp = a["V"], a.get("mtp", 0)
	if "E" in a:
	    pattern = [1 if i % a.get("freq", 1) == 0 else 0 for i in range(int(L))]
	    moe, k, last = sum(pattern), a.get("k", 2), pattern[-1]
	else:
	    moe, k, last = 0, 0, 0
	dense = L - moe + (1 - last) * mtp
	moe += last * mtp
	layers = L + mtp
	mf, fs = a.get("mf", f), a.get("fs", 0)
	x = 3 if sw else 2
	qp, kp = kv * n, kv * g
	attn = 6 * (h * (qp + kp + kp) + qp * h) * layers
	core = 6 * qp / 2 * 2 * layers
	total = B * s * (6 * h * (f * x * dense + mf * k * x * moe + fs * x * moe)
	                 + attn + 6 * mtp * (3 * h + 2 * h * h) + 6 * h * V * (mtp + 1)) + B * s * s * core
	print("%.6e" % total)
	EOF
}
cp -r dense corners
got=$(corner --num-layers=6 --hidden-size=512 --num-attention-heads=8 \
    --seq-length=1024 --global-batch-size=4 --padded-vocab-size=32000 \
    --swiglu --ffn-hidden-size 1408 --num-experts 8 --moe-router-topk 2 \
    --moe-ffn-hidden-size 256 --moe-shared-expert-intermediate-size 512 \
    --moe-layer-freq 2 --mtp-num-layers 1)
want=$(megatron B=4 s=1024 L=6 h=512 n=8 V=32000 swiglu=1 f=1408 E=8 k=2 \
    mf=256 fs=512 freq=2 mtp=1)
close "$got" "$want"
ok $? "--flag=value, MoE every 2nd layer, a shared expert, an MTP layer ($got, $want)"
: > corners/msprof-exec_*/train.log
got=$(corner --num-layers 4 --hidden-size 1024 --num-attention-heads 16 \
    --num-query-groups 4 --seq-length 512 --micro-batch-size 2 --swiglu \
    --vocab-size 50000)
want=$(megatron B=4 s=512 L=4 h=1024 n=16 g=4 V=50048 swiglu=1)
close "$got" "$want"
ok $? "Megatron's defaults: FFN, kv channels, groups without GQA, batch, padded --vocab-size ($got, $want)"
got=$(corner --num-layers 4 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 512 --global-batch-size 8 --multi-latent-attention \
    --padded-vocab-size 32000)
is "$got" "None" "multi-latent attention: not counted"
like "$(mfu corner.json flops_why)" "^--multi-latent-attention: " "and named"

# --- Not known, and why -----------------------------------------------------
mkdir nosession
cp -r dense/*_ascend_pt nosession/
"$MSPROF" report --json ns.json nosession > ns.out 2>&1
like "$(<ns.out)" "model FLOPs: not known: .*no session" \
    "no session: the model is not known, and why"
like "$(<ns.out)" "MFU: not known: .*no session" "no session: nor the MFU"
like "$(<ns.out)" "chip peak: 294\.9 TFLOP/s" "no session: the peak still is"
is "$(mfu ns.json mfu)" "None" "no session: --json's mfu is null"

cp -r dense badinfo
for f in badinfo/*_ascend_pt/PROF_*/device_*/info.json.*; do
	echo '{"DeviceInfo": [{"ai_core_num": 0, "aic_frequency": "1800"}]}' > "$f"
done
"$MSPROF" report badinfo > bi.out 2>&1
like "$(<bi.out)" "chip peak: not known: [^ ]*/info\.json\.[0-9]+: no DeviceInfo with ai_core_num and aic_frequency" \
    "an info.json without AI cores: the peak is not known, naming the file"

rm -rf dense/*_ascend_pt/PROF_*
"$MSPROF" report --json np.json dense > np.out 2>&1
like "$(<np.out)" "chip peak: not known: no PROF_\*/device_\*/info\.json" \
    "no raw data: the peak is not known, and why"
like "$(<np.out)" "MFU: not known: no PROF_" "no raw data: nor the MFU"
like "$(<np.out)" "achieved: [0-9.]+ TFLOP/s a device" \
    "no raw data: the achieved TFLOP/s still are"
like "$(mfu np.json mfu_why)" "info\.json" "no raw data: --json says why"

sed -i 's/"--num-attention-heads","12",//' dense/msprof-exec_*/journal.jsonl
"$MSPROF" report dense > na.out 2>&1
like "$(<na.out)" "model FLOPs: not known: the launch has no --num-attention-heads" \
    "a model argument missing: not known, naming it"

done_testing
