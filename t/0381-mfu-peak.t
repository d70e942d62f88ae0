#!/usr/bin/env bash
# The chip's peak for the MFU, from either source: the raw data's
# info.json, or, in data without it, the chip npu-smi named when the run
# began with its AI cores and cube clock from CANN's
# platform_config/Ascend<chip>.ini (recorded in the session's plan by the
# checks).  The report says which; "not known" gives both reasons.
. "$(dirname "$0")/lib.sh"
pyq_start
sim_env
cd "$T/mindspeed-llm"

cat > run.sh <<EOF
torchrun --nproc_per_node 2 --master_port $MASTER_PORT pretrain_gpt.py \\
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 \\
    --num-layers 12 --hidden-size 768 --ffn-hidden-size 3072 \\
    --num-attention-heads 12 --seq-length 1024 --global-batch-size 8 \\
    --padded-vocab-size 50304 --micro-batch-size 1 \\
    --tokenizer-type PretrainedFromHF \\
    --tokenizer-name-or-path ./model_from_hf/qwen3-8b \\
    --data-path ./dataset/enwiki_text_document --train-iters 6 \\
    --log-interval 1 --log-throughput --bf16
EOF

# get FILE KEY: a field of a JSON file (dots go down; Python's repr)
get() {
	pyq - "$@" <<-'EOF'
	import json, sys
	m = json.load(open(sys.argv[1]))
	for k in sys.argv[2].split("."):
	    m = m[k] if m is not None else None
	print(m)
	EOF
}
mfu() { get "$1" "summary.summaries.mfu.$2"; }

# ini FILE: "CORES MHZ" of CANN's platform_config, read here apart
ini() {
	pyq - "$1" <<-'EOF'
	import configparser, sys
	c = configparser.ConfigParser()
	c.read(sys.argv[1])
	print(c["SoCInfo"]["ai_core_cnt"], c["AICoreSpec"]["cube_freq"])
	EOF
}

# hand NAME CORES MHZ: the MFU of the dense model of run.sh against a chip
# of CORES AI cores at MHZ (x 16^3 multiply-adds x 2), over the profiled
# steps of step_trace_time.csv, on 2 ranks
hand() {
	pyq - "$@" <<-'EOF'
	import csv, glob, sys
	name, cores, mhz = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
	V, L, h, f, n, s, B = 50304, 12, 768, 3072, 12, 1024, 8
	flops = B * s * (6 * 2 * h * f * L + 6 * 4 * h * h * L + 6 * h * s * L + 6 * h * V)
	steps = []
	for p in glob.glob(name + "/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"):
	    for r in csv.DictReader(open(p)):
	        steps.append(float(r["Computing"]) + float(r["Communication(Not Overlapped)"]) + float(r["Free"]))
	t = sum(steps) / len(steps) / 1e6
	print("%.6e" % (flops / t / 2 / (cores * mhz * 1e6 * 16 ** 3 * 2)))
	EOF
}
close() { pyq -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a / b - 1) > 1e-3)' "$1" "$2"; }

# --- The checks record the chip -------------------------------------------
"$MSPROF" -y --cann-env "$CANN_ENV" -o chk --json chk.json bash run.sh \
    > chk.out 2> chk.err
is "$?" 0 "a run with its checks ends well"
plan=$(echo chk/msprof-exec_*/plan.json)
is "$(get "$plan" chip)" "910B3" "the plan has the chip npu-smi names"
like "$(get "$plan" chip_ini)" "/(x86_64|aarch64)-linux/data/platform_config/Ascend910B3\.ini$" \
    "and CANN's platform_config file for it"
read -r C M <<< "$(ini "$(get "$plan" chip_ini)")"
is "$(get "$plan" chip_ai_cores) $(get "$plan" chip_cube_mhz)" "$C $M" \
    "its AI cores and cube clock are the ini's ($C x $M MHz)"
is "$(get "$plan" chip_why)" "None" "with no reason of not knowing"
is "$(mfu chk.json peak.source)" "info.json" \
    "with the raw data's info.json, the peak is the data's"

# --- Data without info.json: the peak of the chip -------------------------
cp -r chk noinfo
rm -rf noinfo/*_ascend_pt/PROF_*
"$MSPROF" report --json ni.json noinfo > ni.out 2>&1
is "$(mfu ni.json peak.source)" "npu-smi" "no info.json: the peak from npu-smi's chip"
is "$(mfu ni.json peak.chip)" "910B3" "which it names"
like "$(mfu ni.json peak.path)" "platform_config/Ascend910B3\.ini$" \
    "and CANN's file its figures are from"
close "$(mfu ni.json mfu)" "$(hand noinfo "$C" "$M")"
ok $? "no info.json: the MFU against $C AI cores x $M MHz equals the hand computation"
like "$(<ni.out)" "chip peak: 294\.9 TFLOP/s a device \(fp16/bf16: 20 AI cores x 1800 MHz x 8192 a cycle\)" \
    "the text report gives the peak"
like "$(<ni.out)" "from npu-smi's chip 910B3 and CANN's [^ ]*platform_config/Ascend910B3\.ini" \
    "and says where it is from"
"$MSPROF" report --html ni.html noinfo > /dev/null 2>&1
like "$(<ni.html)" "from npu-smi's chip 910B3 and CANN's Ascend910B3\.ini" \
    "the HTML report says it too"

# the figures are the plan's: another chip's there, that chip's peak here
pyq - noinfo/msprof-exec_*/plan.json <<-'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p.update(chip="910B2", chip_ai_cores=24, chip_cube_mhz=1650)
json.dump(p, open(sys.argv[1], "w"))
EOF
"$MSPROF" report --json other.json noinfo > other.out 2>&1
close "$(mfu other.json mfu)" "$(hand noinfo 24 1650)"
ok $? "the MFU against the plan's chip (24 AI cores x 1650 MHz)"
like "$(<other.out)" "from npu-smi's chip 910B2 " "which it names"

# --- Neither: not known, with both reasons --------------------------------
mkdir -p "$T/bare"
ASCEND_HOME_PATH=$T/bare ASCEND_TOOLKIT_HOME=$T/bare "$MSPROF" -y -o noini \
    bash run.sh > noini.out 2>&1
is "$?" 0 "a run whose CANN has no platform_config ends well"
like "$(get noini/msprof-exec_*/plan.json chip_why)" "^CANN has no Ascend910B3\.ini for the chip 910B3 \(looked in $T/bare/" \
    "the plan says why the chip's figures are not known"
rm -rf noini/*_ascend_pt/PROF_*
"$MSPROF" report --json nn.json noini > nn.out 2>&1
like "$(<nn.out)" "chip peak: not known: no PROF_\*/device_\*/info\.json\.\* in the rank directories .*; nor from npu-smi's chip and CANN's platform_config: CANN has no Ascend910B3\.ini" \
    "neither source: not known, with both reasons"
like "$(mfu nn.json peak.why)" "info\.json.*Ascend910B3\.ini" "--json gives both too"
is "$(mfu nn.json mfu)" "None" "and no MFU"

"$MSPROF" -y --skip-checks -o skip bash run.sh > skip.out 2>&1
rm -rf skip/*_ascend_pt/PROF_*
"$MSPROF" report skip > sk.out 2>&1
like "$(<sk.out)" "chip peak: not known: no PROF_.*; nor from npu-smi's chip and CANN's platform_config: the session's checks, which ask npu-smi, did not run \(--skip-checks\)" \
    "--skip-checks: npu-smi was not asked, and that is said"

mkdir nosession
cp -r noinfo/*_ascend_pt nosession/
"$MSPROF" report nosession > ns.out 2>&1
like "$(<ns.out)" "chip peak: not known: .*; nor from npu-smi's chip and CANN's platform_config: no session" \
    "no session: no chip either, and why"

done_testing
