/* schedule_text.h: a schedule's text reduced to its statements, for tests that compare converted schedules with ones worked out by hand. */
#ifndef SCHEDULE_TEXT_H
#define SCHEDULE_TEXT_H

#include <glib.h>

/* `text` without its comment lines, its empty lines and the comments at
 * the ends of its statements (from "   #"), one statement a line. */
char *schedule_text_statements (const char *text);

#endif /* SCHEDULE_TEXT_H */
