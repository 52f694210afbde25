/* record_inside.c: host time inside recorded calls (record_inside.h). */
#include "record_inside.h"
#include "value_groups.h"

/* When the GPU work each blocking call waited for ended (0: none), from
 * the work of the calls before it, in the order they began; and in
 * `before`, where not NULL, when the work its stream had been given before
 * it ended (a call's own work starts after that). */
static guint64 *
find_ready (const InsideCall *calls, guint n, guint64 *before)
{
  guint64 *ready = g_new0 (guint64, MAX (n, 1));
  /* stream key -> the latest end of its work so far; event -> its record's */
  g_autoptr (GHashTable) streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GHashTable) events = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint64 all = 0, blocking = 0; /* every stream's work; the blocking streams' */
  /* streams given work CUPTI did not time, since their last timed work
   * (which ran after it): when their work ends is not known */
  g_autoptr (GHashTable) untimed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gboolean blocking_untimed = FALSE;
  for (guint i = 0; i < n; i++)
    {
      const InsideCall *c = &calls[i];
      const guint64 *mine = g_hash_table_lookup (streams, &c->stream);
      guint64 in_stream = c->stream == INSIDE_STREAM_LEGACY ? blocking : mine != NULL ? *mine : 0;
      gboolean unknown = c->stream == INSIDE_STREAM_LEGACY ? blocking_untimed
                         : g_hash_table_contains (untimed, &c->stream);
      if (before != NULL)
        before[i] = unknown ? G_MAXUINT64 : in_stream;
      if (c->untimed_work)
        {
          g_hash_table_add (untimed, g_memdup2 (&c->stream, sizeof c->stream));
          blocking_untimed |= !c->nonblocking;
        }
      else if (c->timed)
        {
          g_hash_table_remove (untimed, &c->stream);
          if (c->stream == INSIDE_STREAM_LEGACY)
            blocking_untimed = FALSE;
        }
      if (c->kind == INSIDE_FREE)
        ready[i] = all;
      else if (c->kind == INSIDE_BLOCKING)
        {
          const guint64 *recorded = g_hash_table_lookup (events, &c->event);
          ready[i] = c->waits == INSIDE_WAITS_OWN ? (c->timed ? c->end : 0)
                   : c->waits == INSIDE_WAITS_STREAM ? in_stream
                   : c->waits == INSIDE_WAITS_EVENT ? (recorded != NULL ? *recorded : 0)
                   : all;
        }
      if (c->records)
        g_hash_table_replace (events, g_memdup2 (&c->event, sizeof c->event),
                              g_memdup2 (&in_stream, sizeof in_stream));
      const guint64 *waited = c->waits_event ? g_hash_table_lookup (events, &c->event) : NULL;
      if (waited != NULL && *waited > in_stream)
        {
          /* the stream's later work runs after the event's */
          g_hash_table_replace (streams, g_memdup2 (&c->stream, sizeof c->stream),
                                g_memdup2 (waited, sizeof *waited));
          if (c->stream == INSIDE_STREAM_LEGACY)
            blocking = MAX (blocking, *waited);
        }
      if (c->timed)
        {
          guint64 end = MAX (in_stream, c->end);
          g_hash_table_replace (streams, g_memdup2 (&c->stream, sizeof c->stream),
                                g_memdup2 (&end, sizeof end));
          all = MAX (all, c->end);
          if (!c->nonblocking)
            blocking = MAX (blocking, c->end);
        }
    }
  return ready;
}

/* How long a call took, or (`blocking`) how long it ran on after the GPU
 * work it waited for; negative when it returned before that work ended. */
static gint64
measure (const InsideCall *c, guint64 ready)
{
  guint64 from = c->kind == INSIDE_BLOCKING ? MAX (c->enter, ready) : c->enter;
  if (c->kind == INSIDE_BLOCKING && c->waits == INSIDE_WAITS_OWN)
    from = ready; /* its own copy: may end after the call returned */
  if (c->exit >= from)
    return (gint64) MIN (c->exit - from, (guint64) G_MAXINT64);
  return -(gint64) MIN (from - c->exit, (guint64) G_MAXINT64);
}

/* Per group of async and blocking calls: its calls' measures, sorted. */
static GHashTable *
group_measures (const InsideCall *calls, guint n, const guint64 *ready)
{
  GHashTable *groups = value_groups_new ();
  for (guint i = 0; i < n; i++)
    {
      const InsideCall *c = &calls[i];
      if (c->kind != INSIDE_ASYNC && c->kind != INSIDE_BLOCKING)
        continue;
      if (c->kind == INSIDE_BLOCKING && c->waits == INSIDE_WAITS_OWN && !c->timed)
        continue;
      value_groups_add (groups, c->group, measure (c, ready[i]));
    }
  return value_groups_sort (groups);
}

gint64 *
record_inside_usual (const InsideCall *calls, guint n)
{
  g_autofree guint64 *ready = find_ready (calls, n, NULL);
  g_autoptr (GHashTable) groups = group_measures (calls, n, ready);
  gint64 *usual = g_new (gint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const GArray *m = calls[i].kind == INSIDE_ASYNC || calls[i].kind == INSIDE_BLOCKING
                        ? g_hash_table_lookup (groups, calls[i].group) : NULL;
      usual[i] = m != NULL && m->len >= 2 ? MAX (g_array_index (m, gint64, (m->len - 1) / 2), 0) : -1;
    }
  return usual;
}

/* An async call: the set-up beyond its usual time, split at its work's start. */
static void
split_async (const InsideCall *c, const GArray *group, guint64 min_host, InsideHost *h)
{
  guint64 took = c->exit - c->enter;
  if (group->len < 2)
    {
      /* no usual time: only what ran on after its work had started */
      h->no_usual = TRUE;
      if (c->timed && c->start < c->exit && c->exit - MAX (c->start, c->enter) >= min_host)
        h->after = c->exit - MAX (c->start, c->enter);
      return;
    }
  guint64 group_usual = (guint64) MAX (g_array_index (group, gint64, (group->len - 1) / 2), 0);
  guint64 usual = group_usual + c->charged;
  /* the minimum more than what the model charges; and for a call it
   * charges no more than the others, at least twice their usual time */
  if (took < usual || took - usual < min_host || (c->charged == 0 && took - usual < group_usual))
    return;
  guint64 extra = took - usual;
  h->usual = usual;
  if (c->timed && c->start > c->enter && c->start - c->enter > usual)
    h->before = MIN (extra, c->start - c->enter - usual);
  h->after = extra - h->before;
}

/* How long after its call, and after its stream's earlier work (`in_stream`,
 * G_MAXUINT64 unknown), a blocking copy's own work started; -1 where that is
 * not known. */
static gint64
setup_delay (const InsideCall *c, guint64 in_stream)
{
  if (c->kind != INSIDE_BLOCKING || c->waits != INSIDE_WAITS_OWN || !c->timed
      || c->setup_group == NULL || in_stream == G_MAXUINT64)
    return -1;
  guint64 from = MAX (c->enter, in_stream);
  return c->start > from ? (gint64) MIN (c->start - from, (guint64) G_MAXINT64) : 0;
}

/* Per setup_group of blocking copies: their set-up delays, sorted. */
static GHashTable *
group_delays (const InsideCall *calls, guint n, const guint64 *in_stream)
{
  GHashTable *groups = value_groups_new ();
  for (guint i = 0; i < n; i++)
    {
      gint64 d = setup_delay (&calls[i], in_stream[i]);
      if (d >= 0)
        value_groups_add (groups, calls[i].setup_group, d);
    }
  return value_groups_sort (groups);
}

/* A blocking copy: its set-up before its work beyond its group's usual. */
static void
split_setup (const InsideCall *c, gint64 delay, const GArray *group, guint64 min_host,
             InsideHost *h)
{
  if (delay < 0 || c->untouched || group == NULL || group->len < 2)
    return;
  gint64 usual = g_array_index (group, gint64, (group->len - 1) / 2);
  if (delay - usual < usual || (guint64) (delay - usual) < min_host)
    return;
  h->usual_setup = (guint64) usual;
  h->before = (guint64) (delay - usual);
}

/* What the model charges a call that sleeps after the GPU work it waited
 * for: the return of a spinning one and the wake (InsideCall.sleeps; a
 * blocking copy's as the engine returns it, gpu_profile_copy_return); 0 for
 * one that spins. */
static guint64
sleep_charge (const InsideCall *c, guint64 ready)
{
  if (c->sleeps == NULL)
    return 0;
  SimTime waited = ready > c->enter ? (SimTime) MIN (ready - c->enter, (guint64) G_MAXINT64) : 0;
  /* its copy ends `waited` after the call: the return after that end */
  if (c->kind != INSIDE_FREE && c->waits == INSIDE_WAITS_OWN)
    return (guint64) (gpu_profile_copy_return (c->sleeps, TRUE, 0, waited) - waited);
  SimTime spin = c->kind == INSIDE_FREE ? (SimTime) c->charged_wait : c->sleeps->host_sync;
  return (guint64) (spin + gpu_profile_blocking_wake (c->sleeps, waited));
}

/* A blocking call: how much longer than usual it ran on after the GPU work. */
static void
split_blocking (const InsideCall *c, guint64 ready, const GArray *group, guint64 min_host,
                InsideHost *h)
{
  if (c->waits == INSIDE_WAITS_OWN && !c->timed)
    return;
  gint64 post = measure (c, ready);
  gint64 usual = MAX (g_array_index (group, gint64, (group->len - 1) / 2), 0);
  usual = MAX (usual, (gint64) sleep_charge (c, ready));
  /* at least twice the usual time after the work, and the minimum more */
  if (post <= 0 || post - usual < usual || (guint64) (post - usual) < min_host)
    return;
  h->usual = (guint64) usual;
  h->after = (guint64) (post - usual);
}

InsideHost *
record_inside_find (const InsideCall *calls, guint n, guint64 min_host_ns)
{
  InsideHost *host = g_new0 (InsideHost, MAX (n, 1));
  g_autofree guint64 *before = g_new0 (guint64, MAX (n, 1));
  g_autofree guint64 *ready = find_ready (calls, n, before);
  g_autoptr (GHashTable) groups = group_measures (calls, n, ready);
  g_autoptr (GHashTable) delays = group_delays (calls, n, before);
  for (guint i = 0; i < n; i++)
    {
      const InsideCall *c = &calls[i];
      gboolean waits_other = (c->kind == INSIDE_BLOCKING && c->waits != INSIDE_WAITS_OWN)
                             || c->kind == INSIDE_FREE;
      host[i].kind = c->kind;
      host[i].idle = (waits_other ? ready[i] : before[i]) < c->enter;
      if (waits_other)
        host[i].ready = ready[i];
      if (c->exit <= c->enter)
        continue;
      switch (c->kind)
        {
        case INSIDE_ASYNC:
          split_async (c, g_hash_table_lookup (groups, c->group), min_host_ns, &host[i]);
          break;
        case INSIDE_BLOCKING:
          if (g_hash_table_contains (groups, c->group))
            split_blocking (c, ready[i], g_hash_table_lookup (groups, c->group), min_host_ns,
                            &host[i]);
          if (c->setup_group != NULL)
            split_setup (c, setup_delay (c, before[i]),
                         g_hash_table_lookup (delays, c->setup_group), min_host_ns, &host[i]);
          break;
        case INSIDE_FREE:
          {
            /* the call's time after the GPU was idle, less what the model
             * charges the `sync device` it is written as */
            guint64 from = MAX (c->enter, ready[i]);
            guint64 model = ready[i] > c->enter ? MAX (c->charged_wait, sleep_charge (c, ready[i]))
                                                : c->charged;
            if (c->exit > from + model)
              host[i].after = c->exit - from - model;
          }
          break;
        case INSIDE_OTHER:
          break;
        }
    }
  return host;
}
