# Convert the raw enwiki sample into Megatron's indexed format (msprof-exec simulation checkout).
# Run from the MindSpeed-LLM root.
source ${MSPROF_SIM_ASCEND:-/usr/local/Ascend}/ascend-toolkit/set_env.sh
mkdir -p ./dataset

python ./preprocess_data.py \
    --input ./dataset/enwiki_sample.jsonl \
    --tokenizer-name-or-path ./model_from_hf/qwen3-8b \
    --tokenizer-type PretrainedFromHF \
    --handler-name GeneralPretrainHandler \
    --output-prefix ./dataset/enwiki \
    --json-keys text \
    --workers 4 \
    --log-interval 1000
