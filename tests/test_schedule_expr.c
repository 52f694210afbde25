/* test_schedule_expr.c: integer expressions in ${...} and `if` conditions: C's operators and precedence, and each error's position. */
#include <glib.h>

#include "sim/core/schedule.h"
#include "support/parse_check.h"

/* The value `${expr}` substitutes: the label of `host 1ns label=v${expr}`,
 * after the 'v'. */
static char *
value_of (const char *lets, const char *expr)
{
  char *text = g_strdup_printf ("%shost 1ns label=v${%s}\n", lets, expr);
  Schedule *sched = parse_check_ok (text, NULL);
  char *value;

  g_assert_cmpuint (schedule_n_ops (sched), ==, 1);
  value = g_strdup (schedule_op (sched, 0)->label + 1);
  schedule_free (sched);
  g_free (text);
  return value;
}

/* Each expected value worked out by hand with C's rules: * / % before + -,
 * those before comparisons, then == !=, then &&, then ||; left to right;
 * division truncates toward zero; && and || skip their right side. */
static void
test_values (void)
{
  static const struct
  {
    const char *expr;
    const char *value;
  } cases[] = {
    { "1+2*3", "7" },
    { "(1+2)*3", "9" },
    { "(r+1)%nstreams", "0" },       /* (3+1)%4 */
    { "(r+2)%nstreams", "1" },
    { "10-4-3", "3" },               /* (10-4)-3, not 10-(4-3) */
    { "64/4/2", "8" },
    { "-2*3", "-6" },
    { "- -3", "3" },
    { "+5", "5" },
    { "-7/2", "-3" },
    { "-7%3", "-1" },
    { "7%-3", "1" },
    { "3<4", "1" },
    { "3<=3", "1" },
    { "3>4", "0" },
    { "4>=5", "0" },
    { "2==2", "1" },
    { "2!=2", "0" },
    { "1 < 2 == 1", "1" },           /* (1<2)==1 */
    { "2+3*4 > 13", "1" },           /* 14 > 13 */
    { "1&&0", "0" },
    { "0||3", "1" },
    { "!0", "1" },
    { "!r", "0" },
    { "!!r", "1" },
    { "1 || 0 && 0", "1" },          /* 1 || (0 && 0) */
    { "(1 || 0) && 0", "0" },
    { "0 && 1/0", "0" },             /* the division is skipped */
    { "1 || 1%0", "1" },
    { "r == 3 && nstreams - r == 1", "1" },
    { " ( r ) * ( r ) ", "9" },
    { "9223372036854775807", "9223372036854775807" },
    { "-9223372036854775807-1", "-9223372036854775808" },
    { "007", "007" },                /* a lone integer is substituted as written */
  };
  static const char lets[] = "let r = 3\nlet nstreams = 4\n";

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *value = value_of (lets, cases[i].expr);
      g_test_message ("${%s} = %s", cases[i].expr, value);
      g_assert_cmpstr (value, ==, cases[i].value);
      g_free (value);
    }
}

/* Columns counted by hand: in `host ${...}` the '$' is column 6 and the
 * expression starts at column 8. */
static void
test_errors (void)
{
  parse_check_error ("host ${8/(4-4)}us\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:9: '${8/(4-4)}': division by zero");
  parse_check_error ("let n = 0\nhost ${5 % n}us\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:2:10: '${5 % n}': modulo by zero");
  parse_check_error ("host ${9223372036854775807 + 1}us\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:28: '${9223372036854775807 + 1}': the result does not fit 64 bits");
  parse_check_error ("host ${-(-9223372036854775807-1)}us\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:8: '${-(-9223372036854775807-1)}': the result does not fit 64 bits");
  parse_check_error ("host ${99999999999999999999+0}us\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:1:8: '${99999999999999999999+0}': the number does not fit 64 bits");
  parse_check_error ("host ${(1+2}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:12: '${(1+2}': expected ')' to close the '('");
  parse_check_error ("host ${1+2)}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:11: '${1+2)}': expected an operator");
  parse_check_error ("host ${1=2}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:9: '${1=2}': expected an operator; compare with '=='");
  parse_check_error ("host ${1&2}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:9: '${1&2}': expected an operator; the logical operators are");
  parse_check_error ("host ${2*}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:10: '${2*}': expected a name, an integer or '(' at the end");
  parse_check_error ("host ${3x}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:9: '${3x}': a number is digits only");
  parse_check_error ("host ${1+y}us\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:1:10: undefined parameter 'y'");
  /* a skipped side is not computed, but its names must exist */
  parse_check_error ("host ${0 && y}us\n", NULL, 0, SCHEDULE_ERROR_UNDEFINED,
                     "t.sched:1:13: undefined parameter 'y'");
  parse_check_error ("let c = 4MiB\nhost ${c+1}us\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:2:8: '${c+1}': 'c' is '4MiB', not an integer");

  /* 65 parentheses: one more than the limit, the 65th at column 72 */
  char *open = g_strnfill (65, '('), *close = g_strnfill (65, ')');
  char *deep = g_strdup_printf ("host ${%s1%s}us\n", open, close);
  parse_check_error (deep, NULL, 0, SCHEDULE_ERROR_LIMIT, "t.sched:1:72: ");
  g_free (deep);
  g_free (open);
  g_free (close);
}

/* An `if` condition is the same language, where $NAME and ${...} stand for
 * NAME and (...); errors point into the `if` line. */
static void
test_condition (void)
{
  Schedule *sched = parse_check_ok ("let n = 3\n"
                                    "if $n > 2 && ${n % 2} == 1\n"  /* 3 > 2 && 1 == 1: taken */
                                    "  host 1us\n"
                                    "end\n"
                                    "if !(n - 3)\n"                 /* !(0): taken */
                                    "  host 2us\n"
                                    "end\n"
                                    "if n * 2 < 6\n"                /* 6 < 6: not taken */
                                    "  host 3us\n"
                                    "end\n", NULL);
  g_assert_cmpuint (schedule_n_ops (sched), ==, 2);
  g_assert_cmpint (schedule_op (sched, 0)->u.duration, ==, 1000);
  g_assert_cmpint (schedule_op (sched, 1)->u.duration, ==, 2000);
  schedule_free (sched);

  parse_check_error ("let z = 0\nif 1 / z\n  host 1us\nend\n", NULL, 0, SCHEDULE_ERROR_RANGE,
                     "t.sched:2:6: '1 / z': division by zero");
  parse_check_error ("if\n  host 1us\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX, "t.sched:1:1: expected `if EXPR`");
  parse_check_error ("if 1 = 1\n  host 1us\nend\n", NULL, 0, SCHEDULE_ERROR_SYNTAX,
                     "t.sched:1:6: '1 = 1': expected an operator; compare with '=='");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/schedule-expr/values", test_values);
  g_test_add_func ("/schedule-expr/errors", test_errors);
  g_test_add_func ("/schedule-expr/condition", test_condition);
  return g_test_run ();
}
