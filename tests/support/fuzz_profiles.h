/* fuzz_profiles.h: the profile a fuzz_predict input's first byte picks, for the fuzz target and the regression replay. */
#ifndef FUZZ_PROFILES_H
#define FUZZ_PROFILES_H

#include <glib.h>

/* The profile file under the source tree `srcdir` that an input whose first
 * byte is `first` runs on: below 0x80 one of the shipped profiles (c1060,
 * c2050, k20, h100, h200: first % 5, as the committed inputs were made),
 * from 0x80 one of the test profiles of tests/profiles that reach the
 * model's corners (Fermi's deferred completion on one connection and one
 * copy engine, zero latencies where events tie, connections assigned on
 * submit, host-thread costs, partly untouched and huge-page links, ...).
 * Test profiles inherit others by name: the search path must hold
 * tests/profiles (fuzz_profiles_search_path). Free with g_free. */
char *fuzz_profile_path (const char *srcdir, guchar first);

/* Puts srcdir/tests/profiles first on STREAMSIM_PROFILE_PATH, for the
 * test profiles' `inherits`. */
void fuzz_profiles_search_path (const char *srcdir);

#endif
