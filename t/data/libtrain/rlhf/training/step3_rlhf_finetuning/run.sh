deepspeed --num_gpus 2 --master_port ${MASTER_PORT:-12346} main.py \
   --actor_model_name_or_path actor --critic_model_name_or_path critic
