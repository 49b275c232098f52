/* grow.c: growable arrays (see grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *grow_array(void *items, size_t *cap, size_t size, size_t first_cap)
{
    size_t nc, bytes;
    if (*cap == 0)
        nc = first_cap;
    else if (__builtin_mul_overflow(*cap, (size_t)2, &nc))
        return NULL;
    if (size == 0 || nc == 0 || __builtin_mul_overflow(nc, size, &bytes))
        return NULL;
    void *m = realloc(items, bytes);
    if (m)
        *cap = nc;
    return m;
}
