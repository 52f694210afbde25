/* json_text.c: what a json-glib builder built, as the text of a file. */
#include "json_text.h"

char *
json_text_from_builder (JsonBuilder *builder, gboolean pretty, gsize *length)
{
  g_return_val_if_fail (builder != NULL, NULL);

  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  json_generator_set_pretty (generator, pretty);
  json_generator_set_root (generator, root);
  gsize n = 0;
  g_autofree char *text = json_generator_to_data (generator, &n);
  if (length != NULL)
    *length = n + 1;
  return g_strconcat (text, "\n", NULL);
}
