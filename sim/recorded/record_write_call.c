/* record_write_call.c: one call as statements (record_builder.h): the host time before it,
 * the host time inside it, and its statement (kernels and graph launches:
 * record_write_kernel.c), or the comment of a call the language cannot express. */
#include "record_builder.h"
#include "record_memset.h"

/* The tracer's cost of a call (InsideHost.traced) that is its own `host`
 * statement: at least the minimum host time; less is added up with the
 * host gaps (record_schedule_build). */
static guint64
traced_written (const Builder *b, const InsideHost *in)
{
  return in->traced >= b->opt->min_host_ns ? in->traced : 0;
}

/* The page the recorder counts untouched memory in (record_inject.c:
 * sysconf's page size, 4 KiB on the x86-64 machines it runs on). */
#define RECORD_PAGE 4096u

/* `part` of a buffer's `whole` bytes as the log counts them, whole pages:
 * less than two pages short of all of them is all of them, the pages at the
 * buffer's two ends being shared with what lies beside it (malloc writes a
 * block's header just before it). */
static guint64
all_but_ends (guint64 part, guint64 whole)
{
  return part + 2 * RECORD_PAGE > whole ? whole : part;
}

/* Of a copy's `cold` untouched bytes, those that faulted in as transparent
 * huge pages during the call: what the buffer had on huge pages as the call
 * returned beyond what it had as it began (the log's `pages` line), read as
 * all_but_ends. 0 where the log does not say. */
static guint64
faulted_huge (const Builder *b, const RecordCall *c, guint64 cold)
{
  const RecordPages *p = g_hash_table_lookup (b->log->pages, GUINT_TO_POINTER (c->correlation));
  if (p == NULL || p->huge_after <= p->huge_before)
    return 0;
  return all_but_ends (p->huge_after - p->huge_before, cold);
}

/* A copy's ` KEY` where `part` is all of `whole`, ` KEY=SIZE` where it is
 * some, nothing where it is none (`untouched`, `huge`). */
static void
append_part (GString *text, const char *key, guint64 part, guint64 whole)
{
  if (part == 0)
    return;
  g_string_append_printf (text, " %s", key);
  if (part < whole)
    {
      g_string_append_c (text, '=');
      builder_append_size (text, part);
    }
}

static gboolean
write_copy (Builder *b, const RecordCall *c, const CallWork *w, gboolean sync, gboolean per_thread,
            guint64 issue)
{
  guint64 bytes;
  guint kind;
  builder_copy_shape (c, w, &bytes, &kind);
  const char *dir = kind == RECORD_MEMCPY_H2D ? "h2d"
                  : kind == RECORD_MEMCPY_D2H ? "d2h"
                  : kind == RECORD_MEMCPY_D2D ? "d2d" : NULL;
  if (dir == NULL)
    return builder_fail (b, c, "%s of %" G_GUINT64_FORMAT " bytes with copy kind %u, which is neither "
                 "host to device, device to host nor device to device", c->name, bytes, kind);
  if (sync)
    g_string_append_printf (b->text, "memcpy %s ", dir);
  else
    g_string_append_printf (b->text, "%s %s ", dir, builder_stream_name (b, c->stream, per_thread));
  builder_append_size (b->text, bytes);
  /* A 2D or 3D copy's A2 is its rows (one row: a plain copy), and the log
   * counts no untouched memory for it. */
  guint64 rows = record_call_rows (c);
  /* How much of the host buffer was not resident yet (record_inject.c):
   * `untouched` for all of it, `untouched=SIZE` for a part (all_but_ends). */
  guint64 cold = kind == RECORD_MEMCPY_D2D || record_call_is_rows_copy (c->name)
                 ? 0 : MIN (c->a[2], bytes);
  guint64 huge = 0;
  gboolean cached = b->cached[c - &g_array_index (b->log->calls, RecordCall, 0)];
  if (w->pageable)
    {
      g_string_append (b->text, " pageable");
      /* the untouched bytes as written */
      guint64 untouched = cold > 0 ? all_but_ends (cold, bytes) : 0;
      append_part (b->text, "untouched", untouched, bytes);
      huge = cold > 0 ? faulted_huge (b, c, untouched) : 0;
      append_part (b->text, "huge", huge, untouched);
      if (cached)
        {
          g_string_append (b->text, " cached");
          b->rec->n_cached++;
        }
    }
  if (rows > 1)
    g_string_append_printf (b->text, " rows=%" G_GUINT64_FORMAT, rows);
  g_string_append_printf (b->text, "   # %s", c->name);
  gboolean ignored;
  if (!sync && record_call_kind_of (c, &ignored) == RECORD_CALL_MEMCPY)
    g_string_append (b->text, " (device to device: the host does not wait for it)");
  if (rows > 1)
    {
      g_string_append (b->text, ", ");
      builder_append_size (b->text, bytes / rows);
      g_string_append_printf (b->text, " x %" G_GUINT64_FORMAT " rows", rows);
    }
  if (w->pageable && cold > 0)
    g_string_append_printf (b->text, ", %.0f%% of the host buffer not yet resident",
                            100.0 * (double) cold / (double) bytes);
  if (huge > 0)
    {
      g_string_append (b->text, ", ");
      builder_append_size (b->text, huge);
      g_string_append (b->text, " of it faulted in as huge pages");
    }
  if (cached)
    g_string_append (b->text, ", its buffer copied before with little between (in the CPU's caches)");
  if (w->timed)
    {
      g_string_append (b->text, ", ");
      builder_append_time (b->text, w->end - w->start);
      g_string_append (b->text, " on the GPU");
    }
  else
    {
      g_string_append (b->text, ", not timed by CUPTI (taken as pinned)");
      b->rec->n_untimed++;
    }
  builder_line_end (b);
  SimTime start = builder_work_start (b, w), end = builder_work_end (b, w);
  if (sync)
    {
      /* a blocking copy ends for the host when the call returns (or where
       * the host work after it began: write_call) */
      start = start >= 0 ? start : builder_since_t0 (b, issue);
      end = MAX (end, builder_since_t0 (b, c->exit));
    }
  builder_op_times (b, issue, start, end);
  return TRUE;
}

/* A call whose GPU work the language cannot express, as a comment with
 * what is known of that work (a memset's stream, size and memory, from the
 * call and CUPTI's record). */
static void
write_not_modelled (Builder *b, const RecordCall *c, const CallWork *w, gboolean per_thread,
                    const char *why)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_printf (text, "not modelled: %s (%s)", c->name, why);
  if (w->memset != NULL)
    {
      g_autofree char *stream = builder_stream_label (b, c->stream, per_thread);
      g_string_append_printf (text, ", in %s, ", stream);
      builder_append_size (text, w->memset->a[0]);
      g_string_append_printf (text, " of %s memory", record_memset_memory_name (w->memset->a[2]));
    }
  if (w->timed)
    {
      g_string_append (text, ", ");
      builder_append_time (text, w->end - w->start);
      g_string_append (text, " on the GPU");
    }
  builder_comment (b, "%s", text->str);
  b->rec->n_not_modelled++;
}

/* A memset call as a `memset` statement (record_memset.h); a memset the
 * statement cannot stand for is a comment, and one of no bytes nothing. */
static void
write_memset (Builder *b, const RecordCall *c, const CallWork *w, gboolean per_thread,
              guint64 issue)
{
  MemsetShape m;
  record_memset_shape (c, w->memset, b->log_has_memsets, &m);
  if (m.what == MEMSET_EMPTY)
    {
      builder_comment (b, "%s of 0 bytes: no GPU work", c->name);
      return;
    }
  if (m.what != MEMSET_OP)
    {
      write_not_modelled (b, c, w, per_thread,
                          m.what == MEMSET_NOT_DEVICE
                          ? "the language's memset is of device or pinned host memory"
                          : m.what == MEMSET_SYNC_PINNED
                          ? "a synchronous memset of pinned host memory: the host waits for it"
                          : "no CUPTI record, and the log keeps no size for it");
      return;
    }
  guint64 sync_stream = per_thread ? RECORD_STREAM_PER_THREAD : RECORD_STREAM_LEGACY;
  g_string_append_printf (b->text, "memset %s ",
                          builder_stream_name (b, m.sync ? sync_stream : c->stream, per_thread));
  builder_append_size (b->text, m.bytes);
  if (m.pinned)
    g_string_append (b->text, " pinned");
  g_string_append_printf (b->text, "   # %s", c->name);
  if (m.sync)
    g_string_append (b->text, " (of device memory: the host does not wait for it)");
  if (m.rows)
    g_string_append (b->text, ", a 2D or 3D memset as one of its bytes");
  if (m.no_stream)
    g_string_append (b->text, ", the log keeps no stream for it (taken as the call's handle)");
  if (m.untimed)
    {
      g_string_append (b->text, ", not timed by CUPTI (taken as device memory)");
      b->rec->n_untimed++;
    }
  else
    {
      g_string_append (b->text, ", ");
      builder_append_time (b->text, w->end - w->start);
      g_string_append (b->text, " on the GPU");
    }
  builder_line_end (b);
  builder_op_times (b, issue, builder_work_start (b, w), builder_work_end (b, w));
}

/* A host function or stream callback as a `hostfn` (record_hostfn.h). */
static void
write_hostfn (Builder *b, guint index, gboolean per_thread, guint64 issue)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const HostfnTime *h = &b->hostfn[index];
  g_string_append_printf (b->text, "hostfn %s ", builder_stream_name (b, c->stream, per_thread));
  b->rec->n_hostfn++;
  builder_append_time (b->text, h->time);
  g_string_append_printf (b->text, "   # %s; the recorder does not see the function run: ", c->name);
  if (h->how == HOSTFN_ESTIMATED)
    {
      g_string_append (b->text, "its stream's next work started ");
      builder_append_time (b->text, h->next_start - h->ready);
      g_string_append (b->text, " after the stream reached it, less ");
      builder_append_time (b->text, h->begin - h->ready);
      g_string_append_printf (b->text, " before the callback thread began it (the profile's "
                              "wake-up%s, or the function before it) and the profile's resume",
                              h->idle ? " where the stream was idle at the call" : "");
      b->rec->n_hostfn_estimated++;
    }
  else if (h->how == HOSTFN_ISSUED_LATE)
    g_string_append (b->text, "its stream's next work was issued after it had returned; "
                     "TIME is unknown, taken as 0");
  else
    g_string_append (b->text, "no later work in its stream shows when it returned; TIME is "
                     "unknown, taken as 0");
  builder_line_end (b);
  /* its row: the run as estimated, or the earliest it could have run */
  builder_op_times (b, issue, builder_since_t0 (b, h->begin), builder_since_t0 (b, h->end));
}

/* The `host` statement for the host time inside an op's call
 * (record_inside.h): before the op (`before`), or after it. */
static void
write_inside (Builder *b, const RecordCall *c, const CallWork *w, const InsideHost *in,
              gboolean before, gboolean blocking_op)
{
  g_autoptr (GString) why = g_string_new (NULL);
  g_string_append_printf (why, "inside %s, which took ", c->name);
  builder_append_time (why, builder_call_took (c));
  const char *sep = ": ";
  guint64 after = in->after + traced_written (b, in);
  if (!before && after > in->after)
    {
      g_string_append (why, ": the tracer's cost, ");
      builder_append_time (why, in->traced);
      g_string_append (why, " beyond the profile's");
      if (in->after == 0)
        {
          builder_write_host (b, c->exit - after, c->exit, why->str);
          return;
        }
      sep = "; then ";
    }
  if (before)
    {
      /* a blocking copy's against its group's delay to the work, an async
       * call's against its usual time */
      gboolean copy = in->kind == INSIDE_BLOCKING;
      g_string_append (why, copy ? ": set-up before its work started, beyond the usual "
                                 : ": set-up before its work started, beyond its usual ");
      builder_append_time (why, copy ? in->usual_setup : in->usual);
      if (copy)
        g_string_append (why, " of such copies");
      builder_write_host (b, c->enter, c->enter + in->before, why->str);
      return;
    }
  if (in->kind == INSIDE_FREE)
    g_string_append (why, " (host work after the GPU was idle, beyond the profile's "
                     "synchronize)");
  else if (in->kind == INSIDE_BLOCKING && in->usual > 0)
    {
      g_string_append (why, sep);
      g_string_append (why, "host work after the GPU work it waited for had ended, beyond "
                       "the usual ");
      builder_append_time (why, in->usual);
      g_string_append (why, " after it");
    }
  else if (in->kind == INSIDE_BLOCKING)
    g_string_append_printf (why, "%shost work after the GPU work it waited for had ended "
                            "(calls like it usually return by then)", sep);
  else if (in->no_usual)
    g_string_append_printf (why, "%shost work after its work had started (its only call of "
                            "the kind: no usual time to go by)", sep);
  else
    {
      g_string_append (why, sep);
      g_string_append (why, "host work after its work was submitted, beyond its usual ");
      builder_append_time (why, in->usual);
    }
  if (blocking_op)
    {
      /* a synchronize or blocking copy ends for the host where the host work
       * began (an async copy from pageable memory keeps CUPTI's end) */
      SimTime *end = &g_array_index (b->end, SimTime, b->end->len - 1);
      *end = MAX (builder_work_end (b, w), builder_since_t0 (b, c->exit - in->after));
    }
  builder_write_host (b, c->exit - after, c->exit, why->str);
}

/* One call as statements: `kind` and `per_thread` as classify() found
 * them, `op` as builder_makes_op() decided. */
static gboolean
write_call (Builder *b, guint index, RecordCallKind kind, gboolean per_thread, gboolean op)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  const InsideHost *in = &b->inside[index];
  gboolean blocking_op = kind != RECORD_CALL_COPY && builder_waits_for_gpu (kind, w);
  if (op && in->before > 0)
    write_inside (b, c, w, in, TRUE, blocking_op);
  /* the op is issued where the set-up before it ended */
  guint64 issue = c->enter + (op ? in->before : 0);
  SimTime enter = builder_since_t0 (b, issue), exit = builder_since_t0 (b, builder_call_exit (c, w));
  switch (kind)
    {
    case RECORD_CALL_HOST:
      break;
    case RECORD_CALL_STREAM_CREATE:
      builder_new_stream (b, c->stream, c->a[0], (gint64) c->a[1], NULL);
      break;
    case RECORD_CALL_COPY:
    case RECORD_CALL_MEMCPY:
      if (op && !write_copy (b, c, w, kind == RECORD_CALL_MEMCPY, per_thread, issue))
        return FALSE;
      if (!op && record_call_is_driver (c->name) && c->a[0] == 0 && !w->timed)
        {
          /* a driver copy whose log line has its kind kept its size too: none */
          if (c->a[1] != 0)
            builder_comment (b, "%s of 0 bytes: no GPU work", c->name);
          else
            write_not_modelled (b, c, w, per_thread,
                                "no CUPTI record, and the log keeps no size for it");
        }
      break;
    case RECORD_CALL_KERNEL:
      if (!builder_write_kernel (b, index, per_thread, issue))
        return FALSE;
      break;
    case RECORD_CALL_MEMSET:
      write_memset (b, c, w, per_thread, issue);
      break;
    case RECORD_CALL_HOSTFN:
      write_hostfn (b, index, per_thread, issue);
      break;
    case RECORD_CALL_GRAPH:
      if (op)
        builder_write_graph (b, index, per_thread, issue);
      else
        write_not_modelled (b, c, w, per_thread, b->graph_why[index]);
      break;
    case RECORD_CALL_RECORD:
      {
        const char *event = builder_event_name (b, c->event);
        g_hash_table_add (b->recorded, (gpointer) event);
        g_string_append_printf (b->text, "record %s %s", event,
                                builder_stream_name (b, c->stream, per_thread));
      }
      if (b->elapsed_from[index] > 0 && b->op_of_call[b->elapsed_from[index] - 1] > 0)
        {
          guint from = b->op_of_call[b->elapsed_from[index] - 1] - 1;
          g_string_append_printf (b->text, " label=" RECORD_ELAPSED_LABEL "%u   # the program "
                                  "timed op %u to here with cudaEventElapsedTime", from, from);
        }
      builder_line_end (b);
      builder_op_times (b, issue, -1, -1);
      break;
    case RECORD_CALL_WAIT:
      g_string_append_printf (b->text, "wait %s %s", builder_stream_name (b, c->stream, per_thread),
                              builder_event_name (b, c->event));
      builder_line_end (b);
      builder_op_times (b, issue, -1, -1);
      break;
    case RECORD_CALL_SYNC_EVENT:
    case RECORD_CALL_SYNC_STREAM:
    case RECORD_CALL_SYNC_DEVICE:
    case RECORD_CALL_FREE:
      g_string_append_printf (b->text, "%s %s", w->poll_end > 0 ? "poll" : "sync",
                              kind == RECORD_CALL_SYNC_EVENT ? builder_event_name (b, c->event)
                              : kind == RECORD_CALL_SYNC_STREAM ? builder_stream_name (b, c->stream, per_thread)
                              : "device");
      if (kind == RECORD_CALL_FREE)
        g_string_append_printf (b->text, "   # %s waits for the device", c->name);
      if (w->poll_end > 0)
        {
          if (w->poll_every > 0)
            {
              g_string_append (b->text, " every=");
              builder_append_time (b->text, w->poll_every);
            }
          g_string_append_printf (b->text, "   # %s %u times, until its work was done",
                                  c->name, w->poll_queries);
          b->rec->n_polls++;
        }
      builder_line_end (b);
      builder_op_times (b, issue, enter, exit);
      break;
    case RECORD_CALL_NOT_MODELLED:
      /* Stream-ordered allocation that CUPTI saw no GPU work for (a pool
       * with memory to give) is host time alone, which the gaps keep. */
      if (record_call_is_stream_alloc (c->name) && !w->timed && w->memset == NULL)
        builder_comment (b, "%s: stream-ordered allocation, no GPU work of its own; its host time is "
                 "in the gaps", c->name);
      else if (record_call_is_rows_copy (c->name))
        write_not_modelled (b, c, w, per_thread,
                            w->timed && w->copy_kind >= RECORD_COPY_HTOA
                            && w->copy_kind <= RECORD_COPY_DTOA
                            ? "a 3D copy to or from a CUDA array"
                            : c->a[2] == 0
                            ? "a 2D or 3D copy whose rows the log does not keep, as older "
                              "recorders' logs and profilers' traces do not"
                            : "a 2D or 3D copy whose rows rows= cannot hold: past 4294967295, "
                              "or not dividing its bytes");
      else
        write_not_modelled (b, c, w, per_thread, "its GPU work is missing from predictions");
      break;
    }
  if (op && in->after + traced_written (b, in) > 0)
    write_inside (b, c, w, in, FALSE, blocking_op);
  return TRUE;
}

/* The host time from one op's call returning (`from`) to the next one's
 * (`to`): a `host` statement when it is at least the minimum; shorter gaps
 * are added up in `*short_gaps` (between two calls that wait for the GPU),
 * and become one when their sum reaches the minimum, so that a stretch of
 * launches loses less than the minimum in all, not that much per launch.
 * Before a call that waits for GPU work that had already ended, or for
 * its own work on a stream with nothing left to run (`flush`: the inside
 * rules' `idle`), they are written whatever their sum: no wait absorbs
 * them. */
void
builder_write_gap (Builder *b, guint64 from, guint64 to, guint64 *short_gaps, gboolean flush)
{
  if (to > from && to - from >= b->opt->min_host_ns)
    {
      /* the short gaps before it, where no wait absorbs them, first */
      if (flush && *short_gaps > 0)
        builder_write_gap (b, from, from, short_gaps, TRUE);
      builder_write_host (b, from, to, NULL);
      return;
    }
  if (to > from)
    *short_gaps += to - from;
  if (*short_gaps == 0 || (*short_gaps < b->opt->min_host_ns && !flush))
    return;
  g_autoptr (GString) why = g_string_new (NULL);
  g_string_append (why, "host gaps under ");
  builder_append_time (why, b->opt->min_host_ns);
  g_string_append (why, " since the last call that waited for the GPU, added up");
  if (b->opt->traced_calls)
    g_string_append (why, " with the tracer's costs under it");
  builder_write_host (b, to - *short_gaps, to, why->str);
  *short_gaps = 0;
}

/* One call, `op` as builder_makes_op() decided, with the host time before it: in
 * its thread, from where that thread stood. */
gboolean
builder_write_step (Builder *b, guint index, gboolean op)
{
  const RecordCall *c = &g_array_index (b->log->calls, RecordCall, index);
  const CallWork *w = &b->work[index];
  HostPlace *place = b->place;
  gboolean per_thread;
  RecordCallKind kind = builder_call_kind (c, w, &per_thread);
  b->call_line = c->line;
  /* a later query of a loop written as a `poll`: inside it */
  if (w->polled)
    return TRUE;
  place->boundaries++;
  if (b->captured[index])
    {
      /* no GPU work at the call: it runs when the graph is launched */
      builder_comment (b, "captured into a graph: %s (it runs where the graph is launched)", c->name);
      b->rec->n_captured++;
      return TRUE;
    }
  if (op)
    {
      /* the recorder's own time at each call boundary since the last op
       * call is not the program's */
      guint64 to = c->enter;
      if (to > place->last_exit)
        to -= MIN (to - place->last_exit, b->opt->call_gap_ns * place->boundaries);
      place->boundaries = 0;
      builder_write_gap (b, place->last_exit, to, &place->short_gaps,
                 builder_waits_for_gpu (kind, w) && b->inside[index].idle);
      /* after the host time before it, if any */
      b->op_of_call[index] = b->issue->len + 1 + (b->inside[index].before > 0);
    }
  if (!write_call (b, index, kind, per_thread, op))
    return FALSE;
  if (!op)
    return TRUE;
  place->last_exit = MAX (place->last_exit, builder_call_exit (c, w));
  /* the tracer's cost under the minimum is added up as the gaps are */
  place->short_gaps += b->inside[index].traced - traced_written (b, &b->inside[index]);
  /* after a call that waits for the GPU the host's lag starts anew */
  if (builder_waits_for_gpu (kind, w))
    place->short_gaps = 0;
  return TRUE;
}
