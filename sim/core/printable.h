/* printable.h: text made safe to show on a terminal.
 *
 * Messages quote what the user gave: text from an input file, a path or an
 * option's value from the command line. Any of them can hold control bytes
 * (a stray ^A in a keyword, a tab inside a quoted CSV field, ESC in a file
 * name) that a terminal shows as nothing or acts on. So before such text is
 * printed, every byte below 0x20, and 0x7f, is written as \t, \n, \r or
 * \xNN. UTF-8 text is left as it is. */
#ifndef PRINTABLE_H
#define PRINTABLE_H

#include <glib.h>

/* A newly allocated copy of `text` with control bytes written as above.
 * keep_line_breaks leaves '\n' as it is, for messages made of several lines
 * on purpose (gnuplot's own message after ours). */
char *printable_text (const char *text, gboolean keep_line_breaks);

#endif /* PRINTABLE_H */
