/* prediction_json.c: the summary of a prediction as JSON (see prediction_json.h). */
#include <json-glib/json-glib.h>
#include "json_text.h"
#include "prediction_json.h"

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

void
prediction_json_add_path_time (JsonBuilder *b, const PredictionPathTime *time)
{
  g_return_if_fail (b != NULL && time != NULL);
  json_builder_begin_array (b);
  EngEngine order[ENG_N_ENGINES];
  guint n = prediction_path_time_order (time, order);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      add_string (b, "part", eng_engine_name (order[i]));
      add_int (b, "ns", time->on_engine[order[i]]);
      json_builder_end_object (b);
    }
  json_builder_begin_object (b);
  add_string (b, "part", "between");
  add_int (b, "ns", time->between);
  json_builder_end_object (b);
  json_builder_end_array (b);
}

char *
prediction_json_to_data (const Prediction *p, const PredictionSummary *s, const GArray *path,
                         const char *const *notes, gsize *length)
{
  g_return_val_if_fail (p != NULL && s != NULL && path != NULL && notes != NULL, NULL);

  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  /* source, schedule, device, connections, makespan_ns: the CSV's header
   * lines, so that the two outputs of one run name it alike */
  g_auto (GStrv) meta = prediction_meta (p);
  for (char **kv = meta; kv[0] != NULL; kv += 2)
    {
      if (g_str_equal (kv[0], "connections") || g_str_has_prefix (kv[0], "elapsed_ns."))
        add_int (b, kv[0], (gint64) g_ascii_strtoull (kv[1], NULL, 10));
      else if (g_str_equal (kv[0], "makespan_ns"))
        continue; /* below, after ops */
      else
        add_string (b, kv[0], kv[1]);
    }
  add_int (b, "ops", (gint64) schedule_n_ops (prediction_schedule (p)));
  add_int (b, "makespan_ns", s->makespan);
  if (s->has_spread)
    {
      add_int (b, "makespan_fast_host_ns", s->spread[GPU_HOST_FAST]);
      add_int (b, "makespan_slow_host_ns", s->spread[GPU_HOST_SLOW]);
    }

  json_builder_set_member_name (b, "engines");
  json_builder_begin_array (b);
  for (guint e = 0; e < ENG_N_ENGINES; e++)
    {
      /* as the text summary: markers' "stream" engine takes no time */
      if (s->ops[e] == 0 || e == ENG_ENGINE_STREAM)
        continue;
      json_builder_begin_object (b);
      add_string (b, "engine", eng_engine_name ((EngEngine) e));
      add_int (b, "ops", s->ops[e]);
      add_int (b, "busy_ns", s->busy[e]);
      json_builder_set_member_name (b, "utilization");
      json_builder_add_double_value (b, s->makespan > 0 ? (double) s->busy[e] / (double) s->makespan
                                                      : 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  add_int (b, "copy_busy_ns", s->copy_busy);
  add_int (b, "copy_compute_overlap_ns", s->copy_compute_overlap);
  add_int (b, "h2d_d2h_overlap_ns", s->h2d_d2h_overlap);
  add_int (b, "host_blocked_ns", s->host_blocked);

  /* the causes of the CSV's cause column, added up, the longest total first */
  json_builder_set_member_name (b, "waits");
  json_builder_begin_array (b);
  EngCause order[ENG_N_CAUSES];
  guint n_causes = prediction_summary_wait_order (s, order);
  for (guint i = 0; i < n_causes; i++)
    {
      json_builder_begin_object (b);
      add_string (b, "cause", eng_cause_name (order[i]));
      add_int (b, "ops", s->waits[order[i]]);
      add_int (b, "total_ns", s->waited[order[i]]);
      add_int (b, "longest_ns", s->longest_wait[order[i]]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  /* prediction_critical_path, first op first, with the CSV's cause text
   * (for an op the host issued after a call that held it, which call) */
  json_builder_set_member_name (b, "critical_path");
  json_builder_begin_array (b);
  g_autoptr (GString) scratch = g_string_new (NULL);
  for (guint i = 0; i < path->len; i++)
    {
      TimelineRow row;
      prediction_path_row (p, g_array_index (path, guint32, i), &row, scratch);
      json_builder_begin_object (b);
      add_int (b, "op", row.op);
      add_int (b, "issue_ns", row.issue);
      add_int (b, "start_ns", row.start);
      add_int (b, "end_ns", row.end);
      add_string (b, "cause", row.cause);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  /* prediction_critical_path_time: the engines, the most first, then what
   * is between the ops */
  json_builder_set_member_name (b, "critical_path_time");
  PredictionPathTime time;
  prediction_critical_path_time (p, path, &time);
  prediction_json_add_path_time (b, &time);

  /* what `predict` also prints on standard error, for tools that read this */
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; notes[i] != NULL; i++)
    json_builder_add_string_value (b, notes[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);

  return json_text_from_builder (b, TRUE, length);
}
