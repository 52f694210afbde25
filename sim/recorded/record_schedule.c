/* record_schedule.c: a recorder log read as a schedule (record_schedule.h): the passes over
 * the log in their order, the schedule's header, and the text parsed back. */
#include <string.h>
#include "sim/core/located_error.h"
#include "record_builder.h"
#include "record_flags.h"
#include "record_loads.h"
#include "record_schedule.h"
#include "record_threads.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule.h"
#include "sim/formats/profile_file.h"

static guint
count_threads (const RecordLog *log)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < log->calls->len; i++)
    g_hash_table_add (seen, GUINT_TO_POINTER (g_array_index (log->calls, RecordCall, i).thread));
  return g_hash_table_size (seen);
}

static int
compare_enter (gconstpointer a, gconstpointer b, gpointer calls)
{
  const RecordCall *x = &g_array_index ((GArray *) calls, RecordCall, *(const guint *) a);
  const RecordCall *y = &g_array_index ((GArray *) calls, RecordCall, *(const guint *) b);
  if (x->enter != y->enter)
    return x->enter < y->enter ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

static void
write_header (Builder *b)
{
  for (const char *const *h = b->opt->header; h != NULL && *h != NULL; h++)
    builder_comment (b, "%s", *h);
  builder_comment (b, "Kernel times are their times alone: as measured, or where a kernel shared the "
           "GPU as its comment says, less the profile's trace_extra; host gaps under %" G_GUINT64_FORMAT
           " ns are added up until they reach that, and left out where a call that waits "
           "for the GPU comes first.", b->opt->min_host_ns);
  gboolean recorded;
  gboolean lazy = record_loads_lazy (b->log, &recorded);
  builder_comment (b, "CUDA_MODULE_LOADING %s: %s", recorded ? "as recorded" : "not in the log, so LAZY "
           "(unset: LAZY since CUDA 12.2)", lazy ? "a kernel's first runtime launch loads its "
           "code (`loads`)" : "EAGER, no launch loads code");
  if (b->opt->profile != NULL)
    builder_comment (b, "Profile %s, of the GPU recorded on: kernels' shares of the SMs, how much "
             "longer CUPTI's kernel records are than the kernels' blocks (trace_extra, %"
             G_GUINT64_FORMAT " ns), host functions' and loading launches' costs.",
             gpu_profile_name (b->opt->profile), (guint64) b->opt->profile->trace_extra);
  else
    builder_comment (b, "No profile of the GPU recorded on: kernels keep CUPTI's times, those that "
             "shared an oversubscribed GPU the times they ran, and host functions' and loading "
             "launches' costs are taken as 0.");
  if (b->opt->traced_calls && b->opt->profile != NULL)
    builder_comment (b, "Calls cost the host what they took in the trace, up to the usual time of "
             "their kind: what they took beyond the profile's cost (the tracer's) is host time "
             "after the op, `inside CALL ... the tracer's cost`, or added up with the gaps where "
             "it is under the minimum.");
  if (b->opt->call_gap_ns > 0)
    builder_comment (b, "Host gaps are less the recorder's own time, %" G_GUINT64_FORMAT " ns at each "
             "call that began in them (at most all of the gap): the program's time without "
             "the recorder.", b->opt->call_gap_ns);
  if (b->times_of != NULL)
    builder_comment (b, "Kernel times are the %s's (time=%s:...), the device predicted when none is "
             "given: on another, each is carried there by what bounds the kernel "
             "(engines/MODEL.md).", b->times_of, b->times_of);
  if (b->rec->n_threads > 1 && b->n_blocks == 0)
    builder_comment (b, "Calls came from %u host threads, which took turns: none called while another "
             "thread's call was under way (as PyTorch's autograd thread calls while the main "
             "thread waits for it outside CUDA), so their calls stand at the top level in the "
             "order they began, the order the program imposed.", b->rec->n_threads);
  else if (b->rec->n_threads > 1)
    builder_comment (b, "Calls came from %u host threads. %u of them called while another thread's "
             "call was under way: each is a `thread` block started where its first call "
             "began, on the wall clock, its host time its own calls' gaps. The others took "
             "turns (one called only while the others did not, as PyTorch's autograd thread "
             "does) and stand at the top level in the order their calls began. The recorder "
             "sees no joins (pthread_join is no CUDA call): the schedule has none.",
             b->rec->n_threads, b->n_blocks);
  if (b->log->incomplete != NULL)
    builder_comment (b, "The recording is incomplete: %s.", b->log->incomplete);
  if (b->times_of != NULL)
    {
      g_string_append_printf (b->text, "device %s", b->times_of);
      builder_line_end (b);
    }
  if (b->opt->connections > 0)
    {
      g_string_append_printf (b->text, "connections %u", b->opt->connections);
      builder_line_end (b);
    }
  if (b->schedule != SCHED_SCHEDULE_AUTO)
    {
      g_string_append_printf (b->text, "device_schedule %s   # %s",
                              sched_device_schedule_names[b->schedule], b->schedule_set_by);
      builder_line_end (b);
    }
}

/* The events waited on or synchronized with but never recorded (or recorded
 * only inside a graph capture), declared so that the schedule parses: such a
 * wait does nothing, in CUDA as in the model; and those made with
 * cudaEventBlockingSync, whose synchronizes sleep (record_flags.h). After
 * the ops, so that each op keeps the line it was written on. */
static void
write_event_declarations (Builder *b)
{
  g_autoptr (GHashTable) blocking = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer handle;
  g_hash_table_iter_init (&it, b->sleeping_events);
  while (g_hash_table_iter_next (&it, &handle, NULL))
    {
      const char *name = g_hash_table_lookup (b->events, handle);
      if (name != NULL)
        g_hash_table_add (blocking, (gpointer) name);
    }
  gboolean first = TRUE, first_blocking = TRUE;
  b->call_line = 0;
  for (guint i = 0; i < b->event_names->len; i++)
    {
      const char *name = g_ptr_array_index (b->event_names, i);
      if (g_hash_table_contains (b->recorded, name))
        continue;
      if (first)
        builder_comment (b, "Waited on or synchronized with but never recorded, which makes those "
                 "calls do nothing:");
      first = FALSE;
      g_string_append_printf (b->text, "event %s%s", name,
                              g_hash_table_contains (blocking, name) ? " blocking_sync" : "");
      builder_line_end (b);
    }
  for (guint i = 0; i < b->event_names->len; i++)
    {
      const char *name = g_ptr_array_index (b->event_names, i);
      if (!g_hash_table_contains (b->recorded, name) || !g_hash_table_contains (blocking, name))
        continue;
      if (first_blocking)
        builder_comment (b, "Made with cudaEventBlockingSync: a synchronize of them sleeps:");
      first_blocking = FALSE;
      g_string_append_printf (b->text, "event %s blocking_sync", name);
      builder_line_end (b);
    }
}

/* The schedule language has limits of its own (block= at most 1024, ...)
 * that a log, written by hand or damaged, may exceed. Rather than repeat
 * them here, the text is parsed back (the result is kept for the caller),
 * and a statement it refuses is reported at the log line of the call it
 * came from. */
static Schedule *
parse_back (Builder *b)
{
  g_autoptr (GError) why = NULL;
  const char *name = "recorded.sched";
  Schedule *sched = schedule_parse_text (name, b->text->str, b->text->len, NULL, &why);
  if (sched != NULL && schedule_n_ops (sched) != b->issue->len)
    {
      located_error_set (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, 1, 1,
                         "the schedule has %zu ops where %u were recorded (a bug in the "
                         "recorder: please report it with this log)",
                         (size_t) schedule_n_ops (sched), b->issue->len);
      schedule_free (sched);
      return NULL;
    }
  if (sched != NULL)
    return sched;
  const char *rest = why->message;
  guint64 line = 0;
  if (g_str_has_prefix (rest, name) && rest[strlen (name)] == ':')
    {
      char *after = NULL;
      line = g_ascii_strtoull (rest + strlen (name) + 1, &after, 10);
      rest = strstr (after, ": ") != NULL ? strstr (after, ": ") + 2 : rest;
    }
  guint at = line >= 1 && line <= b->origin->len ? g_array_index (b->origin, guint, line - 1) : 0;
  located_error_set (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, MAX (at, 1), 1,
                     "the schedule language cannot express this call: %s", rest);
  return NULL;
}

/* The name kernel times are tagged with: the profile recorded on, where
 * that name loads a profile with the rates that carry a time to another
 * device (a shipped or calibrated profile on the search path); else NULL,
 * and times stay bare, for every device as they are. */
static const char *
times_device (const GpuProfile *profile)
{
  if (profile == NULL || !gpu_profile_has_rates (profile, NULL))
    return NULL;
  GpuProfile again = { 0 };
  gboolean found = profile_load (gpu_profile_name (profile), &again, NULL)
                   && gpu_profile_has_rates (&again, NULL);
  gpu_profile_clear (&again);
  return found ? gpu_profile_name (profile) : NULL;
}

RecordSchedule *
record_schedule_build (const RecordLog *log, const RecordOptions *opt, GError **error)
{
  g_return_val_if_fail (log != NULL && opt != NULL, NULL);
  RecordSchedule *rec = g_new0 (RecordSchedule, 1);
  Builder b = {
    .log = log, .opt = opt, .text = g_string_new (NULL), .rec = rec, .error = error,
    .issue = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .start = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .end = g_array_new (FALSE, FALSE, sizeof (SimTime)),
    .streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .event_names = g_ptr_array_new (),
    .recorded = g_hash_table_new (NULL, NULL),
    .names = g_ptr_array_new_with_free_func (g_free),
    .lanes = g_ptr_array_new (),
    .origin = g_array_new (FALSE, FALSE, sizeof (guint)),
    .per_thread = g_hash_table_new (NULL, NULL),
  };
  b.times_of = times_device (opt->profile);
  b.schedule = record_device_schedule (log, &b.schedule_set_by);
  b.sleeping_events = record_blocking_events (log);
  rec->n_threads = count_threads (log);
  b.top_thread = b.thread = record_threads_first (log);
  builder_join_work (&b);
  builder_find_alone_times (&b);

  guint n = log->calls->len;
  guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof (guint), compare_enter, log->calls);
  b.n_blocks = record_threads_n_blocks (log, order);
  write_header (&b);
  builder_find_captured (&b, order);
  builder_find_elapsed_pairs (&b, order);
  builder_find_hostfn (&b, order);
  builder_find_inside (&b, order);
  builder_find_polls (&b, order);
  builder_find_cached (&b, order);

  g_autofree gboolean *is_op = builder_find_ops (&b);
  builder_find_t0 (&b, order, is_op);
  g_autoptr (GArray) steps = record_threads_plan (log, order, is_op);
  HostPlace top = { .last_exit = b.t0 }, other = { 0 };
  b.place = &top;
  gboolean ok = TRUE;
  for (guint k = 0; k < steps->len && ok; k++)
    {
      const ThreadStep *step = &g_array_index (steps, ThreadStep, k);
      if (step->kind == THREAD_STEP_OPEN)
        builder_open_thread (&b, step, &other);
      else if (step->kind == THREAD_STEP_CLOSE)
        builder_close_thread (&b, step, &top);
      else
        ok = builder_write_step (&b, step->call, is_op[step->call]);
    }
  if (b.top_text != NULL)
    {
      /* a call in a block failed: the top level's text is the schedule's */
      g_string_free (b.text, TRUE);
      g_array_unref (b.origin);
      b.text = b.top_text;
      b.origin = b.top_origin;
    }
  g_free (order);
  if (ok)
    {
      write_event_declarations (&b);
      ok = (rec->schedule = parse_back (&b)) != NULL;
    }

  rec->n_ops = b.issue->len;
  rec->issue = (SimTime *) g_array_free (b.issue, FALSE);
  rec->start = (SimTime *) g_array_free (b.start, FALSE);
  rec->end = (SimTime *) g_array_free (b.end, FALSE);
  rec->text = g_string_free (b.text, FALSE);
  g_hash_table_unref (b.streams);
  g_hash_table_unref (b.events);
  g_ptr_array_unref (b.event_names);
  g_hash_table_unref (b.recorded);
  g_hash_table_unref (b.sleeping_events);
  g_hash_table_unref (b.per_thread);
  g_ptr_array_unref (b.lanes);
  g_ptr_array_unref (b.names);
  g_hash_table_unref (b.by_correlation);
  g_free (b.work);
  g_free (b.alone);
  g_free (b.call_of_work);
  for (guint i = 0; i < n; i++)
    if (b.graph_nodes[i] != NULL)
      g_ptr_array_unref (b.graph_nodes[i]);
  g_free (b.graph_nodes);
  g_free (b.graph_why);
  g_free (b.loads);
  g_free (b.cached);
  g_free (b.hostfn);
  g_free (b.elapsed_from);
  g_free (b.captured);
  g_free (b.op_of_call);
  g_free (b.inside);
  g_array_unref (b.origin);
  if (!ok)
    {
      record_schedule_free (rec);
      return NULL;
    }
  return rec;
}

char *
record_schedule_summary (const RecordSchedule *rec, guint n_calls)
{
  g_return_val_if_fail (rec != NULL, NULL);
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%zu ops from %u CUDA calls", (size_t) rec->n_ops, n_calls);
  if (rec->n_not_modelled > 0)
    g_string_append_printf (s, "; %u calls put GPU work the schedule cannot express (see its "
                            "\"not modelled\" comments)", rec->n_not_modelled);
  if (rec->n_captured > 0)
    g_string_append_printf (s, "; %u calls were captured into graphs", rec->n_captured);
  if (rec->n_untimed > 0)
    g_string_append_printf (s, "; %u kernels, copies or memsets had no CUPTI record",
                            rec->n_untimed);
  if (rec->n_loads > 0)
    g_string_append_printf (s, "; %u launches load their kernel's code", rec->n_loads);
  if (rec->n_cached > 0)
    g_string_append_printf (s, "; %u pageable H2Ds read buffers copied a moment before (cached)",
                            rec->n_cached);
  if (rec->n_polls > 0)
    g_string_append_printf (s, "; %u loops of queries until the work was done (poll)",
                            rec->n_polls);
  if (rec->n_inferred > 0)
    g_string_append_printf (s, "; %u kernels' times alone inferred from sharing", rec->n_inferred);
  if (rec->n_hostfn > 0)
    g_string_append_printf (s, "; %u host functions, %u of them timed from their streams",
                            rec->n_hostfn, rec->n_hostfn_estimated);
  return g_string_free (s, FALSE);
}

void
record_schedule_free (RecordSchedule *rec)
{
  if (rec == NULL)
    return;
  g_free (rec->text);
  if (rec->schedule != NULL)
    schedule_free (rec->schedule);
  g_free (rec->issue);
  g_free (rec->start);
  g_free (rec->end);
  g_free (rec);
}
