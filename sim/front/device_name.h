/* device_name.h: devices as people type them (--device H100, a list k20,h100, a typo k2O) turned into what profile_load takes. */
#ifndef DEVICE_NAME_H
#define DEVICE_NAME_H

#include <glib.h>

/* The name or path profile_load should get for `typed`: a path
 * (profile_is_path) as it is; a name in any case as the lower-case name of
 * the profile found on the search path ("H100" -> "h100"); anything else
 * unchanged, for profile_load to say what is wrong with it. Newly
 * allocated. */
char *device_name_resolve (const char *typed);

/* When `typed` is a name that names no profile and a known profile's name
 * is near it (near_name.h), appends "; did you mean 'k20'?" to the message
 * of `error`, the error profile_load gave for it. Paths and profiles that
 * exist (an error inside the file) get nothing. */
void device_name_suggest (const char *typed, GError *error);

/* Whether `typed` names a profile: a name found on the search path (in any
 * case), or a path to a file. Else FALSE and the error profile_load gives
 * for it, with device_name_suggest's "did you mean". Nothing is read, so a
 * profile that exists but is broken passes. */
gboolean device_name_check (const char *typed, GError **error);

/* The values of a --device option, each a name, a path or a comma list of
 * them, split and resolved (device_name_resolve), NULL-ended; NULL when
 * `args` holds no name. An empty entry in a list is a G_OPTION_ERROR_BAD_VALUE
 * naming it. */
char **device_names_from_args (const char *const *args, GError **error);

#endif /* DEVICE_NAME_H */
