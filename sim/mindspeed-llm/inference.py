#!/usr/bin/env python3
"""MindSpeed-LLM inference.py stand-in (msprof-exec simulation): a generation run,
not a training entry; it never profiles."""
import argparse
import os
import sys
import time


def main():
    p = argparse.ArgumentParser(description="MindSpeed-LLM inference (simulation)", allow_abbrev=False)
    p.add_argument("--task", default="chat")
    p.add_argument("--load", default=None)
    p.add_argument("--tokenizer-name-or-path", default=None)
    p.add_argument("--max-new-tokens", type=int, default=32)
    args, _ = p.parse_known_args()
    rank = int(os.environ.get("RANK", "0"))
    if args.load and not os.path.isdir(args.load):
        raise FileNotFoundError("Checkpoint path not found: %s" % args.load)
    time.sleep(0.05)
    if rank == 0:
        print("=" * 20 + " greedy search " + "=" * 20, flush=True)
        print("You >> how are you?", flush=True)
        print("MindSpeed-LLM >> I am fine, thank you. How can I help you today?", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
