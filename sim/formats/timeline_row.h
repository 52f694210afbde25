/* timeline_row.h: one timeline row as a line of CSV: the formatter the writer uses, and its plain reference for the tests. */
#ifndef TIMELINE_ROW_H
#define TIMELINE_ROW_H

#include <glib.h>
#include "timeline.h"

/* Appends `row` to `s` as one line of CSV, its '\n' included: the columns
 * in timeline.h's order, the thread column (row->issuer) last where `issuer`
 * is set; a field holding a comma, quote or line break quoted as RFC 4180
 * says; a NULL label, cause or issuer, a negative conn and a zero bytes,
 * grid or block left empty. */
void timeline_row_append (GString *s, const TimelineRow *row, gboolean issuer);

/* The same text by GString appends and g_string_append_printf: the plain
 * version, which tests/test_timeline_row.c compares timeline_row_append
 * against. */
void timeline_row_append_reference (GString *s, const TimelineRow *row, gboolean issuer);

#endif /* TIMELINE_ROW_H */
