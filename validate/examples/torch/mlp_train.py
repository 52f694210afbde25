"""mlp_train.py: an MLP trained on batches copied from pinned host memory (non_blocking)."""
import torch

from common import main


def setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 4096), torch.nn.ReLU(),
        torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
        torch.nn.Linear(4096, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    xs = [torch.randn(512, 1024).pin_memory() for _ in range(4)]
    ys = [torch.randint(0, 10, (512,)).pin_memory() for _ in range(4)]
    return model, opt, xs, ys


def step(state, i):
    model, opt, xs, ys = state
    x = xs[i % 4].cuda(non_blocking=True)
    y = ys[i % 4].cuda(non_blocking=True)
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()


if __name__ == "__main__":
    main("mlp_train", setup, step)
