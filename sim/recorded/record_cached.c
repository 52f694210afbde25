/* record_cached.c: which recorded pageable H2Ds read a buffer still in the CPU's caches (`pageable cached`).
 *
 * A pageable H2D goes through the CPU, which reads the buffer into the
 * driver's staging memory: a buffer the CPU read or wrote a moment ago
 * comes from its caches, about twice as fast as one from memory (the
 * profile's cached link, engines/MODEL.md). A program that copies the same
 * buffer again, as a loop over its data does, reads it cached as long as
 * little else went through the CPU in between. pageable_probe.cu `between`
 * timed an H2D of a 4 or 16 MiB buffer copied just before, with other
 * pageable H2Ds between the two: with up to 32 MiB of them the copy took
 * what it took with none, in each of three processes, and from 64 MiB on it
 * slowed towards an evicted buffer's time (validate/results/h200/cached-between/).
 *
 * So an H2D whose host bytes (the log's `buffer` line, where the copy
 * began) all lay in the host buffer of an earlier pageable copy, either
 * way, with at most CACHED_BETWEEN bytes copied after them (by that copy
 * beyond them, and by the pageable copies after it), is written `cached`;
 * but not one of untouched memory, which no cache holds. Logs without
 * `buffer` lines have none. The earlier copy is the latest from the same
 * address or one of the last CACHED_INSIDE_LAST copies. */
#include "record_builder.h"

#define CACHED_BETWEEN (32u << 20)
/* Where the H2D's bytes began inside an earlier copy's, rather than where
 * that copy began, only the last few copies are looked at: the search is a
 * bound on the work for logs of many small copies, not a measurement. */
#define CACHED_INSIDE_LAST 64u

/* A pageable copy's host buffer, and the pageable bytes copied up to and
 * with it. */
typedef struct
{
  guint64 address, bytes, total;
} Copied;

/* Whether `p` held the H2D's `bytes` at `address` with at most
 * CACHED_BETWEEN bytes copied after them, `total` having been copied by
 * all the copies before the H2D. */
static gboolean
holds_cached (const Copied *p, guint64 address, guint64 bytes, guint64 total)
{
  if (address < p->address || address - p->address + bytes > p->bytes)
    return FALSE;
  guint64 beyond = p->address + p->bytes - (address + bytes);
  return total - p->total + beyond <= CACHED_BETWEEN;
}

/* The log's host address of a call's buffer, or NULL. */
static const guint64 *
buffer_of (const Builder *b, const RecordCall *c)
{
  return g_hash_table_lookup (b->log->buffers, GUINT_TO_POINTER (c->correlation));
}

void
builder_find_cached (Builder *b, const guint *order)
{
  guint n = b->log->calls->len;
  b->cached = g_new0 (gboolean, MAX (n, 1));
  /* the latest copy from each address, and the last few copies */
  g_autoptr (GHashTable) from = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  Copied last[CACHED_INSIDE_LAST];
  guint n_last = 0;
  guint64 total = 0;
  for (guint k = 0; k < n; k++)
    {
      guint i = order[k];
      const RecordCall *c = &g_array_index (b->log->calls, RecordCall, i);
      const guint64 *address = buffer_of (b, c);
      const CallWork *w = &b->work[i];
      guint64 bytes;
      guint kind;
      if (address == NULL || !w->pageable || record_call_is_rows_copy (c->name))
        continue;
      builder_copy_shape (c, w, &bytes, &kind);
      if (bytes == 0)
        continue;
      if (kind == RECORD_MEMCPY_H2D && c->a[2] == 0)
        {
          const Copied *same = g_hash_table_lookup (from, address);
          b->cached[i] = same != NULL && holds_cached (same, *address, bytes, total);
          for (guint j = 0; j < MIN (n_last, CACHED_INSIDE_LAST) && !b->cached[i]; j++)
            b->cached[i] = holds_cached (&last[j], *address, bytes, total);
        }
      total += bytes;
      Copied *now = g_new (Copied, 1);
      *now = (Copied) { *address, bytes, total };
      g_hash_table_replace (from, &now->address, now);
      last[n_last++ % CACHED_INSIDE_LAST] = *now;
    }
}
