#!/usr/bin/env python3
"""MindSpeed-LLM pretrain_deepseek4.py stand-in (msprof-exec simulation, see sim/README.md).

Not listed in config/launchers.conf: msprof-exec recognises it by what it
imports (mindspeed_llm) and calls (pretrain), as it does the real entry."""
from mindspeed_llm.training import pretrain


def model_provider(pre_process=True, post_process=True):
    return "DeepSeekV4"


model_provider.NAME = "DeepSeekV4"


if __name__ == "__main__":
    # Like upstream: the datasets, the model and the forward step go to the
    # MindSpeed-LLM training loop.
    pretrain(None, model_provider, None, None)
