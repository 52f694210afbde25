/* schedule_kernels.c: pass 3's `kernel`: its shape (grid=, block=, smem=, regs=), its time (time= or block_time=), and the per-device lists both may be.
 *
 * A file of its own because a kernel is the one statement whose values may
 * differ by device: lists such as time=k20:0.4ms,2ms, split in place and
 * checked entry by entry, and time lists shared by every kernel that gives
 * the same text, so that millions of launches keep a few lists. */
#include "schedule_parser.h"
#include "units.h"

/* grid= or block= as X, XxY or XxYxZ, CUDA's dim3: each factor within its
 * axis's limit (`axes`, messages naming it by `names`), the product, which
 * is what the model uses, at most `max` `unit`. */
static gboolean
parser_dim (Parser *p, const Token *t, char *value, const guint64 *axes,
            const char *const *names, guint64 max, const char *unit, guint64 *out,
            GError **error)
{
  guint64 product = 1;
  char *s = value;

  for (guint axis = 0;; axis++)
    {
      char *x = strchr (s, 'x');
      guint64 n;

      if (axis == 3)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t->col,
                            "%s%s has more than three dimensions; write X, XxY or XxYxZ",
                            names[0], value);
      if (x != NULL)
        *x = '\0';
      if (!parser_uint (p, t, s, 1, axes[axis], names[axis], &n, error))
        return FALSE;
      product *= n; /* below 2^31 x 2^16 x 2^16 */
      if (x == NULL)
        break;
      *x = 'x';
      s = x + 1;
    }
  if (product > max)
    return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                        "%s%s is %" G_GUINT64_FORMAT " %s; at most %" G_GUINT64_FORMAT
                        " are allowed", names[0], value, product, unit, max);
  *out = product;
  return TRUE;
}

/* One value of grid=, block=, smem= or regs=, checked. */
static gboolean
shape_value (Parser *p, const Token *t, SchedShapeKey key, char *text, guint64 *n, GError **error)
{
  static const guint64 grid_axes[] = { G_MAXINT32, 65535, 65535 };
  static const char *const grid_names[] = { "grid=", "grid= Y", "grid= Z" };
  static const guint64 block_axes[] = { 1024, 1024, 64 };
  static const char *const block_names[] = { "block=", "block= Y", "block= Z" };
  const char *why;

  switch (key)
    {
    case SCHED_SHAPE_GRID:
      return parser_dim (p, t, text, grid_axes, grid_names, G_MAXINT32, "blocks", n, error);
    case SCHED_SHAPE_BLOCK:
      return parser_dim (p, t, text, block_axes, block_names, 1024, "threads", n, error);
    case SCHED_SHAPE_SMEM:
      if (!units_parse_size (text, n, &why))
        return parser_fail (p, error, parser_why_code (why), t->col, "bad smem= '%s': %s", text, why);
      if (*n > G_MAXUINT32)
        return parser_fail (p, error, SCHEDULE_ERROR_RANGE, t->col,
                            "smem=%s is out of range; shared memory per block must be below 4GiB",
                            text);
      return TRUE;
    case SCHED_SHAPE_REGS:
      return parser_uint (p, t, text, 1, 255, "regs=", n, error);
    }
  g_assert_not_reached ();
}

/* One entry of a per-device list: its device (NULL for the bare entry) and
 * its value's text, `at` the token with the column of that text. */
typedef gboolean (*DeviceEntryFunc) (Parser *p, const Token *at, const char *device, char *text,
                                     gpointer data, GError **error);

/* A per-device list, `key`'s value "dev:VALUE,dev:VALUE,VALUE" (split in
 * place): each entry given to `take` in order, then checked against those
 * before it. An empty entry, a bad device name, two bare entries or a device
 * twice are refused, the messages naming `key` and showing `example`, the
 * device names' `name_hint` and what the bare entry is (`bare`). */
static gboolean
parser_device_list (Parser *p, const Token *t, const char *key, const char *example,
                    const char *name_hint, const char *bare, char *value, DeviceEntryFunc take,
                    gpointer data, GError **error)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new (); /* each entry's device, NULL if bare */
  char *s = value;
  for (;;)
    {
      char *comma = strchr (s, ',');
      if (comma != NULL)
        *comma = '\0';
      Token entry = *t;
      entry.col = parser_col (p, s);
      if (*s == '\0')
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, entry.col,
                            "empty entry in %s; write %s", key, example);
      const char *device = NULL;
      char *text = s;
      char *colon = strchr (s, ':');
      if (colon != NULL)
        {
          *colon = '\0';
          if (!parser_is_object_name (s))
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, entry.col,
                                "'%s' is not a device name in %s; names use letters, digits, "
                                "'_', '.' and '-'%s", s, key, name_hint);
          device = s;
          text = colon + 1;
          entry.col = parser_col (p, text);
        }
      if (!take (p, &entry, device, text, data, error))
        return FALSE;
      for (guint i = 0; i < seen->len; i++)
        {
          const char *other = g_ptr_array_index (seen, i);
          if (device == NULL && other == NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "%s has two entries without a device; give at most one %s", key,
                                bare);
          if (device != NULL && other != NULL && strcmp (device, other) == 0)
            return parser_fail (p, error, SCHEDULE_ERROR_DUPLICATE, parser_col (p, s),
                                "device '%s' appears twice in %s", device, key);
        }
      g_ptr_array_add (seen, (gpointer) device);
      if (comma == NULL)
        return TRUE;
      s = comma + 1;
    }
}

typedef struct
{
  SchedOp *op;
  SchedShapeKey key;
} ShapeList;

/* An entry of grid=, block=, smem= or regs=: to Schedule.shapes, and the
 * bare one also the kernel's. */
static gboolean
take_shape (Parser *p, const Token *at, const char *device, char *text, gpointer data,
            GError **error)
{
  const ShapeList *list = data;
  guint64 n;
  if (!shape_value (p, at, list->key, text, &n, error))
    return FALSE;
  SchedDeviceShape shape = { (guint32) (list->op - p->sched->ops), list->key,
                             device != NULL ? parser_intern (p, device) : NULL, (guint32) n };
  if (device == NULL)
    sched_kernel_set_shape (&list->op->u.kernel, list->key, shape.value);
  g_array_append_val (p->sched->shapes, shape);
  return TRUE;
}

/* grid=, block=, smem= or regs=: one value, or a list of per-device values
 * with at most one bare value, as time= (`grid=k20:26,h100:132,64`). A
 * list's entries go to Schedule.shapes, for schedule_select_device; the
 * bare value, if any, is also the kernel's until then. */
static gboolean
parser_shape (Parser *p, const Token *t, SchedShapeKey key, char *value, SchedOp *op,
              GError **error)
{
  guint64 n;
  if (strchr (value, ':') == NULL)
    {
      if (!shape_value (p, t, key, value, &n, error))
        return FALSE;
      sched_kernel_set_shape (&op->u.kernel, key, (guint32) n);
      return TRUE;
    }
  ShapeList list = { op, key };
  g_autofree char *example = g_strdup_printf ("%sk20:VALUE,h100:VALUE,VALUE",
                                              sched_shape_keys[key]);
  return parser_device_list (p, t, sched_shape_keys[key], example, "", "bare value", value,
                             take_shape, &list, error);
}

/* An entry of time=: to Schedule.times, counted in the list's n. */
static gboolean
take_time (Parser *p, const Token *at, const char *device, char *text, gpointer data,
           GError **error)
{
  ScheduleTimeList *list = data;
  SchedDeviceTime entry = { device != NULL ? parser_intern (p, device) : NULL, 0 };
  const char *why;
  if (!units_parse_time (text, &entry.time, &why))
    return parser_fail (p, error, parser_why_code (why), at->col, "bad time '%s' in time=: %s", text, why);
  g_array_append_val (p->sched->times, entry);
  list->n++;
  return TRUE;
}

/* time=2ms, or time=c1060:4.3ms,k20:0.4ms,1ms (a bare entry is the fallback). */
static gboolean
parser_time_list (Parser *p, const Token *t, char *value, guint32 *index, GError **error)
{
  Schedule *sched = p->sched;

  if (p->have_last_times && strcmp (value, p->last_times) == 0)
    {
      *index = p->last_times_index;
      return TRUE;
    }
  gpointer seen = g_hash_table_lookup (p->time_lists, value);
  if (seen != NULL)
    {
      *index = GPOINTER_TO_UINT (seen) - 1;
      strcpy (p->last_times, value);
      p->last_times_index = *index;
      p->have_last_times = TRUE;
      return TRUE;
    }
  p->have_last_times = FALSE;
  strcpy (p->last_times, value);
  if (sched->time_lists->len >= G_MAXUINT32 - 1)
    return parser_fail (p, error, SCHEDULE_ERROR_LIMIT, t->col, "too many time= lists");

  ScheduleTimeList list = { .first = sched->times->len, .n = 0 };
  if (!parser_device_list (p, t, "time=", "time=2ms or time=k20:0.4ms,c2050:1.1ms,2ms",
                           ", as in time=k20:0.4ms", "fallback time", value, take_time, &list,
                           error))
    return FALSE;
  *index = sched->time_lists->len;
  g_array_append_val (sched->time_lists, list);
  p->last_times_index = *index;
  p->have_last_times = TRUE;
  g_hash_table_insert (p->time_lists, g_strdup (p->last_times), GUINT_TO_POINTER (*index + 1));
  return TRUE;
}

gboolean
parser_stmt_kernel (Parser *p, GError **error)
{
  static const char attrs[] =
    "kernel takes grid=BLOCKS, block=THREADS, time=TIME or block_time=TIME, "
    "and optionally smem=SIZE, regs=N, label=NAME and loads";
  const Token *t = p->tokens;
  const Token *timing = NULL;
  gboolean have_shape[4] = { FALSE, FALSE, FALSE, FALSE };
  SchedKernel *k;
  SchedOp *op;

  if (p->n_tokens < 2)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "expected `kernel STREAM grid=BLOCKS block=THREADS time=TIME`; %s", attrs);
  op = parser_op (p, SCHED_OP_KERNEL);
  k = &op->u.kernel;
  k->block_time = -1;
  k->times = SCHED_NONE;
  if (!parser_stream_ref (p, &t[1], &op->stream, error))
    return FALSE;

  for (guint i = 2; i < p->n_tokens; i++)
    {
      const Token *a = &p->tokens[i];
      char *eq = strchr (a->s, '=');
      char *value;
      gsize key_len;

      if (eq == NULL && strcmp (a->s, "loads") == 0)
        {
          if (k->loads)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col, "loads is given twice");
          k->loads = TRUE;
          continue;
        }
      if (eq == NULL)
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                            "unexpected '%s'; %s", a->s, attrs);
      key_len = eq - a->s;
      value = eq + 1;
#define KEY_IS(key) (key_len == sizeof (key) - 1 && memcmp (a->s, key, key_len) == 0)
      if (KEY_IS ("grid") || KEY_IS ("block") || KEY_IS ("smem") || KEY_IS ("regs"))
        {
          SchedShapeKey key = KEY_IS ("grid") ? SCHED_SHAPE_GRID
                            : KEY_IS ("block") ? SCHED_SHAPE_BLOCK
                            : KEY_IS ("smem") ? SCHED_SHAPE_SMEM
                                              : SCHED_SHAPE_REGS;
          if (have_shape[key])
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col, "%s is given twice",
                                sched_shape_keys[key]);
          have_shape[key] = TRUE;
          if (!parser_shape (p, a, key, value, op, error))
            return FALSE;
        }
      else if (KEY_IS ("time") || KEY_IS ("block_time"))
        {
          gboolean per_block = KEY_IS ("block_time");
          if (timing != NULL)
            return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                                "give exactly one of time= or block_time=");
          timing = a;
          if (per_block)
            {
              const char *why;
              if (!units_parse_time (value, &k->block_time, &why))
                return parser_fail (p, error, parser_why_code (why), a->col, "bad block_time= '%s': %s",
                                    value, why);
            }
          else if (!parser_time_list (p, a, value, &k->times, error))
            return FALSE;
        }
      else if (KEY_IS ("label"))
        {
          if (!parser_label (p, a, value, op, error))
            return FALSE;
        }
      else
        return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, a->col,
                            "unknown kernel attribute '%.*s'; %s", (int) key_len, a->s, attrs);
#undef KEY_IS
    }
  if (!have_shape[SCHED_SHAPE_GRID])
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "kernel needs grid=BLOCKS (1 to 2147483647)");
  if (!have_shape[SCHED_SHAPE_BLOCK])
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "kernel needs block=THREADS (1 to 1024)");
  if (timing == NULL)
    return parser_fail (p, error, SCHEDULE_ERROR_SYNTAX, t[0].col,
                        "give exactly one of time= or block_time=");
  return TRUE;
}
