/* profile_file.h: device profiles as GLib key files (engines/profiles/NAME.ini). */
#ifndef PROFILE_FILE_H
#define PROFILE_FILE_H

#include <glib.h>
#include "../engines/eng_profile.h"

#define PROFILE_ERROR (profile_error_quark ())
GQuark profile_error_quark (void);

typedef enum
{
  PROFILE_ERROR_NOT_FOUND, /* no profile of that name on the search path */
  PROFILE_ERROR_PARSE,     /* malformed file, unknown key, bad value: "file:line:column: " */
  PROFILE_ERROR_RANGE,     /* a value outside its range: "file:line:column: " */
  PROFILE_ERROR_CYCLE,     /* inherits= loops */
} ProfileError;

/* The folders searched for NAME.ini, in order: each entry of the
 * STREAMSIM_PROFILE_PATH environment variable (':'-separated), then the folder
 * compiled in (the source tree's engines/profiles). NULL-ended, owned by the
 * module. */
const char *const *profile_search_path (void);

/* Loads a profile by name ("k20": searched on the path) or by path (anything
 * containing '/' or ending in ".ini"). Follows `inherits`, checks every key is
 * known and every value in range. */
gboolean profile_load (const char *name_or_path, EngProfile *profile, GError **error);

/* The names of the profiles found on the search path, sorted, NULL-ended. */
char **profile_list (void);

/* Writes a profile as a key file (used by calibration), through a temporary
 * file and a rename. `comments` is NULL or NULL-ended pairs {key, comment}
 * placed above the keys, saying where each number came from. */
gboolean profile_save (const EngProfile *profile, const char *path,
                       const char *const *comments, GError **error);

#endif /* PROFILE_FILE_H */
