/* eng_copy.h: copy engines and the host link: one per direction, latency + bytes / bandwidth, duplex, pageable copies staged (eng_copy.c). */
#ifndef ENG_COPY_H
#define ENG_COPY_H

#include "eng_engine.h"

extern const EngEngineClass eng_copy_class;

#endif /* ENG_COPY_H */
