"""Inference with the model of train.py: a forward pass, no backward, no optimizer.
msprof-exec leaves it alone."""
import torch
import torch_npu  # noqa: F401

model = torch.nn.Linear(16, 1)
model.eval()
print("prediction shape", tuple(model(torch.randn(4, 16)).shape))
