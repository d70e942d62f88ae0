#!/usr/bin/env bash
# A valid run is not refused before it starts: MindSpeed-MM's SDXL script
# as published, run from a diffusers checkout as its README says, does
# 'cd ..' only when run from test/.  The scan decides that test, reads the
# branch the script takes, and runs the launch from where the script is;
# a cd it cannot decide leaves the launch to be checked when it starts.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
# The training's setup lasts until the config has come (at most the
# suite's wait limit).
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT
UP=$TOP/t/data/upstream/MindSpeed-MM/examples/diffusers/sdxl
# diffusers with MindSpeed-MM's sdxl/ copied in (README: cp -r
# ../MindSpeed-MM/examples/diffusers/sdxl ./sdxl), its training script a
# plain PyTorch one of the simulation
mkdir -p diffusers/sdxl diffusers/examples/text_to_image diffusers/test
cp "$UP"/pretrain_sdxl_deepspeed_bf16.sh "$UP"/pretrain_bf16_accelerate_config.yaml diffusers/sdxl/
cp "$TOP/sim/torch-examples/train.py" diffusers/examples/text_to_image/train_text_to_image_sdxl_pretrain.py
cd diffusers

msprof -n bash sdxl/pretrain_sdxl_deepspeed_bf16.sh
is "$rc" 0 "-n from the checkout: not refused"
unlike "$err" "no such file" "... no missing training script"
like "$out" "launch 1 of 1 \(sdxl/pretrain_sdxl_deepspeed_bf16\.sh, line 70\), torch_npu" \
    "... the launch read from where the script runs it"
like "$out" "accelerate launch --config_file \./sdxl/pretrain_bf16_accelerate_config\.yaml \./examples/text_to_image/train_text_to_image_sdxl_pretrain\.py .*--mixed_precision=bf16 .*--output_dir=$PWD/logs" \
    "... the loop over no arguments left the defaults, the output in the checkout"

cd test
msprof -n bash ../sdxl/pretrain_sdxl_deepspeed_bf16.sh
is "$rc" 0 "-n from test/: the branch with 'cd ..' taken"
like "$out" "--output_dir=${PWD%/test}/logs" "... the checkout's logs/, after cd .."
cd ..

msprof -y bash sdxl/pretrain_sdxl_deepspeed_bf16.sh
is "$rc" 0 "the run: not refused, exit 0"
unlike "$err" "no such file" "... no missing training script"
is "$(ranks_in profiling_output)" 0 "... rank 0 collected"

# A cd the scan cannot decide: the run starts, and the launch is checked
# where it really runs.
printf 'if [ "$(hostname)" = no-such-host ]; then cd test; fi\ntorchrun --nproc_per_node 1 --master_port %s ./examples/text_to_image/train_text_to_image_sdxl_pretrain.py --steps 12\n' \
    "$MASTER_PORT" > undecided.sh
msprof -n bash undecided.sh
is "$rc" 0 "an undecided cd: -n does not refuse"
rm -rf profiling_output
msprof -y bash undecided.sh
is "$rc" 0 "... nor the run"
is "$(ranks_in profiling_output)" 0 "... which collects"
done_testing
