#!/usr/bin/env python3
"""ESPnet's espnet2/bin/asr_train.py, run by its recipes as
python -m espnet2.bin.asr_train: the loop is in the task's trainer."""
from espnet2.tasks.asr import ASRTask


def get_parser():
    parser = ASRTask.get_parser()
    return parser


def main(cmd=None):
    r"""ASR training.

    Example:

        % python asr_train.py asr --print_config --optim adadelta \
                > conf/train_asr.yaml
        % python asr_train.py --config conf/train_asr.yaml
    """
    ASRTask.main(cmd=cmd)


if __name__ == "__main__":
    main()
