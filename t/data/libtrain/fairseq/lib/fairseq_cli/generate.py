"""fairseq_cli/generate.py, reduced: translates with a trained model."""
import argparse

import torch


def main(cfg):
    model = torch.nn.Linear(16, 1)
    model.eval()
    model(torch.randn(1, 16))
    print("H-0\tdone")


def cli_main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--path", default="checkpoint_best.pt")
    cfg, _ = parser.parse_known_args()
    main(cfg)


if __name__ == "__main__":
    cli_main()
