import deltalm

from fairseq_cli.preprocess import cli_main


if __name__ == "__main__":
    cli_main()