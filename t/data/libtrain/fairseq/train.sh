#!/usr/bin/env bash
# fairseq's examples/translation README, one device: the console script
# pip installed, run by name.
fairseq-train data-bin/iwslt14.tokenized.de-en --arch transformer_iwslt_de_en \
    --lr 5e-4 --max-epoch 1
