/* profile_keys.c: the table of a device profile's keys, which the loader checks and the saver writes in order. */
#include "profile_keys.h"

#include <string.h>

#include "units.h"

/* A shared-memory size is at most this (no GPU has more per SM). */
#define PROFILE_MAX_SMEM (1024 * 1024)

const ProfileKey profile_keys[] = {
  { "device", "description", PROFILE_KEY_TEXT, PROFILE_FIELD (description), 0, 0, FALSE },
  { "device", "inherits", PROFILE_KEY_INHERITS, 0, 0, 0, FALSE },
  { "device", "calibrated", PROFILE_KEY_BOOL, PROFILE_FIELD (calibrated), 0, 0, TRUE },

  { "copy", "engines", PROFILE_KEY_UINT, PROFILE_FIELD (copy_engines), 1, 8, FALSE },
  { "copy", "h2d_pinned_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (h2d_pinned.bandwidth), 0, 0, FALSE },
  { "copy", "h2d_pinned_latency", PROFILE_KEY_TIME, PROFILE_FIELD (h2d_pinned.latency), 0, 0, FALSE },
  { "copy", "h2d_pageable_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (h2d_pageable.bandwidth), 0, 0, FALSE },
  { "copy", "h2d_pageable_latency", PROFILE_KEY_TIME, PROFILE_FIELD (h2d_pageable.latency), 0, 0, FALSE },
  { "copy", "d2h_pinned_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2h_pinned.bandwidth), 0, 0, FALSE },
  { "copy", "d2h_pinned_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2h_pinned.latency), 0, 0, FALSE },
  { "copy", "d2h_pageable_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2h_pageable.bandwidth), 0, 0, FALSE },
  { "copy", "d2h_pageable_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2h_pageable.latency), 0, 0, FALSE },
  { "copy", "h2d_pageable_sizes", PROFILE_KEY_SIZE_TIMES, PROFILE_FIELD (h2d_pageable_sizes), 0, 0, TRUE },
  { "copy", "d2h_pageable_sizes", PROFILE_KEY_SIZE_TIMES, PROFILE_FIELD (d2h_pageable_sizes), 0, 0, TRUE },
  { "copy", "h2d_untouched_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (h2d_untouched.bandwidth), 0, 0, TRUE },
  { "copy", "h2d_untouched_latency", PROFILE_KEY_TIME, PROFILE_FIELD (h2d_untouched.latency), 0, 0, TRUE },
  { "copy", "d2h_untouched_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2h_untouched.bandwidth), 0, 0, TRUE },
  { "copy", "d2h_untouched_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2h_untouched.latency), 0, 0, TRUE },
  { "copy", "h2d_untouched_huge_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (h2d_untouched_huge.bandwidth), 0, 0, TRUE },
  { "copy", "h2d_untouched_huge_latency", PROFILE_KEY_TIME, PROFILE_FIELD (h2d_untouched_huge.latency), 0, 0, TRUE },
  { "copy", "d2h_untouched_huge_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2h_untouched_huge.bandwidth), 0, 0, TRUE },
  { "copy", "d2h_untouched_huge_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2h_untouched_huge.latency), 0, 0, TRUE },
  { "copy", "h2d_cached_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (h2d_cached.bandwidth), 0, 0, TRUE },
  { "copy", "h2d_cached_latency", PROFILE_KEY_TIME, PROFILE_FIELD (h2d_cached.latency), 0, 0, TRUE },
  { "copy", "d2h_cached_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2h_cached.bandwidth), 0, 0, TRUE },
  { "copy", "d2h_cached_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2h_cached.latency), 0, 0, TRUE },
  { "copy", "d2d_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (d2d.bandwidth), 0, 0, FALSE },
  { "copy", "d2d_latency", PROFILE_KEY_TIME, PROFILE_FIELD (d2d.latency), 0, 0, FALSE },
  { "copy", "duplex_factor", PROFILE_KEY_FRACTION, PROFILE_FIELD (duplex_factor), 0, 0, FALSE },
  { "copy", "h2d_row_rate", PROFILE_KEY_FREQUENCY, PROFILE_FIELD (row_rate[SCHED_DIR_H2D]), 0, 0, TRUE },
  { "copy", "d2h_row_rate", PROFILE_KEY_FREQUENCY, PROFILE_FIELD (row_rate[SCHED_DIR_D2H]), 0, 0, TRUE },
  { "copy", "d2d_row_rate", PROFILE_KEY_FREQUENCY, PROFILE_FIELD (row_rate[SCHED_DIR_D2D]), 0, 0, TRUE },
  { "copy", "h2d_pageable_overlap", PROFILE_KEY_TIME, PROFILE_FIELD (pageable_overlap[SCHED_DIR_H2D]), 0, 0, TRUE },
  { "copy", "d2h_pageable_overlap", PROFILE_KEY_TIME, PROFILE_FIELD (pageable_overlap[SCHED_DIR_D2H]), 0, 0, TRUE },

  { "host", "kernel_launch", PROFILE_KEY_TIME, PROFILE_FIELD (host_kernel_launch), 0, 0, FALSE },
  { "host", "memcpy_async", PROFILE_KEY_TIME, PROFILE_FIELD (host_memcpy_async), 0, 0, FALSE },
  { "host", "memcpy_sync", PROFILE_KEY_TIME, PROFILE_FIELD (host_memcpy_sync), 0, 0, FALSE },
  { "host", "event_record", PROFILE_KEY_TIME, PROFILE_FIELD (host_event_record), 0, 0, FALSE },
  { "host", "stream_wait", PROFILE_KEY_TIME, PROFILE_FIELD (host_stream_wait), 0, 0, FALSE },
  { "host", "sync", PROFILE_KEY_TIME, PROFILE_FIELD (host_sync), 0, 0, FALSE },
  { "host", "sync_idle", PROFILE_KEY_TIME, PROFILE_FIELD (host_sync_idle), 0, 0, TRUE },
  { "host", "query", PROFILE_KEY_TIME, PROFILE_FIELD (host_query), 0, 0, TRUE },
  { "host", "sync_blocking_wake", PROFILE_KEY_TIME_TIMES, PROFILE_FIELD (sync_blocking_wake), 0, 0, TRUE },
  { "host", "memset", PROFILE_KEY_TIME, PROFILE_FIELD (host_memset), 0, 0, TRUE },
  { "host", "kernel_load", PROFILE_KEY_TIME, PROFILE_FIELD (host_kernel_load), 0, 0, TRUE },
  { "host", "graph_launch", PROFILE_KEY_TIME, PROFILE_FIELD (host_graph_launch), 0, 0, TRUE },
  { "host", "hostfn_wake", PROFILE_KEY_TIME, PROFILE_FIELD (hostfn_wake), 0, 0, TRUE },
  { "host", "hostfn_wake_idle", PROFILE_KEY_TIME, PROFILE_FIELD (hostfn_wake_idle), 0, 0, TRUE },
  { "host", "hostfn_next", PROFILE_KEY_TIME, PROFILE_FIELD (hostfn_next), 0, 0, TRUE },
  { "host", "thread_create", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_create), 0, 0, TRUE },
  { "host", "thread_start", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_start), 0, 0, TRUE },
  { "host", "thread_create_first", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_create_first), 0, 0, TRUE },
  { "host", "thread_start_first", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_start_first), 0, 0, TRUE },
  { "host", "thread_join", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_join), 0, 0, TRUE },
  { "host", "thread_join_wake", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_join_wake), 0, 0, TRUE },
  { "host", "thread_first_call", PROFILE_KEY_TIME, PROFILE_FIELD (host_thread_first_call), 0, 0, TRUE },
  { "host", "malloc_async", PROFILE_KEY_TIME, PROFILE_FIELD (host_malloc_async), 0, 0, TRUE },
  { "host", "free_async", PROFILE_KEY_TIME, PROFILE_FIELD (host_free_async), 0, 0, TRUE },
  { "host", "pool_grow", PROFILE_KEY_TIME, PROFILE_FIELD (pool_grow), 0, 0, TRUE },
  { "host", "pool_grow_rate", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (pool_grow_rate), 0, 0, TRUE },
  { "host", "pool_grow_min", PROFILE_KEY_SIZE, PROFILE_FIELD (pool_grow_min), 0, G_GUINT64_CONSTANT (1) << 40, TRUE },
  { "host", "pool_trim", PROFILE_KEY_TIME, PROFILE_FIELD (pool_trim), 0, 0, TRUE },
  { "host", "pool_trim_rate", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (pool_trim_rate), 0, 0, TRUE },

  { "latency", "launch", PROFILE_KEY_TIME, PROFILE_FIELD (launch_latency), 0, 0, FALSE },
  { "latency", "copy_submit", PROFILE_KEY_TIME, PROFILE_FIELD (copy_submit), 0, 0, FALSE },
  { "latency", "dependency", PROFILE_KEY_TIME, PROFILE_FIELD (dependency_latency), 0, 0, FALSE },
  { "latency", "kernel_gap", PROFILE_KEY_TIME, PROFILE_FIELD (kernel_gap), 0, 0, FALSE },
  { "latency", "query_latency", PROFILE_KEY_TIME, PROFILE_FIELD (query_latency), 0, 0, TRUE },
  { "latency", "graph_node_gap", PROFILE_KEY_TIME, PROFILE_FIELD (graph_node_gap), 0, 0, TRUE },
  { "latency", "graph_engine_gap", PROFILE_KEY_TIME, PROFILE_FIELD (graph_engine_gap), 0, 0, TRUE },
  { "latency", "module_load", PROFILE_KEY_TIME, PROFILE_FIELD (module_load), 0, 0, TRUE },
  { "latency", "hostfn_resume", PROFILE_KEY_TIME, PROFILE_FIELD (hostfn_resume), 0, 0, TRUE },

  { "queues", "max_connections", PROFILE_KEY_UINT, PROFILE_FIELD (max_connections), 1, 32, FALSE },
  { "queues", "default_connections", PROFILE_KEY_UINT, PROFILE_FIELD (default_connections), 1, 32, FALSE },
  { "queues", "default_copy_connections", PROFILE_KEY_UINT, PROFILE_FIELD (default_copy_connections), 1, 32, TRUE },
  { "queues", "shared_copy_min_size", PROFILE_KEY_SIZE, PROFILE_FIELD (shared_copy_min_size), 1, 1ull << 30, TRUE },
  { "queues", "assign_on_submit", PROFILE_KEY_BOOL, PROFILE_FIELD (assign_on_submit), 0, 0, TRUE },

  { "kernel", "sm_count", PROFILE_KEY_UINT, PROFILE_FIELD (sm_count), 1, 1024, FALSE },
  { "kernel", "max_threads_per_sm", PROFILE_KEY_UINT, PROFILE_FIELD (max_threads_per_sm), 1, 4096, FALSE },
  { "kernel", "max_blocks_per_sm", PROFILE_KEY_UINT, PROFILE_FIELD (max_blocks_per_sm), 1, 64, FALSE },
  { "kernel", "smem_per_sm", PROFILE_KEY_SIZE, PROFILE_FIELD (smem_per_sm), 0, PROFILE_MAX_SMEM, FALSE },
  { "kernel", "regs_per_sm", PROFILE_KEY_UINT, PROFILE_FIELD (regs_per_sm), 1, 1048576, FALSE },
  { "kernel", "max_threads_per_block", PROFILE_KEY_UINT, PROFILE_FIELD (max_threads_per_block), 1, 4096, FALSE },
  { "kernel", "max_smem_per_block", PROFILE_KEY_SIZE, PROFILE_FIELD (max_smem_per_block), 0, PROFILE_MAX_SMEM, FALSE },
  { "kernel", "default_regs", PROFILE_KEY_UINT, PROFILE_FIELD (default_regs), 1, 255, FALSE },
  { "kernel", "max_concurrent_kernels", PROFILE_KEY_UINT, PROFILE_FIELD (max_concurrent_kernels), 1, 1024, FALSE },
  { "kernel", "deferred_completion", PROFILE_KEY_BOOL, PROFILE_FIELD (deferred_completion), 0, 0, FALSE },
  { "kernel", "connection_serializes", PROFILE_KEY_BOOL, PROFILE_FIELD (connection_serializes), 0, 0, FALSE },
  { "kernel", "memset_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (memset.bandwidth), 0, 0, TRUE },
  { "kernel", "memset_latency", PROFILE_KEY_TIME, PROFILE_FIELD (memset.latency), 0, 0, TRUE },
  { "kernel", "memset_host_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (memset_host_bandwidth), 0, 0, TRUE },
  { "kernel", "sm_clock", PROFILE_KEY_FREQUENCY, PROFILE_FIELD (sm_clock), 0, 0, TRUE },
  { "kernel", "memory_bandwidth", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (memory_bandwidth), 0, 0, TRUE },
  { "kernel", "fp32_flops", PROFILE_KEY_FLOPS, PROFILE_FIELD (fp32_flops), 0, 0, TRUE },
  { "kernel", "trace_extra", PROFILE_KEY_TIME, PROFILE_FIELD (trace_extra), 0, 0, TRUE },

  { "spread", "kernel_launch_fast", PROFILE_KEY_TIME, PROFILE_FIELD (host_fast.kernel_launch), 0, 0, TRUE },
  { "spread", "memcpy_async_fast", PROFILE_KEY_TIME, PROFILE_FIELD (host_fast.memcpy_async), 0, 0, TRUE },
  { "spread", "h2d_pageable_bandwidth_fast", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (host_fast.h2d_pageable_bandwidth), 0, 0, TRUE },
  { "spread", "d2h_pageable_bandwidth_fast", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (host_fast.d2h_pageable_bandwidth), 0, 0, TRUE },
  { "spread", "kernel_launch_slow", PROFILE_KEY_TIME, PROFILE_FIELD (host_slow.kernel_launch), 0, 0, TRUE },
  { "spread", "memcpy_async_slow", PROFILE_KEY_TIME, PROFILE_FIELD (host_slow.memcpy_async), 0, 0, TRUE },
  { "spread", "h2d_pageable_bandwidth_slow", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (host_slow.h2d_pageable_bandwidth), 0, 0, TRUE },
  { "spread", "d2h_pageable_bandwidth_slow", PROFILE_KEY_BANDWIDTH, PROFILE_FIELD (host_slow.d2h_pageable_bandwidth), 0, 0, TRUE },

  { "info", "gpu", PROFILE_KEY_TEXT, PROFILE_FIELD (gpu), 0, 0, FALSE },
  { "info", "driver", PROFILE_KEY_TEXT, PROFILE_FIELD (driver), 0, 0, FALSE },
  { "info", "cuda", PROFILE_KEY_TEXT, PROFILE_FIELD (cuda), 0, 0, FALSE },
  { "info", "date", PROFILE_KEY_TEXT, PROFILE_FIELD (date), 0, 0, FALSE },
  { "info", "source", PROFILE_KEY_TEXT, PROFILE_FIELD (source), 0, 0, FALSE },
};

const char *const profile_groups[] = {
  "device", "copy", "host", "latency", "queues", "kernel", "spread", "info",
};

/* The header's counts size the loader's arrays; a key added to the table
 * without them fails here, not as a short array. */
G_STATIC_ASSERT (G_N_ELEMENTS (profile_keys) == PROFILE_N_KEYS);
G_STATIC_ASSERT (G_N_ELEMENTS (profile_groups) == PROFILE_N_GROUPS);

gboolean
profile_key_required (const ProfileKey *key)
{
  return key->type != PROFILE_KEY_TEXT && key->type != PROFILE_KEY_INHERITS && !key->optional;
}

/* A bandwidth named NAME_bandwidth or a time named NAME_latency: its suffix,
 * and the other half's in *other; NULL when the key is neither. */
static const char *
link_suffixes (const ProfileKey *key, const char **other)
{
  if (key->type == PROFILE_KEY_BANDWIDTH && g_str_has_suffix (key->name, "_bandwidth"))
    {
      *other = "_latency";
      return "_bandwidth";
    }
  if (key->type == PROFILE_KEY_TIME && g_str_has_suffix (key->name, "_latency"))
    {
      *other = "_bandwidth";
      return "_latency";
    }
  return NULL;
}

/* The index of the key that would be `key`'s other half, -1 when there is
 * none in its group. */
static int
link_other_half (const ProfileKey *key)
{
  const char *other = NULL;
  const char *suffix = link_suffixes (key, &other);
  if (suffix == NULL)
    return -1;
  g_autofree char *stem = g_strndup (key->name, strlen (key->name) - strlen (suffix));
  g_autofree char *name = g_strconcat (stem, other, NULL);
  return profile_key_index (key->group, name);
}

gboolean
profile_key_is_link (const ProfileKey *key)
{
  if (!key->optional)
    return FALSE;
  int other = link_other_half (key);
  return other >= 0 && profile_keys[other].optional;
}

guint
profile_key_partner (guint key)
{
  const ProfileKey *k = &profile_keys[key];
  g_assert (profile_key_is_link (k));
  return (guint) link_other_half (k);
}

gboolean
profile_key_is_set (const GpuProfile *profile, guint key)
{
  const ProfileKey *k = &profile_keys[key];
  if (k->type == PROFILE_KEY_SIZE_TIMES || k->type == PROFILE_KEY_TIME_TIMES)
    return G_STRUCT_MEMBER (GpuPoints, profile, k->offset).n > 0;
  if (k->optional && k->type == PROFILE_KEY_UINT)
    return G_STRUCT_MEMBER (guint, profile, k->offset) > 0;
  if (k->optional && k->type == PROFILE_KEY_SIZE)
    return G_STRUCT_MEMBER (guint64, profile, k->offset) > 0;
  if (k->optional && k->type == PROFILE_KEY_TIME && !profile_key_is_link (k))
    return G_STRUCT_MEMBER (SimTime, profile, k->offset) > 0;
  if (k->optional && !profile_key_is_link (k)
      && (k->type == PROFILE_KEY_BANDWIDTH || k->type == PROFILE_KEY_FREQUENCY
          || k->type == PROFILE_KEY_FLOPS))
    return G_STRUCT_MEMBER (double, profile, k->offset) > 0;
  if (!profile_key_is_link (k))
    return TRUE;
  guint bandwidth = k->type == PROFILE_KEY_BANDWIDTH ? key : profile_key_partner (key);
  return G_STRUCT_MEMBER (double, profile, profile_keys[bandwidth].offset) > 0;
}

int
profile_group_index (const char *name)
{
  for (guint i = 0; i < PROFILE_N_GROUPS; i++)
    if (strcmp (profile_groups[i], name) == 0)
      return (int) i;
  return -1;
}

int
profile_key_index (const char *group, const char *name)
{
  for (guint i = 0; i < PROFILE_N_KEYS; i++)
    if (strcmp (profile_keys[i].group, group) == 0
        && strcmp (profile_keys[i].name, name) == 0)
      return (int) i;
  return -1;
}

guint
profile_key_index_by_field (gsize offset)
{
  for (guint i = 0; i < PROFILE_N_KEYS; i++)
    if (profile_keys[i].type != PROFILE_KEY_INHERITS && profile_keys[i].offset == offset)
      return i;
  g_assert_not_reached ();
}

char *
profile_group_keys (const char *group)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < PROFILE_N_KEYS; i++)
    if (strcmp (profile_keys[i].group, group) == 0)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", profile_keys[i].name);
  return g_string_free (s, FALSE);
}

char *
profile_key_allowed (const ProfileKey *key)
{
  switch (key->type)
    {
    case PROFILE_KEY_TEXT:
    case PROFILE_KEY_INHERITS:
      return g_strdup ("free text");
    case PROFILE_KEY_UINT:
      return g_strdup_printf ("an integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                              key->min, key->max);
    case PROFILE_KEY_BOOL:
      return g_strdup ("true or false");
    case PROFILE_KEY_TIME:
      return g_strdup ("a time from 0 to 1s with a unit (ns, us, ms, s), such as 10us");
    case PROFILE_KEY_SIZE:
      {
        /* the key's own range: shared memory up to 1 MiB, a copy size up to 1 GiB */
        g_autofree char *lo = units_format_exact_size (key->min);
        g_autofree char *hi = units_format_exact_size (key->max);
        return g_strdup_printf ("a size from %s to %s (B, KB, KiB, MB, MiB), such as 48KiB", lo, hi);
      }
    case PROFILE_KEY_BANDWIDTH:
      return g_strdup ("a bandwidth above 0 and at most 10TB/s (B/s, KB/s, MB/s, GB/s, MiB/s, GiB/s), such as 6GB/s");
    case PROFILE_KEY_FRACTION:
      return g_strdup ("a number above 0 and at most 1, such as 0.9");
    case PROFILE_KEY_FREQUENCY:
      return g_strdup ("a frequency above 0 and at most 10GHz (Hz, kHz, MHz, GHz), such as 1980MHz");
    case PROFILE_KEY_FLOPS:
      return g_strdup ("a FLOP rate above 0 and at most 10PFLOP/s (FLOP/s, MFLOP/s, GFLOP/s, "
                       "TFLOP/s, PFLOP/s; or GFLOPS, TFLOPS, PFLOPS), such as 67TFLOP/s");
    case PROFILE_KEY_SIZE_TIMES:
      return g_strdup_printf ("up to %d points separated by commas, each a size and a time, "
                              "sizes rising, times from 0 to 1s, such as "
                              "16KiB 5.3us, 64KiB 16.4us", GPU_POINTS_MAX);
    case PROFILE_KEY_TIME_TIMES:
      return g_strdup_printf ("up to %d points separated by commas, each two times, the "
                              "first rising, from 0 to 1s, such as "
                              "20us 38us, 2ms 100us", GPU_POINTS_MAX);
    }
  g_assert_not_reached ();
}
