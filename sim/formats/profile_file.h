/* profile_file.h: device profiles as GLib key files (engines/profiles/NAME.ini):
 * found (profile_search.c), loaded (profile_load.c), saved (profile_save.c). */
#ifndef PROFILE_FILE_H
#define PROFILE_FILE_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "profile_search.h"

#define PROFILE_ERROR (profile_error_quark ())
GQuark profile_error_quark (void);

typedef enum
{
  PROFILE_ERROR_NOT_FOUND, /* no profile of that name on the search path */
  PROFILE_ERROR_PARSE,     /* malformed file, unknown key, bad value: "file:line:column: " */
  PROFILE_ERROR_RANGE,     /* a value outside its range: "file:line:column: " */
  PROFILE_ERROR_CYCLE,     /* inherits= loops */
} ProfileError;

/* Loads a profile by name ("k20": searched on the path) or by path (anything
 * containing '/' or ending in ".ini"). Follows `inherits`, checks every key is
 * known and every value in range. */
gboolean profile_load (const char *name_or_path, GpuProfile *profile, GError **error);

/* Checks `text` as the whole of a profile at `path` (no file is read but the
 * profiles it inherits): what profile_load would say of that file. */
gboolean profile_load_text (const char *path, const char *text, gsize len, GError **error);

/* Writes a profile as a key file (used by calibration), through a temporary
 * file and a rename. `comments` is NULL or NULL-ended pairs {key, comment}
 * placed above the keys, saying where each number came from. */
gboolean profile_save (const GpuProfile *profile, const char *path,
                       const char *const *comments, GError **error);

#endif /* PROFILE_FILE_H */
