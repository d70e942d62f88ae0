from fairseq import fairseq
import deltalm
from fairseq_cli.generate import cli_main

if __name__ == "__main__":
    cli_main()
