/* units.h: sizes, times, bandwidths, clocks and FLOP rates as people write them ("4MiB", "1.08ms", "12GB/s", "1980MHz", "67TFLOP/s"). */
#ifndef UNITS_H
#define UNITS_H

#include <glib.h>
#include "sim/core/sim_time.h"

/* Each parser takes the whole string (no surrounding blanks), returns FALSE on
 * anything malformed, negative or beyond 64 bits, and then sets *why to a
 * static phrase saying what is allowed (for the caller's file:line:column
 * message). Decimals are allowed ("1.5MiB", "0.25us"); results are rounded to
 * the nearest byte or nanosecond. */

/* Sizes: B, KB/MB/GB/TB (powers of 1000), KiB/MiB/GiB/TiB (powers of 1024);
 * a bare number is bytes. */
gboolean units_parse_size (const char *text, guint64 *bytes, const char **why);

/* Times: ns, us, ms, s. A unit is required except for "0". */
gboolean units_parse_time (const char *text, SimTime *ns, const char **why);

/* Bandwidths: a number followed by GB/s, MB/s, GiB/s, MiB/s, KB/s, B/s, in
 * bytes per second. */
gboolean units_parse_bandwidth (const char *text, double *bytes_per_s, const char **why);

/* Clock frequencies: a number followed by Hz, kHz, MHz or GHz, in hertz. */
gboolean units_parse_frequency (const char *text, double *hz, const char **why);

/* Floating-point operation rates: a number followed by FLOP/s, MFLOP/s,
 * GFLOP/s, TFLOP/s or PFLOP/s (GFLOPS, TFLOPS and PFLOPS, as data sheets
 * write them, too), in operations per second. */
gboolean units_parse_flops (const char *text, double *flops, const char **why);

/* A plain non-negative integer with no unit, at most `max`. */
gboolean units_parse_uint (const char *text, guint64 max, guint64 *value, const char **why);

/* Human-readable forms, for summaries: "1.234 ms", "4 MiB". Return newly
 * allocated strings. */
char *units_format_time (SimTime ns);
char *units_format_size (guint64 bytes);

/* A size exactly, as units_parse_size reads it back and a person would
 * write it: "4MiB", "1KiB", "1000B" (profiles, recorded schedules). */
char *units_format_exact_size (guint64 bytes);
/* A time exactly, as units_parse_time reads it back: "1.0815ms", "4us",
 * "250ns", "0" (written schedules). */
char *units_format_exact_time (SimTime ns);

#endif /* UNITS_H */
