/* gzip_data.c: gzip data undone, every member in turn, within a bound (gzip_data.h). */
#include <gio/gio.h>
#include "gzip_data.h"

G_DEFINE_QUARK (gzip-data-error-quark, gzip_data_error)

gboolean
gzip_data_is (const guint8 *data, gsize length)
{
  return length >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

guint8 *
gzip_data_undo (const char *name, const guint8 *data, gsize length, gsize max_bytes,
                gsize *out_length, GError **error)
{
  g_return_val_if_fail (name != NULL && (data != NULL || length == 0) && out_length != NULL, NULL);
  g_autoptr (GConverter) z = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  gsize cap = MIN (MAX (length * 4, 65536), max_bytes + 1), out = 0, in = 0;
  guint8 *buffer = g_malloc (cap + 1);
  for (;;)
    {
      gsize read = 0, written = 0;
      g_autoptr (GError) why = NULL;
      GConverterResult result = G_CONVERTER_ERROR;
      gboolean full = out == cap;
      if (!full)
        {
          result = g_converter_convert (z, data + in, length - in, buffer + out, cap - out,
                                        G_CONVERTER_INPUT_AT_END, &read, &written, &why);
          in += read;
          out += written;
          full = result == G_CONVERTER_ERROR && g_error_matches (why, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
        }
      /* the buffer holds one byte more than the bound: filling it is past it */
      if (full || out > max_bytes)
        {
          if (cap > max_bytes)
            {
              g_autofree char *most = g_format_size_full (max_bytes, G_FORMAT_SIZE_IEC_UNITS);
              g_set_error (error, GZIP_DATA_ERROR, GZIP_DATA_ERROR_TOO_LARGE,
                           "%s: at byte %" G_GSIZE_FORMAT " of the gzip data: it decompresses "
                           "to more than %s, the most streamsim reads", name, in, most);
              break;
            }
          cap = MIN (cap * 2, max_bytes + 1);
          buffer = g_realloc (buffer, cap + 1);
          continue;
        }
      if (result == G_CONVERTER_ERROR)
        {
          gboolean cut = g_error_matches (why, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
          g_set_error (error, GZIP_DATA_ERROR, GZIP_DATA_ERROR_BAD,
                       "%s: at byte %" G_GSIZE_FORMAT " of the gzip data: %s", name, in,
                       cut ? "the compressed data ends early (a truncated file?)" : why->message);
          break;
        }
      if (result == G_CONVERTER_FINISHED)
        {
          /* another member may follow (gzip files joined by cat) */
          if (in < length && gzip_data_is (data + in, length - in))
            {
              g_converter_reset (z);
              continue;
            }
          if (in < length)
            {
              g_set_error (error, GZIP_DATA_ERROR, GZIP_DATA_ERROR_BAD,
                           "%s: at byte %" G_GSIZE_FORMAT " of the gzip data: %" G_GSIZE_FORMAT
                           " bytes follow its end", name, in, length - in);
              break;
            }
          buffer[out] = 0;
          *out_length = out;
          return buffer;
        }
    }
  g_free (buffer);
  return NULL;
}
