# FastChat's scripts: run from the repository, where `pip3 install -e .` put
# fastchat on the path (here: PYTHONPATH).
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
torchrun --nproc_per_node=2 --master_port=${MASTER_PORT:-20001} fastchat/train/train_mem.py \
    --model_name_or_path ~/model_weights/llama-7b \
    --data_path data/dummy_conversation.json \
    --output_dir output_vicuna
