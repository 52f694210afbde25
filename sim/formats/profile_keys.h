/* profile_keys.h: the keys a device profile may hold, with their groups, types and ranges. */
#ifndef PROFILE_KEYS_H
#define PROFILE_KEYS_H

#include <stddef.h>
#include <glib.h>
#include "sim/core/gpu_profile.h"

typedef enum
{
  PROFILE_KEY_TEXT,      /* free text, optional */
  PROFILE_KEY_INHERITS,  /* [device] inherits: handled by the loader */
  PROFILE_KEY_UINT,      /* guint, min..max */
  PROFILE_KEY_BOOL,      /* gboolean, true or false */
  PROFILE_KEY_TIME,      /* SimTime, 0..1s */
  PROFILE_KEY_SIZE,      /* guint64 bytes, min..max */
  PROFILE_KEY_BANDWIDTH, /* double bytes per second, (0, 10 TB/s] */
  PROFILE_KEY_FRACTION,  /* double, (0, 1] */
  PROFILE_KEY_FREQUENCY, /* double hertz, (0, 10 GHz] */
  PROFILE_KEY_FLOPS,     /* double floating-point operations per second, (0, 10 PFLOP/s] */
  PROFILE_KEY_SIZE_TIMES, /* GpuPoints: "SIZE TIME, SIZE TIME, ..." */
  PROFILE_KEY_TIME_TIMES, /* GpuPoints: "TIME TIME, TIME TIME, ..." */
} ProfileKeyType;

typedef struct
{
  const char *group;
  const char *name;
  ProfileKeyType type;
  gsize offset;
  guint64 min, max; /* PROFILE_KEY_UINT and PROFILE_KEY_SIZE */
  /* May be left out. Either a link not every profile has measured: such
   * keys come in pairs, NAME_bandwidth and NAME_latency of one GpuLink, both
   * set or neither (profile_key_partner); the bandwidth is 0 when unset. Or
   * a boolean or a count added after profiles were written: false or 0 when
   * left out, which is what the model did before it (profile_key_is_link
   * says which is a link). Or a number of its own that the model does not
   * use, such as [kernel] sm_clock: 0, unknown, when left out. */
  gboolean optional;
} ProfileKey;

/* The ranges of the key types that have no per-key min and max. */
#define PROFILE_MAX_TIME SIM_S (1)
#define PROFILE_MAX_BANDWIDTH 10e12
#define PROFILE_MAX_FREQUENCY 10e9
#define PROFILE_MAX_FLOPS 10e15

/* Where a key's value lives in an GpuProfile. */
#define PROFILE_FIELD(f) offsetof (GpuProfile, f)

#define PROFILE_N_KEYS 108
#define PROFILE_N_GROUPS 8

/* In file order: profile_save writes groups and keys in this order. */
extern const ProfileKey profile_keys[PROFILE_N_KEYS];
extern const char *const profile_groups[PROFILE_N_GROUPS];

/* Every key that is neither text, `inherits` nor optional must be set. */
gboolean profile_key_required (const ProfileKey *key);

/* Whether an optional key is half of a link: NAME_bandwidth or NAME_latency
 * where its group has both as optional keys (else a boolean, a count, a
 * time or a rate of its own, false or 0 when left out). */
gboolean profile_key_is_link (const ProfileKey *key);

/* An optional link key's partner: the other half of its link. */
guint profile_key_partner (guint key);

/* Whether a key has a value in `profile`: always for required keys and
 * optional booleans, for link keys when their link's bandwidth is above 0,
 * for optional counts, sizes, times and rates of their own when above 0,
 * for times by size when they have a point. */
gboolean profile_key_is_set (const GpuProfile *profile, guint key);

/* Index into profile_groups or profile_keys; -1 when unknown. */
int profile_group_index (const char *name);
int profile_key_index (const char *group, const char *name);

/* The key that holds the field at `offset` (PROFILE_FIELD); it must exist. */
guint profile_key_index_by_field (gsize offset);

/* For error messages: the keys of a group ("a, b, c"), and what a key
 * accepts ("an integer from 1 to 8"). Both newly allocated. */
char *profile_group_keys (const char *group);
char *profile_key_allowed (const ProfileKey *key);

#endif /* PROFILE_KEYS_H */
