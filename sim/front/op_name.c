/* op_name.c: ops named by number and label in listings, and in the cause sentences they quote. */
#include "op_name.h"

#include <string.h>
#include "sim/core/printable.h"

void
op_name_append (GString *out, guint32 op, const char *label)
{
  g_return_if_fail (out != NULL);
  g_string_append_printf (out, "op %u", op);
  if (label == NULL || *label == '\0')
    return;
  g_autofree char *shown = printable_text (label, FALSE);
  gboolean quote = strpbrk (shown, " \"") != NULL;
  g_string_append_c (out, ' ');
  if (quote)
    g_string_append_c (out, '"');
  g_string_append (out, shown);
  if (quote)
    g_string_append_c (out, '"');
}

gsize
op_name_width (guint32 op, const char *label)
{
  g_autoptr (GString) name = g_string_new (NULL);
  op_name_append (name, op, label);
  return (gsize) g_utf8_strlen (name->str, (gssize) name->len);
}

char *
op_name_in_text (const char *text, OpLabelFunc label_of, gconstpointer data)
{
  return op_name_in_text_as (text, NULL, label_of, data);
}

char *
op_name_in_text_as (const char *text, OpNumberFunc number_of, OpLabelFunc label_of,
                    gconstpointer data)
{
  g_return_val_if_fail (text != NULL && label_of != NULL, NULL);
  GString *out = g_string_new (NULL);
  const char *p = text;
  while (*p != '\0')
    {
      /* "op " starting a word, then digits ending one */
      gboolean at_word = p == text || !g_ascii_isalnum (p[-1]);
      if (at_word && strncmp (p, "op ", 3) == 0 && g_ascii_isdigit (p[3]))
        {
          char *end = NULL;
          guint64 op = g_ascii_strtoull (p + 3, &end, 10);
          if (!g_ascii_isalnum (*end) && op <= G_MAXUINT32)
            {
              guint32 shown = number_of != NULL ? number_of ((guint32) op, data) : (guint32) op;
              op_name_append (out, shown, label_of ((guint32) op, data));
              p = end;
              continue;
            }
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}
