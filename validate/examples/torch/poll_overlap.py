"""poll_overlap.py: the host works while the GPU multiplies, asking an event between two pieces of its own work whether the GPU is done (torch.cuda.Event.query, a cudaEventQuery)."""
import torch

from common import main


def setup():
    torch.manual_seed(0)
    a = torch.randn(2048, 2048, device="cuda") / 64
    host = [float(i) for i in range(2000)]
    return a, host


def step(state, i):
    a, host = state
    b = a
    for _ in range(4):
        b = b @ a
    done = torch.cuda.Event()
    done.record()
    total = 0.0
    while not done.query():
        total += sum(host)
    b[0, :8].cpu()


if __name__ == "__main__":
    main("poll_overlap", setup, step)
