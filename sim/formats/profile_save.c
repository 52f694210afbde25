/* profile_save.c: device profiles written as GLib key files, each number in the unit a person would write. */
#include <string.h>
#include "output_file.h"
#include "profile_file.h"
#include "profile_keys.h"
#include "units.h"


/* Exact: a time in ns always has at most 9 decimals of a second. */
static char *
format_time (SimTime ns)
{
  static const struct
  {
    SimTime scale;
    const char *unit;
    int digits;
  } units[] = {
    { SIM_S (1), "s", 9 },
    { SIM_MS (1), "ms", 6 },
    { SIM_US (1), "us", 3 },
  };

  if (ns == 0)
    return g_strdup ("0");
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (ns >= units[i].scale)
      {
        SimTime whole = ns / units[i].scale, frac = ns % units[i].scale;
        if (frac == 0)
          return g_strdup_printf ("%" G_GINT64_FORMAT "%s", whole, units[i].unit);
        char digits[32];
        g_snprintf (digits, sizeof digits, "%0*" G_GINT64_FORMAT, units[i].digits, frac);
        for (char *z = digits + strlen (digits) - 1; z > digits && *z == '0'; z--)
          *z = '\0';
        return g_strdup_printf ("%" G_GINT64_FORMAT ".%s%s", whole, digits, units[i].unit);
      }
  return g_strdup_printf ("%" G_GINT64_FORMAT "ns", ns);
}

static void
trim_zeros (char *number)
{
  if (strchr (number, '.') == NULL)
    return;
  char *z = number + strlen (number) - 1;
  while (*z == '0')
    *z-- = '\0';
  if (*z == '.')
    *z = '\0';
}

/* A rate's units, largest first, each with its scale. */
typedef struct
{
  double scale;
  const char *unit;
} RateUnit;

/* Six decimals in the largest unit that keeps the number >= 1: within a
 * millionth, far inside the 0.1% a profile's numbers are good to. */
static char *
format_rate (double value, const RateUnit *units, guint n_units)
{
  guint i = 0;
  while (i + 1 < n_units && value < units[i].scale)
    i++;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (number, sizeof number, "%.6f", value / units[i].scale);
  trim_zeros (number);
  return g_strconcat (number, units[i].unit, NULL);
}

static char *
format_bandwidth (double bytes_per_s)
{
  static const RateUnit units[] = {
    { 1e9, "GB/s" }, { 1e6, "MB/s" }, { 1e3, "KB/s" }, { 1, "B/s" },
  };
  return format_rate (bytes_per_s, units, G_N_ELEMENTS (units));
}

/* In MHz, as data sheets give clocks, from 1 MHz up. */
static char *
format_frequency (double hz)
{
  static const RateUnit units[] = { { 1e6, "MHz" }, { 1e3, "kHz" }, { 1, "Hz" } };
  return format_rate (hz, units, G_N_ELEMENTS (units));
}

static char *
format_flops (double flops)
{
  static const RateUnit units[] = {
    { 1e12, "TFLOP/s" }, { 1e9, "GFLOP/s" }, { 1e6, "MFLOP/s" }, { 1, "FLOP/s" },
  };
  return format_rate (flops, units, G_N_ELEMENTS (units));
}

/* The shortest of %.15g and %.17g that reads back to the same double. */
static char *
format_number (double value)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (number, sizeof number, "%.15g", value);
  if (g_ascii_strtod (number, NULL) != value)
    g_ascii_formatd (number, sizeof number, "%.17g", value);
  return g_strdup (number);
}

static char *
format_value (const GpuProfile *profile, const ProfileKey *key)
{
  gconstpointer field = G_STRUCT_MEMBER_P (profile, key->offset);
  switch (key->type)
    {
    case PROFILE_KEY_UINT:
      return g_strdup_printf ("%u", *(const guint *) field);
    case PROFILE_KEY_BOOL:
      return g_strdup (*(const gboolean *) field ? "true" : "false");
    case PROFILE_KEY_TIME:
      return format_time (*(const SimTime *) field);
    case PROFILE_KEY_SIZE:
      return units_format_exact_size (*(const guint64 *) field);
    case PROFILE_KEY_BANDWIDTH:
      return format_bandwidth (*(const double *) field);
    case PROFILE_KEY_FRACTION:
      return format_number (*(const double *) field);
    case PROFILE_KEY_FREQUENCY:
      return format_frequency (*(const double *) field);
    case PROFILE_KEY_FLOPS:
      return format_flops (*(const double *) field);
    case PROFILE_KEY_SIZE_TIMES:
    case PROFILE_KEY_TIME_TIMES:
      {
        const GpuPoints *points = field;
        GString *s = g_string_new (NULL);
        for (guint i = 0; i < points->n; i++)
          {
            g_autofree char *at = key->type == PROFILE_KEY_SIZE_TIMES
                                      ? units_format_exact_size (points->at[i])
                                      : format_time (points->at[i]);
            g_autofree char *time = format_time (points->time[i]);
            g_string_append_printf (s, "%s%s %s", i > 0 ? ", " : "", at, time);
          }
        return g_string_free (s, FALSE);
      }
    case PROFILE_KEY_TEXT:
    case PROFILE_KEY_INHERITS:
      break;
    }
  g_assert_not_reached ();
}

/* GKeyFile writes "#" before each line; a space after it reads better. */
static void
set_comment (GKeyFile *keys, const char *group, const char *key, const char *comment)
{
  char **lines = g_strsplit (comment, "\n", -1);
  GString *s = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (s, "%s %s", i ? "\n" : "", lines[i]);
  g_key_file_set_comment (keys, group, key, s->str, NULL);
  g_string_free (s, TRUE);
  g_strfreev (lines);
}

/* A comment's key: "key", "group.key", or "group" for the group itself. */
static gboolean
place_comment (GKeyFile *keys, const char *where, const char *comment)
{
  const char *dot = strchr (where, '.');
  for (guint k = 0; k < PROFILE_N_KEYS; k++)
    {
      const ProfileKey *key = &profile_keys[k];
      gboolean match = dot != NULL
                       ? strncmp (where, key->group, dot - where) == 0
                         && key->group[dot - where] == '\0'
                         && strcmp (dot + 1, key->name) == 0
                       : strcmp (where, key->name) == 0;
      if (match)
        {
          if (!g_key_file_has_key (keys, key->group, key->name, NULL))
            return TRUE; /* an unset text key: nothing to comment */
          set_comment (keys, key->group, key->name, comment);
          return TRUE;
        }
    }
  if (profile_group_index (where) >= 0)
    {
      if (g_key_file_has_group (keys, where))
        set_comment (keys, where, NULL, comment);
      return TRUE;
    }
  return FALSE;
}

/* The text is read back before it is written, so a profile that would not
 * load (a value out of range, say) is never saved. */
gboolean
profile_save (const GpuProfile *profile, const char *path,
              const char *const *comments, GError **error)
{
  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  GKeyFile *keys = g_key_file_new ();
  for (guint k = 0; k < PROFILE_N_KEYS; k++)
    {
      const ProfileKey *key = &profile_keys[k];
      if (key->type == PROFILE_KEY_INHERITS)
        continue;
      if (key->type == PROFILE_KEY_TEXT)
        {
          const char *text = G_STRUCT_MEMBER (const char *, profile, key->offset);
          if (text != NULL)
            g_key_file_set_string (keys, key->group, key->name, text);
          continue;
        }
      if (!profile_key_is_set (profile, k))
        continue; /* not measured: left out, as the loader allows */
      char *value = format_value (profile, key);
      g_key_file_set_value (keys, key->group, key->name, value);
      g_free (value);
    }

  for (const char *const *c = comments; c != NULL && c[0] != NULL; c += 2)
    {
      if (c[1] == NULL || !place_comment (keys, c[0], c[1]))
        {
          g_key_file_free (keys);
          g_return_val_if_reached (FALSE);
        }
    }

  char *name = profile_name_from_path (path);
  char *description = g_strdup (profile->description != NULL ? profile->description : "");
  g_strstrip (g_strdelimit (description, "\r\n", ' '));
  char *top = g_strdup_printf ("%s: device profile for streamsim%s%s%s\n"
                               "engines/profiles/README.md documents every key.",
                               name, *description ? " (" : "", description,
                               *description ? ")" : "");
  set_comment (keys, NULL, NULL, top);
  g_free (top);
  g_free (description);
  g_free (name);

  gsize len;
  char *data = g_key_file_to_data (keys, &len, NULL);
  g_key_file_free (keys);

  gboolean ok = profile_load_text (path, data, len, error);
  if (!ok)
    g_prefix_error (error, "profile not saved: ");
  else
    ok = output_file_set_contents (path, data, len, error);
  g_free (data);
  return ok;
}
