#!/usr/bin/env python3
"""ESPnet's espnet2/bin/asr_inference.py, reduced: it builds the task's
model and decodes; nothing is trained."""
import argparse

import torch

from espnet2.tasks.asr import ASRTask


class Speech2Text:
    def __init__(self, input_size=16):
        self.model = ASRTask.build_model(argparse.Namespace(input_size=input_size))
        self.model.eval()

    @torch.no_grad()
    def __call__(self, speech):
        return self.model(speech)


def main(cmd=None):
    speech2text = Speech2Text()
    speech2text(torch.randn(4, 16))


if __name__ == "__main__":
    main()
