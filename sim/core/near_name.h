/* near_name.h: the known name a mistyped one was most likely meant to be, for "did you mean" in messages. */
#ifndef NEAR_NAME_H
#define NEAR_NAME_H

#include <glib.h>

/* The fewest single-character insertions, deletions, substitutions and
 * swaps of two neighbours that turn `a` into `b`, no byte edited twice, ASCII
 * case ignored (the optimal string alignment distance; characters are
 * bytes). A swap counts as one edit because it is the commonest typo
 * (`dnoe` for `done`, `predcit` for `predict`). */
guint near_name_distance (const char *a, const char *b);

/* Of `known` (NULL-ended), the name nearest `typed` by near_name_distance,
 * when it is near enough to be a typo: at most one edit for names of up to
 * four characters, else at most a third of the longer name's length. The
 * first of equally near names; NULL when none is that near, or when `typed`
 * is itself known. */
const char *near_name (const char *typed, const char *const *known);

#endif /* NEAR_NAME_H */
