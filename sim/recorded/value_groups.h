/* value_groups.h: 64-bit values kept by the name of their group, for the recorder's usual times (record_inside.c) and lone runs (record_alone.c).
 *
 * A table maps a group's name (not owned, compared by content) to a GArray
 * of gint64; value_groups_sort sorts every group's values once all are in. */
#ifndef VALUE_GROUPS_H
#define VALUE_GROUPS_H

#include <glib.h>

GHashTable *value_groups_new (void);
void value_groups_add (GHashTable *groups, const char *name, gint64 value);
/* Sorts each group's values, smallest first; returns `groups`. */
GHashTable *value_groups_sort (GHashTable *groups);

#endif /* VALUE_GROUPS_H */
