#!/usr/bin/env python3
"""MindSpeed-MM inference_sora.py stand-in (msprof-exec simulation): video generation,
not a training entry; it never profiles."""
import argparse
import os
import sys
import time


def main():
    p = argparse.ArgumentParser(description="MindSpeed-MM sora inference (simulation)", allow_abbrev=False)
    p.add_argument("--mm-model", default="")
    p.add_argument("--mm-data", default="")
    args, _ = p.parse_known_args()
    if args.mm_model and not os.path.isfile(args.mm_model):
        print("Warning: Config file not found: %s" % args.mm_model, flush=True)
        raise RuntimeError("One or more config files failed to load. See above errors.")
    for step in range(1, 4):
        time.sleep(0.02)
        if int(os.environ.get("RANK", "0")) == 0:
            print("sampling step %d/3" % step, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
