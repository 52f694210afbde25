"""common.py: run a workload's iterations under torch.profiler and write its Kineto trace and wall times.

Each program of this folder defines setup() and step(state, i) and calls
main(). main() warms up, then times `iters` steps three ways, each ended by
torch.cuda.synchronize(): untraced; under torch.profiler (CPU and CUDA
activities), whose Chrome trace it writes (gzip) with the wall time of that
same traced region; and untraced again. The traced region is the span of
record_function("streamsim_region"), so an importer can find it.
"""
import argparse
import gzip
import json
import os
import time

import torch
from torch.profiler import ProfilerActivity, profile, record_function


def timed(step, state, iters):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(iters):
        step(state, i)
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def main(name, setup, step, iters=20, warmup=5):
    p = argparse.ArgumentParser(description=f"{name}: a Kineto trace and its wall time")
    p.add_argument("--out", default=".", help="folder for NAME.trace.json.gz and NAME.wall.json")
    p.add_argument("--iters", type=int, default=iters)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    state = setup()
    for i in range(warmup):
        step(state, i)
    untraced_before = timed(step, state, args.iters)
    if os.environ.get("STREAMSIM_NO_PROFILER") == "1":
        middle = timed(step, state, args.iters)
        after = timed(step, state, args.iters)
        print(json.dumps({"program": name, "untraced_s": [untraced_before, middle, after]}))
        return
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        torch.cuda.synchronize()
        with record_function("streamsim_region"):
            t0 = time.perf_counter()
            for i in range(args.iters):
                step(state, i)
            torch.cuda.synchronize()
            traced = time.perf_counter() - t0
    untraced_after = timed(step, state, args.iters)
    raw = os.path.join(args.out, f"{name}.trace.json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as f, gzip.open(raw + ".gz", "wb") as g:
        g.write(f.read())
    os.remove(raw)
    wall = {
        "program": name,
        "iters": args.iters,
        "traced_region_s": traced,
        "untraced_before_s": untraced_before,
        "untraced_after_s": untraced_after,
        "gpu": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
    }
    with open(os.path.join(args.out, f"{name}.wall.json"), "w") as f:
        json.dump(wall, f, indent=1)
    print(json.dumps(wall))
