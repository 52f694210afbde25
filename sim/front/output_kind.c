/* output_kind.c: an output's kind from its extension, and refusals that say what the option takes. */
#include "output_kind.h"

#include <string.h>

OutputKind
output_kind_of (const char *path)
{
  g_return_val_if_fail (path != NULL, OUTPUT_KIND_OTHER);
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;
  const char *dot = strrchr (base, '.');
  if (dot == NULL || dot == base)
    return OUTPUT_KIND_BARE;
  static const struct
  {
    const char *extension;
    OutputKind kind;
  } kinds[] = {
    { ".csv", OUTPUT_KIND_CSV },
    { ".json", OUTPUT_KIND_JSON },
    { ".png", OUTPUT_KIND_PNG },
    { ".svg", OUTPUT_KIND_SVG },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_ascii_strcasecmp (dot, kinds[i].extension) == 0)
      return kinds[i].kind;
  return OUTPUT_KIND_OTHER;
}

gboolean
output_kind_check (const char *option, const char *path, guint allowed, const char *expected,
                   GError **error)
{
  g_return_val_if_fail (option != NULL && path != NULL && expected != NULL, FALSE);
  OutputKind kind = output_kind_of (path);
  if ((kind & allowed) != 0)
    return TRUE;
  const char *slash = strrchr (path, '/');
  const char *dot = strrchr (slash != NULL ? slash + 1 : path, '.');
  g_autofree char *what = kind == OUTPUT_KIND_BARE
                            ? g_strdup ("the name has no extension to tell what to write")
                            : g_strdup_printf ("the name ends in %s", dot);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s: %s; %s", option, path,
               what, expected);
  return FALSE;
}
