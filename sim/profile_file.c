/* profile_file.c: device profiles read from and written to GLib key files, with inheritance and file:line:column errors. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "located_error.h"
#include "output_file.h"
#include "profile_file.h"
#include "units.h"

G_DEFINE_QUARK (profile-error-quark, profile_error)

/* ---- The keys ---- */

typedef enum
{
  KEY_TEXT,      /* free text, optional */
  KEY_INHERITS,  /* [device] inherits: handled by the loader */
  KEY_UINT,      /* guint, min..max */
  KEY_BOOL,      /* gboolean, true or false */
  KEY_TIME,      /* SimTime, 0..1s */
  KEY_SIZE,      /* guint64 bytes, min..max */
  KEY_BANDWIDTH, /* double bytes per second, (0, 10 TB/s] */
  KEY_FRACTION,  /* double, (0, 1] */
} KeyType;

typedef struct
{
  const char *group;
  const char *name;
  KeyType type;
  gsize offset;
  guint64 min, max; /* KEY_UINT and KEY_SIZE */
} ProfileKey;

#define FIELD(f) offsetof (EngProfile, f)
#define MAX_TIME SIM_S (1)
#define MAX_BANDWIDTH 10e12
#define MAX_SMEM (1024 * 1024)
/* Profiles are a page of text; anything far bigger is not one. */
#define PROFILE_MAX_BYTES (1024 * 1024)

/* In file order: profile_save writes groups and keys in this order. Every
 * key that is neither text nor `inherits` is required. */
static const ProfileKey profile_keys[] = {
  { "device", "description", KEY_TEXT, FIELD (description), 0, 0 },
  { "device", "inherits", KEY_INHERITS, 0, 0, 0 },

  { "copy", "engines", KEY_UINT, FIELD (copy_engines), 1, 8 },
  { "copy", "h2d_pinned_bandwidth", KEY_BANDWIDTH, FIELD (h2d_pinned.bandwidth), 0, 0 },
  { "copy", "h2d_pinned_latency", KEY_TIME, FIELD (h2d_pinned.latency), 0, 0 },
  { "copy", "h2d_pageable_bandwidth", KEY_BANDWIDTH, FIELD (h2d_pageable.bandwidth), 0, 0 },
  { "copy", "h2d_pageable_latency", KEY_TIME, FIELD (h2d_pageable.latency), 0, 0 },
  { "copy", "d2h_pinned_bandwidth", KEY_BANDWIDTH, FIELD (d2h_pinned.bandwidth), 0, 0 },
  { "copy", "d2h_pinned_latency", KEY_TIME, FIELD (d2h_pinned.latency), 0, 0 },
  { "copy", "d2h_pageable_bandwidth", KEY_BANDWIDTH, FIELD (d2h_pageable.bandwidth), 0, 0 },
  { "copy", "d2h_pageable_latency", KEY_TIME, FIELD (d2h_pageable.latency), 0, 0 },
  { "copy", "d2d_bandwidth", KEY_BANDWIDTH, FIELD (d2d.bandwidth), 0, 0 },
  { "copy", "d2d_latency", KEY_TIME, FIELD (d2d.latency), 0, 0 },
  { "copy", "duplex_factor", KEY_FRACTION, FIELD (duplex_factor), 0, 0 },

  { "host", "kernel_launch", KEY_TIME, FIELD (host_kernel_launch), 0, 0 },
  { "host", "memcpy_async", KEY_TIME, FIELD (host_memcpy_async), 0, 0 },
  { "host", "memcpy_sync", KEY_TIME, FIELD (host_memcpy_sync), 0, 0 },
  { "host", "event_record", KEY_TIME, FIELD (host_event_record), 0, 0 },
  { "host", "stream_wait", KEY_TIME, FIELD (host_stream_wait), 0, 0 },
  { "host", "sync", KEY_TIME, FIELD (host_sync), 0, 0 },

  { "latency", "launch", KEY_TIME, FIELD (launch_latency), 0, 0 },
  { "latency", "copy_submit", KEY_TIME, FIELD (copy_submit), 0, 0 },
  { "latency", "dependency", KEY_TIME, FIELD (dependency_latency), 0, 0 },
  { "latency", "kernel_gap", KEY_TIME, FIELD (kernel_gap), 0, 0 },

  { "queues", "max_connections", KEY_UINT, FIELD (max_connections), 1, 32 },
  { "queues", "default_connections", KEY_UINT, FIELD (default_connections), 1, 32 },

  { "kernel", "sm_count", KEY_UINT, FIELD (sm_count), 1, 1024 },
  { "kernel", "max_threads_per_sm", KEY_UINT, FIELD (max_threads_per_sm), 1, 4096 },
  { "kernel", "max_blocks_per_sm", KEY_UINT, FIELD (max_blocks_per_sm), 1, 64 },
  { "kernel", "smem_per_sm", KEY_SIZE, FIELD (smem_per_sm), 0, MAX_SMEM },
  { "kernel", "regs_per_sm", KEY_UINT, FIELD (regs_per_sm), 1, 1048576 },
  { "kernel", "max_threads_per_block", KEY_UINT, FIELD (max_threads_per_block), 1, 4096 },
  { "kernel", "max_smem_per_block", KEY_SIZE, FIELD (max_smem_per_block), 0, MAX_SMEM },
  { "kernel", "default_regs", KEY_UINT, FIELD (default_regs), 1, 255 },
  { "kernel", "max_concurrent_kernels", KEY_UINT, FIELD (max_concurrent_kernels), 1, 1024 },
  { "kernel", "deferred_completion", KEY_BOOL, FIELD (deferred_completion), 0, 0 },
  { "kernel", "connection_serializes", KEY_BOOL, FIELD (connection_serializes), 0, 0 },

  { "info", "gpu", KEY_TEXT, FIELD (gpu), 0, 0 },
  { "info", "driver", KEY_TEXT, FIELD (driver), 0, 0 },
  { "info", "cuda", KEY_TEXT, FIELD (cuda), 0, 0 },
  { "info", "date", KEY_TEXT, FIELD (date), 0, 0 },
  { "info", "source", KEY_TEXT, FIELD (source), 0, 0 },
};

#define N_KEYS G_N_ELEMENTS (profile_keys)

static const char *const profile_groups[] = {
  "device", "copy", "host", "latency", "queues", "kernel", "info",
};

#define N_GROUPS G_N_ELEMENTS (profile_groups)

static gboolean
key_required (const ProfileKey *key)
{
  return key->type != KEY_TEXT && key->type != KEY_INHERITS;
}

static int
group_index (const char *name)
{
  for (guint i = 0; i < N_GROUPS; i++)
    if (strcmp (profile_groups[i], name) == 0)
      return (int) i;
  return -1;
}

static int
key_index (const char *group, const char *name)
{
  for (guint i = 0; i < N_KEYS; i++)
    if (strcmp (profile_keys[i].group, group) == 0
        && strcmp (profile_keys[i].name, name) == 0)
      return (int) i;
  return -1;
}

static int
key_index_by_field (gsize offset)
{
  for (guint i = 0; i < N_KEYS; i++)
    if (profile_keys[i].type != KEY_INHERITS && profile_keys[i].offset == offset)
      return (int) i;
  g_assert_not_reached ();
}

static char *
group_allowed_keys (const char *group)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < N_KEYS; i++)
    if (strcmp (profile_keys[i].group, group) == 0)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", profile_keys[i].name);
  return g_string_free (s, FALSE);
}

/* What a key accepts, for error messages. */
static char *
key_allowed (const ProfileKey *key)
{
  switch (key->type)
    {
    case KEY_TEXT:
    case KEY_INHERITS:
      return g_strdup ("free text");
    case KEY_UINT:
      return g_strdup_printf ("an integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                              key->min, key->max);
    case KEY_BOOL:
      return g_strdup ("true or false");
    case KEY_TIME:
      return g_strdup ("a time from 0 to 1s with a unit (ns, us, ms, s), such as 10us");
    case KEY_SIZE:
      return g_strdup ("a size from 0 to 1MiB (B, KB, KiB, MB, MiB), such as 48KiB");
    case KEY_BANDWIDTH:
      return g_strdup ("a bandwidth above 0 and at most 10TB/s (B/s, KB/s, MB/s, GB/s, MiB/s, GiB/s), such as 6GB/s");
    case KEY_FRACTION:
      return g_strdup ("a number above 0 and at most 1, such as 0.9");
    }
  g_assert_not_reached ();
}

/* ---- Errors ---- */

static void G_GNUC_PRINTF (6, 7)
set_error (GError **error, ProfileError code, const char *file, guint line,
           guint column, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, PROFILE_ERROR, code, file, line, column, format, args);
  va_end (args);
}

/* ---- The search path ---- */

G_LOCK_DEFINE_STATIC (search_path);
static char **search_path;
static char *search_path_env;

/* Rebuilt when STREAMSIM_PROFILE_PATH changes (tests set it), so a caller
 * must not keep the array across a change of the environment. */
const char *const *
profile_search_path (void)
{
  const char *env = g_getenv ("STREAMSIM_PROFILE_PATH");

  G_LOCK (search_path);
  if (search_path == NULL || g_strcmp0 (env, search_path_env) != 0)
    {
      GPtrArray *dirs = g_ptr_array_new ();
      if (env != NULL)
        {
          char **parts = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);
          for (char **p = parts; *p != NULL; p++)
            if (**p != '\0')
              g_ptr_array_add (dirs, g_strdup (*p));
          g_strfreev (parts);
        }
      g_ptr_array_add (dirs, g_strdup (STREAMSIM_PROFILE_DIR));
      g_ptr_array_add (dirs, NULL);
      g_strfreev (search_path);
      g_free (search_path_env);
      search_path = (char **) g_ptr_array_free (dirs, FALSE);
      search_path_env = g_strdup (env);
    }
  const char *const *result = (const char *const *) search_path;
  G_UNLOCK (search_path);
  return result;
}

static gboolean
name_is_valid (const char *name)
{
  if (*name == '\0')
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '_' || *p == '.' || *p == '-'))
      return FALSE;
  return TRUE;
}

/* Anything with a '/' or ending in ".ini" is a file; the rest are names. */
static gboolean
is_path (const char *name_or_path)
{
  return strchr (name_or_path, '/') != NULL || g_str_has_suffix (name_or_path, ".ini");
}

static char *
name_from_path (const char *path)
{
  char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".ini") && strlen (base) > 4)
    base[strlen (base) - 4] = '\0';
  return base;
}

static char *
find_on_path (const char *name)
{
  char *file = g_strconcat (name, ".ini", NULL);
  for (const char *const *dir = profile_search_path (); *dir != NULL; dir++)
    {
      char *path = g_build_filename (*dir, file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_free (file);
          return path;
        }
      g_free (path);
    }
  g_free (file);
  return NULL;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char **
profile_list (void)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (const char *const *dir = profile_search_path (); *dir != NULL; dir++)
    {
      GDir *d = g_dir_open (*dir, 0, NULL);
      if (d == NULL)
        continue;
      const char *entry;
      while ((entry = g_dir_read_name (d)) != NULL)
        {
          if (!g_str_has_suffix (entry, ".ini"))
            continue;
          char *name = g_strndup (entry, strlen (entry) - 4);
          char *path = g_build_filename (*dir, entry, NULL);
          if (name_is_valid (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
            g_hash_table_add (seen, name);
          else
            g_free (name);
          g_free (path);
        }
      g_dir_close (d);
    }

  guint n;
  char **names = (char **) g_hash_table_get_keys_as_array (seen, &n);
  char **result = g_new (char *, n + 1);
  for (guint i = 0; i < n; i++)
    result[i] = g_strdup (names[i]);
  result[n] = NULL;
  g_free (names);
  g_hash_table_unref (seen);
  qsort (result, n, sizeof *result, compare_names);
  return result;
}

static char *
not_found_message (const char *name)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "no device profile '%s' (looked for %s.ini in ", name, name);
  const char *const *dirs = profile_search_path ();
  for (const char *const *dir = dirs; *dir != NULL; dir++)
    g_string_append_printf (s, "%s%s", dir == dirs ? "" : ", ", *dir);
  g_string_append (s, "); known: ");
  char **known = profile_list ();
  if (known[0] == NULL)
    g_string_append (s, "none");
  for (char **k = known; *k != NULL; k++)
    g_string_append_printf (s, "%s%s", k == known ? "" : ", ", *k);
  g_strfreev (known);
  return g_string_free (s, FALSE);
}

/* ---- Loading ---- */

/* Where a key sits in one file. */
typedef struct
{
  guint line; /* 0: not in this file */
  guint value_column;
} KeyPos;

/* One file of an inheritance chain while it is read. */
typedef struct
{
  const char *path; /* as shown in messages */
  const char *text;
  gsize len;
  GKeyFile *keys;
  KeyPos pos[N_KEYS];
} ProfileSource;

/* Which file and line gave a key its final value. */
typedef struct
{
  const char *file; /* NULL: not set anywhere on the chain */
  guint line;
  guint column;
} KeyOrigin;

typedef struct
{
  dev_t dev;
  ino_t ino;
} FileId;

typedef struct
{
  EngProfile profile;
  GPtrArray *files; /* char *: the files read, child first; KeyOrigin points here */
  GArray *ids;      /* FileId of each file read, to catch inherits loops */
  GPtrArray *names; /* char *: profile names, child first */
  KeyOrigin origin[N_KEYS];
} Loader;

/* This module sits in streamsim_lang, below the engines library, so it frees
 * the profile's strings itself instead of calling eng_profile_clear(). */
static void
profile_strings_free (EngProfile *profile)
{
  for (guint i = 0; i < ENG_PROFILE_MAX_NAMES; i++)
    g_free (profile->names[i]);
  for (guint i = 0; i < N_KEYS; i++)
    if (profile_keys[i].type == KEY_TEXT)
      g_free (G_STRUCT_MEMBER (char *, profile, profile_keys[i].offset));
  memset (profile, 0, sizeof *profile);
}

static void
loader_init (Loader *loader)
{
  memset (loader, 0, sizeof *loader);
  loader->files = g_ptr_array_new_with_free_func (g_free);
  loader->ids = g_array_new (FALSE, FALSE, sizeof (FileId));
  loader->names = g_ptr_array_new_with_free_func (g_free);
}

static void
loader_clear (Loader *loader)
{
  profile_strings_free (&loader->profile);
  g_ptr_array_unref (loader->files);
  g_array_unref (loader->ids);
  g_ptr_array_unref (loader->names);
}

static guint
column_of (const char *line_start, const char *p)
{
  return (guint) g_utf8_strlen (line_start, p - line_start) + 1;
}

static gboolean
check_text (const char *path, const char *text, gsize len, GError **error)
{
  const char *bad;
  if (g_utf8_validate_len (text, len, &bad))
    return TRUE;

  guint line = 1;
  const char *line_start = text;
  for (const char *p = text; p < bad; p++)
    if (*p == '\n')
      {
        line++;
        line_start = p + 1;
      }
  set_error (error, PROFILE_ERROR_PARSE, path, line, column_of (line_start, bad),
             "%s; a profile is UTF-8 text",
             *bad == '\0' ? "a NUL byte" : "invalid UTF-8");
  return FALSE;
}

static gboolean
only_blanks (const char *p, const char *end)
{
  for (; p < end; p++)
    if (*p != ' ' && *p != '\t')
      return FALSE;
  return TRUE;
}

/* GKeyFile keeps no line numbers, so this pass walks the raw text with the
 * same line rules (blank, '#' comment, "[group]", "key = value") to find
 * where each key is, and rejects unknown groups and keys there, where the
 * position is at hand. A key given twice in one file is refused here too
 * (GKeyFile would keep the last value without a word). */
static gboolean
source_scan (ProfileSource *src, GError **error)
{
  const char *end = src->text + src->len;
  const char *group = NULL;
  guint line = 0;

  for (const char *p = src->text; p < end;)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *next = eol != NULL ? eol + 1 : end;
      if (eol == NULL)
        eol = end;
      if (eol > p && eol[-1] == '\r')
        eol--;
      line++;

      const char *q = p;
      while (q < eol && g_ascii_isspace (*q))
        q++;
      if (q == eol || *q == '#')
        {
          p = next;
          continue;
        }

      if (*q == '[')
        {
          const char *close = memchr (q, ']', eol - q);
          if (close == NULL || !only_blanks (close + 1, eol))
            {
              set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q),
                         "a group header is [name] alone on its line; allowed groups: "
                         "[device], [copy], [host], [latency], [queues], [kernel], [info]");
              return FALSE;
            }
          char *name = g_strndup (q + 1, close - q - 1);
          int g = group_index (name);
          if (g < 0)
            {
              set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q + 1),
                         "unknown group [%s]; allowed groups: "
                         "[device], [copy], [host], [latency], [queues], [kernel], [info]",
                         name);
              g_free (name);
              return FALSE;
            }
          g_free (name);
          group = profile_groups[g];
          p = next;
          continue;
        }

      const char *eq = memchr (q, '=', eol - q);
      if (eq == NULL)
        {
          set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q),
                     "this line is not a [group], a key = value pair or a comment "
                     "(comments start with '#')");
          return FALSE;
        }
      if (group == NULL)
        {
          set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q),
                     "a key before the first [group]; a profile starts with a group such as [device]");
          return FALSE;
        }
      const char *key_end = eq;
      while (key_end > q && g_ascii_isspace (key_end[-1]))
        key_end--;
      char *name = g_strndup (q, key_end - q);
      int k = key_index (group, name);
      if (k < 0)
        {
          char *allowed = group_allowed_keys (group);
          set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q),
                     "unknown key '%s' in [%s]; allowed: %s", name, group, allowed);
          g_free (allowed);
          g_free (name);
          return FALSE;
        }
      if (src->pos[k].line != 0)
        {
          /* GKeyFile would keep the last value silently; two values for one
           * key are a mistake in the file, whichever was meant. */
          set_error (error, PROFILE_ERROR_PARSE, src->path, line, column_of (p, q),
                     "key '%s' in [%s] is set twice, first at line %u; a key is set once "
                     "per file", name, group, src->pos[k].line);
          g_free (name);
          return FALSE;
        }
      g_free (name);

      const char *value = eq + 1;
      while (value < eol && g_ascii_isspace (*value))
        value++;
      src->pos[k] = (KeyPos) { line, column_of (p, value) };
      p = next;
    }
  return TRUE;
}

/* The scan above accepts what GKeyFile accepts, so this rarely fails; when it
 * does, GLib names the offending line's text (“...”), which is looked up to
 * give a line number. */
static gboolean
source_parse (ProfileSource *src, GError **error)
{
  GError *local = NULL;
  src->keys = g_key_file_new ();
  if (g_key_file_load_from_data (src->keys, src->text, src->len, G_KEY_FILE_NONE, &local))
    return TRUE;

  guint line = 1;
  const char *open = strstr (local->message, "“");
  const char *close = open != NULL ? strstr (open, "”") : NULL;
  if (close != NULL)
    {
      open += strlen ("“");
      char *needle = g_strndup (open, close - open);
      char **lines = g_strsplit (src->text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (strcmp (g_strstrip (lines[i]), needle) == 0)
          {
            line = i + 1;
            break;
          }
      g_strfreev (lines);
      g_free (needle);
    }
  set_error (error, PROFILE_ERROR_PARSE, src->path, line, 1, "%s", local->message);
  g_error_free (local);
  return FALSE;
}

static gboolean
parse_fraction (const char *text, double *value)
{
  char *end;
  if (*text == '\0')
    return FALSE;
  /* Decimal only: g_ascii_strtod also takes "0x1p-1", "inf" and "nan". */
  if (text[strspn (text, "0123456789.eE+-")] != '\0')
    return FALSE;
  *value = g_ascii_strtod (text, &end);
  return *end == '\0' && isfinite (*value);
}

static gboolean
parse_bool (const char *text, gboolean *value)
{
  if (strcmp (text, "true") == 0)
    *value = TRUE;
  else if (strcmp (text, "false") == 0)
    *value = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* Parses one key of `src` into the loader's profile, overriding what a
 * parent set. */
static gboolean
apply_key (Loader *loader, const ProfileSource *src, guint k, GError **error)
{
  const ProfileKey *key = &profile_keys[k];
  const KeyPos *pos = &src->pos[k];
  gpointer field = G_STRUCT_MEMBER_P (&loader->profile, key->offset);

  if (key->type == KEY_TEXT)
    {
      GError *local = NULL;
      char *value = g_key_file_get_string (src->keys, key->group, key->name, &local);
      if (value == NULL)
        {
          set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
                     "%s: %s", key->name, local->message);
          g_error_free (local);
          return FALSE;
        }
      g_free (*(char **) field);
      *(char **) field = value;
      loader->origin[k] = (KeyOrigin) { src->path, pos->line, pos->value_column };
      return TRUE;
    }

  char *raw = g_key_file_get_value (src->keys, key->group, key->name, NULL);
  const char *text = g_strstrip (raw);
  const char *why = NULL;
  gboolean parsed = FALSE, in_range = FALSE;

  switch (key->type)
    {
    case KEY_UINT:
      {
        guint64 v = 0;
        parsed = units_parse_uint (text, G_MAXUINT64, &v, &why);
        in_range = v >= key->min && v <= key->max;
        if (parsed && in_range)
          *(guint *) field = (guint) v;
        break;
      }
    case KEY_SIZE:
      {
        guint64 v = 0;
        parsed = units_parse_size (text, &v, &why);
        in_range = v >= key->min && v <= key->max;
        if (parsed && in_range)
          *(guint64 *) field = v;
        break;
      }
    case KEY_TIME:
      {
        SimTime v = 0;
        parsed = units_parse_time (text, &v, &why);
        in_range = v >= 0 && v <= MAX_TIME;
        if (parsed && in_range)
          *(SimTime *) field = v;
        break;
      }
    case KEY_BANDWIDTH:
      {
        double v = 0;
        parsed = units_parse_bandwidth (text, &v, &why);
        in_range = v > 0 && v <= MAX_BANDWIDTH;
        if (parsed && in_range)
          *(double *) field = v;
        break;
      }
    case KEY_FRACTION:
      {
        double v = 0;
        parsed = parse_fraction (text, &v);
        why = "expected a decimal number";
        in_range = v > 0 && v <= 1;
        if (parsed && in_range)
          *(double *) field = v;
        break;
      }
    case KEY_BOOL:
      {
        gboolean v = FALSE;
        parsed = parse_bool (text, &v);
        why = "expected true or false";
        in_range = TRUE;
        if (parsed)
          *(gboolean *) field = v;
        break;
      }
    case KEY_TEXT:
    case KEY_INHERITS:
      g_assert_not_reached ();
    }

  /* units.c words a well-formed value it cannot hold "negative ..." or
   * "too large ...": those are range errors too. */
  if (!parsed && why != NULL
      && (g_str_has_prefix (why, "negative") || g_str_has_prefix (why, "too large")))
    parsed = TRUE, in_range = FALSE;

  if (!parsed || !in_range)
    {
      char *allowed = key_allowed (key);
      /* GKeyFile has no trailing comments: "2 # two engines" is one value. */
      gboolean trailing_comment = strchr (text, '#') != NULL || strchr (text, ';') != NULL;
      if (!parsed)
        set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
                   "bad value '%s' for %s: %s; allowed: %s%s", text, key->name,
                   why != NULL ? why : "malformed", allowed,
                   trailing_comment ? " (a comment goes on a line of its own, starting with '#')" : "");
      else
        set_error (error, PROFILE_ERROR_RANGE, src->path, pos->line, pos->value_column,
                   "%s = %s is out of range; allowed: %s", key->name, text, allowed);
      g_free (allowed);
      g_free (raw);
      return FALSE;
    }
  g_free (raw);
  loader->origin[k] = (KeyOrigin) { src->path, pos->line, pos->value_column };
  return TRUE;
}

static gboolean load_file (Loader *loader, const char *path, const char *from,
                           guint from_line, guint from_column, GError **error);

/* `inherits` names a profile on the search path, or a file relative to the
 * folder of the file that inherits. */
static gboolean
load_parent (Loader *loader, const ProfileSource *src, guint k, GError **error)
{
  const KeyPos *pos = &src->pos[k];
  GError *local = NULL;
  char *value = g_key_file_get_string (src->keys, "device", "inherits", &local);
  if (value == NULL)
    {
      set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
                 "inherits: %s", local->message);
      g_error_free (local);
      return FALSE;
    }
  g_strstrip (value);

  char *parent = NULL;
  if (*value == '\0')
    set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
               "inherits needs a profile name (such as k20) or a path to a .ini file");
  else if (is_path (value))
    {
      if (g_path_is_absolute (value))
        parent = g_strdup (value);
      else
        {
          char *dir = g_path_get_dirname (src->path);
          parent = g_build_filename (dir, value, NULL);
          g_free (dir);
        }
    }
  else if (!name_is_valid (value))
    set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
               "bad profile name '%s': a name is made of a-z, 0-9, '_', '.' and '-' "
               "(or give a path containing '/')", value);
  else if ((parent = find_on_path (value)) == NULL)
    {
      char *message = not_found_message (value);
      set_error (error, PROFILE_ERROR_NOT_FOUND, src->path, pos->line, pos->value_column,
                 "%s", message);
      g_free (message);
    }

  gboolean ok = parent != NULL
                && load_file (loader, parent, src->path, pos->line, pos->value_column, error);
  g_free (parent);
  g_free (value);
  return ok;
}

/* Checks and applies one file's text; its parent, if any, first. */
static gboolean
load_text (Loader *loader, const char *path, const char *text, gsize len, GError **error)
{
  /* A UTF-8 byte order mark, as some Windows editors write, is not text. */
  if (len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    text += 3, len -= 3;
  ProfileSource src = { .path = path, .text = text, .len = len };
  gboolean ok = check_text (path, text, len, error)
                && source_scan (&src, error)
                && source_parse (&src, error);

  for (guint k = 0; ok && k < N_KEYS; k++)
    if (profile_keys[k].type == KEY_INHERITS && src.pos[k].line != 0)
      ok = load_parent (loader, &src, k, error);
  for (guint k = 0; ok && k < N_KEYS; k++)
    if (profile_keys[k].type != KEY_INHERITS && src.pos[k].line != 0)
      ok = apply_key (loader, &src, k, error);

  if (src.keys != NULL)
    g_key_file_free (src.keys);
  return ok;
}

static char *
chain_text (const Loader *loader, const char *last)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < loader->files->len; i++)
    g_string_append_printf (s, "%s%s", i ? " -> " : "",
                            (const char *) g_ptr_array_index (loader->files, i));
  if (last != NULL)
    g_string_append_printf (s, " -> %s", last);
  return g_string_free (s, FALSE);
}

/* Reads `path`, which `from` (NULL for the profile asked for) inherits. Files
 * are told apart by device and inode, so a loop through other spellings of a
 * path or through a symbolic link is still a loop. */
static gboolean
load_file (Loader *loader, const char *path, const char *from, guint from_line,
           guint from_column, GError **error)
{
  GStatBuf st;
  char *text = NULL;
  gsize len = 0;
  GError *local = NULL;

  const char *why = NULL;
  if (g_stat (path, &st) != 0)
    why = g_strerror (errno);
  else if (!S_ISREG (st.st_mode))
    why = "not a regular file";
  else if (st.st_size > PROFILE_MAX_BYTES)
    why = "larger than 1 MiB; a profile is a short key file";
  else if (!g_file_get_contents (path, &text, &len, &local))
    why = local->message;
  if (why != NULL)
    {
      if (from != NULL)
        set_error (error, PROFILE_ERROR_NOT_FOUND, from, from_line, from_column,
                   "cannot read the inherited profile %s: %s", path, why);
      else
        g_set_error (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND,
                     "cannot read the profile %s: %s", path, why);
      g_clear_error (&local);
      return FALSE;
    }

  for (guint i = 0; i < loader->ids->len; i++)
    {
      FileId *id = &g_array_index (loader->ids, FileId, i);
      if (id->dev == st.st_dev && id->ino == st.st_ino)
        {
          char *chain = chain_text (loader, path);
          set_error (error, PROFILE_ERROR_CYCLE, from, from_line, from_column,
                     "inherits makes a loop: %s; a profile may not inherit from itself",
                     chain);
          g_free (chain);
          g_free (text);
          return FALSE;
        }
    }

  FileId id = { st.st_dev, st.st_ino };
  g_array_append_val (loader->ids, id);
  char *shown = g_strdup (path);
  g_ptr_array_add (loader->files, shown);
  g_ptr_array_add (loader->names, name_from_path (path));

  gboolean ok = load_text (loader, shown, text, len, error);
  g_free (text);
  return ok;
}

/* The checks that need the whole chain: every required key set somewhere,
 * and the limits between keys. */
static gboolean
loader_finish (Loader *loader, GError **error)
{
  const char *top = g_ptr_array_index (loader->files, 0);
  EngProfile *profile = &loader->profile;

  for (guint k = 0; k < N_KEYS; k++)
    if (key_required (&profile_keys[k]) && loader->origin[k].file == NULL)
      {
        char *chain = chain_text (loader, NULL);
        set_error (error, PROFILE_ERROR_PARSE, top, 1, 1,
                   "missing key '%s' in [%s] (file chain: %s); every key of [copy], "
                   "[host], [latency], [queues] and [kernel] must be set, here or in "
                   "a profile it inherits",
                   profile_keys[k].name, profile_keys[k].group, chain);
        g_free (chain);
        return FALSE;
      }

  if (profile->default_connections > profile->max_connections)
    {
      const KeyOrigin *o = &loader->origin[key_index_by_field (FIELD (default_connections))];
      set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                 "default_connections = %u is out of range; allowed: 1 to max_connections (%u)",
                 profile->default_connections, profile->max_connections);
      return FALSE;
    }
  if (profile->max_smem_per_block > profile->smem_per_sm)
    {
      const KeyOrigin *o = &loader->origin[key_index_by_field (FIELD (max_smem_per_block))];
      set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                 "max_smem_per_block = %" G_GUINT64_FORMAT " bytes is out of range; "
                 "allowed: 0 to smem_per_sm (%" G_GUINT64_FORMAT " bytes)",
                 profile->max_smem_per_block, profile->smem_per_sm);
      return FALSE;
    }

  for (guint i = 0; i < loader->names->len && i < ENG_PROFILE_MAX_NAMES; i++)
    profile->names[i] = g_strdup (g_ptr_array_index (loader->names, i));
  return TRUE;
}

/* On failure *profile is left zeroed; on success it owns its strings
 * (eng_profile_clear() frees them). */
gboolean
profile_load (const char *name_or_path, EngProfile *profile, GError **error)
{
  g_return_val_if_fail (name_or_path != NULL, FALSE);
  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (profile, 0, sizeof *profile);
  char *path = NULL;
  if (is_path (name_or_path))
    path = g_strdup (name_or_path);
  else if (!name_is_valid (name_or_path))
    {
      g_set_error (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND,
                   "bad profile name '%s': a name is made of a-z, 0-9, '_', '.' and '-' "
                   "(or give a path containing '/')", name_or_path);
      return FALSE;
    }
  else if ((path = find_on_path (name_or_path)) == NULL)
    {
      char *message = not_found_message (name_or_path);
      g_set_error_literal (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND, message);
      g_free (message);
      return FALSE;
    }

  Loader loader;
  loader_init (&loader);
  gboolean ok = load_file (&loader, path, NULL, 0, 0, error)
                && loader_finish (&loader, error);
  if (ok)
    {
      *profile = loader.profile;
      memset (&loader.profile, 0, sizeof loader.profile);
    }
  loader_clear (&loader);
  g_free (path);
  return ok;
}

/* ---- Saving ---- */

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

static char *
format_size (guint64 bytes)
{
  if (bytes != 0 && bytes % (1024 * 1024) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "MiB", bytes / (1024 * 1024));
  if (bytes != 0 && bytes % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "KiB", bytes / 1024);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "B", bytes);
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

/* Six decimals in the largest unit that keeps the number >= 1: within a
 * millionth, far inside the 0.1% a profile's numbers are good to. */
static char *
format_bandwidth (double bytes_per_s)
{
  static const struct
  {
    double scale;
    const char *unit;
  } units[] = {
    { 1e9, "GB/s" },
    { 1e6, "MB/s" },
    { 1e3, "KB/s" },
    { 1, "B/s" },
  };
  guint i = 0;
  while (i + 1 < G_N_ELEMENTS (units) && bytes_per_s < units[i].scale)
    i++;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (number, sizeof number, "%.6f", bytes_per_s / units[i].scale);
  trim_zeros (number);
  return g_strconcat (number, units[i].unit, NULL);
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
format_value (const EngProfile *profile, const ProfileKey *key)
{
  gconstpointer field = G_STRUCT_MEMBER_P (profile, key->offset);
  switch (key->type)
    {
    case KEY_UINT:
      return g_strdup_printf ("%u", *(const guint *) field);
    case KEY_BOOL:
      return g_strdup (*(const gboolean *) field ? "true" : "false");
    case KEY_TIME:
      return format_time (*(const SimTime *) field);
    case KEY_SIZE:
      return format_size (*(const guint64 *) field);
    case KEY_BANDWIDTH:
      return format_bandwidth (*(const double *) field);
    case KEY_FRACTION:
      return format_number (*(const double *) field);
    case KEY_TEXT:
    case KEY_INHERITS:
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
  for (guint k = 0; k < N_KEYS; k++)
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
  if (group_index (where) >= 0)
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
profile_save (const EngProfile *profile, const char *path,
              const char *const *comments, GError **error)
{
  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  GKeyFile *keys = g_key_file_new ();
  for (guint k = 0; k < N_KEYS; k++)
    {
      const ProfileKey *key = &profile_keys[k];
      if (key->type == KEY_INHERITS)
        continue;
      if (key->type == KEY_TEXT)
        {
          const char *text = G_STRUCT_MEMBER (const char *, profile, key->offset);
          if (text != NULL)
            g_key_file_set_string (keys, key->group, key->name, text);
          continue;
        }
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

  char *name = name_from_path (path);
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

  Loader loader;
  loader_init (&loader);
  g_ptr_array_add (loader.files, g_strdup (path));
  g_ptr_array_add (loader.names, name_from_path (path));
  gboolean ok = load_text (&loader, path, data, len, error) && loader_finish (&loader, error);
  loader_clear (&loader);
  if (!ok)
    g_prefix_error (error, "profile not saved: ");
  else
    ok = output_file_set_contents (path, data, len, error);
  g_free (data);
  return ok;
}
