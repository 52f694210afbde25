"""numpy_pages_probe.py: how NumPy's own fresh arrays fault in when a copy is the first
to touch them, a measurement program of its own.

hugepage_probe.py maps its memory itself, aligned to 2 MiB. A program's buffer comes
from NumPy (np.empty, as cupy's ndarray.get() makes its result): malloc, which maps
large blocks with mmap, and NumPy's madvise(MADV_HUGEPAGE) over arrays of 4 MiB and
more. Whether the kernel then gives the buffer huge pages depends on where the block
lies (whole 2 MiB frames inside it) and on the mapping's flags, which /proc/self/smaps
shows before the copy (THPeligible, VmFlags) and after it (AnonHugePages).

For each direction, size and mode, 8 copies, each into (or from) a fresh buffer:
  kept     np.empty arrays, every one kept alive (each malloc maps afresh)
  freed    np.empty arrays, each freed before the next is made (glibc then raises its
           mmap threshold, and a later block may come from the heap)
  aligned  a private anonymous mapping of its own, aligned to 2 MiB and advised
           MADV_HUGEPAGE whole, as the harness maps `untouched huge` memory
  layout   a private anonymous mapping laid out as malloc's and NumPy's (the buffer
           16 bytes in, MADV_HUGEPAGE from the next page on), its start 4 KiB before a
           2 MiB boundary as the kernel places such mappings
Prints the THP settings, then one line a copy:
  copy DIR MODE BYTES us=CALL_US off=ADDR%2MiB frames=WHOLE_2MiB_FRAMES_IN_BUFFER
       eligible=THPeligible hg=0|1 vma=VMA_BYTES huge_before=KiB huge_after=KiB
where CALL_US times the call and a synchronize, and the smaps fields are summed over
the mappings the buffer overlaps.
"""
import mmap
import sys
import time

import cupy as cp
import numpy as np

from hugepage_probe import thp

FRAME = 2 << 20


def smaps(lo, hi):
    """THPeligible (all 1), hg in VmFlags (any), bytes of the mappings and their
    AnonHugePages in KiB, over the mappings that overlap [lo, hi)."""
    eligible, hg, size, huge, inside = 1, 0, 0, 0, False
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split(None, 1)[0]
            if "-" in head and not head.endswith(":"):
                a, b = (int(x, 16) for x in head.split("-"))
                inside = a < hi and b > lo
                if inside:
                    size += b - a
                elif a >= hi:
                    break
            elif inside and head == "AnonHugePages:":
                huge += int(line.split()[1])
            elif inside and head == "THPeligible:":
                eligible &= int(line.split()[1])
            elif inside and head == "VmFlags:":
                hg |= " hg" in " " + line[len(head):]
    return eligible, int(hg), size, huge


def frames(lo, hi):
    first = (lo + FRAME - 1) // FRAME * FRAME
    return max(0, (hi - first) // FRAME)


def mapped(nbytes, layout):
    """A fresh private mapping and a float32 view of nbytes in it: 2 MiB-aligned and
    advised whole, or as malloc and NumPy lay out a large array."""
    m = mmap.mmap(-1, nbytes + 2 * FRAME, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    base = np.frombuffer(m, dtype=np.uint8)
    start = (-base.ctypes.data) % FRAME + (FRAME - 4096 if layout else 0)
    if layout:
        m.madvise(mmap.MADV_HUGEPAGE, start + 4096, nbytes)
        view = base[start + 16:start + 16 + nbytes]
    else:
        m.madvise(mmap.MADV_HUGEPAGE, start, nbytes)
        view = base[start:start + nbytes]
    return m, view.view(np.float32)


def one(direction, mode, nbytes, dev, keep):
    n = nbytes // 4
    m = None
    if mode in ("aligned", "layout"):
        m, a = mapped(nbytes, mode == "layout")
    else:
        a = np.empty(n, np.float32)
    lo = a.ctypes.data
    hi = lo + nbytes
    el, hg, vma, before = smaps(lo, hi)
    cp.cuda.runtime.deviceSynchronize()
    t = time.perf_counter()
    if direction == "d2h":
        dev.get(out=a)
    else:
        dev.set(a)
    cp.cuda.runtime.deviceSynchronize()
    us = (time.perf_counter() - t) * 1e6
    after = smaps(lo, hi)[3]
    print("copy %s %s %d us=%.1f off=%d frames=%d eligible=%d hg=%d vma=%d huge_before=%d huge_after=%d"
          % (direction, mode, nbytes, us, lo % FRAME, frames(lo, hi), el, hg, vma, before, after))
    if keep is not None:
        keep.append((m, a))


def main():
    print("thp enabled:", thp("enabled"))
    print("thp defrag:", thp("defrag"))
    print("numpy", np.__version__, "cupy", cp.__version__)
    sizes = [int(s) << 20 for s in (sys.argv[1:] or ["4", "8", "16"])]
    for nbytes in sizes:
        dev = cp.arange(nbytes // 4, dtype=cp.float32)
        for direction in ("d2h", "h2d"):
            for mode in ("kept", "freed", "aligned", "layout"):
                kept = [] if mode != "freed" else None
                for _ in range(8):
                    one(direction, mode, nbytes, dev, kept)
                del kept
        sys.stdout.flush()


if __name__ == "__main__":
    main()
