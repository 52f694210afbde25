/* parse_check.c: a schedule text parsed as "t.sched", and a test's checks that it is accepted or refused with a given message. */
#include <string.h>
#include "parse_check.h"
#include "sim/formats/schedule_parse.h"

Schedule *
parse_check_ok (const char *text, const char *const *defines)
{
  ScheduleParseOptions options = { defines, 0 };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("t.sched", text, strlen (text), &options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sched);
  return sched;
}

void
parse_check_error (const char *text, const char *const *defines, guint64 max_ops,
                   ScheduleError code, const char *prefix)
{
  ScheduleParseOptions options = { defines, max_ops };
  GError *error = NULL;
  Schedule *sched = schedule_parse_text ("t.sched", text, strlen (text), &options, &error);

  g_assert_null (sched);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, SCHEDULE_ERROR, (gint) code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("message \"%s\" does not start with \"%s\"", error->message, prefix);
  g_error_free (error);
}
