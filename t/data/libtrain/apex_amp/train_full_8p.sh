# The model zoo's test/train_full_8p.sh shape: one process that spawns its ranks.
python3 ./main.py --amp --multiprocessing-distributed --world-size 1 --rank 0 \
    --dist-url "tcp://127.0.0.1:${MASTER_PORT:-29500}" --device-num 2 --epochs 1
