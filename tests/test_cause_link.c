/* test_cause_link.c: which cause texts tie an op to another stream's op, and to which. */
#include <glib.h>
#include "sim/front/cause_link.h"

/* The four linking kinds, with the op each names (the last one for
 * deferred: the op whose end released the completion). */
static void
test_links (void)
{
  guint32 op = 0;
  g_assert_cmpstr (cause_link_parse ("event e1 recorded by op 12", &op), ==, "event");
  g_assert_cmpuint (op, ==, 12);
  g_assert_cmpstr (cause_link_parse ("queue conn0/d2h behind op 10 (stream s2): false dependency", &op),
                   ==, "queue");
  g_assert_cmpuint (op, ==, 10);
  g_assert_cmpstr (cause_link_parse ("legacy default stream waits for op 7 (stream s4)", &op), ==,
                   "legacy");
  g_assert_cmpuint (op, ==, 7);
  g_assert_cmpstr (cause_link_parse ("deferred completion of op 5 held until op 8 ended", &op), ==,
                   "deferred");
  g_assert_cmpuint (op, ==, 8);
}

/* Other kinds, texts naming no op, and words merely ending in "op" give
 * nothing, and leave *op alone. */
static void
test_no_links (void)
{
  guint32 op = 99;
  static const char *const texts[] = {
    "stream s2 after op 1",
    "engine d2h busy with op 9",
    "slots held by op 5 (SMs full or concurrency limit)",
    "sync until op 13 finished",
    "host busy with op 3",
    "event e1 never recorded",
    "queue stop 3",
    "queue op x",
    "eventual op 3",
    "",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    g_assert_null (cause_link_parse (texts[i], &op));
  g_assert_null (cause_link_parse (NULL, &op));
  g_assert_cmpuint (op, ==, 99);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cause-link/links", test_links);
  g_test_add_func ("/cause-link/no-links", test_no_links);
  return g_test_run ();
}
