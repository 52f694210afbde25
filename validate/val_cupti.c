/* val_cupti.c: memcpy and memset activity records from a libcupti loaded at run time (see val_cupti.h). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "val_cupti.h"
#include "val_cuda.h"

#if defined(__has_include)
#if __has_include(<cupti.h>)
#define HAVE_CUPTI_H 1
#endif
#endif

#ifdef HAVE_CUPTI_H
#include <cupti.h>

#define BUFFER_SIZE (2u << 20)
#define POOL_BUFFERS 4
#define TIE_SAMPLES 200

typedef CUptiResult (*EnableFn) (CUpti_ActivityKind);
typedef CUptiResult (*RegisterFn) (CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*FlushFn) (uint32_t);
typedef CUptiResult (*NextFn) (uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*TimestampFn) (uint64_t *);
typedef CUptiResult (*StreamIdFn) (CUcontext, CUstream, uint8_t, uint32_t *);
typedef CUptiResult (*ResultStringFn) (CUptiResult, const char **);
typedef CUptiResult (*SetAttributeFn) (CUpti_ActivityAttribute, size_t *, void *);
typedef CUresult (*CtxGetCurrentFn) (CUcontext *);

struct ValCupti
{
  void *lib, *cuda;
  char *path;
  EnableFn enable, disable;
  RegisterFn register_callbacks;
  FlushFn flush;
  NextFn next;
  TimestampFn timestamp;
  StreamIdFn stream_id;
  ResultStringFn result_string;
  SetAttributeFn set_attribute;
  CtxGetCurrentFn ctx_get_current;
  SimTime host_minus_cupti;
  SimTime begun;     /* CUPTI clock at val_cupti_begin */
};

/* CUPTI's buffer callbacks carry no user data, and one process has one
 * CUPTI: the records go to this module-wide list. The completion callback
 * may run on a CUPTI thread. */
static GMutex records_lock;
static GArray *records; /* ValCuptiCopy, CUPTI clock until val_cupti_end */
static gboolean collecting;

/* Record buffers come zeroed from a pool: CUPTI would otherwise zero each
 * new buffer itself, on the thread that made the CUDA call, which stalled
 * the first copy of every repeat by hundreds of microseconds (measured with
 * 8 MiB buffers). Buffers are zeroed again when they come back, during a
 * flush, outside the timed part of a repeat. */
static GQueue free_buffers = G_QUEUE_INIT;

static void CUPTIAPI
buffer_requested (uint8_t **buffer, size_t *size, size_t *max_records)
{
  g_mutex_lock (&records_lock);
  *buffer = g_queue_pop_head (&free_buffers);
  g_mutex_unlock (&records_lock);
  if (*buffer == NULL)
    {
      *buffer = aligned_alloc (8, BUFFER_SIZE);
      if (*buffer != NULL)
        memset (*buffer, 0, BUFFER_SIZE);
    }
  *size = *buffer != NULL ? BUFFER_SIZE : 0;
  *max_records = 0;
}

/* `cupti` is needed to walk the buffer; set before any record can arrive. */
static ValCupti *the_cupti;

static void CUPTIAPI
buffer_completed (CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
  (void) ctx;
  (void) stream;
  (void) size;
  CUpti_Activity *record = NULL;
  g_mutex_lock (&records_lock);
  while (the_cupti != NULL && valid > 0
         && the_cupti->next (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      if (!collecting)
        continue;
      ValCuptiCopy c;
      if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
        {
          const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *) record;
          c = (ValCuptiCopy) { m->streamId, (SimTime) m->start, (SimTime) m->end, m->bytes, FALSE };
        }
      else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET)
        {
          const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *) record;
          c = (ValCuptiCopy) { m->streamId, (SimTime) m->start, (SimTime) m->end, m->bytes, TRUE };
        }
      else
        continue;
      if (c.start == 0 && c.end == 0)
        continue;
      g_array_append_val (records, c);
    }
  memset (buffer, 0, size);
  g_queue_push_tail (&free_buffers, buffer);
  g_mutex_unlock (&records_lock);
}

static gboolean
cupti_ok (ValCupti *c, CUptiResult rc, const char *call, GError **error)
{
  if (rc == CUPTI_SUCCESS)
    return TRUE;
  const char *text = "unknown error";
  if (c->result_string != NULL)
    c->result_string (rc, &text);
  g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "CUPTI call failed: %s: %s (%d)", call, text,
               (int) rc);
  return FALSE;
}

static void *
load_library (char **path)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func (g_free);
  char *exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe != NULL)
    {
      char *dir = g_path_get_dirname (exe);
      g_ptr_array_add (candidates, g_build_filename (dir, "libcupti.so.13", NULL));
      g_free (dir);
      g_free (exe);
    }
  if (g_getenv ("STREAMSIM_CUPTI") != NULL)
    g_ptr_array_add (candidates, g_strdup (g_getenv ("STREAMSIM_CUPTI")));
  const char *names[] = {
    "libcupti.so.13", "libcupti.so",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so.13",
    "/usr/local/cuda/lib/libcupti.so.13",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    g_ptr_array_add (candidates, g_strdup (names[i]));

  void *lib = NULL;
  for (guint i = 0; i < candidates->len && lib == NULL; i++)
    {
      const char *p = g_ptr_array_index (candidates, i);
      if (strchr (p, '/') != NULL && !g_file_test (p, G_FILE_TEST_EXISTS))
        continue;
      lib = dlopen (p, RTLD_NOW | RTLD_LOCAL);
      if (lib != NULL)
        *path = g_strdup (p);
    }
  g_ptr_array_unref (candidates);
  return lib;
}

ValCupti *
val_cupti_open (GError **error)
{
  ValCupti *c = g_new0 (ValCupti, 1);
  c->lib = load_library (&c->path);
  if (c->lib == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                   "libcupti.so.13 not found (beside the executable, $STREAMSIM_CUPTI, the "
                   "loader's path or /usr/local/cuda)");
      val_cupti_free (c);
      return NULL;
    }
  c->cuda = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
#define SYM(field, lib, name) (*(void **) &c->field = (lib) != NULL ? dlsym ((lib), (name)) : NULL)
  SYM (enable, c->lib, "cuptiActivityEnable");
  SYM (disable, c->lib, "cuptiActivityDisable");
  SYM (register_callbacks, c->lib, "cuptiActivityRegisterCallbacks");
  SYM (flush, c->lib, "cuptiActivityFlushAll");
  SYM (next, c->lib, "cuptiActivityGetNextRecord");
  SYM (timestamp, c->lib, "cuptiGetTimestamp");
  SYM (stream_id, c->lib, "cuptiGetStreamIdEx");
  SYM (result_string, c->lib, "cuptiGetResultString");
  SYM (set_attribute, c->lib, "cuptiActivitySetAttribute");
  SYM (ctx_get_current, c->cuda, "cuCtxGetCurrent");
#undef SYM
  if (c->enable == NULL || c->disable == NULL || c->register_callbacks == NULL
      || c->flush == NULL || c->next == NULL || c->timestamp == NULL || c->stream_id == NULL
      || c->set_attribute == NULL || c->ctx_get_current == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
                   "%s lacks a CUPTI function the harness needs (or libcuda.so.1 lacks "
                   "cuCtxGetCurrent)", c->path);
      val_cupti_free (c);
      return NULL;
    }
  g_mutex_lock (&records_lock);
  if (records == NULL)
    records = g_array_new (FALSE, FALSE, sizeof (ValCuptiCopy));
  for (int i = (int) free_buffers.length; i < POOL_BUFFERS; i++)
    {
      void *b = aligned_alloc (8, BUFFER_SIZE);
      if (b != NULL)
        {
          memset (b, 0, BUFFER_SIZE);
          g_queue_push_tail (&free_buffers, b);
        }
    }
  the_cupti = c;
  g_mutex_unlock (&records_lock);
  uint8_t zeroed = 1;
  size_t zeroed_size = sizeof zeroed;
  if (!cupti_ok (c, c->set_attribute (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER,
                                      &zeroed_size, &zeroed),
                 "cuptiActivitySetAttribute (zeroed buffers)", error))
    {
      val_cupti_free (c);
      return NULL;
    }
  /* Enabled once and left on: the first copies after an enable are slow
   * (measured: the first repeat's first calls stalled for hundreds of
   * microseconds when each repeat enabled it anew). */
  if (!cupti_ok (c, c->register_callbacks (buffer_requested, buffer_completed),
                 "cuptiActivityRegisterCallbacks", error)
      || !cupti_ok (c, c->enable (CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable", error)
      || !cupti_ok (c, c->enable (CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityEnable (memset)",
                    error))
    {
      val_cupti_free (c);
      return NULL;
    }
  return c;
}

void
val_cupti_free (ValCupti *c)
{
  if (c == NULL)
    return;
  if (c->disable != NULL)
    {
      c->disable (CUPTI_ACTIVITY_KIND_MEMCPY);
      c->disable (CUPTI_ACTIVITY_KIND_MEMSET);
    }
  if (c->flush != NULL && the_cupti == c)
    c->flush (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  g_mutex_lock (&records_lock);
  if (the_cupti == c)
    the_cupti = NULL;
  g_mutex_unlock (&records_lock);
  /* The library stays loaded: CUPTI keeps threads and hooks in the driver. */
  g_free (c->path);
  g_free (c);
}

const char *
val_cupti_library (const ValCupti *c)
{
  return c->path;
}

gboolean
val_cupti_stream_id (ValCupti *c, cudaStream_t stream, guint32 *id, GError **error)
{
  CUcontext ctx = NULL;
  if (c->ctx_get_current (&ctx) != CUDA_SUCCESS || ctx == NULL)
    {
      g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA, "cuCtxGetCurrent found no CUDA context");
      return FALSE;
    }
  uint32_t value = 0;
  CUstream s = stream == cudaStreamLegacy ? NULL : (CUstream) stream;
  if (!cupti_ok (c, c->stream_id (ctx, s, 0, &value), "cuptiGetStreamIdEx", error))
    return FALSE;
  *id = value;
  return TRUE;
}

/* The host reads CUPTI's clock between two reads of its own; the narrowest
 * window wins (CUPTI's clock is a host-readable, normalised one). */
static void
tie_clocks (ValCupti *c)
{
  SimTime best = G_MAXINT64;
  for (int i = 0; i < TIE_SAMPLES; i++)
    {
      uint64_t t = 0;
      SimTime h1 = val_cuda_now ();
      c->timestamp (&t);
      SimTime h2 = val_cuda_now ();
      if (h2 - h1 < best)
        {
          best = h2 - h1;
          c->host_minus_cupti = h1 + (h2 - h1) / 2 - (SimTime) t;
        }
    }
}

/* No flush here: a forced flush makes CUPTI set up its device buffer anew
 * at the next copy, which stalled the first copy of every repeat by about
 * 200 us. Records still in CUPTI's buffers are of the harness's own clock
 * probe (its helper stream), which val_run ignores, or were flushed by the
 * previous val_cupti_end. */
gboolean
val_cupti_begin (ValCupti *c, GError **error)
{
  (void) error;
  g_mutex_lock (&records_lock);
  g_array_set_size (records, 0);
  collecting = TRUE;
  g_mutex_unlock (&records_lock);
  tie_clocks (c);
  uint64_t now = 0;
  c->timestamp (&now);
  c->begun = (SimTime) now;
  return TRUE;
}

gboolean
val_cupti_stop (ValCupti *c, GError **error)
{
  return cupti_ok (c, c->disable (CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityDisable", error)
         && cupti_ok (c, c->disable (CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityDisable (memset)",
                      error)
         && cupti_ok (c, c->flush (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll",
                      error);
}

static int
cmp_copy (const void *a, const void *b)
{
  const ValCuptiCopy *x = a, *y = b;
  if (x->stream_id != y->stream_id)
    return x->stream_id < y->stream_id ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

gboolean
val_cupti_end (ValCupti *c, GError **error)
{
  if (!cupti_ok (c, c->flush (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll", error))
    return FALSE;
  g_mutex_lock (&records_lock);
  collecting = FALSE;
  /* Copies from before begin (the harness's own read-back of the previous
   * repeat, delivered only now since begin does not flush) are dropped. */
  guint kept = 0;
  for (guint i = 0; i < records->len; i++)
    {
      ValCuptiCopy r = g_array_index (records, ValCuptiCopy, i);
      if (r.start < c->begun)
        continue;
      r.start += c->host_minus_cupti;
      r.end += c->host_minus_cupti;
      g_array_index (records, ValCuptiCopy, kept++) = r;
    }
  g_array_set_size (records, kept);
  g_array_sort (records, cmp_copy);
  g_mutex_unlock (&records_lock);
  return TRUE;
}

gsize
val_cupti_n_copies (const ValCupti *c)
{
  (void) c;
  return records != NULL ? records->len : 0;
}

const ValCuptiCopy *
val_cupti_copy (const ValCupti *c, gsize index)
{
  (void) c;
  g_return_val_if_fail (records != NULL && index < records->len, NULL);
  return &g_array_index (records, ValCuptiCopy, index);
}

#else /* no cupti.h at build time */

struct ValCupti
{
  int unused;
};

ValCupti *
val_cupti_open (GError **error)
{
  g_set_error (error, VAL_ERROR, VAL_ERROR_CUDA,
               "this streamsim-validate was built without CUPTI's headers");
  return NULL;
}

void val_cupti_free (ValCupti *c) { (void) c; }
const char *val_cupti_library (const ValCupti *c) { (void) c; return NULL; }
gboolean val_cupti_stream_id (ValCupti *c, cudaStream_t s, guint32 *id, GError **e)
{ (void) c; (void) s; (void) id; (void) e; return FALSE; }
gboolean val_cupti_begin (ValCupti *c, GError **e) { (void) c; (void) e; return FALSE; }
gboolean val_cupti_end (ValCupti *c, GError **e) { (void) c; (void) e; return FALSE; }
gboolean val_cupti_stop (ValCupti *c, GError **e) { (void) c; (void) e; return FALSE; }
gsize val_cupti_n_copies (const ValCupti *c) { (void) c; return 0; }
const ValCuptiCopy *val_cupti_copy (const ValCupti *c, gsize i) { (void) c; (void) i; return NULL; }

#endif
