"""matmul_chain.py: bf16 matrix products in a chain, a buffer zeroed each step, a scalar read back every fourth step."""
import torch

from common import main


def setup():
    torch.manual_seed(0)
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    acc = torch.empty(64 << 20, device="cuda")
    return a, b, acc


def step(state, i):
    a, b, acc = state
    acc.zero_()
    c = a
    for _ in range(3):
        c = (c @ b) * 0.01
    acc[:16].add_(c[0, :16].float())
    if i % 4 == 3:
        acc[0].item()


if __name__ == "__main__":
    main("matmul_chain", setup, step)
