from .test import single_gpu_test
from .train import init_random_seed, set_random_seed, train_detector

__all__ = ["single_gpu_test", "init_random_seed", "set_random_seed", "train_detector"]
