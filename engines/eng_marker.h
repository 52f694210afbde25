/* eng_marker.h: event records and waits, markers in their stream that run on no engine (eng_marker.c). */
#ifndef ENG_MARKER_H
#define ENG_MARKER_H

#include "eng_engine.h"

extern const EngEngineClass eng_marker_class;

#endif /* ENG_MARKER_H */
