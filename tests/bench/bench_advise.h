/* bench_advise.h: `streamsim-bench --advise`: how many candidates a second the advisor simulates. */
#ifndef BENCH_ADVISE_H
#define BENCH_ADVISE_H

#include <glib.h>
#include "support/schedule_gen.h"

/* For each size, generates a schedule (gen, its n_ops set per size), runs
 * advise_run on it `runs` times on `jobs` threads and prints one row: the
 * fastest run's seconds and candidates a second. Returns the exit status. */
int bench_advise (const ScheduleGenOptions *gen, const GArray *sizes, guint runs, guint jobs);

#endif /* BENCH_ADVISE_H */
