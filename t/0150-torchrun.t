#!/usr/bin/env bash
# Debian's real torchrun (python3-torch) starting two real workers: each
# worker gets the profiling flags, and neither torchrun nor the workers
# carry the shim.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"

TORCHRUN=$(command -v torchrun)
[ -n "$TORCHRUN" ] && torch_installed ||
    skip_all "Debian's torchrun (python3-torch) is not installed"
cat > pretrain_gpt.py <<'EOF2'
import os, sys
rank = os.environ["RANK"]
with open("worker.%s.argv" % rank, "w") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
with open("worker.%s.env" % rank, "w") as f:
    f.write("".join("%s=%s\n" % kv for kv in sorted(os.environ.items())))
EOF2
# torch 1.13's torchrun needs --redirects 1 --tee 1 under Python 3.11.
cat > train.sh <<EOF2
$TORCHRUN --nproc_per_node 2 --nnodes 1 --master_addr 127.0.0.1 --master_port $(free_port) --redirects 1 --tee 1 pretrain_gpt.py --train-iters 5
EOF2
msprof -y bash train.sh
is "$rc" 0 "torchrun exits 0"
for r in 0 1; do
	is "$(< worker.$r.argv)" "--train-iters 5 $DEFAULT_FLAGS" \
	    "worker $r got the profiling flags"
	unlike "$(< worker.$r.env)" 'MSPROF_EXEC_|msprof-exec-shim' \
	    "worker $r carries no shim"
	has_line "$(< worker.$r.env)" "WORLD_SIZE=2" \
	    "worker $r is a real torchrun worker"
done
is "$(njournal injected)" 1 "one launch recorded for two workers"
done_testing
