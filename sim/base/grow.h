/* grow.h: growable arrays, doubled when full.
 *
 * One rule for every array cosim appends to (parsed lines, buckets, stall
 * windows, staged files, ...): when n == cap, the array is reallocated to
 * twice its capacity (first_cap when empty), so appending n elements costs
 * O(n) copies in all. The caller keeps the array, its count and its
 * capacity; grow_array only reallocates and updates the capacity.
 */
#ifndef COSIM_GROW_H
#define COSIM_GROW_H

#include <stddef.h>

/**
 * Reallocate an array to twice its capacity (first_cap elements when it
 * has none yet).
 *
 * @param items      the array (NULL when cap is 0); on success it has been
 *                   realloc'd and must no longer be used: use the result
 * @param cap        its capacity in elements; set to the new capacity on
 *                   success, left alone on failure
 * @param size       bytes per element (> 0)
 * @param first_cap  capacity of the first allocation, in elements (> 0)
 * @return the new array (its first old-capacity elements kept), or NULL
 *         when the allocation fails or the new size would overflow size_t;
 *         then @p items is unchanged and still owned by the caller.
 */
void *grow_array(void *items, size_t *cap, size_t size, size_t first_cap);

#endif
