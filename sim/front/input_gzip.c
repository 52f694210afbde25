/* input_gzip.c: schedules and timelines read from gzipped files as from plain ones (input_gzip.h). */
#include "input_gzip.h"
#include "sim/formats/input_file.h"
#include "sim/import/gzip_data.h"

/* Whether `path` is a regular file that begins as gzip data. */
static gboolean
starts_gzip (const char *path)
{
  guint8 head[2];
  return input_file_head (path, head, sizeof head) && gzip_data_is (head, sizeof head);
}

/* The text `path` decompresses to, within `max_bytes`; NULL where it
 * cannot be read (`io_code` of `domain`), is larger than the bound
 * (`large_code`) or is not gzip to the end (`bad_code`). */
static char *
gunzipped (const char *path, gsize max_bytes, gsize *length, GQuark domain, gint io_code,
           gint large_code, gint bad_code, GError **error)
{
  gsize packed_length = 0;
  GError *why = NULL;
  g_autofree char *packed = input_file_read_bytes (path, max_bytes, NULL, &packed_length, &why);
  if (packed == NULL)
    {
      input_file_propagate (error, why, domain, io_code, large_code);
      return NULL;
    }
  char *text = (char *) gzip_data_undo (input_file_name (path), (const guint8 *) packed,
                                        packed_length, max_bytes, length, &why);
  if (text == NULL)
    {
      gboolean large = g_error_matches (why, GZIP_DATA_ERROR, GZIP_DATA_ERROR_TOO_LARGE);
      g_set_error_literal (error, domain, large ? large_code : bad_code, why->message);
      g_error_free (why);
    }
  return text;
}

Schedule *
input_gzip_schedule (const char *path, const ScheduleParseOptions *options, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  if (!starts_gzip (path))
    return schedule_parse_file (path, options, error);
  gsize length = 0;
  g_autofree char *text = gunzipped (path, SCHEDULE_MAX_FILE_BYTES, &length, SCHEDULE_ERROR,
                                     SCHEDULE_ERROR_IO, SCHEDULE_ERROR_LIMIT,
                                     SCHEDULE_ERROR_SYNTAX, error);
  return text != NULL ? schedule_parse_text (path, text, length, options, error) : NULL;
}

Timeline *
input_gzip_timeline (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  if (!starts_gzip (path))
    return timeline_read (path, error);
  gsize length = 0;
  g_autofree char *text = gunzipped (path, TIMELINE_MAX_FILE_BYTES, &length, TIMELINE_ERROR,
                                     TIMELINE_ERROR_IO, TIMELINE_ERROR_PARSE,
                                     TIMELINE_ERROR_PARSE, error);
  return text != NULL ? timeline_read_data (path, text, length, error) : NULL;
}
