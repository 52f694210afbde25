/* sweep_json.c: a finished sweep as JSON (see sweep_json.h). */
#include "sweep_json.h"

#include "json_text.h"
#include "prediction_json.h"

static void
add_device (JsonBuilder *b, const Sweep *sweep, guint d)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, sweep_device (sweep, d));
  json_builder_set_member_name (b, "makespan_ns");
  json_builder_begin_array (b);
  for (guint v = 0; v < sweep_n_values (sweep); v++)
    json_builder_add_int_value (b, sweep_makespan (sweep, v, d));
  json_builder_end_array (b);
  guint best = sweep_fastest (sweep, d);
  json_builder_set_member_name (b, "fastest");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "value");
  json_builder_add_string_value (b, sweep_value (sweep, best));
  json_builder_set_member_name (b, "makespan_ns");
  json_builder_add_int_value (b, sweep_makespan (sweep, best, d));
  json_builder_set_member_name (b, "critical_path_time");
  prediction_json_add_path_time (b, sweep_path_time (sweep, best, d));
  json_builder_end_object (b);
  json_builder_end_object (b);
}

char *
sweep_json_to_data (const Sweep *sweep, const char *schedule_path, gsize *length)
{
  g_return_val_if_fail (sweep != NULL && schedule_path != NULL, NULL);

  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "schedule");
  json_builder_add_string_value (b, schedule_path);
  json_builder_set_member_name (b, "param");
  json_builder_add_string_value (b, sweep_param (sweep));
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint v = 0; v < sweep_n_values (sweep); v++)
    json_builder_add_string_value (b, sweep_value (sweep, v));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint d = 0; d < sweep_n_devices (sweep); d++)
    add_device (b, sweep, d);
  json_builder_end_array (b);
  json_builder_end_object (b);

  return json_text_from_builder (b, TRUE, length);
}
