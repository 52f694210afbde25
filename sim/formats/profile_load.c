/* profile_load.c: device profiles read from GLib key files, following `inherits`, with file:line:column errors. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/core/located_error.h"
#include "profile_file.h"
#include "profile_keys.h"
#include "units.h"

G_DEFINE_QUARK (profile-error-quark, profile_error)

static void G_GNUC_PRINTF (6, 7)
set_error (GError **error, ProfileError code, const char *file, guint line,
           guint column, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (error, PROFILE_ERROR, code, file, line, column, format, args);
  va_end (args);
}

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
  KeyPos pos[PROFILE_N_KEYS];
} ProfileSource;

/* Which file and line gave a key its final value. */
typedef struct
{
  const char *file; /* NULL: not set anywhere on the chain */
  guint line;
  guint column;
} KeyOrigin;

/* Profiles are a page of text; anything far bigger is not one. */
#define PROFILE_MAX_BYTES (1024 * 1024)

typedef struct
{
  dev_t dev;
  ino_t ino;
} FileId;

typedef struct
{
  GpuProfile profile;
  GPtrArray *files; /* char *: the files read, child first; KeyOrigin points here */
  GArray *ids;      /* FileId of each file read, to catch inherits loops */
  GPtrArray *names; /* char *: profile names, child first */
  KeyOrigin origin[PROFILE_N_KEYS];
} Loader;

/* This module sits in streamsim_lang, below the engines library, so it frees
 * the profile's strings itself instead of calling gpu_profile_clear(). */
static void
profile_strings_free (GpuProfile *profile)
{
  for (guint i = 0; i < GPU_PROFILE_MAX_NAMES; i++)
    g_free (profile->names[i]);
  for (guint i = 0; i < PROFILE_N_KEYS; i++)
    if (profile_keys[i].type == PROFILE_KEY_TEXT)
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
          int g = profile_group_index (name);
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
      int k = profile_key_index (group, name);
      if (k < 0)
        {
          char *allowed = profile_group_keys (group);
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

/* A point's first word where it is a time: TRUE with `ns` from 0 to 1 s. */
static gboolean
parse_point_time (const char *word, guint64 *ns, const char **why)
{
  SimTime t = 0;
  if (!units_parse_time (word, &t, why) || t < 0 || t > PROFILE_MAX_TIME)
    return FALSE;
  *ns = (guint64) t;
  return TRUE;
}

/* A list of points, "SIZE TIME" (PROFILE_KEY_SIZE_TIMES: "4KiB 1.9us,
 * 64KiB 16.4us") or "TIME TIME" (PROFILE_KEY_TIME_TIMES: "20us 38us, 2ms
 * 100us"), into `points`: at most GPU_POINTS_MAX, the first of each pair
 * rising (sizes above 0), times from 0 to 1 s; empty for none. `column` is
 * where `text` starts on `line`, for errors. */
static gboolean
parse_points (const char *text, const ProfileKey *key, const char *path, guint line,
              guint column, GpuPoints *points, GError **error)
{
  gboolean by_size = key->type == PROFILE_KEY_SIZE_TIMES;
  const char *example = by_size ? "64KiB 16.4us" : "200us 68us";
  GpuPoints parsed = { 0 };
  const char *p = text;
  while (*p != '\0')
    {
      while (g_ascii_isspace (*p))
        p++;
      const char *start = p;
      const char *end = strchr (p, ',');
      if (end == NULL)
        end = p + strlen (p);
      g_autofree char *point = g_strstrip (g_strndup (start, end - start));
      guint at = column + (guint) (start - text);
      char **words = g_strsplit_set (point, " \t", -1);
      char *at_word = NULL, *time_word = NULL;
      guint n_words = 0;
      for (guint i = 0; words[i] != NULL; i++)
        if (*words[i] != '\0')
          {
            n_words++;
            if (at_word == NULL)
              at_word = words[i];
            else if (time_word == NULL)
              time_word = words[i];
          }
      guint64 where = 0;
      SimTime ns = 0;
      const char *why = NULL;
      gboolean ok = FALSE;
      if (n_words != 2)
        set_error (error, PROFILE_ERROR_PARSE, path, line, at,
                   "bad point '%s' in %s: a point is %s and a time, such as %s, "
                   "and points are separated by commas", point, key->name,
                   by_size ? "a size" : "a time", example);
      else if (parsed.n == GPU_POINTS_MAX)
        set_error (error, PROFILE_ERROR_RANGE, path, line, at,
                   "%s has more than %d points", key->name, GPU_POINTS_MAX);
      else if (by_size && (!units_parse_size (at_word, &where, &why) || where == 0))
        set_error (error, PROFILE_ERROR_PARSE, path, line, at,
                   "bad size '%s' in %s: %s; a size above 0 with a unit (B, KB, KiB, MB, MiB), "
                   "such as 64KiB", at_word, key->name, why != NULL ? why : "it is 0");
      else if (!by_size && !parse_point_time (at_word, &where, &why))
        set_error (error, PROFILE_ERROR_PARSE, path, line, at,
                   "bad time '%s' in %s: %s; a time from 0 to 1s with a unit (ns, us, ms, s), "
                   "such as 200us", at_word, key->name, why != NULL ? why : "above 1s");
      else if (!units_parse_time (time_word, &ns, &why) || ns > PROFILE_MAX_TIME)
        set_error (error, PROFILE_ERROR_PARSE, path, line,
                   at + (guint) (strstr (point, time_word) - point),
                   "bad time '%s' in %s: %s; a time from 0 to 1s with a unit (ns, us, ms, s), "
                   "such as 16.4us", time_word, key->name, why != NULL ? why : "above 1s");
      else if (parsed.n > 0 && where <= parsed.at[parsed.n - 1])
        set_error (error, PROFILE_ERROR_RANGE, path, line, at,
                   "%s's %s must rise: %s after %" G_GUINT64_FORMAT "%s", key->name,
                   by_size ? "sizes" : "first times", at_word, parsed.at[parsed.n - 1],
                   by_size ? " B" : " ns");
      else
        {
          parsed.at[parsed.n] = where;
          parsed.time[parsed.n] = ns;
          parsed.n++;
          ok = TRUE;
        }
      g_strfreev (words);
      if (!ok)
        return FALSE;
      p = *end == ',' ? end + 1 : end;
      if (*end == ',' && *p == '\0')
        {
          set_error (error, PROFILE_ERROR_PARSE, path, line, column + (guint) (end - text),
                     "%s ends with a comma; a point (%s and time) must follow it", key->name,
                     by_size ? "size" : "time");
          return FALSE;
        }
    }
  *points = parsed;
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

  if (key->type == PROFILE_KEY_TEXT)
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
  if (key->type == PROFILE_KEY_SIZE_TIMES || key->type == PROFILE_KEY_TIME_TIMES)
    {
      gboolean ok = parse_points (text, key, src->path, pos->line, pos->value_column,
                                  (GpuPoints *) field, error);
      g_free (raw);
      if (ok)
        loader->origin[k] = (KeyOrigin) { src->path, pos->line, pos->value_column };
      return ok;
    }
  const char *why = NULL;
  gboolean parsed = FALSE, in_range = FALSE;

  switch (key->type)
    {
    case PROFILE_KEY_UINT:
      {
        guint64 v = 0;
        parsed = units_parse_uint (text, G_MAXUINT64, &v, &why);
        in_range = v >= key->min && v <= key->max;
        if (parsed && in_range)
          *(guint *) field = (guint) v;
        break;
      }
    case PROFILE_KEY_SIZE:
      {
        guint64 v = 0;
        parsed = units_parse_size (text, &v, &why);
        in_range = v >= key->min && v <= key->max;
        if (parsed && in_range)
          *(guint64 *) field = v;
        break;
      }
    case PROFILE_KEY_TIME:
      {
        SimTime v = 0;
        parsed = units_parse_time (text, &v, &why);
        in_range = v >= 0 && v <= PROFILE_MAX_TIME;
        if (parsed && in_range)
          *(SimTime *) field = v;
        break;
      }
    case PROFILE_KEY_BANDWIDTH:
    case PROFILE_KEY_FREQUENCY:
    case PROFILE_KEY_FLOPS:
      {
        double v = 0, max;
        if (key->type == PROFILE_KEY_BANDWIDTH)
          {
            parsed = units_parse_bandwidth (text, &v, &why);
            max = PROFILE_MAX_BANDWIDTH;
          }
        else if (key->type == PROFILE_KEY_FREQUENCY)
          {
            parsed = units_parse_frequency (text, &v, &why);
            max = PROFILE_MAX_FREQUENCY;
          }
        else
          {
            parsed = units_parse_flops (text, &v, &why);
            max = PROFILE_MAX_FLOPS;
          }
        in_range = v > 0 && v <= max;
        if (parsed && in_range)
          *(double *) field = v;
        break;
      }
    case PROFILE_KEY_FRACTION:
      {
        double v = 0;
        parsed = parse_fraction (text, &v);
        why = "expected a decimal number";
        in_range = v > 0 && v <= 1;
        if (parsed && in_range)
          *(double *) field = v;
        break;
      }
    case PROFILE_KEY_BOOL:
      {
        gboolean v = FALSE;
        parsed = parse_bool (text, &v);
        why = "expected true or false";
        in_range = TRUE;
        if (parsed)
          *(gboolean *) field = v;
        break;
      }
    case PROFILE_KEY_TEXT:
    case PROFILE_KEY_INHERITS:
    case PROFILE_KEY_SIZE_TIMES:
    case PROFILE_KEY_TIME_TIMES:
      g_assert_not_reached ();
    }

  /* units.c words a well-formed value it cannot hold "negative ..." or
   * "too large ...": those are range errors too. */
  if (!parsed && why != NULL
      && (g_str_has_prefix (why, "negative") || g_str_has_prefix (why, "too large")))
    parsed = TRUE, in_range = FALSE;

  if (!parsed || !in_range)
    {
      char *allowed = profile_key_allowed (key);
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
  else if (profile_is_path (value))
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
  else if (!profile_name_is_valid (value))
    set_error (error, PROFILE_ERROR_PARSE, src->path, pos->line, pos->value_column,
               "bad profile name '%s': a name is made of a-z, 0-9, '_', '.' and '-' "
               "(or give a path containing '/')", value);
  else if ((parent = profile_find (value)) == NULL)
    {
      char *message = profile_not_found_message (value);
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
  gboolean ok = located_error_check_utf8 (error, PROFILE_ERROR, PROFILE_ERROR_PARSE, path, text,
                                          len, "profile")
                && source_scan (&src, error)
                && source_parse (&src, error);

  for (guint k = 0; ok && k < PROFILE_N_KEYS; k++)
    if (profile_keys[k].type == PROFILE_KEY_INHERITS && src.pos[k].line != 0)
      ok = load_parent (loader, &src, k, error);
  for (guint k = 0; ok && k < PROFILE_N_KEYS; k++)
    if (profile_keys[k].type != PROFILE_KEY_INHERITS && src.pos[k].line != 0)
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
  g_ptr_array_add (loader->names, profile_name_from_path (path));

  gboolean ok = load_text (loader, shown, text, len, error);
  g_free (text);
  return ok;
}

/* [spread] is a whole: its eight keys all set (here or in a profile
 * inherited) or none, and each fast end no slower than its slow end. */
static gboolean
spread_finish (Loader *loader, GError **error)
{
  guint set = 0, keys = 0;
  guint first_set = G_MAXUINT, missing = G_MAXUINT; /* the first key given, the first left out */
  for (guint k = 0; k < PROFILE_N_KEYS; k++)
    {
      if (strcmp (profile_keys[k].group, "spread") != 0)
        continue;
      keys++;
      if (loader->origin[k].file == NULL)
        missing = MIN (missing, k);
      else
        {
          set++;
          first_set = MIN (first_set, k);
        }
    }
  if (set == 0)
    return TRUE;
  if (set < keys)
    {
      const KeyOrigin *o = &loader->origin[first_set];
      set_error (error, PROFILE_ERROR_PARSE, o->file, o->line, o->column,
                 "[spread] needs %s too: the spread is the host's fast and slow end, "
                 "kernel_launch, memcpy_async and the pageable bandwidths of each; give "
                 "all eight keys or none", profile_keys[missing].name);
      return FALSE;
    }
  const GpuProfile *p = &loader->profile;
  struct
  {
    gboolean inverted;
    gsize slow_field;
    const char *what;
  } ends[] = {
    { p->host_fast.kernel_launch > p->host_slow.kernel_launch,
      PROFILE_FIELD (host_slow.kernel_launch), "kernel_launch_slow is below kernel_launch_fast" },
    { p->host_fast.memcpy_async > p->host_slow.memcpy_async,
      PROFILE_FIELD (host_slow.memcpy_async), "memcpy_async_slow is below memcpy_async_fast" },
    { p->host_fast.h2d_pageable_bandwidth < p->host_slow.h2d_pageable_bandwidth,
      PROFILE_FIELD (host_slow.h2d_pageable_bandwidth),
      "h2d_pageable_bandwidth_slow is above h2d_pageable_bandwidth_fast" },
    { p->host_fast.d2h_pageable_bandwidth < p->host_slow.d2h_pageable_bandwidth,
      PROFILE_FIELD (host_slow.d2h_pageable_bandwidth),
      "d2h_pageable_bandwidth_slow is above d2h_pageable_bandwidth_fast" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    if (ends[i].inverted)
      {
        const KeyOrigin *o = &loader->origin[profile_key_index_by_field (ends[i].slow_field)];
        set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                   "%s: the slow end's costs must be no lower, and its rates no higher, "
                   "than the fast end's", ends[i].what);
        return FALSE;
      }
  return TRUE;
}

/* The checks that need the whole chain: every required key set somewhere,
 * and the limits between keys. */
static gboolean
loader_finish (Loader *loader, GError **error)
{
  const char *top = g_ptr_array_index (loader->files, 0);
  GpuProfile *profile = &loader->profile;

  for (guint k = 0; k < PROFILE_N_KEYS; k++)
    if (profile_key_required (&profile_keys[k]) && loader->origin[k].file == NULL)
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

  for (guint k = 0; k < PROFILE_N_KEYS; k++)
    if (profile_key_is_link (&profile_keys[k]) && loader->origin[k].file != NULL
        && loader->origin[profile_key_partner (k)].file == NULL)
      {
        const KeyOrigin *o = &loader->origin[k];
        set_error (error, PROFILE_ERROR_PARSE, o->file, o->line, o->column,
                   "%s needs %s in [%s] too: a link is a latency and a bandwidth; "
                   "give both or neither", profile_keys[k].name,
                   profile_keys[profile_key_partner (k)].name, profile_keys[k].group);
        return FALSE;
      }

  if (!spread_finish (loader, error))
    return FALSE;

  if (profile->default_connections > profile->max_connections)
    {
      const KeyOrigin *o = &loader->origin[profile_key_index_by_field (PROFILE_FIELD (default_connections))];
      set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                 "default_connections = %u is out of range; allowed: 1 to max_connections (%u)",
                 profile->default_connections, profile->max_connections);
      return FALSE;
    }
  if (profile->default_copy_connections > profile->default_connections)
    {
      const KeyOrigin *o = &loader->origin[profile_key_index_by_field (PROFILE_FIELD (default_copy_connections))];
      set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                 "default_copy_connections = %u is out of range; allowed: 1 to "
                 "default_connections (%u)",
                 profile->default_copy_connections, profile->default_connections);
      return FALSE;
    }
  if (profile->max_smem_per_block > profile->smem_per_sm)
    {
      const KeyOrigin *o = &loader->origin[profile_key_index_by_field (PROFILE_FIELD (max_smem_per_block))];
      set_error (error, PROFILE_ERROR_RANGE, o->file, o->line, o->column,
                 "max_smem_per_block = %" G_GUINT64_FORMAT " bytes is out of range; "
                 "allowed: 0 to smem_per_sm (%" G_GUINT64_FORMAT " bytes)",
                 profile->max_smem_per_block, profile->smem_per_sm);
      return FALSE;
    }

  for (guint i = 0; i < loader->names->len && i < GPU_PROFILE_MAX_NAMES; i++)
    profile->names[i] = g_strdup (g_ptr_array_index (loader->names, i));
  return TRUE;
}

/* On failure *profile is left zeroed; on success it owns its strings
 * (gpu_profile_clear() frees them). */
gboolean
profile_load (const char *name_or_path, GpuProfile *profile, GError **error)
{
  g_return_val_if_fail (name_or_path != NULL, FALSE);
  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (profile, 0, sizeof *profile);
  char *path = NULL;
  if (profile_is_path (name_or_path))
    path = g_strdup (name_or_path);
  else if (!profile_name_is_valid (name_or_path))
    {
      g_set_error (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND,
                   "bad profile name '%s': a name is made of a-z, 0-9, '_', '.' and '-' "
                   "(or give a path containing '/')", name_or_path);
      return FALSE;
    }
  else if ((path = profile_find (name_or_path)) == NULL)
    {
      char *message = profile_not_found_message (name_or_path);
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

/* profile_save reads its text back this way before writing it: the text
 * stands for the file at `path`, which may not exist yet. */
gboolean
profile_load_text (const char *path, const char *text, gsize len, GError **error)
{
  g_return_val_if_fail (path != NULL && text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  Loader loader;
  loader_init (&loader);
  g_ptr_array_add (loader.files, g_strdup (path));
  g_ptr_array_add (loader.names, profile_name_from_path (path));
  gboolean ok = load_text (&loader, path, text, len, error) && loader_finish (&loader, error);
  loader_clear (&loader);
  return ok;
}
