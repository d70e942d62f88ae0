#!/bin/bash
set -a
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$0")"
export MM_TOOL=./tools.json
source ./set_env.sh
NPUS=$(basename $0 .sh)
env -u HOME X=1 bash "$SCRIPT_DIR/train.sh" "$@"
MM_MODEL=m.json torchrun --nproc_per_node 8 pretrain_gpt.py --x `dirname $SCRIPT_DIR`
. ./nosuch.sh
./tool.py --y
