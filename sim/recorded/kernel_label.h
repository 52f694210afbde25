/* kernel_label.h: a readable label from a kernel's name, as a recorded or imported schedule writes it (`label=`).
 *
 * CUPTI and the profilers give a kernel's name mangled (Itanium C++ ABI,
 * "_ZN2at6native13reduce_kernelILi512E...") or demangled ("void
 * at::native::reduce_kernel<512, ...>(...)"); a schedule's label is its
 * scoped name without the types: at.native.reduce_kernel. No demangler is
 * linked: only the names' scope parts are read. */
#ifndef KERNEL_LABEL_H
#define KERNEL_LABEL_H

#include <glib.h>

/* The readable part of a kernel name: "_Z6vecAddPfS_i" -> vecAdd,
 * "_ZN2at6native13reduce_kernelILi512E..." -> at.native.reduce_kernel,
 * "kernel(float*)" -> kernel; at most 48 characters of [A-Za-z0-9_-] and
 * '.', anonymous and compiler-internal namespaces left out. Newly
 * allocated. */
char *kernel_label (const char *name);

#endif
