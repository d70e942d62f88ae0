python3 eval.py
torchrun --nproc_per_node 2 eval.py
