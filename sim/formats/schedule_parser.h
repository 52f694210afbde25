/* schedule_parser.h: the parser's state and the helpers its files share (schedule_parse.c, schedule_scan.c, schedule_subst.c, schedule_expr.c, schedule_statement.c, schedule_declarations.c, schedule_copies.c, schedule_kernels.c, schedule_events.c, schedule_memory.c, schedule_host.c, schedule_graphs.c, schedule_threads.c, schedule_names.c); not for use outside them.
 *
 * schedule_parse.c explains the three passes and runs them. */
#ifndef SCHEDULE_PARSER_H
#define SCHEDULE_PARSER_H

#include <string.h>
#include "sim/core/schedule.h"
#include "sim/core/schedule_private.h"

#define LINE_MAX_BYTES 4096
#define REPEAT_MAX_DEPTH 16  /* `repeat` and `if` blocks together */
/* Bounds on what a file may hold, so that memory stays bounded whatever is
 * fed in (a Line costs 24 bytes, a parameter about 100): 2^24 statement
 * lines (longer schedules use `repeat`), 65536 `let` parameters, and files
 * of at most SCHEDULE_MAX_FILE_BYTES (schedule_parse.h), read until the first
 * NUL byte (which the scan reports). */
#define SCHEDULE_MAX_LINES ((gsize) 1 << 24)
#define SCHEDULE_MAX_PARAMS 65536
/* A token is at least one byte followed by a blank. */
#define MAX_TOKENS (LINE_MAX_BYTES / 2 + 1)

typedef enum
{
  LINE_OP,     /* a run-time statement (or one whose keyword is substituted) */
  LINE_DECL,   /* stream, event */
  LINE_SETTING, /* device, connections: once each, not counted against --max-ops */
  LINE_LET,
  LINE_REPEAT,
  LINE_GRAPH,  /* `graph STREAM`: the lines to its `end` are one graph launch's nodes */
  LINE_THREAD, /* `thread NAME`: the lines to its `end` are a host thread's */
  LINE_IF,
  LINE_ELSE,
  LINE_END,
} LineKind;

/* A non-blank line of the file. Columns are byte offsets into it. */
typedef struct
{
  gsize start;        /* offset of the line in the text */
  guint32 lineno;
  guint16 first;      /* offset of the first non-blank byte */
  guint16 end;        /* offset past the statement, comment and blanks removed */
  /* LINE_REPEAT, LINE_GRAPH, LINE_THREAD, LINE_ELSE: the index of its `end`; LINE_IF: of its `else`,
   * or of its `end` when it has none; LINE_LET: of the line that opens its
   * block (`repeat`, `graph`, `if` or `else`), or NO_BLOCK at the top level. */
  guint32 match;
  guint8 kind;
  guint8 empty_body;  /* LINE_REPEAT: no statement inside, only loops */
  guint8 has_dollar;  /* a '$' before `end`: the statement may substitute */
} Line;

#define NO_BLOCK G_MAXUINT32

/* A `let` parameter or a -D define. */
typedef struct
{
  char *value;
  gsize line_index;   /* a `let` is visible to the lines after it */
  gsize scope_end;    /* ... before this one: the end of its block */
  guint32 lineno;     /* the `let` line; 0 for a -D */
  guint32 let_lineno; /* a -D: the `let` line it overrode, or 0 */
  gboolean from_define;
  gboolean used;      /* a -D that no `let` overrides must be read somewhere */
} Param;

typedef struct
{
  GString *name;
  gint64 value;
  guint32 lineno;     /* the `repeat` line */
  gboolean used;      /* read by a nested loop header (count pass) */
} LoopVar;

typedef struct
{
  char *s;            /* NUL-terminated, inside Parser.buf */
  guint len;
  guint col;
} Token;

/* What the names check (schedule_names.c) needs of an event besides what
 * Schedule keeps (its name and the line of its first use). */
typedef struct
{
  guint32 column;        /* of its name at its first use */
  guint32 declared_line; /* its `event NAME` statement; 0: none */
  guint32 graph;         /* the graph launch its last record stands in; 0: none */
  guint32 record_line;   /* ... and that record's line */
} EventUse;

typedef struct
{
  guint64 ops;
  guint64 decls;
  guint64 idle;         /* loop iterations that issue nothing (an `if` not taken) */
  gboolean lower_bound; /* counting stopped early: the real count is larger */
} Count;

typedef struct
{
  const char *path;
  const char *text;
  gsize length;
  guint64 max_ops;
  Schedule *sched;
  gsize ops_cap;

  Line *lines;
  gsize n_lines;
  GHashTable *params;          /* name -> Param */
  LoopVar vars[REPEAT_MAX_DEPTH];
  guint depth;
  gsize over_index;            /* count pass: the top-level line that crossed --max-ops */
  gboolean over;
  guint over_what;             /* 0: ops crossed it, 1: declarations, 2: idle iterations */

  /* The line being worked on, after substitution and tokenization. */
  gsize index;
  guint32 lineno;
  char buf[LINE_MAX_BYTES + 1];
  guint16 cols[LINE_MAX_BYTES + 1]; /* the original column of each byte of buf */
  gboolean identity;           /* no substitution: column = base_col + offset */
  guint base_col;
  guint len;
  Token tokens[MAX_TOKENS];
  guint n_tokens;
  char name[LINE_MAX_BYTES + 1];

  /* The text of the last kernel's time= and its list: a loop of identical
   * kernels shares one list instead of adding one per op. */
  char last_times[LINE_MAX_BYTES + 1];
  guint32 last_times_index;
  gboolean have_last_times;
  /* Every time= text seen -> its list + 1: kernels launched again later
   * (not back to back) share the list too, so that a schedule of millions
   * of launches of a few kernels keeps a few lists. */
  GHashTable *time_lists;

  /* The graph launch being expanded (`graph STREAM` ... `end`): its number
   * (0: none), stream, and the index of the op its first node will be. */
  guint32 graph;
  guint32 n_graphs;
  guint32 graph_stream;
  gsize graph_first_op;
  /* The other streams the open graph has taken in through a `wait`
   * (stream index -> TRUE; made at the first graph with branches), and
   * whether it has any. */
  GHashTable *graph_streams;
  gboolean graph_branches;

  /* The host thread whose block is being expanded (0: the top level), the
   * index of its first op, and every thread block expanded so far: names
   * (made at the first block) and the ops each took, ThreadRange. */
  guint32 thread;
  gsize thread_first_op;
  GHashTable *thread_index;    /* name -> index in Schedule.threads */
  GArray *thread_ranges;
  GHashTable *thread_joined;   /* thread -> the line of its `join` */

  GHashTable *elapsed_names;   /* `elapsed` NAME -> its line; made at the first */
  GArray *event_uses;          /* EventUse, per event of the schedule */
} Parser;

/* The ops [first, end) of a `thread` block, all of host thread `thread`. */
typedef struct
{
  gsize first, end;
  guint32 thread;
} ThreadRange;

/* ---- Shared by the passes ---- */

/* Sets a "FILE:LINE:COLUMN: ..." error at column `col` of the current line
 * (p->lineno) and returns FALSE. */
gboolean parser_fail (Parser *p, GError **error, ScheduleError code, guint col,
                      const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Pass 1 (schedule_scan.c): the lines of the text, comments stripped, each
 * `repeat` and `if` paired with its `else` and `end`. */
gboolean parser_scan (Parser *p, GError **error);

/* Substitution and parameters (schedule_subst.c). */
/* The value of `name` (len bytes): a loop variable (formatted into `number`,
 * 32 bytes) or a parameter visible from the current line; an error at
 * column `col` when there is none. */
gboolean parser_lookup (Parser *p, const char *name, gsize len, guint col, char *number,
                        const char **value, GError **error);
/* Makes lines[index] the current line: substituted into p->buf and split
 * into p->tokens. */
gboolean parser_enter (Parser *p, gsize index, GError **error);
/* The -D definitions, before the scan; a later one for a name wins. */
gboolean parser_defines (Parser *p, const char *const *defines, GError **error);
/* After the expansion: every -D was a `let` or was read. */
gboolean parser_defines_used (Parser *p, const char *const *defines, GError **error);
/* The `let` at lines[index]; run again (a loop's next iteration) it
 * takes its new value. */
gboolean parser_let (Parser *p, gsize index, GError **error);
/* The line index before which the `let` at lines[index] is visible. */
gsize parser_let_scope_end (const Parser *p, gsize index);
/* Frees a Param (the params table's value destructor). */
void parser_param_free (gpointer data);

/* Integer expressions (schedule_expr.c): s (len bytes, s[0] at column col)
 * evaluated with C's operators and precedence. `condition`: an `if`
 * condition, where $NAME and ${...} may stand for NAME and (...). */
gboolean parser_expr_eval (Parser *p, const char *s, gsize len, guint col, gboolean condition,
                           gint64 *value, GError **error);

/* Pass 3 (schedule_statement.c): the statement on the current line, its
 * tokens read, its op appended to the schedule. */
gboolean parser_statement (Parser *p, GError **error);
/* Stream, event, device and thread names: [A-Za-z0-9_.-]+. */
gboolean parser_is_object_name (const char *s);
/* Appends an op of `kind` for the current line, zeroed but for its kind,
 * line, column and no stream or event. */
SchedOp *parser_op (Parser *p, SchedOpKind kind);

/* What the statements' files share (schedule_statement.c), so that each
 * reads and refuses a name, a label or a value in the same words. */
/* `s` kept in the schedule's strings, one copy of each text. */
const char *parser_intern (Parser *p, const char *s);
/* The error code for a value units.c refused with the phrase `why`: it
 * starts the phrases for well-formed values out of range with "negative" or
 * "too large" (SCHEDULE_ERROR_RANGE); the others are SCHEDULE_ERROR_SYNTAX. */
ScheduleError parser_why_code (const char *why);
/* The line where event `index` was first used. */
guint parser_event_line (const Schedule *sched, guint index);
/* Whether `t` names a declared stream, and its index. */
gboolean parser_stream_lookup (Parser *p, const Token *t, guint32 *index);
/* The stream `t` names (declared, or `default`); else an error, which says
 * so when it names an event. */
gboolean parser_stream_ref (Parser *p, const Token *t, guint32 *index, GError **error);
/* The event `t` names. Events come into being at their first use; an error
 * when `t` names a stream or is no name. */
gboolean parser_event_ref (Parser *p, const Token *t, guint32 *index, GError **error);
/* label=NAME, or label="NAME WITH BLANKS" (value points into the line's
 * buffer, where the closing quote is cut off), as op's label. */
gboolean parser_label (Parser *p, const Token *t, const char *value, SchedOp *op, GError **error);
/* Tokens from `first` on may only be label=NAME; `usage` is the statement's
 * form for the error. */
gboolean parser_label_tail (Parser *p, guint first, SchedOp *op, const char *usage,
                            GError **error);
/* `value` (of token `t`) as a whole number from min to max, the messages
 * naming it `what` (a keyword, or a key ending in '='). */
gboolean parser_uint (Parser *p, const Token *t, const char *value, guint64 min, guint64 max,
                      const char *what, guint64 *out, GError **error);
/* Token `t` as a SIZE (units.c: 4MiB, 1.5GB), in bytes. */
gboolean parser_size (Parser *p, const Token *t, guint64 *bytes, GError **error);

/* The statements parser_statement sends each keyword to: each reads the
 * current line's tokens and appends its op (or fills a setting, a name or
 * an `elapsed`). */
/* Settings and declarations (schedule_declarations.c). */
gboolean parser_stmt_device (Parser *p, GError **error);
gboolean parser_stmt_connections (Parser *p, GError **error);
gboolean parser_stmt_pool_threshold (Parser *p, GError **error);
gboolean parser_stmt_device_schedule (Parser *p, GError **error);
gboolean parser_stmt_stream (Parser *p, GError **error);
gboolean parser_stmt_event (Parser *p, GError **error);
/* Copies (schedule_copies.c): `h2d`, `d2h` or `d2d` by `dir`, and `memcpy`. */
gboolean parser_stmt_copy (Parser *p, SchedCopyDir dir, GError **error);
gboolean parser_stmt_memcpy (Parser *p, GError **error);
/* Kernels (schedule_kernels.c). */
gboolean parser_stmt_kernel (Parser *p, GError **error);
/* Events and synchronization (schedule_events.c). */
gboolean parser_stmt_record (Parser *p, GError **error);
gboolean parser_stmt_elapsed (Parser *p, GError **error);
gboolean parser_stmt_wait (Parser *p, GError **error);
gboolean parser_stmt_sync (Parser *p, GError **error);
gboolean parser_stmt_poll (Parser *p, GError **error);
/* Device memory (schedule_memory.c): `memset`, and `malloc` or `free` by
 * `kind` (SCHED_OP_MALLOC, SCHED_OP_FREE). */
gboolean parser_stmt_memset (Parser *p, GError **error);
gboolean parser_stmt_alloc (Parser *p, SchedOpKind kind, GError **error);
/* Host time (schedule_host.c). */
gboolean parser_stmt_hostfn (Parser *p, GError **error);
gboolean parser_stmt_host (Parser *p, GError **error);

/* A graph launch (schedule_graphs.c): the `graph STREAM` line, entered,
 * opens it; each op its lines expand to is checked and made one of its
 * nodes (sched->ops[index], just appended; `made`: whether the line made
 * one); its `end` closes it, with at least one node. */
gboolean parser_graph_open (Parser *p, GError **error);
gboolean parser_graph_node (Parser *p, gsize index, gboolean made, GError **error);
gboolean parser_graph_close (Parser *p, gsize index, GError **error);

/* Host threads (schedule_threads.c). The `thread NAME` line, entered,
 * opens a block: it appends the SPAWN op in the current thread and makes
 * the lines up to its `end` the new thread's; its `end` closes it. */
gboolean parser_thread_open (Parser *p, GError **error);
void parser_thread_close (Parser *p);
/* A declaration or setting (lines[index]) may not stand in a thread block. */
gboolean parser_thread_allows (Parser *p, gsize index, GError **error);
/* The `join NAME` statement on the current line. */
gboolean parser_join (Parser *p, GError **error);
/* The host thread of op `op`, appended already. */
guint32 parser_op_thread (const Parser *p, gsize op);
/* After the expansion: each op's thread into the schedule (when it has
 * more than one). */
void parser_threads_finish (Parser *p);
void parser_threads_free (Parser *p);

/* After the expansion (schedule_names.c): every event that a `wait` or
 * `sync` names is recorded somewhere in the schedule or declared with
 * `event NAME`. */
gboolean parser_names_check (Parser *p, GError **error);

/* ---- Words and numbers: inline, as they are on the path of every token ---- */

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The end of the word at s: the first blank at or after s, or end.
 * Option: eight bytes at a time (SWAR) gained 2.0% of the benchmark's total (1.4% of instructions). */
static inline const char *
word_end (const char *s, const char *end)
{
  while (s < end && !is_blank (*s))
    s++;
  return s;
}

static inline gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static inline gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Parameter and loop variable names: [A-Za-z_][A-Za-z0-9_]*. */
static inline gboolean
is_identifier (const char *s, gsize len)
{
  if (len == 0 || !is_name_start (s[0]))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!is_name_char (s[i]))
      return FALSE;
  return TRUE;
}

/* A signed decimal integer, the whole string. */
static inline gboolean
parse_int64 (const char *s, gsize len, gint64 *value, gboolean *too_large)
{
  gboolean negative = FALSE;
  guint64 magnitude = 0;
  gsize i = 0;

  *too_large = FALSE;
  if (len > 0 && s[0] == '-')
    {
      negative = TRUE;
      i = 1;
    }
  if (i == len)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      if (magnitude > (G_MAXUINT64 - 9) / 10)
        *too_large = TRUE;
      else
        magnitude = magnitude * 10 + (guint) (s[i] - '0');
    }
  if (*too_large || magnitude > (negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64))
    {
      *too_large = TRUE;
      return FALSE;
    }
  *value = negative ? (gint64) ((guint64) 0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

/* `key=...`: the value after '=', or NULL. */
static inline const char *
token_attr (const Token *t, const char *key, gsize key_len)
{
  if (t->len > key_len && t->s[key_len] == '=' && memcmp (t->s, key, key_len) == 0)
    return t->s + key_len + 1;
  return NULL;
}
#define TOKEN_ATTR(t, key) token_attr ((t), key, sizeof (key) - 1)

static inline guint
parser_col (const Parser *p, const char *at)
{
  gsize offset = at - p->buf;
  return p->identity ? p->base_col + (guint) offset : p->cols[offset];
}

#endif /* SCHEDULE_PARSER_H */
