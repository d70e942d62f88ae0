"""espnet2/tasks/abs_task.py: AbsTask.main() parses the options and runs
main_worker(), which builds the model and runs the trainer's loop."""
import argparse
import os
from abc import ABC

import torch
import torch.distributed as dist

from espnet2.train.trainer import Trainer


class AbsTask(ABC):
    num_optimizers: int = 1
    trainer = Trainer

    @classmethod
    def get_parser(cls) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(description="base parser")
        parser.add_argument("--ngpu", type=int, default=0)
        parser.add_argument("--max_epoch", type=int, default=1)
        parser.add_argument("--output_dir", default="exp")
        parser.add_argument("--config", default=None)
        cls.add_task_arguments(parser)
        return parser

    @classmethod
    def main(cls, args: argparse.Namespace = None, cmd=None):
        if args is None:
            parser = cls.get_parser()
            args, _ = parser.parse_known_args(cmd)
        cls.main_worker(args)

    @classmethod
    def main_worker(cls, args: argparse.Namespace):
        if int(os.environ.get("WORLD_SIZE", "1")) > 1:
            dist.init_process_group("hccl")
        model = cls.build_model(args=args)
        optimizers = [torch.optim.Adam(model.parameters(), lr=1e-3)]
        cls.trainer.run(model=model, optimizers=optimizers,
                        max_epoch=args.max_epoch)
