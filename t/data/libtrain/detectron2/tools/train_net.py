#!/usr/bin/env python
# Copyright (c) Facebook, Inc. and its affiliates.
"""detectron2's tools/train_net.py: a DefaultTrainer subclass trained in main(),
main started by launch(), which spawns --num-gpus processes itself."""
import os

from detectron2.engine import DefaultTrainer, default_argument_parser, default_setup, launch


class Trainer(DefaultTrainer):
    @classmethod
    def build_evaluator(cls, cfg, dataset_name, output_folder=None):
        return None


def setup(args):
    cfg = {"max_iter": int(os.environ.get("ITERS", "14"))}
    default_setup(cfg, args)
    return cfg


def main(args):
    cfg = setup(args)

    if args.eval_only:
        model = Trainer.build_model(cfg)
        return Trainer.test(cfg, model)

    trainer = Trainer(cfg)
    trainer.resume_or_load(resume=args.resume)
    return trainer.train()


if __name__ == "__main__":
    args = default_argument_parser().parse_args()
    print("Command Line Args:", args)
    launch(
        main,
        args.num_gpus,
        num_machines=args.num_machines,
        machine_rank=args.machine_rank,
        dist_url=args.dist_url,
        args=(args,),
    )
