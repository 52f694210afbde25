/* val_record.h: `streamsim-validate --record`: run a program under the recorder and write its schedule and measured timeline. */
#ifndef VAL_RECORD_H
#define VAL_RECORD_H

#include <glib.h>

typedef struct
{
  const char *schedule;  /* the schedule to write */
  const char *csv;       /* the measured timeline to write, or NULL */
  const char *log;       /* where the recorder's log goes; with no program, the log to read */
  gint64 min_host_ns;    /* host gaps shorter than this are left out */
  gint64 call_gap_ns;    /* the recorder's time at each call, taken off the host gaps; 0: none */
  char **program;        /* the command to run, NULL-ended; NULL to read `log` only */
  const char *device;    /* the profile of the GPU recorded on; NULL: this GPU's, or none
                            when only converting (record_schedule.h says what it is for) */
  guint connections;     /* converting only: the run's connections for the schedule; 0: none */
} ValRecordOptions;

/* Returns the exit status: 0, 2 (bad input: an unreadable log, a bad
 * option) or 3 (the program could not be started, no recorder library, an
 * I/O error); messages go to standard error. */
int val_record_main (const ValRecordOptions *options);

#endif /* VAL_RECORD_H */
