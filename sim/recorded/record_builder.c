/* record_builder.c: the text a log is written as (record_builder.h): its lines and comments, the
 * names of streams and events, declared where first used, and each op's times. */
#include "sim/core/located_error.h"
#include "sim/formats/units.h"
#include "record_builder.h"

void
builder_line_end (Builder *b)
{
  g_string_append_c (b->text, '\n');
  g_array_append_val (b->origin, b->call_line);
}

void G_GNUC_PRINTF (2, 3)
builder_comment (Builder *b, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_string_append (b->text, "# ");
  g_string_append_vprintf (b->text, format, args);
  va_end (args);
  builder_line_end (b);
}

void
builder_append_size (GString *s, guint64 bytes)
{
  g_autofree char *text = units_format_exact_size (bytes);
  g_string_append (s, text);
}

/* Nanoseconds exactly, as microseconds with three decimals. */
void
builder_append_time (GString *s, guint64 ns)
{
  g_string_append_printf (s, "%" G_GUINT64_FORMAT ".%03uus", ns / 1000, (guint) (ns % 1000));
}

gboolean G_GNUC_PRINTF (3, 4)
builder_fail (Builder *b, const RecordCall *c, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  located_error_setv (b->error, RECORD_ERROR, RECORD_ERROR_PARSE, b->log->path, c->line, 1,
                      format, args);
  va_end (args);
  return FALSE;
}

static const char *
remember (Builder *b, GHashTable *table, guint64 handle, char *name)
{
  g_ptr_array_add (b->names, name);
  g_hash_table_insert (table, g_memdup2 (&handle, sizeof handle), name);
  return name;
}

/* Declarations stand at the top level: while a thread block is written,
 * one goes before it. Swaps the block's text and the top level's, so that
 * a declaration is written between two calls of this (at its line's start). */
void
builder_swap_top (Builder *b)
{
  if (b->top_text == NULL)
    return;
  GString *text = b->text;
  GArray *origin = b->origin;
  b->text = b->top_text;
  b->origin = b->top_origin;
  b->top_text = text;
  b->top_origin = origin;
}

const char *
builder_new_stream (Builder *b, guint64 handle, guint64 flags, gint64 priority, const char *why)
{
  const char *name = remember (b, b->streams, handle, g_strdup_printf ("s%u", ++b->n_streams));
  builder_swap_top (b);
  g_string_append_printf (b->text, "stream %s", name);
  if (flags & 1) /* cudaStreamNonBlocking */
    g_string_append (b->text, " nonblocking");
  if (priority != 0)
    g_string_append_printf (b->text, " priority=%" G_GINT64_FORMAT, priority);
  if (why != NULL)
    g_string_append_printf (b->text, "   # %s", why);
  builder_line_end (b);
  builder_swap_top (b);
  return name;
}

/* The schedule's name for a thread's per-thread default stream (each host
 * thread has one of its own): "per_thread" for the top level's. */
static char *
per_thread_stream (const Builder *b, guint thread)
{
  return thread == b->top_thread ? g_strdup ("per_thread") : g_strdup_printf ("per_thread_t%u", thread);
}

/* The per-thread default stream of the thread whose calls are written,
 * declared on its first use. */
static const char *
per_thread_name (Builder *b)
{
  const char *name = g_hash_table_lookup (b->per_thread, GUINT_TO_POINTER (b->thread));
  if (name != NULL)
    return name;
  char *made = per_thread_stream (b, b->thread);
  g_ptr_array_add (b->names, made);
  g_hash_table_insert (b->per_thread, GUINT_TO_POINTER (b->thread), made);
  builder_swap_top (b);
  if (b->thread == b->top_thread)
    g_string_append_printf (b->text, "stream %s   # the per-thread default stream", made);
  else
    g_string_append_printf (b->text, "stream %s   # thread t%u's per-thread default stream", made,
                            b->thread);
  builder_line_end (b);
  builder_swap_top (b);
  return made;
}

/* The schedule's name for a stream handle, declaring it on first use when
 * the runtime did not create it (the per-thread stream; a library's stream
 * made through the driver API). */
const char *
builder_stream_name (Builder *b, guint64 handle, gboolean per_thread)
{
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY)
    return "default";
  if (handle == 0 || handle == RECORD_STREAM_PER_THREAD)
    return per_thread_name (b);
  const char *name = g_hash_table_lookup (b->streams, &handle);
  if (name == NULL)
    name = builder_new_stream (b, handle, 0, 0, "created outside the runtime API (a library?)");
  return name;
}

const char *
builder_event_name (Builder *b, guint64 handle)
{
  const char *name = g_hash_table_lookup (b->events, &handle);
  if (name == NULL)
    {
      name = remember (b, b->events, handle, g_strdup_printf ("e%u", ++b->n_events));
      g_ptr_array_add (b->event_names, (gpointer) name);
    }
  return name;
}

/* The schedule's name for a stream, for a comment: declares nothing. */
char *
builder_stream_label (const Builder *b, guint64 handle, gboolean per_thread)
{
  if ((handle == 0 && !per_thread) || handle == RECORD_STREAM_LEGACY)
    return g_strdup ("default");
  if (handle == 0 || handle == RECORD_STREAM_PER_THREAD)
    return per_thread_stream (b, b->thread);
  const char *name = g_hash_table_lookup (b->streams, &handle);
  return name != NULL ? g_strdup (name) : g_strdup_printf ("stream 0x%" G_GINT64_MODIFIER "x", handle);
}

SimTime
builder_since_t0 (const Builder *b, guint64 t)
{
  return t >= b->t0 ? (SimTime) (t - b->t0) : -(SimTime) (b->t0 - t);
}

/* Opens an op's statement: its times go into the per-op arrays. */
void
builder_op_times (Builder *b, guint64 issue, SimTime start, SimTime end)
{
  SimTime i = builder_since_t0 (b, issue);
  g_array_append_val (b->issue, i);
  g_array_append_val (b->start, start);
  g_array_append_val (b->end, end);
}

/* How long a call ran on the host; 0 for one the recorder saw no return of. */
guint64
builder_call_took (const RecordCall *c)
{
  return c->exit > c->enter ? c->exit - c->enter : 0;
}

/* A `host` statement for host work from `from` to `to` (CUPTI clock);
 * `why`, when not NULL, ends it as a comment. */
void
builder_write_host (Builder *b, guint64 from, guint64 to, const char *why)
{
  g_string_append (b->text, "host ");
  builder_append_time (b->text, to - from);
  if (why != NULL)
    g_string_append_printf (b->text, "   # %s", why);
  builder_line_end (b);
  builder_op_times (b, from, builder_since_t0 (b, from), builder_since_t0 (b, to));
}

SimTime
builder_work_start (const Builder *b, const CallWork *w)
{
  return w->timed ? builder_since_t0 (b, w->start) : -1;
}

SimTime
builder_work_end (const Builder *b, const CallWork *w)
{
  return w->timed ? builder_since_t0 (b, w->end) : -1;
}
