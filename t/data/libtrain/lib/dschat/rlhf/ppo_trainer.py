"""dschat/rlhf/ppo_trainer.py: train_rlhf steps the actor's and the critic's engines."""
import torch


class DeepSpeedPPOTrainer:
    def __init__(self, rlhf_engine, args):
        self.actor_model = rlhf_engine.actor
        self.critic_model = rlhf_engine.critic

    def generate_experience(self, prompts, mask, step):
        return {"prompts": prompts}

    def train_rlhf(self, inputs):
        actor_loss = self.actor_model(torch.randn(2, 16)).mean()
        self.actor_model.backward(actor_loss)
        self.actor_model.step()
        critic_loss = self.critic_model(torch.randn(2, 16)).mean()
        self.critic_model.backward(critic_loss)
        self.critic_model.step()
        return actor_loss, critic_loss


class DeepSpeedPPOTrainerUnsupervised(DeepSpeedPPOTrainer):
    def train_unsupervised(self, inputs, unsup_coef):
        return 0.0
