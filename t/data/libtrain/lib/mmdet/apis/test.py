import torch


def single_gpu_test(model, data_loader, show=False, out_dir=None):
    return [model(torch.randn(2, 16)) for _ in range(3)]
