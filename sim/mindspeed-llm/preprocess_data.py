#!/usr/bin/env python3
"""MindSpeed-LLM preprocess_data.py stand-in (msprof-exec simulation): turns a text
dataset into Megatron's indexed format (<output-prefix>_text_document.bin/.idx).
No profiling, no distributed launch.  The output is a tiny deterministic file pair."""
import argparse
import os
import struct
import sys
import time


def main():
    p = argparse.ArgumentParser(description="Preprocess data for Megatron / MindSpeed-LLM (simulation)")
    p.add_argument("--input", required=True)
    p.add_argument("--output-prefix", required=True)
    p.add_argument("--tokenizer-type", default="PretrainedFromHF")
    p.add_argument("--tokenizer-name-or-path", default=None)
    p.add_argument("--tokenizer-model", default=None)
    p.add_argument("--handler-name", default="GeneralPretrainHandler")
    p.add_argument("--json-keys", nargs="+", default=["text"])
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log-interval", type=int, default=1000)
    p.add_argument("--append-eod", action="store_true")
    p.add_argument("--seq-length", type=int, default=None)
    args, _ = p.parse_known_args()
    if not os.path.exists(args.input):
        raise FileNotFoundError("Unable to find '%s'" % args.input)
    tok = args.tokenizer_name_or_path or args.tokenizer_model
    if tok and not os.path.exists(tok):
        raise OSError("Can't load tokenizer for '%s'." % tok)
    print("> building %s tokenizer ..." % args.tokenizer_type, flush=True)
    print("Opening %s" % args.input, flush=True)
    docs = 64
    t0 = time.time()
    for done in range(args.log_interval, docs * 20 + 1, max(args.log_interval, 1)):
        print("Processed %d documents (%.1f docs/s, 0.8 MB/s)." % (done, done / max(time.time() - t0, 1e-3)),
              flush=True)
        if done >= 3 * args.log_interval:
            break
    for key in args.json_keys:
        prefix = "%s_%s_document" % (args.output_prefix, key)
        os.makedirs(os.path.dirname(prefix) or ".", exist_ok=True)
        sizes = [16] * docs
        with open(prefix + ".bin", "wb") as f:
            for d in range(docs):
                f.write(struct.pack("<16i", *[(d * 31 + i * 7) % 151643 for i in range(16)]))
        with open(prefix + ".idx", "wb") as f:
            f.write(b"MMIDIDX\x00\x00")
            f.write(struct.pack("<Q", 1))
            f.write(struct.pack("<B", 4))
            f.write(struct.pack("<Q", docs))
            f.write(struct.pack("<Q", docs + 1))
            f.write(struct.pack("<%di" % docs, *sizes))
            f.write(struct.pack("<%dq" % docs, *[i * 64 for i in range(docs)]))
            f.write(struct.pack("<%dq" % (docs + 1), *range(docs + 1)))
        print("Output prefix: %s" % prefix, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
