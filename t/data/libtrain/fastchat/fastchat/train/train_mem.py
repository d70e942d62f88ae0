# Make it more memory efficient by monkey patching the LLaMA model with FlashAttn.

# Need to call this before importing transformers.

from fastchat.train.train import train

if __name__ == "__main__":
    train(attn_implementation="flash_attention_2")
