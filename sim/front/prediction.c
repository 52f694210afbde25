/* prediction.c: one `predict` run, from schedule file to timeline rows and summary. */
#include <string.h>
#include "prediction.h"

#include "host_spread.h"
#include "cause_text.h"
#include "kernel_times.h"
#include "device_name.h"
#include "input_gzip.h"
#include "sim/formats/profile_file.h"
#include "spans.h"
#include "sim/core/str_append.h"
#include "sim/formats/timeline_row.h"
#include "sim/formats/timeline_writer.h"
#include "sim/formats/units.h"
#include "sim/formats/schedule_parse.h"
#include "sim/core/schedule_device.h"

struct Prediction
{
  Schedule *sched;
  GpuProfile profile;
  EngSim *sim;
  GArray *carried;  /* KernelTimeCarried: kernels whose time came from another GPU */
  guint connections; /* as eng_sim_new took it: 0, the schedule's */
};

gboolean
prediction_prepare (const char *schedule_path, const PredictionOptions *options,
                    Schedule **sched_out, GpuProfile *profile, GArray **carried,
                    GError **error)
{
  g_return_val_if_fail (schedule_path != NULL && options != NULL, FALSE);
  g_return_val_if_fail (sched_out != NULL && profile != NULL, FALSE);
  ScheduleParseOptions parse = { options->defines, options->max_ops };
  g_autoptr (Schedule) sched = input_gzip_schedule (schedule_path, &parse, error);
  if (sched == NULL)
    return FALSE;

  /* The `device` line names a profile even where --device overrides it: a
   * typo there would otherwise surface only on the day the schedule is run
   * without --device. */
  guint line, column;
  GError *local = NULL;
  if (schedule_device_position (sched, &line, &column)
      && !device_name_check (schedule_device (sched), &local))
    {
      g_prefix_error (&local, "%s:%u:%u: ", schedule_path, line, column);
      g_propagate_error (error, local);
      return FALSE;
    }

  const char *device = options->device != NULL ? options->device : schedule_device (sched);
  if (device == NULL)
    {
      g_auto (GStrv) known = profile_list ();
      g_autofree char *list = g_strjoinv (", ", known);
      g_set_error (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND,
                   "%s:1:1: no device: add a `device NAME` line or give --device NAME (known: %s)",
                   schedule_path, list);
      return FALSE;
    }

  /* "H100" finds h100.ini; a typo gets the nearest profile's name. */
  g_autofree char *resolved = device_name_resolve (device);
  memset (profile, 0, sizeof *profile);
  if (!profile_load (resolved, profile, &local))
    {
      device_name_suggest (device, local);
      /* A profile that cannot be found or read is the fault of whoever named
       * it: say where (errors inside a profile already name its file:line). */
      if (!g_regex_match_simple ("^[^\n]*:[0-9]+:[0-9]+: ", local->message, 0, 0))
        {
          if (options->device != NULL)
            g_prefix_error (&local, "--device %s: ", options->device);
          else if (schedule_device_position (sched, &line, &column))
            g_prefix_error (&local, "%s:%u:%u: ", schedule_path, line, column);
        }
      g_propagate_error (error, local);
      gpu_profile_clear (profile);
      return FALSE;
    }
  if (!schedule_select_device (sched, (const char *const *) profile->names, error))
    {
      gpu_profile_clear (profile);
      return FALSE;
    }
  if (options->host != PREDICTION_HOST_OWN)
    {
      const char *end = options->host == PREDICTION_HOST_FAST ? "fast" : "slow";
      if (!gpu_profile_has_host_spread (profile))
        {
          g_set_error (error, PROFILE_ERROR, PROFILE_ERROR_NOT_FOUND,
                       "--host %s: profile %s gives no [spread], the host's fast and slow end "
                       "(engines/profiles/README.md; h100 and h200 have one)",
                       end, gpu_profile_name (profile));
          gpu_profile_clear (profile);
          return FALSE;
        }
      GpuProfile at;
      gpu_profile_at_host_speed (&at, profile,
                                 options->host == PREDICTION_HOST_FAST ? GPU_HOST_FAST : GPU_HOST_SLOW);
      gpu_profile_clear (profile);
      *profile = at;
    }
  GArray *times = kernel_times_carry (sched, profile);
  if (carried != NULL)
    *carried = times;
  else
    g_array_unref (times);
  *sched_out = g_steal_pointer (&sched);
  return TRUE;
}

Prediction *
prediction_run (const char *schedule_path, const PredictionOptions *options, GError **error)
{
  Schedule *sched = NULL;
  GpuProfile profile;
  GArray *carried = NULL;
  if (!prediction_prepare (schedule_path, options, &sched, &profile, &carried, error))
    return NULL;
  Prediction *p = prediction_run_schedule (sched, &profile, options->connections, error);
  gpu_profile_clear (&profile);
  if (p != NULL)
    p->carried = g_steal_pointer (&carried);
  if (carried != NULL)
    g_array_unref (carried);
  return p;
}

Prediction *
prediction_run_schedule (Schedule *sched, const GpuProfile *profile, guint connections,
                         GError **error)
{
  g_return_val_if_fail (sched != NULL && profile != NULL, NULL);
  Prediction *p = g_new0 (Prediction, 1);
  p->sched = sched;
  p->connections = connections;
  gpu_profile_copy (&p->profile, profile);
  p->sim = eng_sim_new (&p->profile, p->sched, connections, error);
  if (p->sim == NULL)
    {
      prediction_free (p);
      return NULL;
    }
  eng_sim_run (p->sim);
  return p;
}

gboolean
prediction_host_spread (const Prediction *p, SimTime makespan[2])
{
  return host_spread_makespans (&p->profile, p->sched, p->connections, makespan);
}

void
prediction_free (Prediction *p)
{
  if (p == NULL)
    return;
  eng_sim_free (p->sim);
  gpu_profile_clear (&p->profile);
  schedule_free (p->sched);
  if (p->carried != NULL)
    g_array_unref (p->carried);
  g_free (p);
}

const GArray *
prediction_carried_times (const Prediction *p)
{
  return p->carried;
}

const Schedule *
prediction_schedule (const Prediction *p)
{
  return p->sched;
}

const EngSim *
prediction_sim (const Prediction *p)
{
  return p->sim;
}

const GpuProfile *
prediction_profile (const Prediction *p)
{
  return &p->profile;
}

SimTime
prediction_makespan (const Prediction *p)
{
  return eng_sim_makespan (p->sim);
}

SimTime
prediction_elapsed (const Prediction *p, guint index)
{
  const SchedElapsed *e = schedule_elapsed (p->sched, index);
  const EngOpResult *r = eng_sim_results (p->sim);
  return r[e->to_op].end - r[e->from_op].end;
}

void
prediction_row (const Prediction *p, gsize index, TimelineRow *row, GString *scratch)
{
  const SchedOp *sop = schedule_op (p->sched, index);
  const EngOpResult *r = &eng_sim_results (p->sim)[index];
  gboolean on_stream = sop->kind != SCHED_OP_HOST && sop->kind != SCHED_OP_SYNC_EVENT
                       && sop->kind != SCHED_OP_SYNC_DEVICE && sop->kind != SCHED_OP_SPAWN
                       && sop->kind != SCHED_OP_JOIN;
  row->op = (guint32) index;
  row->line = sop->line;
  row->stream = on_stream ? schedule_stream (p->sched, sop->stream)->name : "";
  row->kind = schedule_op_kind_name (sop);
  row->engine = eng_engine_name ((EngEngine) r->engine);
  row->conn = r->conn;
  row->issue = r->issue;
  row->start = r->start;
  row->end = r->end;
  row->bytes = (sop->kind == SCHED_OP_COPY || sop->kind == SCHED_OP_MEMCPY) ? sop->u.copy.bytes
               : sop->kind == SCHED_OP_MEMSET                               ? sop->u.bytes
                                                                            : 0;
  row->grid = sop->kind == SCHED_OP_KERNEL ? sop->u.kernel.grid : 0;
  row->block = sop->kind == SCHED_OP_KERNEL ? sop->u.kernel.block : 0;
  row->label = sop->label;
  row->issuer = schedule_op_thread_name (p->sched, index);
  row->thread = r->engine == ENG_ENGINE_HOST ? row->issuer : NULL;
  g_string_truncate (scratch, 0);
  cause_text_append (p->sim, index, scratch);
  row->cause = scratch->str;
}

SimTime
prediction_waited (const Prediction *p, gsize index)
{
  const EngOpResult *r = &eng_sim_results (p->sim)[index];
  if (r->cause == ENG_CAUSE_NONE)
    return 0;
  return (r->cause == ENG_CAUSE_SYNC ? r->end : r->start) - r->issue;
}

GArray *
prediction_critical_path (const Prediction *p)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n = schedule_n_ops (p->sched);
  if (n == 0)
    return path;
  const EngOpResult *results = eng_sim_results (p->sim);
  guint32 last = 0;
  for (gsize i = 1; i < n; i++)
    if (results[i].end >= results[last].end)
      last = (guint32) i;
  /* Each link goes to an op that let this one go, earlier in the run, so
   * the walk cannot come back (tests/support/path_links.c checks it from
   * every op, in fuzz_predict and on the regressions); the length bound
   * guards it all the same. The host links cost a scan back
   * to the call that held the host; the ops after that call were issued
   * after it returned and cannot come later on the path, so the scans do
   * not overlap and the walk stays O(n). */
  for (guint32 op = last; op != ENG_NO_REF && path->len < n;
       op = eng_sim_path_link (p->sim, op))
    g_array_append_val (path, op);
  for (guint i = 0, j = path->len - 1; i < j; i++, j--)
    {
      guint32 t = g_array_index (path, guint32, i);
      g_array_index (path, guint32, i) = g_array_index (path, guint32, j);
      g_array_index (path, guint32, j) = t;
    }
  return path;
}

void
prediction_critical_path_time (const Prediction *p, const GArray *path, PredictionPathTime *time)
{
  memset (time, 0, sizeof *time);
  const EngOpResult *results = eng_sim_results (p->sim);
  /* The ops of a path run one after another, except where one waited for
   * the op above it to leave a queue or started a synchronize before it:
   * the parts covered twice count once, to the op above. */
  SimTime covered = 0;
  for (guint i = 0; i < path->len; i++)
    {
      guint32 op = g_array_index (path, guint32, i);
      const EngOpResult *r = &results[op];
      SchedOpKind kind = schedule_op (p->sched, op)->kind;
      gboolean runs = kind != SCHED_OP_SYNC_STREAM && kind != SCHED_OP_SYNC_EVENT
                      && kind != SCHED_OP_SYNC_DEVICE && kind != SCHED_OP_JOIN;
      SimTime from = MAX (covered, r->start);
      SimTime to = MAX (covered, r->end);
      time->between += from - covered;
      if (runs)
        time->on_engine[r->engine] += to - from;
      else
        time->between += to - from;
      covered = to;
    }
}

guint
prediction_path_time_order (const PredictionPathTime *t, EngEngine order[ENG_N_ENGINES])
{
  guint n = 0;
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      if (t->on_engine[e] == 0)
        continue;
      /* insertion: after every engine with as much time */
      guint i = n++;
      for (; i > 0 && t->on_engine[order[i - 1]] < t->on_engine[e]; i--)
        order[i] = order[i - 1];
      order[i] = (EngEngine) e;
    }
  return n;
}

char *
prediction_path_time_text (const PredictionPathTime *t)
{
  g_return_val_if_fail (t != NULL, NULL);
  EngEngine order[ENG_N_ENGINES];
  guint n = prediction_path_time_order (t, order);
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *time = units_format_time (t->on_engine[order[i]]);
      g_string_append_printf (text, "%s %s, ", eng_engine_name (order[i]), time);
    }
  g_autofree char *between = units_format_time (t->between);
  g_string_append_printf (text, "calls and latencies %s", between);
  return g_string_free (text, FALSE);
}

void
prediction_path_row (const Prediction *p, gsize index, TimelineRow *row, GString *scratch)
{
  prediction_row (p, index, row, scratch);
  const EngOpResult *r = &eng_sim_results (p->sim)[index];
  if (eng_sim_behind_overtaken (p->sim, index))
    {
      /* the path goes on from what held the kernel ahead, not from it */
      g_string_append (scratch, " (op ");
      str_append_uint (scratch, r->cause_ref);
      g_string_append (scratch, " left the queue");
      guint32 held = eng_sim_queue_released_by (p->sim, index);
      if (held != ENG_NO_REF)
        {
          g_string_append (scratch, " after op ");
          str_append_uint (scratch, held);
        }
      g_string_append (scratch, ", then waited for SMs)");
    }
  else if (r->cause == ENG_CAUSE_NONE)
    {
      guint32 held = eng_sim_issued_after (p->sim, index);
      if (held != ENG_NO_REF)
        {
          g_string_append (scratch, "host issued it after op ");
          str_append_uint (scratch, held);
          g_string_append (scratch, " returned");
          if (index - held > 1)
            {
              g_string_append (scratch, " and ");
              str_append_uint (scratch, index - held - 1);
              g_string_append (scratch, index - held > 2 ? " other calls" : " other call");
            }
        }
    }
  /* what was appended may have moved the text */
  row->cause = scratch->str;
}

char **
prediction_meta (const Prediction *p)
{
  GPtrArray *meta = g_ptr_array_new ();
  g_ptr_array_add (meta, g_strdup ("source"));
  g_ptr_array_add (meta, g_strdup ("predicted by streamsim " STREAMSIM_VERSION_STRING));
  g_ptr_array_add (meta, g_strdup ("schedule"));
  g_ptr_array_add (meta, g_strdup (schedule_path (p->sched)));
  g_ptr_array_add (meta, g_strdup ("device"));
  g_ptr_array_add (meta, g_strdup (gpu_profile_name (&p->profile)));
  g_ptr_array_add (meta, g_strdup ("connections"));
  g_ptr_array_add (meta, g_strdup_printf ("%u", eng_sim_connections (p->sim)));
  g_ptr_array_add (meta, g_strdup ("makespan_ns"));
  g_ptr_array_add (meta, g_strdup_printf ("%" G_GINT64_FORMAT, prediction_makespan (p)));
  for (guint i = 0; i < schedule_n_elapsed (p->sched); i++)
    {
      g_ptr_array_add (meta, g_strconcat ("elapsed_ns.", schedule_elapsed (p->sched, i)->name, NULL));
      g_ptr_array_add (meta, g_strdup_printf ("%" G_GINT64_FORMAT, prediction_elapsed (p, i)));
    }
  g_ptr_array_add (meta, NULL);
  return (char **) g_ptr_array_free (meta, FALSE);
}

char **
prediction_notes (const Prediction *p)
{
  static const struct
  {
    SchedCopyDir dir;
    const char *name;
  } dirs[] = {
    { SCHED_DIR_H2D, "h2d" },
    { SCHED_DIR_D2H, "d2h" },
  };
  GPtrArray *notes = g_ptr_array_new ();
  gsize n = schedule_n_ops (p->sched);
  const SchedOp *ops = schedule_ops (p->sched);
  for (gsize d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      gsize count = 0, first = 0, n_cached = 0, first_cached = 0, n_huge = 0, first_huge = 0;
      for (gsize i = 0; i < n; i++)
        if ((ops[i].kind == SCHED_OP_COPY || ops[i].kind == SCHED_OP_MEMCPY)
            && ops[i].u.copy.dir == dirs[d].dir)
          {
            if (ops[i].u.copy.untouched > 0 && count++ == 0)
              first = i;
            if (ops[i].u.copy.cached && n_cached++ == 0)
              first_cached = i;
            if (ops[i].u.copy.huge > 0 && n_huge++ == 0)
              first_huge = i;
          }
      if (n_cached > 0 && !gpu_profile_knows_cached (&p->profile, dirs[d].dir))
        g_ptr_array_add (notes, g_strdup_printf (
          "%s:%u:%u: note: %" G_GSIZE_FORMAT " cached pageable %s cop%s predicted at the "
          "pageable link: profile %s has no %s_cached_bandwidth and _latency "
          "(validate/fit-cached.sh fits them from pageable_probe.cu's sweeps)",
          schedule_path (p->sched), ops[first_cached].line, ops[first_cached].column, n_cached,
          dirs[d].name, n_cached == 1 ? "y is" : "ies are", gpu_profile_name (&p->profile),
          dirs[d].name));
      if (count > 0 && !gpu_profile_knows_untouched (&p->profile, dirs[d].dir))
        g_ptr_array_add (notes, g_strdup_printf (
          "%s:%u:%u: note: %" G_GSIZE_FORMAT " untouched pageable %s cop%s predicted at the "
          "pageable link, without the first touch of %s pages: profile %s has no "
          "%s_untouched_bandwidth and _latency (streamsim-validate --calibrate measures them)",
          schedule_path (p->sched), ops[first].line, ops[first].column, count, dirs[d].name,
          count == 1 ? "y is" : "ies are", count == 1 ? "its" : "their",
          gpu_profile_name (&p->profile), dirs[d].name));
      else if (n_huge > 0 && !gpu_profile_knows_untouched_huge (&p->profile, dirs[d].dir))
        g_ptr_array_add (notes, g_strdup_printf (
          "%s:%u:%u: note: %" G_GSIZE_FORMAT " untouched huge-page %s cop%s predicted at the "
          "untouched link, whose pages are small: profile %s has no "
          "%s_untouched_huge_bandwidth and _latency (validate/fit-untouched-huge.sh fits them "
          "from pageable_probe.cu's untouched runs)",
          schedule_path (p->sched), ops[first_huge].line, ops[first_huge].column, n_huge,
          dirs[d].name, n_huge == 1 ? "y is" : "ies are", gpu_profile_name (&p->profile),
          dirs[d].name));
    }
  char *carried = p->carried != NULL ? kernel_times_note (p->carried, &p->profile) : NULL;
  if (carried != NULL)
    g_ptr_array_add (notes, g_strdup_printf ("%s: %s", schedule_path (p->sched), carried));
  g_free (carried);
  g_ptr_array_add (notes, NULL);
  return (char **) g_ptr_array_free (notes, FALSE);
}

/* Rows [from, to) formatted into `out`. */
typedef struct
{
  const Prediction *p;
  gsize from, to;
  GString *out;
} RowBlock;

/* Whether the CSV has the thread column: a schedule of several host threads. */
static gboolean
csv_has_threads (const Prediction *p)
{
  return schedule_n_threads (p->sched) > 1;
}

static gpointer
format_rows (gpointer data)
{
  RowBlock *b = data;
  g_autoptr (GString) scratch = g_string_new (NULL);
  gboolean threads = csv_has_threads (b->p);
  g_string_truncate (b->out, 0);
  for (gsize i = b->from; i < b->to; i++)
    {
      TimelineRow row;
      prediction_row (b->p, i, &row, scratch);
      timeline_row_append (b->out, &row, threads);
    }
  return NULL;
}

/* Rows are formatted a block at a time, two blocks at once, the second on a
 * thread of its own, and written in order: formatting is most of the time
 * the CSV takes, and the prediction is only read. A block is a 32nd of the
 * rows, from 1,024 (a timeline of one block makes no thread) to 16,384
 * (about 2 MB of text), so that the two held in memory stay a few bytes a
 * row. Against one thread formatting and writing in turn, 8% of the
 * benchmark's end-to-end figure at 10^6 ops (median of seven alternating
 * pairs on two cores). */
#define CSV_BLOCK_ROWS_MIN 1024
#define CSV_BLOCK_ROWS_MAX 16384

gboolean
prediction_write_csv (const Prediction *p, const char *path, GError **error)
{
  g_auto (GStrv) meta = prediction_meta (p);
  TimelineWriter *writer = timeline_writer_new (path, (const char *const *) meta,
                                                csv_has_threads (p), error);
  if (writer == NULL)
    return FALSE;
  gsize n = schedule_n_ops (p->sched);
  gsize block = CLAMP (n / 32, CSV_BLOCK_ROWS_MIN, CSV_BLOCK_ROWS_MAX);
  g_autoptr (GString) first = g_string_new (NULL);
  g_autoptr (GString) second = g_string_new (NULL);
  for (gsize from = 0; from < n; from += 2 * block)
    {
      RowBlock a = { p, from, MIN (from + block, n), first };
      RowBlock b = { p, a.to, MIN (a.to + block, n), second };
      GThread *thread = b.from < b.to ? g_thread_try_new ("csv-rows", format_rows, &b, NULL) : NULL;
      format_rows (&a);
      /* the first block goes out while the second may still be formatted */
      gboolean ok = timeline_writer_add_rows (writer, a.out->str, a.out->len, error);
      if (thread != NULL)
        g_thread_join (thread);
      else
        format_rows (&b); /* no second block, or no thread to be had */
      if (!ok || !timeline_writer_add_rows (writer, b.out->str, b.out->len, error))
        {
          timeline_writer_abort (writer);
          return FALSE;
        }
    }
  return timeline_writer_finish (writer, error);
}

Timeline *
prediction_timeline (const Prediction *p)
{
  Timeline *timeline = timeline_new (schedule_path (p->sched));
  g_auto (GStrv) meta = prediction_meta (p);
  for (guint i = 0; meta[i] != NULL && meta[i + 1] != NULL; i += 2)
    timeline_set_meta (timeline, meta[i], meta[i + 1]);
  g_autoptr (GString) scratch = g_string_new (NULL);
  gsize n = schedule_n_ops (p->sched);
  for (gsize i = 0; i < n; i++)
    {
      TimelineRow row;
      prediction_row (p, i, &row, scratch);
      timeline_append (timeline, &row);
    }
  return timeline;
}

void
prediction_summarize_spread (const Prediction *p, PredictionSummary *s)
{
  s->has_spread = prediction_host_spread (p, s->spread);
}

void
prediction_summarize (const Prediction *p, PredictionSummary *s)
{
  memset (s, 0, sizeof *s);
  s->makespan = prediction_makespan (p);
  gsize n = schedule_n_ops (p->sched);
  const EngOpResult *results = eng_sim_results (p->sim);
  GArray *spans[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    spans[e] = g_array_new (FALSE, FALSE, sizeof (Span));
  GArray *wait_spans[ENG_N_CAUSES];
  for (guint c = 0; c < ENG_N_CAUSES; c++)
    wait_spans[c] = g_array_new (FALSE, FALSE, sizeof (Span));
  for (gsize i = 0; i < n; i++)
    {
      const EngOpResult *r = &results[i];
      Span span = { r->start, r->end };
      s->ops[r->engine]++;
      SimTime waited = prediction_waited (p, i);
      s->waits[r->cause]++;
      s->longest_wait[r->cause] = sim_time_max (s->longest_wait[r->cause], waited);
      if (waited > 0)
        {
          Span w = { r->issue, r->issue + waited };
          g_array_append_val (wait_spans[r->cause], w);
        }
      SchedOpKind kind = schedule_op (p->sched, i)->kind;
      if ((kind >= SCHED_OP_SYNC_STREAM && kind <= SCHED_OP_SYNC_DEVICE) || kind == SCHED_OP_JOIN)
        {
          s->host_blocked += r->end - r->start;
          continue;
        }
      if (span.end > span.start)
        g_array_append_val (spans[r->engine], span);
    }
  gsize len[ENG_N_ENGINES];
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      len[e] = spans_union ((Span *) spans[e]->data, spans[e]->len);
      s->busy[e] = spans_length ((Span *) spans[e]->data, len[e]);
    }

  /* every copy engine together, then against compute */
  GArray *copies = g_array_new (FALSE, FALSE, sizeof (Span));
  const EngEngine copy_engines[] = { ENG_ENGINE_H2D, ENG_ENGINE_D2H, ENG_ENGINE_COPY };
  for (guint c = 0; c < G_N_ELEMENTS (copy_engines); c++)
    g_array_append_vals (copies, spans[copy_engines[c]]->data, len[copy_engines[c]]);
  gsize ncopies = spans_union ((Span *) copies->data, copies->len);
  s->copy_busy = spans_length ((Span *) copies->data, ncopies);
  s->copy_compute_overlap
    = spans_overlap ((Span *) copies->data, ncopies,
                     (Span *) spans[ENG_ENGINE_COMPUTE]->data, len[ENG_ENGINE_COMPUTE]);
  s->h2d_d2h_overlap
    = spans_overlap ((Span *) spans[ENG_ENGINE_H2D]->data, len[ENG_ENGINE_H2D],
                     (Span *) spans[ENG_ENGINE_D2H]->data, len[ENG_ENGINE_D2H]);
  g_array_free (copies, TRUE);
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    g_array_free (spans[e], TRUE);
  for (guint c = 0; c < ENG_N_CAUSES; c++)
    {
      Span *w = (Span *) wait_spans[c]->data;
      s->waited[c] = spans_length (w, spans_union (w, wait_spans[c]->len));
      g_array_free (wait_spans[c], TRUE);
    }
}

guint
prediction_summary_wait_order (const PredictionSummary *s, EngCause order[ENG_N_CAUSES])
{
  guint n = 0;
  for (guint c = 0; c < ENG_N_CAUSES; c++)
    {
      if (c == ENG_CAUSE_NONE || s->waits[c] == 0)
        continue;
      /* insertion: after every cause with as long a total */
      guint i = n++;
      for (; i > 0 && s->waited[order[i - 1]] < s->waited[c]; i--)
        order[i] = order[i - 1];
      order[i] = (EngCause) c;
    }
  return n;
}
