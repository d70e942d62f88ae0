#!/usr/bin/env python
"""transformers' examples/pytorch/language-modeling/run_clm.py, reduced:
the Trainer trains when --do_train is given and evaluates when --do_eval
is; run with --do_eval alone it only evaluates."""
import logging
import sys
from dataclasses import dataclass, field

import transformers
from transformers import (
    AutoModelForCausalLM,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
)

logger = logging.getLogger(__name__)


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default=None)


def main():
    parser = HfArgumentParser((ModelArguments, TrainingArguments))
    if len(sys.argv) == 2 and sys.argv[1].endswith(".json"):
        model_args, training_args = parser.parse_json_file(json_file=sys.argv[1])
    else:
        model_args, training_args = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = Trainer(model=model, args=training_args)

    # Training
    if training_args.do_train:
        train_result = trainer.train()
        trainer.save_model()

    # Evaluation
    if training_args.do_eval:
        logger.info("*** Evaluate ***")
        metrics = trainer.evaluate()
        trainer.log_metrics("eval", metrics)


if __name__ == "__main__":
    main()
