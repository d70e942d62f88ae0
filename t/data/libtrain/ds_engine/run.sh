deepspeed --num_gpus 2 --master_port ${MASTER_PORT:-29500} train.py --deepspeed_config ds_config.json
