/* advise_search.h: the advisor's search state and candidates, and what the files of
 * `streamsim advise` share; included by those files only (sim/front/advise*.c).
 *
 * advise.c runs the searches in their order and builds the Advice (advise.h);
 * advise_search.c holds the search over one parsed schedule and simulates its
 * candidates; advise_order.c searches the issue order, advise_settings.c the
 * connection count, the priorities and the memory pool's threshold;
 * advise_hints.c finds the hints of changes of meaning, advise_explain.c
 * explains a change. */
#ifndef ADVISE_SEARCH_H
#define ADVISE_SEARCH_H

#include "advise.h"
#include "engines/eng_sim.h"
#include "sim/core/schedule_order.h"

/* One candidate: what the program is issued as. */
typedef struct
{
  guint32 *order;     /* op indices of the parsed schedule, in issue order */
  guint connections;  /* 0: the schedule's `connections`, else the driver's */
  gint *priority;     /* per stream */
  guint64 pool_threshold; /* `pool_threshold` */
  SimTime makespan;
} Config;

/* The search over one parsed schedule. */
typedef struct
{
  const GpuProfile *profile;
  const Schedule *sched;
  ScheduleOrder *rules;
  gsize n;
  guint n_streams;
  guint jobs;
  Schedule **work;       /* a copy per thread */
  guint64 budget;
  guint64 evaluated;
  gboolean exhaustive;   /* every order search tried every order */
  GRand *rand;
} Search;

/* A change found, with the candidates before and after it. */
typedef struct
{
  AdviseChangeKind kind;
  char *text;
  Config before, after;
} Step;

/* What advise_run found (advise.h). */
struct Advice
{
  char *device;
  Schedule *original;
  guint original_connections;
  SimTime original_makespan;
  Schedule *best;
  guint best_connections;
  SimTime best_makespan;
  char *define;
  GArray *changes;   /* AdviseChange */
  GArray *hints;     /* AdviseHint */
  guint64 candidates;
  gboolean exhaustive;
  char *explain;
  char *order_kept;  /* why the issue order was not searched though asked, or NULL */
  gboolean has_spread; /* the profile gives its host's spread: */
  SimTime spread_original[2], spread_best[2]; /* the makespans at each end (GpuHostEnd) */
};

/* ---- The search and its candidates (advise_search.c) ---- */

/* A candidate's arrays for the search `s`, its connections 0 and its makespan -1 (not
 * run); advise_config_copy or advise_program_config fills the rest. */
void advise_config_init (Config *c, const Search *s);

/* Copies `src` into `dest`, both made by advise_config_init for `s`. */
void advise_config_copy (Config *dest, const Config *src, const Search *s);

/* Frees a candidate's arrays. */
void advise_config_clear (Config *c);

/* Runs `c` on thread `job`'s copy; returns the run when `keep`, else frees it. */
EngSim *advise_simulate (const Search *s, guint job, Config *c, gboolean keep);

/* Simulates every config, candidate i on thread i mod jobs. */
void advise_evaluate (Search *s, Config *configs, gsize n);

/* The index of the fastest config, the first of equals. */
gsize advise_fastest (const Config *configs, gsize n);

/* How long the op whose result is `r` waited (prediction_waited's measure). */
SimTime advise_waited (const EngOpResult *r);

/* The search over `sched` on `profile`: its order rules, a copy of the
 * schedule per thread, the budget and the random moves' seed of `options`. */
Search *advise_search_new (const GpuProfile *profile, const Schedule *sched,
                           const AdviseOptions *options);

/* Frees the search and its copies of the schedule (not `sched`). */
void advise_search_free (Search *s);

/* The program as given, for the search `s`. */
void advise_program_config (const Search *s, guint connections, Config *c);

/* A copy of the search's schedule as `c` issues it. */
Schedule *advise_schedule_of (const Search *s, const Config *c);

/* A run of `sched`, which passed the checks as the program did. */
EngSim *advise_run_kept (const Search *s, const Schedule *sched, guint connections);

/* ---- The issue order (advise_order.c) ---- */

/* Searches issue orders for `best` (evaluated), keeping its connections
 * and priorities; returns how the best order was found. */
const char *advise_search_order (Search *s, Config *best);

/* ---- The settings (advise_settings.c) ---- */

/* The connection count the model uses for `c`. */
guint advise_connections_in_force (const Search *s, const Config *c);

/* Tries every other connection count for `best`; TRUE when one is faster. */
gboolean advise_search_connections (Search *s, Config *best);

/* Makes one stream at a time more urgent (-1) or back to 0 while that
 * gains; TRUE when anything did. */
gboolean advise_search_priorities (Search *s, Config *best);

/* The pool's release threshold raised to what the schedule holds at most
 * at once, when that gains; TRUE when it did. */
gboolean advise_search_pool (Search *s, Config *best);

/* ---- The hints of changes of meaning (advise_hints.c) ---- */

/* Pins every pageable copy of sched; returns how many there were. */
guint advise_pin_pageable (Schedule *sched);

/* The text of the pinned-memory change, for `pageable` copies. */
char *advise_pinned_text (guint pageable);

/* The changes of meaning worth telling: pinned memory, and syncs left out. */
void advise_add_hints (Advice *advice, const Search *s, const Config *best);

/* ---- The explanation of a change (advise_explain.c) ---- */

/* For the step with the largest gain, the op whose wait shrank most: "op 9
 * d2h-1 (line 20) waited 5 ms for ...; after it, 1.8 ms". */
char *advise_explain_step (Search *s, const Step *step);

#endif /* ADVISE_SEARCH_H */
