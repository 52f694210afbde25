/* eng_kernel.h: the kernel engine: kernels and memsets on the SMs, the left-over policy, the concurrency limit (eng_kernel.c). */
#ifndef ENG_KERNEL_H
#define ENG_KERNEL_H

#include "eng_engine.h"

extern const EngEngineClass eng_kernel_class;

#endif /* ENG_KERNEL_H */
