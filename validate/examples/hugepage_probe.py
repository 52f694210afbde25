"""hugepage_probe.py: D2H and H2D copies with host memory the program has not touched
yet, on plain pages and on transparent huge pages: a measurement program of its own.

The calibration's untouched sweep maps plain pages; NumPy asks the kernel for huge
pages (madvise MADV_HUGEPAGE) for arrays of 4 MiB and more, and the kernel may give
them to any mapping when /sys/kernel/mm/transparent_hugepage/enabled says "always".
For each size, a fresh private anonymous mapping (mmap), aligned to 2 MiB, with MADV_HUGEPAGE
("huge") or MADV_NOHUGEPAGE ("plain"), is the destination of a cudaMemcpy from device
memory (cupy's ndarray.get(out=...)) or the source of one to it (ndarray.set), timed
on the host around the call and a synchronize, 7 times, each with a fresh mapping.
Prints the system's THP settings, then one line per direction, pages and size:
  copy DIR huge|plain BYTES median_us min_us
"""
import mmap
import sys
import time

import cupy as cp
import numpy as np

ALIGN = 2 << 20


def thp(name):
    try:
        with open("/sys/kernel/mm/transparent_hugepage/" + name) as f:
            return f.read().strip()
    except OSError as e:
        return "unreadable (%s)" % e


def fresh(size, huge):
    """A fresh mapping of `size` bytes starting on a 2 MiB boundary, as float32s."""
    # Private, as malloc's memory is: an anonymous mmap.mmap is shared by
    # default, shmem, where MADV_HUGEPAGE follows shmem_enabled ("never" by
    # default) and changes nothing.
    m = mmap.mmap(-1, size + ALIGN, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    base = np.frombuffer(m, dtype=np.uint8)
    skip = (-base.ctypes.data) % ALIGN
    m.madvise(mmap.MADV_HUGEPAGE if huge else mmap.MADV_NOHUGEPAGE)
    return m, base[skip:skip + size].view(np.float32)


def main():
    print("thp enabled:", thp("enabled"))
    print("thp defrag:", thp("defrag"))
    print("numpy", np.__version__, "cupy", cp.__version__)
    sizes = [256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]
    dev = cp.ones(max(sizes) // 4, dtype=cp.float32)
    cp.cuda.Device().synchronize()
    for direction in ("d2h", "h2d"):
        for huge in (True, False):
            for size in sizes:
                times = []
                for _ in range(7):
                    m, host = fresh(size, huge)
                    d = dev[: size // 4]
                    cp.cuda.Device().synchronize()
                    t0 = time.perf_counter()
                    if direction == "d2h":
                        d.get(out=host)
                    else:
                        d.set(host)
                    cp.cuda.Device().synchronize()
                    times.append((time.perf_counter() - t0) * 1e6)
                    del host
                    m.close()
                times.sort()
                print("copy %s %s %d %.1f %.1f" % (direction, "huge" if huge else "plain", size,
                                                    times[len(times) // 2], times[0]))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
