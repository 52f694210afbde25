/* fuzz_nsys.c: libFuzzer target for Nsight Systems SQLite exports (import_nsys_parse, from memory) and the schedules made from them.
 *
 * Beyond "no crash": a database is refused with an error about the file,
 * or read and converted into a schedule that parses back with as many ops
 * as it has times (fuzz_import.h). Byte 100, the first after SQLite's
 * header, picks a conversion with or without the h100 profile. */
#include "fuzz_import.h"
#include "sim/import/import_nsys.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  ImportTrace *trace = import_nsys_parse ("fuzz.sqlite", data, size, &error);
  fuzz_import_check ("fuzz.sqlite", trace, error, size > 100 && (data[100] & 1));
  return 0;
}
