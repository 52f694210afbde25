/* val_record.c: running a program under libstreamsim-record.so and turning its log into a schedule (val_record.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/formats/output_file.h"
#include "sim/formats/profile_file.h"
#include "sim/recorded/record_log.h"
#include "sim/recorded/record_schedule.h"
#include "sim/recorded/record_timeline.h"
#include "sim/core/schedule.h"
#include "val_device.h"
#include "val_record.h"

enum
{
  EXIT_INPUT = 2,
  EXIT_SYSTEM = 3,
};

#define LIBRARY_NAME "libstreamsim-record.so"

static int G_GNUC_PRINTF (2, 3)
complain (int status, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fprintf (stderr, "streamsim-validate: ");
  vfprintf (stderr, format, args);
  fputc ('\n', stderr);
  va_end (args);
  return status;
}

/* The recorder beside this binary, unless STREAMSIM_RECORD_LIBRARY names one. */
static char *
find_library (void)
{
  const char *named = g_getenv ("STREAMSIM_RECORD_LIBRARY");
  if (named != NULL && *named != '\0')
    return g_canonicalize_filename (named, NULL);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  if (self == NULL)
    return NULL;
  g_autofree char *dir = g_path_get_dirname (self);
  return g_build_filename (dir, LIBRARY_NAME, NULL);
}

/* Runs the program with the recorder injected; FALSE when it could not be
 * started. Its exit status is reported, not treated as a failure: a program
 * that fails after its CUDA work still leaves a whole log. */
static gboolean
run_program (char **program, const char *library, const char *log)
{
  char **env = g_get_environ ();
  env = g_environ_setenv (env, "CUDA_INJECTION64_PATH", library, TRUE);
  env = g_environ_setenv (env, "STREAMSIM_RECORD_LOG", log, TRUE);
  /* libcupti may be carried beside the recorder */
  g_autofree char *dir = g_path_get_dirname (library);
  const char *old = g_environ_getenv (env, "LD_LIBRARY_PATH");
  g_autofree char *path = old != NULL && *old != '\0' ? g_strconcat (dir, ":", old, NULL)
                                                      : g_strdup (dir);
  env = g_environ_setenv (env, "LD_LIBRARY_PATH", path, TRUE);
  g_autoptr (GError) error = NULL;
  int status = 0;
  gboolean started = g_spawn_sync (NULL, program, env,
                                   G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL,
                                   NULL, NULL, NULL, &status, &error);
  g_strfreev (env);
  if (!started)
    {
      complain (EXIT_SYSTEM, "cannot run %s: %s", program[0], error->message);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, &error))
    fprintf (stderr, "streamsim-validate: warning: %s %s; its recording is used as it is\n",
             program[0], error->message);
  return TRUE;
}

/* Comment lines for the schedule's top: what ran, where, when. */
static char **
header (const ValRecordOptions *opt, const ValDevice *dev)
{
  GPtrArray *lines = g_ptr_array_new ();
  if (opt->program != NULL)
    {
      g_autofree char *command = g_strjoinv (" ", opt->program);
      g_ptr_array_add (lines, g_strdup_printf ("Recorded by streamsim-validate --record: %s",
                                               command));
    }
  else
    g_ptr_array_add (lines, g_strdup_printf ("Converted by streamsim-validate --record from %s",
                                             opt->log));
  if (dev != NULL)
    g_ptr_array_add (lines, g_strdup_printf ("GPU: %s; driver %s; runtime CUDA %s; profile %s", dev->gpu,
                                             dev->driver, dev->cuda, dev->profile_name));
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_ptr_array_add (lines, g_date_time_format (now, "Date: %Y-%m-%d %H:%M UTC"));
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

static gboolean
write_timeline (const ValRecordOptions *opt, RecordSchedule *rec, const ValDevice *dev,
                GError **error)
{
  g_autofree char *connections = g_strdup_printf ("%u", schedule_connections (rec->schedule));
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format_iso8601 (now);
  const char *meta[] = {
    "source", "recorded",
    "schedule", opt->schedule,
    "connections", connections,
    "timing", "kernels and copies: CUPTI activity records; records and waits: derived from "
              "their stream; host calls: CUPTI's clock at each call's entry and return",
    "date", date,
    /* without a device the list ends here */
    dev != NULL ? "device" : NULL, dev != NULL ? dev->profile_name : NULL,
    "gpu", dev != NULL ? dev->gpu : NULL,
    "driver", dev != NULL ? dev->driver : NULL,
    "cuda", dev != NULL ? dev->cuda : NULL,
    NULL,
  };
  return record_timeline_write (rec, opt->csv, meta, error);
}

/* The profile of the GPU recorded on (--device, else the GPU's own), for
 * kernels' shares of the SMs and the costs of host functions and loading
 * launches, in `profile` (cleared where there is none: `*found` FALSE).
 * FALSE, with the message said, when --device names no profile. */
static gboolean
load_profile (const ValRecordOptions *opt, const ValDevice *dev, GpuProfile *profile,
              gboolean *found)
{
  const char *name = opt->device != NULL ? opt->device : dev != NULL ? dev->profile_name : NULL;
  *found = FALSE;
  if (name == NULL)
    {
      fprintf (stderr, "streamsim-validate: warning: no --device: kernels that shared an "
               "oversubscribed GPU keep the times they ran, and host functions' and loading "
               "launches' costs are taken as 0\n");
      return TRUE;
    }
  g_autoptr (GError) error = NULL;
  if (!profile_load (name, profile, &error))
    {
      gpu_profile_clear (profile);
      if (opt->device != NULL)
        {
          complain (EXIT_INPUT, "--device: %s", error->message);
          return FALSE;
        }
      fprintf (stderr, "streamsim-validate: warning: %s; converting without a profile\n",
               error->message);
      return TRUE;
    }
  *found = TRUE;
  return TRUE;
}

static int
convert (const ValRecordOptions *opt, const ValDevice *dev)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (RecordLog) log = record_log_read (opt->log, &error);
  if (log == NULL)
    return complain (error->code == RECORD_ERROR_IO ? EXIT_SYSTEM : EXIT_INPUT, "%s",
                     error->message);
  g_auto (GStrv) lines = header (opt, dev);
  GpuProfile profile = { 0 };
  gboolean have_profile;
  if (!load_profile (opt, dev, &profile, &have_profile))
    return EXIT_INPUT;
  RecordOptions ropt = {
    .min_host_ns = (guint64) opt->min_host_ns,
    .call_gap_ns = (guint64) opt->call_gap_ns,
    .connections = opt->program != NULL ? val_device_connections () : opt->connections,
    .header = (const char *const *) lines,
    .profile = have_profile ? &profile : NULL,
  };
  g_autoptr (RecordSchedule) rec = record_schedule_build (log, &ropt, &error);
  gpu_profile_clear (&profile);
  if (rec == NULL)
    return complain (EXIT_INPUT, "%s", error->message);
  if (!output_file_set_contents (opt->schedule, rec->text, strlen (rec->text), &error))
    return complain (EXIT_SYSTEM, "%s", error->message);
  if (opt->csv != NULL && !write_timeline (opt, rec, dev, &error))
    return complain (EXIT_SYSTEM, "%s", error->message);
  g_autofree char *summary = record_schedule_summary (rec, log->calls->len);
  fprintf (stderr, "streamsim-validate: %s: %s\n", opt->schedule, summary);
  return 0;
}

int
val_record_main (const ValRecordOptions *opt)
{
  if (opt->program == NULL)
    {
      if (opt->log == NULL)
        return complain (EXIT_INPUT, "--record needs a program to run (after --) or --log FILE "
                         "to convert; see --help");
      return convert (opt, NULL);
    }
  g_autofree char *library = find_library ();
  if (library == NULL || !g_file_test (library, G_FILE_TEST_IS_REGULAR))
    return complain (EXIT_SYSTEM, "no recorder library %s (it is built beside "
                     "streamsim-validate when CMake finds cupti.h; STREAMSIM_RECORD_LIBRARY "
                     "may name it)", library != NULL ? library : LIBRARY_NAME);
  g_autofree char *temporary = NULL;
  ValRecordOptions o = *opt;
  if (o.log == NULL)
    {
      g_autoptr (GError) error = NULL;
      int fd = g_file_open_tmp ("streamsim-record-XXXXXX.log", &temporary, &error);
      if (fd < 0)
        return complain (EXIT_SYSTEM, "%s", error->message);
      close (fd);
      o.log = temporary;
    }
  int status = EXIT_SYSTEM;
  if (run_program (o.program, library, o.log))
    {
      ValDevice dev;
      g_autoptr (GError) error = NULL;
      gboolean have_dev = val_device_open (&dev, NULL, &error);
      if (!have_dev)
        {
          val_device_clear (&dev);
          fprintf (stderr, "streamsim-validate: warning: %s; the schedule will not name the GPU\n",
                   error->message);
        }
      status = convert (&o, have_dev ? &dev : NULL);
      if (have_dev)
        val_device_clear (&dev);
    }
  if (temporary != NULL)
    g_unlink (temporary);
  return status;
}
