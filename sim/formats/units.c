/* units.c: sizes, times, bandwidths, clocks and FLOP rates as people write them ("4MiB", "1.08ms", "12GB/s", "1980MHz", "67TFLOP/s"). */
#include "units.h"

#include <math.h>
#include <string.h>

/* The phrases for *why. Those for a well-formed value outside what is allowed
 * start with "negative" or "too large": the schedule parser uses that prefix
 * to report SCHEDULE_ERROR_RANGE rather than SCHEDULE_ERROR_SYNTAX. */
#define SIZE_UNITS "B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"
#define TIME_UNITS "ns, us, ms or s"
#define RATE_UNITS "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s or TiB/s"
#define FREQUENCY_UNITS "Hz, kHz, MHz or GHz"
#define FLOPS_UNITS "FLOP/s, MFLOP/s, GFLOP/s, TFLOP/s or PFLOP/s (or GFLOPS, TFLOPS, PFLOPS)"

static const char size_malformed[] =
  "expected a size: a number with an optional unit " SIZE_UNITS " (for example 4MiB or 1.5GB)";
static const char size_negative[] =
  "negative sizes are not allowed; a size is a number with an optional unit " SIZE_UNITS;
static const char size_too_large[] =
  "too large: a size must be below 2^64 bytes (16 EiB)";
static const char time_malformed[] =
  "expected a time: a number with a unit " TIME_UNITS
  " (for example 1.08ms or 200us); only 0 may go without a unit";
static const char time_negative[] =
  "negative times are not allowed; a time is a number with a unit " TIME_UNITS;
static const char time_too_large[] =
  "too large: a time must be below 2^63 ns (about 292 years)";
static const char rate_malformed[] =
  "expected a bandwidth: a number followed by " RATE_UNITS " (for example 12GB/s)";
static const char rate_negative[] =
  "negative bandwidths are not allowed; a bandwidth is a positive number followed by " RATE_UNITS;
static const char rate_zero[] =
  "a bandwidth must be positive (a zero rate never finishes a copy); give a number followed by " RATE_UNITS;
static const char rate_too_large[] =
  "too large: the bandwidth does not fit a double";
static const char frequency_malformed[] =
  "expected a clock frequency: a number followed by " FREQUENCY_UNITS " (for example 1980MHz)";
static const char frequency_negative[] =
  "negative frequencies are not allowed; a frequency is a positive number followed by " FREQUENCY_UNITS;
static const char frequency_zero[] =
  "a frequency must be positive; give a number followed by " FREQUENCY_UNITS;
static const char frequency_too_large[] =
  "too large: the frequency does not fit a double";
static const char flops_malformed[] =
  "expected a FLOP rate: a number followed by " FLOPS_UNITS " (for example 67TFLOP/s)";
static const char flops_negative[] =
  "negative FLOP rates are not allowed; a FLOP rate is a positive number followed by " FLOPS_UNITS;
static const char flops_zero[] =
  "a FLOP rate must be positive; give a number followed by " FLOPS_UNITS;
static const char flops_too_large[] =
  "too large: the FLOP rate does not fit a double";
static const char uint_malformed[] =
  "expected a whole number (digits only, no sign, no unit)";
static const char uint_negative[] =
  "negative numbers are not allowed here; expected a whole number";
static const char uint_too_large[] =
  "too large for this setting";

typedef struct
{
  const char *name;
  guint64 factor;
} Unit;

static const Unit size_units[] = {
  { "", 1 },
  { "B", 1 },
  { "KB", G_GUINT64_CONSTANT (1000) },
  { "MB", G_GUINT64_CONSTANT (1000000) },
  { "GB", G_GUINT64_CONSTANT (1000000000) },
  { "TB", G_GUINT64_CONSTANT (1000000000000) },
  { "KiB", G_GUINT64_CONSTANT (1) << 10 },
  { "MiB", G_GUINT64_CONSTANT (1) << 20 },
  { "GiB", G_GUINT64_CONSTANT (1) << 30 },
  { "TiB", G_GUINT64_CONSTANT (1) << 40 },
  { NULL, 0 },
};

static const Unit time_units[] = {
  { "ns", 1 },
  { "us", G_GUINT64_CONSTANT (1000) },
  { "ms", G_GUINT64_CONSTANT (1000000) },
  { "s", G_GUINT64_CONSTANT (1000000000) },
  { NULL, 0 },
};

static const Unit rate_units[] = {
  { "B/s", 1 },
  { "KB/s", G_GUINT64_CONSTANT (1000) },
  { "MB/s", G_GUINT64_CONSTANT (1000000) },
  { "GB/s", G_GUINT64_CONSTANT (1000000000) },
  { "TB/s", G_GUINT64_CONSTANT (1000000000000) },
  { "KiB/s", G_GUINT64_CONSTANT (1) << 10 },
  { "MiB/s", G_GUINT64_CONSTANT (1) << 20 },
  { "GiB/s", G_GUINT64_CONSTANT (1) << 30 },
  { "TiB/s", G_GUINT64_CONSTANT (1) << 40 },
  { NULL, 0 },
};

static const Unit frequency_units[] = {
  { "Hz", 1 },
  { "kHz", G_GUINT64_CONSTANT (1000) },
  { "MHz", G_GUINT64_CONSTANT (1000000) },
  { "GHz", G_GUINT64_CONSTANT (1000000000) },
  { NULL, 0 },
};

/* Data sheets write "TFLOPS"; "TFLOP/s" says the same with the unit plain. */
static const Unit flops_units[] = {
  { "FLOP/s", 1 },
  { "MFLOP/s", G_GUINT64_CONSTANT (1000000) },
  { "GFLOP/s", G_GUINT64_CONSTANT (1000000000) },
  { "TFLOP/s", G_GUINT64_CONSTANT (1000000000000) },
  { "PFLOP/s", G_GUINT64_CONSTANT (1000000000000000) },
  { "GFLOPS", G_GUINT64_CONSTANT (1000000000) },
  { "TFLOPS", G_GUINT64_CONSTANT (1000000000000) },
  { "PFLOPS", G_GUINT64_CONSTANT (1000000000000000) },
  { NULL, 0 },
};

typedef enum
{
  NUMBER_OK,
  NUMBER_MALFORMED,
  NUMBER_NEGATIVE,
} NumberScan;

/* A decimal number as written: digits, optionally '.' and more digits. */
typedef struct
{
  guint64 whole;
  gboolean whole_too_large;
  const char *frac;  /* the digits after '.', or NULL */
  gsize frac_len;
  const char *unit;  /* what follows the number */
} Number;

static NumberScan
number_scan (const char *text, Number *num)
{
  const char *p = text;

  memset (num, 0, sizeof *num);
  if (*p == '-')
    return g_ascii_isdigit (p[1]) ? NUMBER_NEGATIVE : NUMBER_MALFORMED;
  if (!g_ascii_isdigit (*p))
    return NUMBER_MALFORMED;
  /* Option: the first nineteen digits without the overflow check (below 10^19 < 2^64); gained 1.7% of the benchmark's end-to-end figure. */
  guint64 whole = 0;
  for (; g_ascii_isdigit (*p); p++)
    {
      guint digit = *p - '0';
      if (whole > (G_MAXUINT64 - digit) / 10)
        num->whole_too_large = TRUE;
      else
        whole = whole * 10 + digit;
    }
  num->whole = whole;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return NUMBER_MALFORMED;
      num->frac = p;
      while (g_ascii_isdigit (*p))
        p++;
      num->frac_len = p - num->frac;
    }
  num->unit = p;
  return NUMBER_OK;
}

static const Unit *
unit_find (const Unit *units, const char *name)
{
  /* The first byte rules out most units without a call: a schedule names
   * sizes and times on almost every line. */
  for (; units->name != NULL; units++)
    if (units->name[0] == name[0] && strcmp (units->name, name) == 0)
      return units;
  return NULL;
}

/* whole.frac times factor, rounded half up, in exact integer arithmetic (a
 * double would misround "0.5B"-style ties and lose bytes above 2^53).
 *
 * The fraction is evaluated by Horner's rule from its last digit:
 * t = floor ((digit * F + t) / 10). Because floor (floor (z) / 10) equals
 * floor (z / 10), the result is exactly floor (0.d1d2...dk * F) however many
 * digits there are, and every intermediate stays below 10 * F. Using F = 2 *
 * factor gives twice the value, from which rounding half up is (t + 1) / 2. */
static gboolean
number_scale (const Number *num, guint64 factor, guint64 max, guint64 *out)
{
  guint64 value;
  guint64 twice = factor * 2;
  guint64 part = 0;

  if (num->whole_too_large || !g_uint64_checked_mul (&value, num->whole, factor))
    return FALSE;
  for (gsize i = num->frac_len; i-- > 0;)
    part = ((guint64) (num->frac[i] - '0') * twice + part) / 10;
  part = (part + 1) / 2;
  if (!g_uint64_checked_add (&value, value, part) || value > max)
    return FALSE;
  *out = value;
  return TRUE;
}

static gboolean
fail (const char **why, const char *phrase)
{
  if (why != NULL)
    *why = phrase;
  return FALSE;
}

gboolean
units_parse_size (const char *text, guint64 *bytes, const char **why)
{
  Number num;
  const Unit *unit;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  switch (number_scan (text, &num))
    {
    case NUMBER_NEGATIVE:
      return fail (why, size_negative);
    case NUMBER_MALFORMED:
      return fail (why, size_malformed);
    case NUMBER_OK:
      break;
    }
  unit = unit_find (size_units, num.unit);
  if (unit == NULL)
    return fail (why, size_malformed);
  if (!number_scale (&num, unit->factor, G_MAXUINT64, bytes))
    return fail (why, size_too_large);
  return TRUE;
}

gboolean
units_parse_time (const char *text, SimTime *ns, const char **why)
{
  Number num;
  const Unit *unit;
  guint64 value;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (ns != NULL, FALSE);

  if (strcmp (text, "0") == 0)
    {
      *ns = 0;
      return TRUE;
    }
  switch (number_scan (text, &num))
    {
    case NUMBER_NEGATIVE:
      return fail (why, time_negative);
    case NUMBER_MALFORMED:
      return fail (why, time_malformed);
    case NUMBER_OK:
      break;
    }
  unit = unit_find (time_units, num.unit);
  if (unit == NULL)
    return fail (why, time_malformed);
  if (!number_scale (&num, unit->factor, G_MAXINT64, &value))
    return fail (why, time_too_large);
  *ns = (SimTime) value;
  return TRUE;
}

/* What a rate parser says when the text is not one of its rates. */
typedef struct
{
  const Unit *units;
  const char *malformed, *negative, *zero, *too_large;
} RateKind;

/* A positive number followed by one of `kind`'s units, as a double in the
 * base unit (B/s, Hz, FLOP/s). */
static gboolean
parse_rate (const char *text, const RateKind *kind, double *out, const char **why)
{
  Number num;
  const Unit *unit;
  char *digits;
  double value;

  switch (number_scan (text, &num))
    {
    case NUMBER_NEGATIVE:
      return fail (why, kind->negative);
    case NUMBER_MALFORMED:
      return fail (why, kind->malformed);
    case NUMBER_OK:
      break;
    }
  unit = unit_find (kind->units, num.unit);
  if (unit == NULL)
    return fail (why, kind->malformed);
  /* number_scan has checked the shape, so strtod reads exactly these digits. */
  digits = g_strndup (text, num.unit - text);
  value = g_ascii_strtod (digits, NULL) * (double) unit->factor;
  g_free (digits);
  if (!isfinite (value))
    return fail (why, kind->too_large);
  if (value <= 0)
    return fail (why, kind->zero);
  *out = value;
  return TRUE;
}

gboolean
units_parse_bandwidth (const char *text, double *bytes_per_s, const char **why)
{
  static const RateKind kind = { rate_units, rate_malformed, rate_negative, rate_zero,
                                 rate_too_large };
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (bytes_per_s != NULL, FALSE);
  return parse_rate (text, &kind, bytes_per_s, why);
}

gboolean
units_parse_frequency (const char *text, double *hz, const char **why)
{
  static const RateKind kind = { frequency_units, frequency_malformed, frequency_negative,
                                 frequency_zero, frequency_too_large };
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (hz != NULL, FALSE);
  return parse_rate (text, &kind, hz, why);
}

gboolean
units_parse_flops (const char *text, double *flops, const char **why)
{
  static const RateKind kind = { flops_units, flops_malformed, flops_negative, flops_zero,
                                 flops_too_large };
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (flops != NULL, FALSE);
  return parse_rate (text, &kind, flops, why);
}

gboolean
units_parse_uint (const char *text, guint64 max, guint64 *value, const char **why)
{
  Number num;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  switch (number_scan (text, &num))
    {
    case NUMBER_NEGATIVE:
      return fail (why, uint_negative);
    case NUMBER_MALFORMED:
      return fail (why, uint_malformed);
    case NUMBER_OK:
      break;
    }
  if (num.frac != NULL || *num.unit != '\0')
    return fail (why, uint_malformed);
  if (num.whole_too_large || num.whole > max)
    return fail (why, uint_too_large);
  *value = num.whole;
  return TRUE;
}

/* `magnitude` in the largest of `names` (each `base` times the previous one,
 * names[0] the base unit) that keeps the number at 1 or more, with up to three
 * decimals; a value that would print as 1000.000 moves up one unit. */
static char *
format_scaled (const char *sign, guint64 magnitude, double base,
               const char *const *names, guint n_names)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  double value;
  guint unit = 1;
  gsize len;

  if (magnitude < base)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " %s", sign, magnitude, names[0]);
  value = (double) magnitude / base;
  while (unit + 1 < n_names && value >= base - 0.0005)
    {
      value /= base;
      unit++;
    }
  g_ascii_formatd (number, sizeof number, "%.3f", value);
  len = strlen (number);
  while (len > 0 && number[len - 1] == '0')
    number[--len] = '\0';
  if (len > 0 && number[len - 1] == '.')
    number[--len] = '\0';
  return g_strdup_printf ("%s%s %s", sign, number, names[unit]);
}

char *
units_format_time (SimTime ns)
{
  static const char *const names[] = { "ns", "us", "ms", "s" };
  guint64 magnitude = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  return format_scaled (ns < 0 ? "-" : "", magnitude, 1000, names, G_N_ELEMENTS (names));
}

char *
units_format_size (guint64 bytes)
{
  static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

  return format_scaled ("", bytes, 1024, names, G_N_ELEMENTS (names));
}

char *
units_format_exact_size (guint64 bytes)
{
  if (bytes != 0 && bytes % (1024 * 1024) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "MiB", bytes / (1024 * 1024));
  if (bytes != 0 && bytes % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "KiB", bytes / 1024);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "B", bytes);
}

/* The value in `unit` (ns per unit) with as many decimals as it needs. */
static char *
exact_in (SimTime ns, SimTime unit, const char *name)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%" G_GINT64_FORMAT, ns / unit);
  SimTime rest = ns % unit;
  if (rest != 0)
    {
      int digits = 0;
      for (SimTime u = unit; u > 1; u /= 10)
        digits++;
      g_string_append_printf (s, ".%0*" G_GINT64_FORMAT, digits, rest);
      while (s->str[s->len - 1] == '0')
        g_string_truncate (s, s->len - 1);
    }
  g_string_append (s, name);
  return g_string_free (s, FALSE);
}

char *
units_format_exact_time (SimTime ns)
{
  g_return_val_if_fail (ns >= 0, g_strdup ("0"));
  if (ns == 0)
    return g_strdup ("0");
  if (ns >= 1000000000 && ns % 1000000 == 0)
    return exact_in (ns, 1000000000, "s");
  if (ns >= 1000000)
    return exact_in (ns, 1000000, "ms");
  if (ns >= 1000)
    return exact_in (ns, 1000, "us");
  return exact_in (ns, 1, "ns");
}
