/* fuzz_profiles.c: the profile a fuzz_predict input's first byte picks (fuzz_profiles.h). */
#include "support/fuzz_profiles.h"

static const char *const shipped[] = { "c1060", "c2050", "k20", "h100", "h200" };

/* Each with something the shipped ones lack. */
static const char *const corners[] = {
  "test_child",           /* deferred completion, one connection, one copy engine */
  "test_grandchild",
  "schematic-c1060",      /* zero latencies: events tie */
  "schematic-c2050",
  "schematic-k20",
  "schematic-threads",    /* host-thread costs */
  "schematic-overlap",
  "schematic-sizes",      /* pageable times by size, a cached link */
  "schematic-huge",       /* untouched links, huge pages */
  "schematic-rows",
  "wide-on-submit-latency", /* connections assigned on submit */
  "wide-copy4",           /* four copy engines */
  "slots4",
  "duplex-half",
  "pool",
  "graph-copies",
  "gaps",
  "spread",
  "schematic-sleep",      /* a sleeping wait's wake */
};

char *
fuzz_profile_path (const char *srcdir, guchar first)
{
  if (first < 0x80)
    return g_strdup_printf ("%s/engines/profiles/%s.ini", srcdir,
                            shipped[first % G_N_ELEMENTS (shipped)]);
  return g_strdup_printf ("%s/tests/profiles/%s.ini", srcdir,
                          corners[(first - 0x80) % G_N_ELEMENTS (corners)]);
}

void
fuzz_profiles_search_path (const char *srcdir)
{
  const char *old = g_getenv ("STREAMSIM_PROFILE_PATH");
  g_autofree char *mine = g_build_filename (srcdir, "tests", "profiles", NULL);
  g_autofree char *path = old != NULL && *old != '\0'
                            ? g_strjoin (G_SEARCHPATH_SEPARATOR_S, mine, old, NULL)
                            : g_strdup (mine);
  g_setenv ("STREAMSIM_PROFILE_PATH", path, TRUE);
}
