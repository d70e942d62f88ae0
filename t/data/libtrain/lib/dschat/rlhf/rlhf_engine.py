"""dschat/rlhf/rlhf_engine.py: the actor and critic, each a DeepSpeed engine."""
import deepspeed
import torch


class DeepSpeedRLHFEngine:
    def __init__(self, actor_model_name_or_path, critic_model_name_or_path, tokenizer, args, num_total_iters):
        self.actor, _, _, _ = deepspeed.initialize(model=torch.nn.Linear(16, 1))
        self.critic, _, _, _ = deepspeed.initialize(model=torch.nn.Linear(16, 1))
