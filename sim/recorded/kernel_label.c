/* kernel_label.c: a readable label from a kernel's mangled or demangled name (kernel_label.h). */
#include <string.h>
#include "kernel_label.h"

/* Where `s[from..to)` ends when read backwards as a bracketed group: the
 * index of the bracket `open` that matches the `close` at s[to - 1], or
 * `to` when s[to - 1] is not `close` or nothing matches it. */
static gsize
group_start (const char *s, gsize to, char open, char close)
{
  if (to == 0 || s[to - 1] != close)
    return to;
  guint depth = 0;
  for (gsize i = to; i > 0; i--)
    {
      depth += s[i - 1] == close;
      depth -= s[i - 1] == open;
      if (depth == 0)
        return i - 1;
    }
  return to;
}

/* The scope parts of a demangled C++ signature, as profilers that demangle
 * write it ("void at::native::vectorized_elementwise_kernel<4, ...>(int,
 * ...)" -> at, native, vectorized_elementwise_kernel), outermost first, into
 * `parts` (copies): without its arguments, its template arguments and its
 * return type. */
static void
demangled_parts (const char *name, GPtrArray *parts)
{
  gsize end = strlen (name);
  end = group_start (name, end, '(', ')');
  end = group_start (name, end, '<', '>');
  /* parts end at each "::" outside brackets, the name at a space */
  guint depth = 0;
  gsize part_end = end;
  for (gsize i = end; i > 0; i--)
    {
      char ch = name[i - 1];
      depth += ch == '>' || ch == ')' || ch == '}';
      if ((ch == '<' || ch == '(' || ch == '{') && depth > 0)
        depth--;
      else if (depth == 0 && (ch == ' ' || (ch == ':' && i >= 2 && name[i - 2] == ':')))
        {
          gsize part = part_end;
          part = group_start (name, part, '<', '>'); /* a class template's arguments */
          g_ptr_array_insert (parts, 0, g_strndup (name + i, part - i));
          if (ch == ' ') /* the return type */
            return;
          part_end = ch == ':' ? i - 2 : i - 1;
          i = ch == ':' ? i - 1 : i;
        }
    }
  if (part_end > 0)
    g_ptr_array_insert (parts, 0, g_strndup (name, group_start (name, part_end, '<', '>')));
}

/* A mangled name's <length><identifier> at `s`: the identifier (NULL when
 * there is none whole) and its length; `*next` after it. */
static const char *
source_name (const char *s, gsize *n, const char **next)
{
  char *after = NULL;
  guint64 len = g_ascii_strtoull (s, &after, 10);
  if (after == s || len == 0 || len > strlen (after))
    return NULL;
  *n = (gsize) len;
  *next = after + len;
  return after;
}

/* Past one mangled token inside template arguments or a nested name: an
 * identifier, a literal (L<type><value>E, which holds digits that are not a
 * length), a substitution (S_, S0_, St), a template parameter (T_, T0_), an
 * unnamed type (Ut_), or one other character. `*depth` counts the I, N, X,
 * Z and lambdas (Ul) not closed by an E yet. */
static const char *
skip_token (const char *s, guint *depth)
{
  gsize n;
  const char *next;
  if (g_ascii_isdigit (*s))
    {
      if (source_name (s, &n, &next) != NULL)
        return next;
      while (g_ascii_isdigit (*s)) /* a number: a lambda's or a name's discriminator */
        s++;
      return s;
    }
  switch (*s)
    {
    case 'U':
      if (s[1] == 'l') /* a lambda: Ul<parameters>E */
        {
          (*depth)++;
          return s + 2;
        }
      if (s[1] == 't') /* an unnamed type: Ut_ or Ut<number>_ */
        {
          next = strchr (s, '_');
          return next != NULL ? next + 1 : s + strlen (s);
        }
      return s + 1;
    case 'I':
    case 'N':
    case 'X':
    case 'Z': /* a local name: Z<function>E<entity> */
      (*depth)++;
      return s + 1;
    case 'E':
      if (*depth > 0)
        (*depth)--;
      return s + 1;
    case 'L':
      if (s[1] == '_' && s[2] == 'Z')
        {
          (*depth)++; /* an entity's name, closed by its own E */
          return s + 3;
        }
      next = strchr (s, 'E');
      return next != NULL ? next + 1 : s + strlen (s);
    case 'S':
    case 'T':
      if (s[1] == '_')
        return s + 2;
      if (g_ascii_isdigit (s[1]) || g_ascii_isupper (s[1]))
        {
          next = s + 1;
          while (*next != '\0' && *next != '_')
            next++;
          return *next == '_' ? next + 1 : next;
        }
      return *s == 'S' && s[1] != '\0' ? s + 2 : s + 1;
    default:
      return s + 1;
    }
}

/* The identifiers of a mangled nested name (`s` just after "_ZN"),
 * outermost first, into `parts` (copies):
 * "2at6native29vectorized_elementwise_kernelILi4E..." -> at, native,
 * vectorized_elementwise_kernel, skipping the template arguments. */
static void
nested_name_parts (const char *s, GPtrArray *parts)
{
  while (*s == 'K' || *s == 'V' || *s == 'r' || *s == 'R' || *s == 'O')
    s++;
  while (*s != '\0' && *s != 'E')
    {
      const char *next;
      gsize len;
      const char *id = g_ascii_isdigit (*s) ? source_name (s, &len, &next) : NULL;
      if (id != NULL)
        {
          g_ptr_array_add (parts, g_strndup (id, len));
          s = next;
          continue;
        }
      if (g_ascii_isdigit (*s))
        break;
      if (*s == 'I')
        {
          /* template arguments, to their closing E */
          guint depth = 1;
          s++;
          while (*s != '\0' && depth > 0)
            s = skip_token (s, &depth);
          continue;
        }
      guint depth = 0;
      s = skip_token (s, &depth);
    }
}

/* The most a label holds of a kernel's name. */
#define LABEL_MAX 48

/* A label from a name's scope parts (outermost first): the innermost whole,
 * then the parts around it, joined by '.', as many as fit in LABEL_MAX, with
 * anonymous and compiler-internal namespaces left out (at.native.reduce_kernel,
 * cutlass.Kernel2); characters a label cannot hold are dropped. */
static char *
label_of_parts (GPtrArray *parts)
{
  GString *label = g_string_new (NULL);
  for (guint k = parts->len; k-- > 0;)
    {
      const char *part = g_ptr_array_index (parts, k);
      GString *clean = g_string_new (NULL);
      for (const char *c = part; *c != '\0'; c++)
        if (g_ascii_isalnum (*c) || *c == '_' || *c == '-')
          g_string_append_c (clean, *c);
      gboolean anonymous = g_str_has_prefix (part, "_GLOBAL__N") || g_str_has_prefix (part, "_INTERNAL")
                           || strcmp (part, "(anonymous namespace)") == 0 || clean->len == 0;
      gboolean fits = label->len == 0 || label->len + 1 + clean->len <= LABEL_MAX;
      if (!anonymous && fits)
        {
          if (label->len > 0)
            g_string_prepend_c (label, '.');
          g_string_prepend (label, clean->str);
        }
      g_string_free (clean, TRUE);
      if (!anonymous && !fits)
        break;
    }
  if (label->len > LABEL_MAX)
    g_string_truncate (label, LABEL_MAX);
  return g_string_free (label, FALSE);
}

/* The readable part of a kernel name: "_Z6vecAddPfS_i" -> vecAdd,
 * "_ZN2at6native13reduce_kernelILi512E..." -> at.native.reduce_kernel,
 * "kernel(float*)" -> kernel, a demangled signature its function's scoped
 * name (demangled_parts, label_of_parts). */
char *
kernel_label (const char *name)
{
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  if (g_str_has_prefix (name, "_Z"))
    {
      const char *after = name + 2 + (name[2] == 'L');
      const char *next;
      gsize len;
      const char *id;
      if (*after == 'N')
        nested_name_parts (after + 1, parts);
      else if ((id = source_name (after, &len, &next)) != NULL)
        g_ptr_array_add (parts, g_strndup (id, len));
    }
  else if (strchr (name, ' ') != NULL || strchr (name, '<') != NULL || strstr (name, "::") != NULL)
    demangled_parts (name, parts);
  if (parts->len == 0)
    g_ptr_array_add (parts, g_strndup (name, strcspn (name, "(")));
  return label_of_parts (parts);
}
