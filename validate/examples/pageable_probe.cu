// pageable_probe.cu: how fast copies from and to pageable host memory run,
// depending on how that memory was allocated and whether the CPU just wrote
// it: a measurement program of its own.
//
// Real programs' pageable copies (the corpus, validate/results/*/real/) ran up
// to twice as fast as the calibrated pageable line, and the harness's replays
// slower than both. The allocation (huge pages or not) and the host cache are
// two differences between them. The cases, for each SIZE:
//   malloc        the buffer from malloc, as a program's would be
//   huge          2 MiB-aligned, madvise(MADV_HUGEPAGE)
//   small-pages   2 MiB-aligned, madvise(MADV_NOHUGEPAGE)
// each timed hot (the CPU writes the buffer just before each copy), again
// (nothing between two copies of the buffer, as a program's loop copies the
// same buffer over and over) and cold (a 256 MiB write elsewhere in between
// evicts it from the caches). Every buffer is written once before any copy,
// so its pages are resident.
//
// Prints /sys/kernel/mm/transparent_hugepage/enabled, then one line per case:
//   DIR CASE TEMP bytes median_us min_us
// the time of a synchronous cudaMemcpy (the host waits for pageable copies),
// over 15 copies after 3 untimed. `pageable_probe sweep` times malloc'd
// buffers only, hot, again and cold, at every size the calibration uses (4 KiB to
// 256 MiB by fours), for a line of each; `pageable_probe small` the same
// below and around it, 4 B to 256 KiB by eights; `pageable_probe sizes
// BYTES...` the same at the sizes given, in one process (a profile's times
// by size, validate/fit-pageable-sizes.sh, from one run), for malloc'd
// buffers and for `page-aligned` ones (aligned_alloc to 4 KiB: malloc
// returns heap memory below its mmap threshold, 128 KiB by default, and
// whole pages above it). `pageable_probe untouched BYTES...` times copies
// from and into memory no page of which was touched yet, each trial in a
// fresh mapping: `small-pages` (MADV_NOHUGEPAGE) and `huge`
// (MADV_HUGEPAGE, as NumPy asks for arrays of 4 MiB or more), printed
// with the state `untouched`. `pageable_probe between BYTES OTHER...` times an
// H2D of a malloc'd buffer of BYTES copied just before, with OTHER bytes of H2Ds
// of another buffer between the two (0 for none), for each OTHER: how many
// bytes of other pageable copies leave a buffer in the CPU's caches. Printed
// as `h2d malloc between BYTES OTHER median_us min_us`. `pageable_probe part BYTES
// UNTOUCHED...` times copies from and into a fresh small-page mapping of BYTES of
// which the CPU wrote all but UNTOUCHED bytes before the copy, those left either at
// the buffer's end or at its start: whether it matters where in a buffer the page
// faults are. Printed as `DIR part-end|part-start BYTES UNTOUCHED median_us min_us`.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "host_time.h"

enum { TRIALS = 15, WARMUP = 3 };
static const size_t EVICT = 256u << 20;

static void *
host_buffer (const char *kind, size_t bytes)
{
  if (std::strcmp (kind, "malloc") == 0)
    return std::malloc (bytes);
  if (std::strcmp (kind, "page-aligned") == 0)
    return std::aligned_alloc (4096, (bytes + 4095) / 4096 * 4096);
  size_t rounded = (bytes + (2u << 20) - 1) / (2u << 20) * (2u << 20);
  void *p = std::aligned_alloc (2u << 20, rounded);
  if (p != nullptr)
    madvise (p, rounded, std::strcmp (kind, "huge") == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return p;
}

/* One synchronous copy between `host` and `dev`, H2D for dir 0, D2H for 1:
 * the host's time of the call, us. */
static double
timed_copy (int dir, void *dev, void *host, size_t bytes)
{
  double t0 = now_us ();
  if (dir == 0)
    CHECK (cudaMemcpy (dev, host, bytes, cudaMemcpyHostToDevice));
  else
    CHECK (cudaMemcpy (host, dev, bytes, cudaMemcpyDeviceToHost));
  return now_us () - t0;
}

/* The sizes in bytes after the mode's name, each from 1 (0 with `zero`) to EVICT. */
static bool
sizes_from (int argc, char **argv, std::vector<size_t> &sizes, bool zero = false)
{
  for (int a = 2; a < argc; a++)
    {
      char *end = nullptr;
      unsigned long long b = std::strtoull (argv[a], &end, 10);
      if (end == argv[a] || *end != '\0' || (b == 0 && !zero) || b > EVICT)
        {
          std::fprintf (stderr, "pageable_probe: '%s' is not a size in bytes from %d to %zu\n",
                        argv[a], zero ? 0 : 1, EVICT);
          return false;
        }
      sizes.push_back (b);
    }
  return true;
}

/* A fresh private mapping with `bytes` from a 2 MiB boundary (`host`),
 * advised MADV_HUGEPAGE or MADV_NOHUGEPAGE; munmap (map, span) gives it back. */
struct Fresh
{
  void *map;
  size_t span;
  char *host;
};

static bool
fresh_map (Fresh *f, size_t bytes, bool huge)
{
  f->span = (bytes + (4u << 20) - 1) / (2u << 20) * (2u << 20);
  f->map = mmap (nullptr, f->span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (f->map == MAP_FAILED)
    return false;
  f->host = reinterpret_cast<char *> (
    (reinterpret_cast<uintptr_t> (f->map) + (2u << 20) - 1) & ~uintptr_t ((2u << 20) - 1));
  madvise (f->host, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return true;
}

/* Each trial's buffer fresh from mmap, 2 MiB-aligned, advised as `kind`
 * says, never touched before the copy; unmapped after it. */
static int
untouched_copies (const std::vector<size_t> &sizes)
{
  void *dev;
  CHECK (cudaMalloc (&dev, *std::max_element (sizes.begin (), sizes.end ())));
  for (size_t bytes : sizes)
    for (const char *kind : { "small-pages", "huge" })
      for (int dir = 0; dir < 2; dir++)
        {
          std::vector<double> t;
          for (int i = 0; i < WARMUP + TRIALS; i++)
            {
              Fresh f;
              if (!fresh_map (&f, bytes, std::strcmp (kind, "huge") == 0))
                return 1;
              double us = timed_copy (dir, dev, f.host, bytes);
              munmap (f.map, f.span);
              if (i >= WARMUP)
                t.push_back (us);
            }
          std::printf ("%s %s untouched %zu %.1f %.1f\n", dir == 0 ? "h2d" : "d2h", kind, bytes,
                       median (t), *std::min_element (t.begin (), t.end ()));
        }
  CHECK (cudaFree (dev));
  return 0;
}

/* Each trial's buffer fresh from mmap, 2 MiB-aligned, small pages, its
 * bytes but `untouched` of them written before the copy, the untouched ones
 * at its end or its start; for each `untouched`. */
static int
part_copies (size_t bytes, const std::vector<size_t> &untouched)
{
  void *dev;
  CHECK (cudaMalloc (&dev, bytes));
  for (size_t cold : untouched)
    for (int at_start = 0; at_start < 2; at_start++)
      for (int dir = 0; dir < 2; dir++)
        {
          std::vector<double> t;
          for (int i = 0; i < WARMUP + TRIALS; i++)
            {
              Fresh f;
              if (!fresh_map (&f, bytes, false))
                return 1;
              std::memset (at_start ? f.host + cold : f.host, 1, bytes - cold);
              double us = timed_copy (dir, dev, f.host, bytes);
              munmap (f.map, f.span);
              if (i >= WARMUP)
                t.push_back (us);
            }
          std::printf ("%s %s %zu %zu %.1f %.1f\n", dir == 0 ? "h2d" : "d2h",
                       at_start ? "part-start" : "part-end", bytes, cold, median (t),
                       *std::min_element (t.begin (), t.end ()));
        }
  CHECK (cudaFree (dev));
  return 0;
}

/* A copy of `bytes` from one buffer, then `other` bytes of copies from
 * another (in copies of at most `bytes`), then the timed copy of the first
 * again, for each `other`. */
static int
copies_between (size_t bytes, const std::vector<size_t> &others)
{
  size_t most = *std::max_element (others.begin (), others.end ());
  void *dev;
  CHECK (cudaMalloc (&dev, bytes));
  char *host = static_cast<char *> (std::malloc (bytes));
  char *other = static_cast<char *> (std::malloc (most > 0 ? most : 1));
  if (host == nullptr || other == nullptr)
    return 1;
  std::memset (host, 1, bytes);
  std::memset (other, 2, most > 0 ? most : 1);
  for (size_t between : others)
    {
      std::vector<double> t;
      for (int i = 0; i < WARMUP + TRIALS; i++)
        {
          timed_copy (0, dev, host, bytes);
          for (size_t done = 0; done < between; done += bytes)
            timed_copy (0, dev, other + done, std::min (bytes, between - done));
          double us = timed_copy (0, dev, host, bytes);
          if (i >= WARMUP)
            t.push_back (us);
        }
      std::printf ("h2d malloc between %zu %zu %.1f %.1f\n", bytes, between, median (t),
                   *std::min_element (t.begin (), t.end ()));
    }
  std::free (host);
  std::free (other);
  CHECK (cudaFree (dev));
  return 0;
}

int
main (int argc, char **argv)
{
  bool sweep = argc > 1 && std::strcmp (argv[1], "sweep") == 0;
  bool small = argc > 1 && std::strcmp (argv[1], "small") == 0;
  bool given = argc > 2 && std::strcmp (argv[1], "sizes") == 0;
  bool untouched = argc > 2 && std::strcmp (argv[1], "untouched") == 0;
  bool between = argc > 3 && std::strcmp (argv[1], "between") == 0;
  bool part = argc > 3 && std::strcmp (argv[1], "part") == 0;
  char thp[128] = "unknown";
  if (FILE *f = std::fopen ("/sys/kernel/mm/transparent_hugepage/enabled", "r"))
    {
      if (std::fgets (thp, sizeof thp, f) == nullptr)
        std::strcpy (thp, "unreadable\n");
      std::fclose (f);
    }
  std::printf ("thp %s", thp);
  if (untouched)
    {
      std::vector<size_t> asked;
      return sizes_from (argc, argv, asked) ? untouched_copies (asked) : 2;
    }
  if (between)
    {
      /* the buffer's size, then the bytes between: a size, or 0 for none */
      std::vector<size_t> asked;
      if (!sizes_from (argc, argv, asked, true))
        return 2;
      if (asked[0] == 0)
        {
          std::fprintf (stderr, "pageable_probe: the buffer's size must be above 0\n");
          return 2;
        }
      return copies_between (asked[0], std::vector<size_t> (asked.begin () + 1, asked.end ()));
    }
  if (part)
    {
      /* the buffer's size, then the untouched bytes: 0 to the size */
      std::vector<size_t> asked;
      if (!sizes_from (argc, argv, asked, true))
        return 2;
      for (size_t k = 1; k < asked.size (); k++)
        if (asked[0] == 0 || asked[k] > asked[0])
          {
            std::fprintf (stderr, "pageable_probe: untouched bytes from 0 to the buffer's size, "
                                  "and a buffer above 0\n");
            return 2;
          }
      return part_copies (asked[0], std::vector<size_t> (asked.begin () + 1, asked.end ()));
    }
  char *evict = static_cast<char *> (std::malloc (EVICT));
  std::memset (evict, 1, EVICT);
  std::vector<size_t> sizes = { 256u << 10, 4u << 20, 64u << 20 };
  std::vector<const char *> kinds = { "malloc", "huge", "small-pages" };
  if (sweep)
    {
      sizes.clear ();
      for (size_t b = 4u << 10; b <= (256u << 20); b *= 4)
        sizes.push_back (b);
      kinds = { "malloc" };
    }
  if (small)
    {
      sizes.clear ();
      for (size_t b = 4; b <= (256u << 10); b *= 8)
        sizes.push_back (b);
      kinds = { "malloc" };
    }
  if (given)
    {
      sizes.clear ();
      if (!sizes_from (argc, argv, sizes))
        return 2;
      kinds = { "malloc", "page-aligned" };
    }
  void *dev;
  CHECK (cudaMalloc (&dev, *std::max_element (sizes.begin (), sizes.end ())));
  for (size_t bytes : sizes)
    for (const char *kind : kinds)
      {
        char *host = static_cast<char *> (host_buffer (kind, bytes));
        if (host == nullptr)
          return 1;
        std::memset (host, 2, bytes);
        for (int dir = 0; dir < 2; dir++)
          for (int temp = 0; temp < 3; temp++)
            {
              static const char *temps[] = { "hot", "again", "cold" };
              std::vector<double> t;
              for (int i = 0; i < WARMUP + TRIALS; i++)
                {
                  if (temp == 0)
                    std::memset (host, i, bytes);
                  else if (temp == 2)
                    std::memset (evict, i, EVICT);
                  double us = timed_copy (dir, dev, host, bytes);
                  if (i >= WARMUP)
                    t.push_back (us);
                }
              std::printf ("%s %s %s %zu %.1f %.1f\n", dir == 0 ? "h2d" : "d2h", kind,
                           temps[temp], bytes, median (t),
                           *std::min_element (t.begin (), t.end ()));
            }
        std::free (host);
      }
  CHECK (cudaFree (dev));
  std::free (evict);
  return 0;
}
