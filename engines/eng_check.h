/* eng_check.h: an independent check of a run's results against the model's contract (`predict --check`).
 *
 * The checker reads only the schedule, the profile, the connection count in
 * force and one EngOpResult per op; it never looks inside the engine model,
 * so a bug in the model shows up as a violation here instead of being
 * repeated. It checks safety (nothing started too early, no engine held more
 * than it can) and a few exact durations that the contract fixes (a copy
 * alone, a kernel alone); it cannot tell whether an op could have started
 * earlier than it did. eng_check.c says which file checks each rule; each
 * says what it checks and what it cannot. */
#ifndef ENG_CHECK_H
#define ENG_CHECK_H

#include <glib.h>
#include "sim/core/gpu_profile.h"
#include "eng_sim.h"
#include "sim/core/schedule.h"

typedef enum
{
  ENG_CHECK_TIMES,        /* issue <= start <= end; a device op starts after its call reached the device */
  ENG_CHECK_HOST,         /* calls issued in order, each after the previous call returned */
  ENG_CHECK_SYNC,         /* a synchronize returned after everything it waits for ended */
  ENG_CHECK_STREAM,       /* an op started after its stream predecessor ended */
  ENG_CHECK_EVENT,        /* `wait S E`: S went on only after the record of E completed */
  ENG_CHECK_LEGACY,       /* the legacy default stream's barriers */
  ENG_CHECK_ENGINE,       /* the op ran on the engine and connection its kind and stream give */
  ENG_CHECK_COPY_ENGINE,  /* one direct and one staged copy at a time per copy engine */
  ENG_CHECK_COPY_TIME,    /* a copy took latency + bytes / bandwidth, stretched only by duplex and pauses */
  ENG_CHECK_KERNEL_LIMIT, /* at most max_concurrent_kernels kernels at once; connection_serializes */
  ENG_CHECK_KERNEL_TIME,  /* a kernel took at least waves x block time, exactly that when alone */
  ENG_CHECK_SM_CAPACITY,  /* the block time kernels need fits the SMs in every window */
  ENG_CHECK_QUEUE,        /* each connection queue handed its ops to the engines in issue order */
  ENG_CHECK_CALLBACK,     /* host functions one at a time, each for its time */
  ENG_CHECK_N_RULES
} EngCheckRule;

typedef struct
{
  EngCheckRule rule;
  guint32 op;      /* the op that broke the rule */
  guint32 other;   /* the op it conflicts with, or ENG_NO_REF */
  char *message;   /* one sentence with the times involved, in ns */
} EngCheckViolation;

typedef struct EngCheck EngCheck;

/* At most this many violations are kept with their messages; all are counted. */
#define ENG_CHECK_MAX_KEPT 100

/* Checks `results` (one per schedule op, in issue order) of a run of `sched`
 * on `profile` with `connections` hardware queues in force, of which
 * `copy_connections` have copy queues of their own (eng_sim_connections,
 * eng_sim_copy_connections). Never fails: a result that breaks a rule
 * becomes a violation. */
EngCheck *eng_check_results (const GpuProfile *profile, const Schedule *sched,
                             guint connections, guint copy_connections,
                             const EngOpResult *results);
void eng_check_free (EngCheck *check);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EngCheck, eng_check_free)

/* Every violation found. */
gsize eng_check_n_violations (const EngCheck *check);
/* The first MIN (n_violations, ENG_CHECK_MAX_KEPT) found. The checks run
 * host and times first, then dependencies, engines, copies, kernels and
 * queues, each in op order. */
gsize eng_check_n_kept (const EngCheck *check);
const EngCheckViolation *eng_check_violation (const EngCheck *check, gsize index);
/* How many violations of one rule were found. */
gsize eng_check_count (const EngCheck *check, EngCheckRule rule);

/* "stream", "sm-capacity", ... */
const char *eng_check_rule_name (EngCheckRule rule);

#endif /* ENG_CHECK_H */
