"""fairseq_cli/train.py, reduced: cli_main() parses the options and runs
main(), whose loop trains the model (distributed_utils.call_main in the
original, one process on one device)."""
import argparse
import os

import torch


def main(cfg):
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.max_epoch):
        for i in range(int(os.environ.get("ITERS", "8"))):
            loss = model(torch.randn(4, 16)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def cli_main(modify_parser=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--arch", default="transformer")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--max-epoch", dest="max_epoch", type=int, default=1)
    cfg, _ = parser.parse_known_args()
    main(cfg)


if __name__ == "__main__":
    cli_main()
