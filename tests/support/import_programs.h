/* import_programs.h: the schedules of the programs that both importers' tests trace (test_import_kineto.c, test_import_nsys.c), worked out by hand. */
#ifndef IMPORT_PROGRAMS_H
#define IMPORT_PROGRAMS_H

/* Each is a schedule's statements (schedule_text_statements), converted on
 * tests/profiles/ops.ini with host gaps under 2 us added up; the calls and
 * GPU times of each program, and how each statement follows from them,
 * are in test_import_kineto.c above the test of the same name. */

/* one-stream: an H2D, two launches, a D2H, a stream and a device sync. */
extern const char import_program_one_stream[];

/* events: two streams, an event recorded in one and waited for in the
 * other, an event synchronize. */
extern const char import_program_events[];

/* calls: a launch inside a runtime call, a driver launch, a peer copy, a
 * memset, a blocking copy, a launch whose kernel is not in the trace. */
extern const char import_program_calls[];

#endif /* IMPORT_PROGRAMS_H */
