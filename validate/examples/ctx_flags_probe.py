# ctx_flags_probe.py: a program of the driver API alone (ctypes on libcuda), for the
# recorder's reading of the context's and events' flags (sim/recorded/record_flags.h):
# a context made with CU_CTX_SCHED_BLOCKING_SYNC (or, with the argument `primary`,
# the primary context's flags set to spin), an event made with CU_EVENT_BLOCKING_SYNC,
# three records on the legacy stream each synchronized. Run it under the recorder:
#   streamsim-validate --record X.sched --log X.log -- python3 ctx_flags_probe.py [primary]
import ctypes, sys
cu = ctypes.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0:
        raise SystemExit(f"{what} failed: {r}")
ck(cu.cuInit(0), "cuInit")
dev = ctypes.c_int()
ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
ctx = ctypes.c_void_p()
if len(sys.argv) > 1 and sys.argv[1] == "primary":
    ck(cu.cuDevicePrimaryCtxSetFlags_v2(dev, 1), "cuDevicePrimaryCtxSetFlags")
    ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    ck(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
else:
    ck(cu.cuCtxCreate_v2(ctypes.byref(ctx), 4, dev), "cuCtxCreate")
ev = ctypes.c_void_p()
ck(cu.cuEventCreate(ctypes.byref(ev), 1), "cuEventCreate")
for i in range(3):
    ck(cu.cuEventRecord(ev, None), "cuEventRecord")
    ck(cu.cuEventSynchronize(ev), "cuEventSynchronize")
print("ok")
