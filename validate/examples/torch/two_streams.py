"""two_streams.py: the next batch copied in on a side stream while the default stream computes on this one."""
import torch

from common import main


def setup():
    torch.manual_seed(0)
    side = torch.cuda.Stream()
    host = [torch.randn(8 << 20).pin_memory() for _ in range(2)]
    dev = [torch.empty(8 << 20, device="cuda") for _ in range(2)]
    w = torch.randn(2048, 2048, device="cuda")
    ready = [torch.cuda.Event() for _ in range(2)]
    return side, host, dev, w, ready


def step(state, i):
    side, host, dev, w, ready = state
    nxt = (i + 1) % 2
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        dev[nxt].copy_(host[nxt], non_blocking=True)
        ready[nxt].record(side)
    cur = i % 2
    if i > 0:
        torch.cuda.current_stream().wait_event(ready[cur])
    a = dev[cur][: 2048 * 2048].view(2048, 2048)
    for _ in range(4):
        a = torch.tanh(a @ w)
    dev[cur][: 2048 * 2048].copy_(a.view(-1))


if __name__ == "__main__":
    main("two_streams", setup, step)
