/* fuzz_kineto.c: libFuzzer target for PyTorch profiler (Kineto) JSON traces (import_kineto_parse) and the schedules made from them.
 *
 * Beyond "no crash": a trace is refused with an error at a place of the
 * file, or read and converted into a schedule that parses back with as
 * many ops as it has times (fuzz_import.h). The last byte picks a
 * conversion with or without the h100 profile. */
#include "fuzz_import.h"
#include "sim/import/import_kineto.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  ImportTrace *trace = import_kineto_parse ("fuzz.json", (const char *) data, size, &error);
  fuzz_import_check ("fuzz.json", trace, error, size > 0 && (data[size - 1] & 1));
  return 0;
}
