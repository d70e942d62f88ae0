"""DeepSpeed-Chat's training/step3_rlhf_finetuning/main.py: the PPO trainer's
train_rlhf() steps the RLHF engine's actor and critic (dschat, pip-installed)."""
import argparse
import os

import deepspeed
import torch
import torch.distributed as dist

from dschat.rlhf.ppo_trainer import DeepSpeedPPOTrainer, DeepSpeedPPOTrainerUnsupervised
from dschat.rlhf.rlhf_engine import DeepSpeedRLHFEngine


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser.add_argument("--num_train_epochs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=int(os.environ.get("ITERS", "14")))
    parser.add_argument("--unsupervised_dataset_name", default=None)
    parser = deepspeed.add_config_arguments(parser)
    return parser.parse_known_args()[0]


def main():
    args = parse_args()
    if int(os.environ.get("WORLD_SIZE", "1")) > 1:
        dist.init_process_group("hccl")
    unsupervised_training_enabled = args.unsupervised_dataset_name is not None
    rlhf_engine = DeepSpeedRLHFEngine(actor_model_name_or_path="actor", critic_model_name_or_path="critic",
                                      tokenizer=None, num_total_iters=args.steps, args=args)
    ppo_trainer = DeepSpeedPPOTrainerUnsupervised if unsupervised_training_enabled else DeepSpeedPPOTrainer
    trainer = ppo_trainer(rlhf_engine, args)
    for epoch in range(args.num_train_epochs):
        for step in range(args.steps):
            out = trainer.generate_experience(torch.randn(2, 16), None, step)
            actor_loss, critic_loss = trainer.train_rlhf(out)


if __name__ == "__main__":
    main()
