"""cnn_infer.py: a small convolutional network's inference, each batch's scores copied back to the host."""
import torch

from common import main


def setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 64, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(64, 128, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(128, 128, 3, padding=1), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(128, 100)).cuda().eval()
    batches = [torch.randn(64, 3, 64, 64).pin_memory() for _ in range(4)]
    return model, batches


@torch.no_grad()
def step(state, i):
    model, batches = state
    x = batches[i % 4].cuda(non_blocking=True)
    scores = model(x).softmax(dim=1)
    scores.cpu()


if __name__ == "__main__":
    main("cnn_infer", setup, step)
