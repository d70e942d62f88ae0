#!/usr/bin/env python3
"""MindSpeed-MM pretrain_videoalign.py stand-in (msprof-exec simulation, see sim/README.md).

An entry of older MindSpeed-MM tags, not listed in config/launchers.conf:
msprof-exec recognises it by what it imports (mindspeed_mm) and calls
(pretrain); --mm-tool makes it the tools.json engine."""
from mindspeed_mm.training import pretrain


def model_provider(pre_process=True, post_process=True):
    return "VideoAlignModel"


model_provider.NAME = "VideoAlignModel"


if __name__ == "__main__":
    pretrain(None, model_provider, None, None)
