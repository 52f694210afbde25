/* output_kind.h: what an output file holds, told by its name's extension, so a CSV never lands in a .png. */
#ifndef OUTPUT_KIND_H
#define OUTPUT_KIND_H

#include <glib.h>

typedef enum
{
  OUTPUT_KIND_BARE = 1 << 0,  /* no extension: "-" (standard output), /dev/null, "timeline" */
  OUTPUT_KIND_CSV = 1 << 1,   /* .csv */
  OUTPUT_KIND_JSON = 1 << 2,  /* .json */
  OUTPUT_KIND_PNG = 1 << 3,   /* .png */
  OUTPUT_KIND_SVG = 1 << 4,   /* .svg */
  OUTPUT_KIND_OTHER = 1 << 5, /* any other extension: .txt, .jpg, ... */
} OutputKind;

#define OUTPUT_KIND_PICTURE (OUTPUT_KIND_PNG | OUTPUT_KIND_SVG)

/* The kind of `path` by the extension of its last component, case ignored
 * ("T.PNG" is a PNG); a leading dot (".csv") is a name, not an extension. */
OutputKind output_kind_of (const char *path);

/* Checks that `path`, given to `option` (as typed: "--csv", "-o"), is of
 * one of the kinds in `allowed`; else a G_OPTION_ERROR_BAD_VALUE "OPTION
 * PATH: the name ends in .png; EXPECTED", where `expected` says what the
 * option takes ("--csv writes the timeline CSV: name it .csv"). */
gboolean output_kind_check (const char *option, const char *path, guint allowed,
                            const char *expected, GError **error);

#endif /* OUTPUT_KIND_H */
