/* op_name.h: how listings (--explain, --critical-path, compare --ops and --regions) name an op: "op 7", or "op 7 h2d-3" when it has a label. */
#ifndef OP_NAME_H
#define OP_NAME_H

#include <glib.h>

/* The label of op `op`, or NULL when it has none (or there is no op `op`). */
typedef const char *(*OpLabelFunc) (guint32 op, gconstpointer data);

/* Appends "op N", or "op N LABEL" when `label` is neither NULL nor empty. A
 * label holding a blank or a double quote is written in double quotes
 * ("op 7 \"my gemm\""), and control characters as escapes (printable.h),
 * so that the name stays one word on one line. */
void op_name_append (GString *out, guint32 op, const char *label);

/* The number of characters op_name_append writes for it. */
gsize op_name_width (guint32 op, const char *label);

/* A copy of `text` (a cause sentence of the timeline, "engine h2d busy
 * with op 7") in which every "op N" names its op as op_name_append does
 * ("engine h2d busy with op 7 h2d-3"). Newly allocated. */
char *op_name_in_text (const char *text, OpLabelFunc label_of, gconstpointer data);

/* The number an op of the sentence's run has in the listing: the runs that
 * advise simulates hold the ops in another order than the file. */
typedef guint32 (*OpNumberFunc) (guint32 op, gconstpointer data);

/* op_name_in_text, each "op N" named as the op number_of (N) (its label
 * still label_of (N)). */
char *op_name_in_text_as (const char *text, OpNumberFunc number_of, OpLabelFunc label_of,
                          gconstpointer data);

#endif /* OP_NAME_H */
