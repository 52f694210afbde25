#!/usr/bin/env python3
"""Derive the seed kernels' time= values from the measured sequential runs.

For each device: predict sequential.sched with a zero-time kernel (the copies,
latencies and host costs the model charges), subtract that from the measured
sequential time (shared/seeds/001): what is left is the kernel over the whole
array (16384 blocks). A chunk kernel (4096 blocks) takes the same block time
for fewer waves: k = K / waves(16384) * waves(4096), waves from the profile's
SM count and blocks per SM. Nothing here looks at the async variants.

Usage: traces/seed/derive-kernel-times.py [BUILD_DIR]   (default: build)
"""
import math, os, re, subprocess, sys, tempfile

MEASURED_SEQUENTIAL_MS = {'c1060': 12.92381, 'c2050': 9.984512, 'k20': 7.101760}
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
streamsim = os.path.join(root, sys.argv[1] if len(sys.argv) > 1 else 'build', 'sim', 'streamsim')

def profile_value(device, key):
    text = open(os.path.join(root, 'engines', 'profiles', device + '.ini')).read()
    m = re.search(rf'^{key}\s*=\s*(\S+)', text, re.M)
    return int(m.group(1))

def waves(device, grid, block=256):
    sms = profile_value(device, 'sm_count')
    regs = profile_value(device, 'default_regs') * block
    per_sm = min(profile_value(device, 'max_blocks_per_sm'),
                 profile_value(device, 'max_threads_per_sm') // block,
                 profile_value(device, 'regs_per_sm') // regs)
    return math.ceil(grid / (sms * per_sm)), per_sm

def makespan_ms(schedule_text, device):
    with tempfile.TemporaryDirectory() as tmp:
        sched, csv = os.path.join(tmp, 's.sched'), os.path.join(tmp, 's.csv')
        open(sched, 'w').write(schedule_text)
        subprocess.run([streamsim, 'predict', sched, '--device', device, '--csv', csv, '-q'], check=True)
        ends = [int(line.split(',')[8]) for line in open(csv) if line[:1].isdigit()]
        return max(ends) / 1e6

sequential = open(os.path.join(here, 'sequential.sched')).read()
zero = re.sub(r'time=\S+', 'time=0', sequential)
full, chunk = [], []
for device, measured in MEASURED_SEQUENTIAL_MS.items():
    overhead = makespan_ms(zero, device)
    kernel = measured - overhead
    (wf, per_sm), (wc, _) = waves(device, 16384), waves(device, 4096)
    k = kernel / wf * wc
    print(f'{device}: sequential {measured:.4f} ms - copies and latencies {overhead:.4f} ms '
          f'= kernel {kernel:.4f} ms over {wf} waves ({per_sm} blocks/SM); '
          f'a 4096-block chunk: {wc} waves = {k:.4f} ms')
    full.append(f'{device}:{kernel:.4f}ms')
    chunk.append(f'{device}:{k:.4f}ms')
print('sequential.sched: time=' + ','.join(full))
print('async-v1/v2.sched: time=' + ','.join(chunk))
