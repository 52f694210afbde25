/* eng_callback.h: host functions, run one at a time by the driver's callback thread (eng_callback.c). */
#ifndef ENG_CALLBACK_H
#define ENG_CALLBACK_H

#include "eng_engine.h"

extern const EngEngineClass eng_callback_class;

#endif /* ENG_CALLBACK_H */
