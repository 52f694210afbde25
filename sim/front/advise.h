/* advise.h: the issue order and settings that finish soonest, found by simulating candidates.
 *
 * `streamsim advise` searches changes that keep what the program computes
 * (schedule_order.h says which issue orders do):
 *
 *  - the issue order: first the orders with a name (the program's own;
 *    depth-first, each stream's ops together, stream after stream;
 *    breadth-first, one op of each stream in turn); then every valid order
 *    when there are at most `budget` of them, else a local search from the
 *    best so far: each round tries moves of one op, first those that the
 *    longest waits of the best run suggest (an op that waited for another
 *    moved before it, or that one after it), then random ones (GRand, from
 *    `seed`), and keeps the best candidate when it is faster; it stops after
 *    `budget` candidates or ADVISE_PATIENCE rounds without a gain;
 *  - CUDA_DEVICE_MAX_CONNECTIONS: 1, 2, 4, ... up to the profile's most, the
 *    number of streams, and the driver's default; the order is searched
 *    again when the count changes;
 *  - stream priorities, on profiles that have them (more than one
 *    connection: compute capability 3.5 and later): one stream at a time
 *    made more urgent, or less, while that gains;
 *  - the default memory pool's release threshold, where the schedule
 *    allocates with `malloc` and keeps less: the most it holds allocated at
 *    once, so that no synchronize gives back what a later `malloc` grows
 *    the pool for again;
 *  - the values of one `let` parameter the user allows (`vary`), each
 *    searched as above.
 *
 * A schedule of several host threads (`thread` blocks) keeps its issue
 * order: the orders searched keep one thread's calls, and the rules between
 * two threads' calls are not modelled; its settings are searched.
 *
 * Candidates are simulated in process on copies of the parsed schedule
 * (schedule_edit.h), on `jobs` threads; candidates are made and chosen in a
 * fixed order, so the same input gives the same advice for any `jobs`.
 *
 * Then, as hints only, changes of meaning the user must decide: pinned host
 * memory instead of pageable, and each synchronization left out (the first
 * 256, the three lines that gain most; a line run again in a loop, the time
 * that gains most), when they gain 1% or more. With `pinned`
 * the user has decided the first: every pageable copy is pinned before the
 * search, and that is the advice's first change. */
#ifndef ADVISE_H
#define ADVISE_H

#include <glib.h>
#include "sim/core/schedule.h"
#include "sim/core/sim_time.h"

/* Candidates one order search may simulate, by default. */
#define ADVISE_DEFAULT_BUDGET 2000
/* Rounds of the local search without a gain before it stops. */
#define ADVISE_PATIENCE 6
/* Candidates a round of the local search tries. */
#define ADVISE_ROUND 32

typedef struct
{
  const char *device;          /* profile name or path; NULL: the schedule's `device` */
  guint connections;           /* the program's setting; 0: the schedule's, else the driver's */
  const char *const *defines;  /* -D name=value, NULL-ended, or NULL */
  const char *vary;            /* "NAME=VALUES" as sweep takes them, or NULL */
  guint64 budget;              /* per order search; 0: ADVISE_DEFAULT_BUDGET */
  guint64 seed;
  guint jobs;                  /* threads; 0: one per processor */
  gboolean fixed_order;        /* search no order */
  gboolean fixed_connections;  /* ... no connection count */
  gboolean fixed_priorities;   /* ... no priorities */
  gboolean fixed_pool;         /* ... no memory pool release threshold */
  gboolean pinned;             /* the user's decision: pin every pageable copy first */
} AdviseOptions;

typedef enum
{
  ADVISE_VALUE,        /* a `let` parameter's value */
  ADVISE_ORDER,        /* the issue order */
  ADVISE_CONNECTIONS,  /* CUDA_DEVICE_MAX_CONNECTIONS */
  ADVISE_PRIORITIES,   /* stream priorities */
  ADVISE_POOL,         /* the memory pool's release threshold (`pool_threshold`) */
  ADVISE_PINNED,       /* pinned host memory, when the user took that hint (`pinned`) */
} AdviseChangeKind;

/* One change of the advice; `before` and `after` are the predicted
 * makespans with the changes before it in the list applied, so the gains
 * add up. */
typedef struct
{
  AdviseChangeKind kind;
  char *text;
  SimTime before, after;
} AdviseChange;

/* A change of meaning, for the user to decide: the makespan predicted with
 * the advice and this change. */
typedef struct
{
  char *text;
  SimTime after;
} AdviseHint;

typedef struct Advice Advice;

/* Parses, loads and searches. Errors carry file:line:column (the schedule,
 * the profile) or name the option. */
Advice *advise_run (const char *schedule_path, const AdviseOptions *options, GError **error);
void advice_free (Advice *advice);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Advice, advice_free)

const char *advice_device (const Advice *advice);
SimTime advice_original (const Advice *advice);
SimTime advice_best (const Advice *advice);
/* The program as given and as advised at the fast and the slow end of the
 * profile's host (host_spread.h), indexed by GpuHostEnd; FALSE where the
 * profile gives no spread. An advice whose gain is found at the profile's
 * own host costs may shrink at the slow end, or turn into a loss. */
gboolean advice_host_spread (const Advice *advice, SimTime original[2], SimTime best[2]);
guint advice_n_changes (const Advice *advice);
const AdviseChange *advice_change (const Advice *advice, guint index);
guint advice_n_hints (const Advice *advice);
const AdviseHint *advice_hint (const Advice *advice, guint index);
/* Candidates simulated in all, and whether every issue order was tried
 * (the order search was exhaustive each time it ran). */
guint64 advice_candidates (const Advice *advice);
gboolean advice_exhaustive (const Advice *advice);
/* Why the issue order was kept though the search was asked to vary it (a
 * schedule of several host threads), or NULL. */
const char *advice_order_kept (const Advice *advice);

/* The program as given and as advised (the connection count and the
 * priorities set in it, a `vary` value substituted). */
const Schedule *advice_original_schedule (const Advice *advice);
const Schedule *advice_schedule (const Advice *advice);
/* The connection count to pass with each (0: the schedule's or the driver's). */
guint advice_original_connections (const Advice *advice);
guint advice_connections (const Advice *advice);
/* "-D NAME=VALUE" of the advised value, or NULL. */
const char *advice_define (const Advice *advice);

/* For the change with the largest gain, the wait it removed: the op whose
 * wait shrank the most, what it waited for before and how long, after.
 * NULL when no change gained. Newly allocated. */
char *advice_explain (const Advice *advice);

#endif /* ADVISE_H */
