/* profile_search.h: where device profiles are found: a search path of folders holding NAME.ini. */
#ifndef PROFILE_SEARCH_H
#define PROFILE_SEARCH_H

#include <glib.h>

/* The folders searched for NAME.ini, in order: each entry of the
 * STREAMSIM_PROFILE_PATH environment variable (':'-separated), then the
 * installed profiles beside the program (PREFIX/share/streamsim/profiles,
 * data_dir.h), or in a build tree the source tree's engines/profiles.
 * NULL-ended, owned by the module. */
const char *const *profile_search_path (void);

/* The names of the profiles found on the search path, sorted, NULL-ended. */
char **profile_list (void);

/* A name is a-z, 0-9, '_', '.' and '-'. */
gboolean profile_name_is_valid (const char *name);

/* Anything with a '/' or ending in ".ini" is a file; the rest are names. */
gboolean profile_is_path (const char *name_or_path);

/* "dir/k20.ini" -> "k20". Newly allocated. */
char *profile_name_from_path (const char *path);

/* The first NAME.ini on the search path, or NULL. Newly allocated. */
char *profile_find (const char *name);

/* "no device profile 'x' (looked for x.ini in ...); known: ...". */
char *profile_not_found_message (const char *name);

#endif /* PROFILE_SEARCH_H */
