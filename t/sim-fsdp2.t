#!/usr/bin/env bash
# Self-test of the simulation: MindSpeed-LLM FSDP2 backend (train_fsdp2.py <yaml> --section.field ...).
. "$(dirname "$0")/../sim/testlib.sh"
Y=examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml
S=examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh
# The runs come one after another: one port for them all (each free_port
# is a python3 of its own).
export MASTER_PORT
MASTER_PORT=$(free_port)
fsdp2() { (cd "$LLM_DIR" && torchrun --nproc_per_node 2 --master_port "$MASTER_PORT" train_fsdp2.py "$@" 2>&1); }
# steps DIR: the Step column of step_trace_time.csv in the rank directories
# below DIR, each value followed by a space (csv_col without a python3).
steps() {
    awk -F, 'FNR == 1 { n = 0; sub(/\r$/, ""); for (i = 1; i <= NF; i++) if ($i == "Step") n = i; next }
        { sub(/\r$/, ""); printf "%s ", n ? $n : "NO-STEP-COLUMN" }' "$1"/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
}

# the example script, with the documented CLI form appended by hand
sed "s|--parallel.fsdp_size \$WORLD_SIZE|--parallel.fsdp_size \$WORLD_SIZE --training.profile true --training.profile_step_start 5 --training.profile_step_end 6 --training.profile_ranks 0 --training.profile_level level1 --training.profile_with_cpu true --training.profile_save_path $TMP/p0|" \
    "$LLM_DIR/$S" > $TMP/s.sh
out=$(cd "$LLM_DIR" && bash $TMP/s.sh 2>&1)
like "$out" 'iteration +10/ +10' "fsdp2 example trains max_steps=10"
is "$(count_dirs $TMP/p0)" 1 "--training.profile_ranks 0: one directory"
is "$(steps $TMP/p0)" "5 " "steps count from 0: [5,6) is step 5"
[ -f $TMP/p0/*/ASCEND_PROFILER_OUTPUT/operator_details.csv ]; ok $? "profile_with_cpu true: operator_details.csv"

# YAML fields, then CLI overrides winning over them
cp "$LLM_DIR/$Y" $TMP/c.yaml
cat >> $TMP/c.yaml <<YAML
  profile: true
  profile_step_start: 2
  profile_step_end: 4
  profile_ranks: [0]
  profile_level: level0
  profile_save_path: $TMP/from_yaml
YAML
out=$(fsdp2 $TMP/c.yaml)
is "$(count_dirs $TMP/from_yaml)" 1 "training.profile_* from the YAML"
[ ! -e "$TMP"/from_yaml/*/ASCEND_PROFILER_OUTPUT/op_statistic.csv ]; ok $? "YAML profile_level level0: no op_statistic.csv"
out=$(fsdp2 $TMP/c.yaml --training.profile_save_path $TMP/from_cli --training.profile_ranks 1 --training.profile_level=level1 \
      --training.profile_step_start 3)
[ ! -e $TMP/from_cli_unused ] && is "$(count_dirs $TMP/from_cli)" 1 "CLI --training.profile_save_path wins over the YAML"
ls $TMP/from_cli/*/profiler_info_1.json >/dev/null 2>&1; ok $? "CLI --training.profile_ranks 1 wins over the YAML [0]"
[ -f "$(ls -d $TMP/from_cli/*_ascend_pt | head -n1)/ASCEND_PROFILER_OUTPUT/op_statistic.csv" ]; ok $? "CLI --training.profile_level=level1 wins"
is "$(steps $TMP/from_cli)" "3 " "CLI start 3 with YAML end 4"
out=$(fsdp2 $TMP/c.yaml --training.profile false --training.max_steps 4)
like "$out" 'iteration +4/ +4' "--training.max_steps overrides the YAML"
is "$(count_dirs $TMP/from_yaml)" 1 "--training.profile false turns it off (no new directory)"

# end -1: to the end of training; on ranks "0 -1" (read again below)
out=$(fsdp2 $TMP/c.yaml --training.profile_step_end -1 --training.profile_ranks 0 -1 --training.profile_save_path $TMP/toend)
like "$out" 'Stop profiler while current state is RECORD which may result in incomplete parsed data' "end -1 runs into stop()"
is "$(steps $TMP/toend | cut -d' ' -f1)" "2" "end -1 starts at the start step"

# validation
like_exc "$(fsdp2 $TMP/c.yaml --training.profile_step_start -1)" 'ValueError' '`profile_step_start` must be >= 0' "start < 0 rejected"
like_exc "$(fsdp2 $TMP/c.yaml --training.profile_step_end 2)" 'ValueError' '`profile_step_end` must be > profile_step_start or -1' "end <= start rejected"
like_exc "$(fsdp2 $TMP/c.yaml --training.profile_level level3)" 'ValueError' 'Invalid profile_level: level3' "bad level rejected"
like_exc "$(fsdp2 $TMP/c.yaml --training.profile_export_type csv)" 'ValueError' 'Invalid profile_export_type: csv' "bad export type rejected"
like "$(fsdp2 $TMP/c.yaml --training.profile maybe)" 'Truthy value expected: got maybe' "bool parsing like HfArgumentParser"
like "$(fsdp2 --training.profile true)" 'error: the first argument must be the path of a YAML config file' "the YAML must come first"
is "$(count_dirs $TMP/toend)" 2 "-1 anywhere in profile_ranks means all ranks"
sed 's|model_name_or_path: .*|model_name_or_path: /nonexistent/Qwen3-8B|' $TMP/c.yaml > $TMP/bad.yaml
like "$(fsdp2 $TMP/bad.yaml)" '/nonexistent/Qwen3-8B is not a local folder' "missing model path fails"

done_testing
