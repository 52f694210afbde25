/* cli_plot.c: `streamsim plot TIMELINE.csv [--vs OTHER.csv] [-o FILE.png|FILE.svg|FILE.json] [--chrome FILE]`. */
#include <stdio.h>
#include <string.h>
#include "chrome_trace.h"
#include "cli.h"
#include "input_gzip.h"
#include "output_kind.h"
#include "plot.h"
#include "sim/formats/timeline.h"

/* A picture error the user caused (an unknown extension, an empty timeline)
 * is bad input; the rest (gnuplot, files) is the machine's. */
static int
report_plot_error (const GError *error)
{
  int status = cli_report_error (error);
  if (error->domain == PLOT_ERROR && error->code == PLOT_ERROR_INPUT)
    return CLI_EXIT_INPUT;
  return status;
}

/* TIMELINE.csv -> TIMELINE.png, beside it. */
static char *
default_output (const char *input)
{
  gsize len = strlen (input);
  if (len > 4 && g_ascii_strcasecmp (input + len - 4, ".csv") == 0)
    return g_strdup_printf ("%.*s.png", (int) (len - 4), input);
  return g_strdup_printf ("%s.png", input);
}

int
cli_plot_main (int argc, char **argv)
{
  g_autofree char *vs_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *chrome = NULL;
  g_autofree char *size = NULL;
  g_autofree char *title = NULL;
  gboolean streams = FALSE;
  gboolean quiet = FALSE;
  GOptionEntry entries[] = {
    { "vs", 0, 0, G_OPTION_ARG_FILENAME, &vs_path,
      "Draw a second timeline below the first, lane by lane (e.g. measured)", "OTHER.csv" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "The main output, its kind by its extension: FILE.png or FILE.svg the picture "
      "(default: TIMELINE.png beside the CSV, unless only --chrome is given), FILE.json "
      "the Chrome trace (as --chrome)", "FILE" },
    { "streams", 0, 0, G_OPTION_ARG_NONE, &streams, "Add a row per stream below the engines",
      NULL },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size,
      "Picture size in pixels (default 1600 wide, 900 high or more: every row keeps room "
      "for its labels)", "WxH" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title,
      "Title (default: schedule, device and makespan)", "TEXT" },
    { "chrome", 0, 0, G_OPTION_ARG_FILENAME, &chrome,
      "Also write the first timeline as Chrome trace JSON for ui.perfetto.dev", "FILE.json" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      "Print nothing but errors (plot prints nothing else anyway)", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("TIMELINE.csv");
  g_option_context_set_summary (context,
    "Draws a timeline CSV (from predict --csv or the measuring harness) as a Gantt\n"
    "chart with gnuplot: a row per engine, bars coloured by stream. With --vs, every\n"
    "row gets two lanes, TIMELINE above and OTHER below, to compare a prediction\n"
    "with a measurement. A TIMELINE of - is read from standard input, a gzipped one\n"
    "as the text it holds.\n"
    "Exit status: 0 done, 2 bad input, 3 gnuplot or a file failed.");
  g_option_context_set_description (context,
    "Examples:\n"
    "  streamsim plot t.csv -o t.png --streams\n"
    "  streamsim plot predicted.csv --vs measured.csv -o overlay.svg\n"
    "  streamsim plot measured.csv -o measured.json\n");
  g_auto (GStrv) args = NULL;
  if (!cli_parse_one_input (context, entries, argc, argv, "one timeline CSV", &args))
    return CLI_EXIT_INPUT;
  g_autoptr (GError) error = NULL;

  PlotOptions options;
  plot_options_init (&options);
  options.show_streams = streams;
  options.title = title;
  if (size != NULL && !plot_parse_size (size, &options.width, &options.height, &error))
    return report_plot_error (error);

  if (output != NULL && (output_kind_of (output) & OUTPUT_KIND_JSON))
    {
      if (chrome != NULL)
        {
          cli_error ("streamsim plot: -o %s and --chrome %s both name the Chrome trace; give "
                     "it once", output, chrome);
          return CLI_EXIT_INPUT;
        }
      chrome = g_steal_pointer (&output);
    }
  if (chrome != NULL
      && !output_kind_check ("--chrome", chrome,
                             OUTPUT_KIND_JSON | OUTPUT_KIND_BARE | OUTPUT_KIND_OTHER,
                             "--chrome writes a Chrome trace (JSON): name it .json", &error))
    {
      cli_error ("streamsim plot: %s", error->message);
      return CLI_EXIT_INPUT;
    }
  if (output != NULL && !plot_check_output (output, &error))
    return report_plot_error (error);
  if (vs_path != NULL && strcmp (args[1], "-") == 0 && strcmp (vs_path, "-") == 0)
    {
      cli_error ("streamsim: plot can read only one of TIMELINE and --vs from - (standard input)");
      return CLI_EXIT_INPUT;
    }

  g_autoptr (Timeline) timeline = input_gzip_timeline (args[1], &error);
  if (timeline == NULL)
    return cli_report_error (error);
  g_autoptr (Timeline) vs = NULL;
  if (vs_path != NULL)
    {
      vs = input_gzip_timeline (vs_path, &error);
      if (vs == NULL)
        return cli_report_error (error);
    }

  if (chrome != NULL && !chrome_trace_write (timeline, NULL, chrome, &error))
    return cli_report_error (error);
  if (output == NULL && chrome != NULL)
    return CLI_EXIT_OK;
  if (output == NULL)
    output = default_output (args[1]);
  if (!plot_timeline_file (timeline, vs, &options, output, &error))
    return report_plot_error (error);
  return CLI_EXIT_OK;
}
