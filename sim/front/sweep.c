/* sweep.c: predict one schedule over a grid of parameter values times devices, and plot makespan. */
#include "sweep.h"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "device_name.h"
#include "prediction.h"
#include "sim/formats/units.h"
#include "sim/formats/output_file.h"

struct Sweep
{
  char *param;      /* the swept parameter */
  GPtrArray *values; /* its values, as written to -D */
  gboolean geometric;
  GPtrArray *fixed;  /* the other defines, "name=value" */
  GPtrArray *devices; /* names; one NULL entry: the schedule's own device */
  SimTime *makespan; /* [value * n_devices + device] */
  PredictionPathTime *path_time; /* the same points' critical paths, by engine */
  GPtrArray *notes;  /* prediction_notes of each device's first value, NULL-ended */
};

static void G_GNUC_PRINTF (2, 3)
sweep_bad_value (GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  g_free (message);
}

static gboolean
sweep_parse_int (const char *text, const char *end, guint64 *value)
{
  if (text == end || end - text > 18)
    return FALSE;
  guint64 v = 0;
  for (const char *p = text; p < end; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      v = v * 10 + (guint64) (*p - '0');
    }
  *value = v;
  return TRUE;
}

/* One item of a value list: a plain value, "A..B" or "A..B*F". */
static gboolean
sweep_expand_item (const char *name, const char *item, GPtrArray *out, gboolean *geometric,
                   GError **error)
{
  const char *dots = strstr (item, "..");
  if (dots == NULL)
    {
      g_ptr_array_add (out, g_strdup (item));
      return TRUE;
    }
  const char *star = strchr (dots + 2, '*');
  const char *stop_end = star != NULL ? star : dots + 2 + strlen (dots + 2);
  guint64 first, last, factor = 0;
  if (!sweep_parse_int (item, dots, &first) || !sweep_parse_int (dots + 2, stop_end, &last)
      || (star != NULL && !sweep_parse_int (star + 1, star + 1 + strlen (star + 1), &factor)))
    {
      sweep_bad_value (error,
                       "-D %s=%s: a range is FIRST..LAST (every integer) or "
                       "FIRST..LAST*FACTOR (FIRST, FIRST*FACTOR, ... up to LAST), "
                       "with non-negative integers",
                       name, item);
      return FALSE;
    }
  if (first > last)
    {
      sweep_bad_value (error, "-D %s=%s: the range's first value is above its last", name,
                       item);
      return FALSE;
    }
  if (star != NULL && (factor < 2 || first == 0))
    {
      sweep_bad_value (error,
                       "-D %s=%s: a geometric range needs FIRST >= 1 and FACTOR >= 2 "
                       "(for example 1..64*2)",
                       name, item);
      return FALSE;
    }
  if (star == NULL && last - first >= SWEEP_MAX_VALUES)
    {
      sweep_bad_value (error, "-D %s=%s: more than %u values; a sweep has at most %u", name,
                       item, SWEEP_MAX_VALUES, SWEEP_MAX_VALUES);
      return FALSE;
    }
  if (star == NULL)
    for (guint64 v = first; v <= last; v++)
      g_ptr_array_add (out, g_strdup_printf ("%" G_GUINT64_FORMAT, v));
  else
    {
      /* At most 64 steps: FIRST >= 1 and FACTOR >= 2 pass 2^64 by then. */
      for (guint64 v = first; v <= last; v *= factor)
        {
          g_ptr_array_add (out, g_strdup_printf ("%" G_GUINT64_FORMAT, v));
          if (v > G_MAXUINT64 / factor)
            break;
        }
      *geometric = TRUE;
    }
  return TRUE;
}

char **
sweep_expand_values (const char *name, const char *text, gboolean *geometric, GError **error)
{
  g_return_val_if_fail (name != NULL && text != NULL && geometric != NULL, NULL);

  *geometric = FALSE;
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);
      if (*item == '\0')
        {
          sweep_bad_value (error,
                           "-D %s=%s: empty value in the list; values are separated by "
                           "single commas",
                           name, text);
          return NULL;
        }
      if (!sweep_expand_item (name, item, out, geometric, error))
        return NULL;
      if (out->len > SWEEP_MAX_VALUES)
        {
          sweep_bad_value (error, "-D %s=%s: more than %u values; a sweep has at most %u",
                           name, text, SWEEP_MAX_VALUES, SWEEP_MAX_VALUES);
          return NULL;
        }
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

Sweep *
sweep_new (const char *const *defines, const char *const *devices, GError **error)
{
  g_autoptr (Sweep) sweep = g_new0 (Sweep, 1);
  sweep->values = g_ptr_array_new_with_free_func (g_free);
  sweep->fixed = g_ptr_array_new_with_free_func (g_free);
  sweep->devices = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; defines != NULL && defines[i] != NULL; i++)
    {
      const char *eq = strchr (defines[i], '=');
      if (eq == NULL || eq == defines[i])
        {
          sweep_bad_value (error, "-D %s: expected NAME=VALUE or NAME=V1,V2,...", defines[i]);
          return NULL;
        }
      const char *text = eq + 1;
      if (strchr (text, ',') == NULL && strstr (text, "..") == NULL)
        {
          g_ptr_array_add (sweep->fixed, g_strdup (defines[i]));
          continue;
        }
      g_autofree char *name = g_strndup (defines[i], (gsize) (eq - defines[i]));
      if (sweep->param != NULL)
        {
          sweep_bad_value (error,
                           "-D %s: only one parameter can be swept, and -D %s already is; "
                           "give the others a single value",
                           defines[i], sweep->param);
          return NULL;
        }
      g_auto (GStrv) values = sweep_expand_values (name, text, &sweep->geometric, error);
      if (values == NULL)
        return NULL;
      for (guint k = 0; values[k] != NULL; k++)
        g_ptr_array_add (sweep->values, g_strdup (values[k]));
      sweep->param = g_steal_pointer (&name);
    }
  if (sweep->param == NULL)
    {
      sweep_bad_value (error,
                       "nothing to sweep: give one -D NAME=V1,V2,... (or NAME=FIRST..LAST, "
                       "NAME=FIRST..LAST*FACTOR)");
      return NULL;
    }

  GError *local = NULL;
  g_auto (GStrv) names = device_names_from_args (devices, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_ptr_array_add (sweep->devices, g_strdup (names[i]));
  if (sweep->devices->len == 0)
    g_ptr_array_add (sweep->devices, NULL);
  sweep->makespan = g_new0 (SimTime, (gsize) sweep->values->len * sweep->devices->len);
  sweep->path_time
      = g_new0 (PredictionPathTime, (gsize) sweep->values->len * sweep->devices->len);
  return g_steal_pointer (&sweep);
}

void
sweep_free (Sweep *sweep)
{
  if (sweep == NULL)
    return;
  g_free (sweep->param);
  if (sweep->values != NULL)
    g_ptr_array_unref (sweep->values);
  if (sweep->fixed != NULL)
    g_ptr_array_unref (sweep->fixed);
  if (sweep->devices != NULL)
    g_ptr_array_unref (sweep->devices);
  g_free (sweep->makespan);
  g_free (sweep->path_time);
  if (sweep->notes != NULL)
    g_ptr_array_unref (sweep->notes);
  g_free (sweep);
}

const char *
sweep_param (const Sweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, NULL);
  return sweep->param;
}

guint
sweep_n_values (const Sweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, 0);
  return sweep->values->len;
}

const char *
sweep_value (const Sweep *sweep, guint index)
{
  g_return_val_if_fail (sweep != NULL && index < sweep->values->len, NULL);
  return g_ptr_array_index (sweep->values, index);
}

gboolean
sweep_is_geometric (const Sweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, FALSE);
  return sweep->geometric;
}

guint
sweep_n_devices (const Sweep *sweep)
{
  g_return_val_if_fail (sweep != NULL, 0);
  return sweep->devices->len;
}

const char *
sweep_device (const Sweep *sweep, guint index)
{
  g_return_val_if_fail (sweep != NULL && index < sweep->devices->len, NULL);
  return g_ptr_array_index (sweep->devices, index);
}

char **
sweep_defines (const Sweep *sweep, guint value)
{
  g_return_val_if_fail (sweep != NULL && value < sweep->values->len, NULL);
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < sweep->fixed->len; i++)
    g_ptr_array_add (out, g_strdup (g_ptr_array_index (sweep->fixed, i)));
  g_ptr_array_add (out, g_strdup_printf ("%s=%s", sweep->param,
                                         (const char *) g_ptr_array_index (sweep->values, value)));
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

/* One point of the sweep, predicted on a worker thread: what the sweep
 * keeps of its prediction, or why it failed. */
typedef struct
{
  Sweep *sweep;
  const char *schedule_path;
  guint connections;
  guint index;          /* value * n_devices + device */
  gint *first_failed;   /* the lowest index that failed so far (atomic) */
  GError *error;
  char *device_name;    /* the profile's name, when the schedule names the device */
  char **notes;         /* for the first value only */
} SweepPoint;

static void
sweep_point_run (gpointer data, gpointer user_data)
{
  SweepPoint *pt = data;
  (void) user_data;
  /* A point after one that failed would be thrown away: the sweep reports
   * the first failure in order, as a sweep point by point would. */
  if ((gint) pt->index > g_atomic_int_get (pt->first_failed))
    return;
  Sweep *sweep = pt->sweep;
  guint n_devices = sweep->devices->len;
  guint v = pt->index / n_devices, d = pt->index % n_devices;
  g_auto (GStrv) defines = sweep_defines (sweep, v);
  PredictionOptions options = {
    .device = g_ptr_array_index (sweep->devices, d),
    .connections = pt->connections,
    .defines = (const char *const *) defines,
  };
  g_autoptr (Prediction) prediction = prediction_run (pt->schedule_path, &options, &pt->error);
  if (prediction == NULL)
    {
      gint seen = g_atomic_int_get (pt->first_failed);
      while ((gint) pt->index < seen
             && !g_atomic_int_compare_and_exchange (pt->first_failed, seen, (gint) pt->index))
        seen = g_atomic_int_get (pt->first_failed);
      return;
    }
  /* Without --device the schedule names its device; the plot and the CSV
   * need that name. */
  if (options.device == NULL)
    pt->device_name = g_strdup (gpu_profile_name (prediction_profile (prediction)));
  /* Once per device: the other values would repeat it. */
  if (v == 0)
    pt->notes = prediction_notes (prediction);
  /* Each point writes only its own slots. */
  sweep->makespan[pt->index] = prediction_makespan (prediction);
  g_autoptr (GArray) path = prediction_critical_path (prediction);
  prediction_critical_path_time (prediction, path, &sweep->path_time[pt->index]);
}

gboolean
sweep_run (Sweep *sweep, const char *schedule_path, guint connections, guint jobs,
           GError **error)
{
  g_return_val_if_fail (sweep != NULL && schedule_path != NULL, FALSE);

  guint n_devices = sweep->devices->len;
  guint n_points = sweep->values->len * n_devices;
  if (jobs == 0)
    jobs = (guint) MAX (1, g_get_num_processors ());
  jobs = MIN (jobs, n_points);
  if (sweep->notes != NULL)
    g_ptr_array_unref (sweep->notes);
  sweep->notes = g_ptr_array_new_with_free_func (g_free);

  gint first_failed = G_MAXINT;
  SweepPoint *points = g_new0 (SweepPoint, n_points);
  for (guint i = 0; i < n_points; i++)
    points[i] = (SweepPoint) { sweep, schedule_path, connections, i, &first_failed,
                               NULL, NULL, NULL };
  /* The points are independent predictions, each parsing the schedule
   * itself (a -D can change what it expands to); the thread pool hands them
   * out in order, and the results land by index, so the output is the same
   * for any number of jobs. */
  GThreadPool *pool = jobs > 1 ? g_thread_pool_new (sweep_point_run, NULL, (gint) jobs, FALSE,
                                                    NULL)
                               : NULL;
  for (guint i = 0; i < n_points; i++)
    if (pool == NULL)
      sweep_point_run (&points[i], NULL);
    else
      g_thread_pool_push (pool, &points[i], NULL);
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);

  gboolean ok = first_failed == G_MAXINT;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&points[first_failed].error));
  for (guint i = 0; i < n_points; i++)
    {
      if (ok && points[i].device_name != NULL && i < n_devices)
        g_ptr_array_index (sweep->devices, i) = g_steal_pointer (&points[i].device_name);
      for (guint k = 0; ok && points[i].notes != NULL && points[i].notes[k] != NULL; k++)
        g_ptr_array_add (sweep->notes, g_steal_pointer (&points[i].notes[k]));
      g_clear_error (&points[i].error);
      g_free (points[i].device_name);
      g_strfreev (points[i].notes);
    }
  g_ptr_array_add (sweep->notes, NULL);
  g_free (points);
  return ok;
}

const char *const *
sweep_notes (const Sweep *sweep)
{
  g_return_val_if_fail (sweep != NULL && sweep->notes != NULL, NULL);
  return (const char *const *) sweep->notes->pdata;
}

SimTime
sweep_makespan (const Sweep *sweep, guint value, guint device)
{
  g_return_val_if_fail (sweep != NULL && value < sweep->values->len
                            && device < sweep->devices->len,
                        0);
  return sweep->makespan[(gsize) value * sweep->devices->len + device];
}

const PredictionPathTime *
sweep_path_time (const Sweep *sweep, guint value, guint device)
{
  g_return_val_if_fail (sweep != NULL && value < sweep->values->len
                            && device < sweep->devices->len,
                        NULL);
  return &sweep->path_time[(gsize) value * sweep->devices->len + device];
}

guint
sweep_fastest (const Sweep *sweep, guint device)
{
  g_return_val_if_fail (sweep != NULL && device < sweep->devices->len, 0);
  guint best = 0;
  for (guint v = 1; v < sweep->values->len; v++)
    if (sweep_makespan (sweep, v, device) < sweep_makespan (sweep, best, device))
      best = v;
  return best;
}

/* RFC 4180, as the timeline CSV: quote a field holding a comma, quote or
 * line break. */
static void
sweep_csv_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

gboolean
sweep_write_csv (const Sweep *sweep, const char *path, GError **error)
{
  g_return_val_if_fail (sweep != NULL && path != NULL, FALSE);

  g_autoptr (GString) out = g_string_new ("param,device,makespan_ns\n");
  for (guint v = 0; v < sweep->values->len; v++)
    for (guint d = 0; d < sweep->devices->len; d++)
      {
        const char *device = g_ptr_array_index (sweep->devices, d);
        sweep_csv_field (out, g_ptr_array_index (sweep->values, v));
        g_string_append_c (out, ',');
        sweep_csv_field (out, device != NULL ? device : "");
        g_string_append_printf (out, ",%" G_GINT64_FORMAT "\n", sweep_makespan (sweep, v, d));
      }
  if (strcmp (path, "-") == 0)
    {
      fputs (out->str, stdout);
      return fflush (stdout) == 0;
    }
  /* A temporary file beside `path`, renamed (devices and pipes in place). */
  return output_file_set_contents (path, out->str, out->len, error);
}

/* A value as a number for the x axis, or FALSE when it is not a plain number
 * (then the axis is categorical: one tick per value, labelled with it). */
static gboolean
sweep_numeric (const char *text, double *x)
{
  char *end = NULL;
  *x = g_ascii_strtod (text, &end);
  return end != text && *end == '\0';
}

gboolean
sweep_plot (const Sweep *sweep, const char *schedule_path, const PlotOptions *options,
            const char *output, GError **error)
{
  g_return_val_if_fail (sweep != NULL && output != NULL, FALSE);

  PlotOptions defaults;
  if (options == NULL)
    {
      plot_options_init (&defaults);
      options = &defaults;
    }
  gboolean numeric = TRUE;
  double x;
  for (guint v = 0; v < sweep->values->len; v++)
    numeric = numeric && sweep_numeric (g_ptr_array_index (sweep->values, v), &x);
  if (sweep->geometric && numeric)
    for (guint v = 0; v < sweep->values->len; v++)
      if (sweep_numeric (g_ptr_array_index (sweep->values, v), &x) && x <= 0)
        numeric = FALSE;

  /* One block per device, blocks separated by two blank lines (gnuplot's
   * `index`): x makespan_ns label. */
  g_autoptr (GString) data = g_string_new (NULL);
  g_autoptr (GString) devices = g_string_new (NULL);
  SimTime longest = 0;
  for (guint d = 0; d < sweep->devices->len; d++)
    {
      const char *device = g_ptr_array_index (sweep->devices, d);
      if (d > 0)
        {
          g_string_append (data, "\n\n");
          g_string_append_c (devices, ' ');
        }
      for (const char *p = device != NULL ? device : "device"; *p != '\0'; p++)
        g_string_append_c (devices, g_ascii_isspace (*p) || *p == '\'' ? '_' : *p);
      for (guint v = 0; v < sweep->values->len; v++)
        {
          const char *value = g_ptr_array_index (sweep->values, v);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          if (numeric && sweep_numeric (value, &x))
            g_ascii_dtostr (buf, sizeof buf, x);
          else
            g_snprintf (buf, sizeof buf, "%u", v);
          SimTime makespan = sweep_makespan (sweep, v, d);
          longest = MAX (longest, makespan);
          g_string_append_printf (data, "%s\t%" G_GINT64_FORMAT "\t", buf, makespan);
          for (const char *p = value; *p != '\0'; p++)
            g_string_append_c (data, (unsigned char) *p < 0x20 ? ' ' : *p);
          g_string_append_c (data, '\n');
        }
    }

  GError *local = NULL;
  char *dir = g_dir_make_tmp ("streamsim-sweep-XXXXXX", &local);
  if (dir == NULL)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  char *path = g_build_filename (dir, "sweep.dat", NULL);
  gboolean ok = g_file_set_contents (path, data->str, (gssize) data->len, &local);
  if (!ok)
    {
      g_set_error (error, PLOT_ERROR, PLOT_ERROR_IO, "%s", local->message);
      g_error_free (local);
    }
  else
    {
      g_autofree char *schedule = schedule_path != NULL ? g_path_get_basename (schedule_path)
                                                        : g_strdup ("schedule");
      g_autoptr (GString) cmd = g_string_new (NULL);
      plot_var_string (cmd, "data", path);
      plot_var_string (cmd, "devices", devices->str);
      plot_var_int (cmd, "ndevices", sweep->devices->len);
      plot_var_int (cmd, "nvalues", sweep->values->len);
      plot_var_string (cmd, "param", sweep->param);
      plot_var_int (cmd, "logx", sweep->geometric && numeric);
      plot_var_int (cmd, "categorical", !numeric);
      plot_var_int (cmd, "max_ns", longest);
      plot_var_string (cmd, "schedule", schedule);
      plot_var_string (cmd, "plot_title", options->title != NULL ? options->title : "");
      ok = plot_run_script ("sweep.gp", cmd->str, options->width,
                            options->height != 0 ? options->height : PLOT_DEFAULT_HEIGHT, output,
                            error);
    }
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  return ok;
}
