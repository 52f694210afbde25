/* record_hostfn.c: host functions' times from their streams (record_hostfn.h). */
#include "record_hostfn.h"

typedef struct
{
  guint64 done;         /* the latest end of its work so far */
  guint pending;        /* the host function waiting for its next work, + 1; 0: none */
} StreamState;

static StreamState *
state_of (GHashTable *streams, guint64 handle)
{
  StreamState *s = g_hash_table_lookup (streams, &handle);
  if (s == NULL)
    {
      s = g_new0 (StreamState, 1);
      g_hash_table_insert (streams, g_memdup2 (&handle, sizeof handle), s);
    }
  return s;
}

/* The host function `h`, whose stream's next work starts at `start` and
 * was issued at `issued`; `*thread_free` is when the callback thread can
 * begin another one. Returns when its stream went on. */
static guint64
estimate (HostfnTime *h, guint64 start, guint64 issued, const HostfnCosts *costs,
          guint64 *thread_free)
{
  h->next_start = start;
  guint64 end = start > costs->resume ? start - costs->resume : 0;
  if (issued > end)
    {
      h->how = HOSTFN_ISSUED_LATE;
      return h->end;
    }
  h->how = HOSTFN_ESTIMATED;
  h->begin = MAX (h->begin, *thread_free);
  h->end = MAX (end, h->begin);
  h->time = h->end - h->begin;
  *thread_free = h->end + costs->next;
  return h->end;
}

HostfnTime *
record_hostfn_find (const HostfnCall *calls, guint n, const HostfnCosts *costs)
{
  HostfnTime *out = g_new0 (HostfnTime, MAX (n, 1));
  g_autoptr (GHashTable) streams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint64 thread_free = 0;
  for (guint i = 0; i < n; i++)
    {
      const HostfnCall *c = &calls[i];
      if (c->role == HOSTFN_ROLE_OTHER)
        continue;
      StreamState *s = state_of (streams, c->stream);
      if (c->role == HOSTFN_ROLE_HOSTFN)
        {
          /* one before it with no work between stays unseen */
          if (s->pending > 0)
            s->done = MAX (s->done, out[s->pending - 1].end);
          HostfnTime *h = &out[i];
          h->how = HOSTFN_UNSEEN;
          h->idle = s->done <= c->enter;
          h->ready = MAX (s->done, c->exit);
          h->begin = h->end = h->ready + (h->idle ? costs->wake_idle : costs->wake);
          s->pending = i + 1;
          continue;
        }
      if (!c->timed)
        continue;
      if (s->pending > 0)
        {
          guint64 went_on = estimate (&out[s->pending - 1], c->start, c->exit, costs, &thread_free);
          s->done = MAX (s->done, went_on);
        }
      s->pending = 0;
      s->done = MAX (s->done, c->end);
    }
  return out;
}
