"""espnet2/tasks/asr.py: the ASR task, its main() in AbsTask."""
import argparse

import torch

from espnet2.tasks.abs_task import AbsTask


class ASRTask(AbsTask):
    num_optimizers: int = 1

    @classmethod
    def add_task_arguments(cls, parser: argparse.ArgumentParser):
        group = parser.add_argument_group(description="Task related")
        group.add_argument("--input_size", type=int, default=16)

    @classmethod
    def build_model(cls, args: argparse.Namespace):
        return torch.nn.Linear(args.input_size, 1)
