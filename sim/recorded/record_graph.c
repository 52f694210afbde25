/* record_graph.c: a graph launch's nodes (record_graph.h). */
#include "record_graph.h"

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const RecordWork *x = *(const RecordWork *const *) a, *y = *(const RecordWork *const *) b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* Whether the language has a statement for this node. */
static const char *
node_unwritable (const RecordWork *w)
{
  switch (w->kind)
    {
    case RECORD_WORK_KERNEL:
      return w->a[0] == 0 || w->a[1] == 0 ? "a kernel node of no block or no thread" : NULL;
    case RECORD_WORK_MEMSET:
      /* a graph's memset nodes set device memory; CUPTI may not say so */
      return w->a[2] == RECORD_MEMORY_DEVICE || w->a[2] == RECORD_MEMORY_UNKNOWN
             || w->a[2] == RECORD_MEMORY_DEVICE_STATIC
             ? NULL : "a memset node of memory not the device's";
    case RECORD_WORK_COPY:
      return w->a[1] == RECORD_COPY_HTOD || w->a[1] == RECORD_COPY_DTOH || w->a[1] == RECORD_COPY_DTOD
             ? NULL : "a copy node neither host to device, device to host nor device to device";
    }
  return "a node of an unknown kind";
}

const char *
record_graph_nodes (GPtrArray *nodes)
{
  if (nodes == NULL || nodes->len == 0)
    return "no GPU work recorded for it";
  g_ptr_array_sort (nodes, by_start);
  for (guint i = 0; i < nodes->len; i++)
    {
      const char *why = node_unwritable (g_ptr_array_index (nodes, i));
      if (why != NULL)
        return why;
    }
  return NULL;
}
