/* import_programs.c: the importers' tests' schedules (import_programs.h). */
#include "import_programs.h"

const char import_program_one_stream[] =
  "stream s1\n"
  "host 10.000us\n"
  "h2d s1 4MiB\n"
  "kernel s1 grid=4 block=256 regs=32 time=20.000us label=scale\n"
  "host 2.000us\n"
  "kernel s1 grid=4 block=256 regs=32 time=20.000us label=scale\n"
  "d2h s1 1KiB\n"
  "host 2.000us\n"
  "sync s1\n"
  "host 3.000us\n"
  "sync device\n";

const char import_program_events[] =
  "stream s1\n"
  "stream s2\n"
  "kernel s1 grid=4 block=256 regs=32 time=100.000us label=a\n"
  "host 2.000us\n"
  "record e1 s1\n"
  "wait s2 e1\n"
  "host 2.000us\n"
  "kernel s2 grid=4 block=256 regs=32 time=100.000us label=b\n"
  "record e2 s2\n"
  "host 2.000us\n"
  "sync e2\n";

const char import_program_calls[] =
  "kernel default grid=4 block=256 regs=32 time=10.000us label=c\n"
  "kernel default grid=4 block=256 regs=32 time=10.000us label=d\n"
  "host 3.000us\n"
  "memset default 64B\n"
  "host 2.000us\n"
  "d2d default 256B\n"
  "host 3.000us\n"
  "kernel default grid=4 block=256 regs=32 time=10.000us label=c\n";
