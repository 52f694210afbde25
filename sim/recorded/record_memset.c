/* record_memset.c: memset calls read as statements (record_memset.h). */
#include <string.h>
#include "record_memset.h"

gboolean
record_memset_is (const char *name)
{
  return g_str_has_prefix (name, "cudaMemset") || g_str_has_prefix (name, "cuMemset");
}

void
record_memset_shape (const RecordCall *c, const RecordWork *record, gboolean log_has_memsets,
                     MemsetShape *shape)
{
  *shape = (MemsetShape) {
    .sync = strstr (c->name, "Async") == NULL,
    .rows = strstr (c->name, "2D") != NULL || strstr (c->name, "3D") != NULL,
    .untimed = record == NULL,
    .bytes = record != NULL ? record->a[0] : c->a[0],
    .memory = record != NULL ? record->a[2] : 0,
  };
  /* an async memset whose call kept no size kept no stream either */
  shape->no_stream = !shape->sync && c->a[0] == 0 && shape->bytes > 0;
  shape->pinned = record != NULL && record->a[2] == RECORD_MEMORY_PINNED;
  if (shape->pinned && shape->sync)
    shape->what = MEMSET_SYNC_PINNED;
  else if (record != NULL && !shape->pinned && record->a[2] != RECORD_MEMORY_DEVICE
           && record->a[2] != RECORD_MEMORY_DEVICE_STATIC)
    shape->what = MEMSET_NOT_DEVICE;
  else if (shape->bytes > 0)
    shape->what = MEMSET_OP;
  else
    shape->what = log_has_memsets ? MEMSET_EMPTY : MEMSET_SIZE_UNKNOWN;
}

const char *
record_memset_memory_name (guint64 kind)
{
  static const char *const names[] = { "unknown", "pageable", "pinned", "device", "array",
                                       "managed", "static device", "static managed" };
  return kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}
