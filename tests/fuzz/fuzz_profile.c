/* fuzz_profile.c: libFuzzer target for the device profile loader (profile_load on a key file).
 *
 * The input is written to a temporary .ini file and loaded by path, so the
 * whole loader runs: the line scan, GKeyFile, every key's parser and range,
 * and `inherits`, which may name the real profiles (k20, c2050, ...) on the
 * search path or files relative to the temporary folder. */
#include <string.h>
#include "fuzz_input.h"
#include "fuzz_printable.h"
#include "sim/core/gpu_profile.h"
#include "sim/formats/profile_file.h"
#include "sim/formats/profile_keys.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *path = fuzz_input_write (data, size, ".ini");
  GpuProfile profile;
  GError *error = NULL;
  if (profile_load (path, &profile, &error))
    {
      g_assert (error == NULL);
      g_assert (profile.sm_count >= 1 && profile.copy_engines >= 1);
      g_assert (profile.default_connections <= profile.max_connections);
      /* the device's rates: unknown (0) or within their ranges */
      g_assert (profile.sm_clock >= 0 && profile.sm_clock <= PROFILE_MAX_FREQUENCY);
      g_assert (profile.memory_bandwidth >= 0 && profile.memory_bandwidth <= PROFILE_MAX_BANDWIDTH);
      g_assert (profile.fp32_flops >= 0 && profile.fp32_flops <= PROFILE_MAX_FLOPS);
      gpu_profile_clear (&profile);
    }
  else
    {
      g_assert (error != NULL);
      /* Errors about this file name a line and column of it, or of a file it
       * inherits; "cannot read" and "no device profile" name the file. */
      g_assert (strstr (error->message, ":") != NULL);
      if (fuzz_is_about (error->message, path))
        fuzz_assert_printable (error->message);
      g_clear_error (&error);
    }
  return 0;
}
