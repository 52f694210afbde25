/* json_text.h: what a json-glib builder built, as the text of a file. */
#ifndef JSON_TEXT_H
#define JSON_TEXT_H

#include <json-glib/json-glib.h>

/* The builder's root as JSON text, indented when `pretty`, ending in a line
 * break as a text file does. Newly allocated; sets *length when not NULL. */
char *json_text_from_builder (JsonBuilder *builder, gboolean pretty, gsize *length);

#endif /* JSON_TEXT_H */
