"""open_clip's src/training/train.py: train_one_epoch, its backward through a helper."""
import torch


def backward(total_loss, scaler):
    if scaler is not None:
        scaler.scale(total_loss).backward()
    else:
        total_loss.backward()


def train_one_epoch(model, data, loss, epoch, optimizer, scaler, scheduler, dist_model, args, tb_writer=None):
    for i in range(args.steps):
        total_loss = model(torch.randn(4, 16)).mean()
        optimizer.zero_grad()
        backward(total_loss, scaler)
        optimizer.step()


def evaluate(model, data, epoch, args, tb_writer=None, tokenizer=None):
    return {}
