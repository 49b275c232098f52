/* wrkhist.c - wrk's whole histogram read, its correction undone
 * (wrkhist.h). */
#include "wrkhist.h"

#include "textin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The largest integer a Lua number (a double) holds exactly: 2^53. */
#define WRKHIST_EXACT (UINT64_C(1) << 53)

uint64_t wrkhist_interval_us(uint64_t duration_us, uint64_t requests, uint64_t connections)
{
    if (connections == 0 || requests / connections == 0)
        return 0;
    return duration_us / (requests / connections);
}

int wrkhist_undo(const uint64_t *value_us, const uint64_t *corrected, size_t bins, uint64_t e, uint64_t *recorded)
{
    size_t j = 0; /* the first bin whose value is >= value_us[i] + e */
    for (size_t i = 0; i < bins; i++) {
        if (i > 0 && value_us[i] <= value_us[i - 1])
            return -EINVAL;
        recorded[i] = corrected[i];
        if (e == 0 || value_us[i] <= e)
            continue;
        uint64_t want = value_us[i] + e; /* values <= 2^53 and e <= the run time <= 2^53: no overflow */
        if (j < i)
            j = i;
        while (j < bins && value_us[j] < want)
            j++;
        if (j < bins && value_us[j] == want) {
            if (corrected[j] > corrected[i])
                return -EINVAL;
            recorded[i] = corrected[i] - corrected[j];
        }
    }
    return 0;
}

/* A line that is exactly word. */
static int line_is(const char *s, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

/* An unsigned integer of digits only, at most 2^53, into *out; the span
 * read in *used. */
static int uint_at(const char *s, size_t n, uint64_t *out, size_t *used)
{
    size_t i = 0;
    uint64_t v = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > WRKHIST_EXACT)
            return -ERANGE;
        i++;
    }
    if (i == 0)
        return -EINVAL;
    *out = v;
    *used = i;
    return 0;
}

/* "KEY N" on a line of its own. */
static int keyed(const char *s, size_t n, const char *key, uint64_t *out)
{
    size_t k = strlen(key), used;
    if (n <= k + 1 || memcmp(s, key, k) != 0 || s[k] != ' ')
        return -EINVAL;
    int rc = uint_at(s + k + 1, n - k - 1, out, &used);
    if (rc == 0 && used != n - k - 1)
        rc = -EINVAL;
    return rc;
}

int wrkhist_present(const char *text, size_t len)
{
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    while (textin_next_line(&it, &s, &n))
        if (line_is(s, n, "cosim-wrk-histogram 1"))
            return 1;
    return 0;
}

/* wrk's "  T threads and C connections" (src/wrk.c main): C. */
static int connections_of(const char *s, size_t n, uint64_t *c)
{
    const char *and = textin_find(s, n, " threads and ");
    if (!and)
        return -ENOENT;
    const char *p = and + strlen(" threads and ");
    size_t rest = (size_t)(s + n - p), used;
    if (uint_at(p, rest, c, &used) != 0 || !line_is(p + used, rest - used, " connections") || *c == 0)
        return -EINVAL;
    return 0;
}

int wrkhist_parse(wrkhist *h, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    textin_lines it;
    textin_lines_init(&it, text, len);
    const char *s;
    size_t n;
    int in_block = 0, rc;
    while (!in_block && textin_next_line(&it, &s, &n)) {
        rc = connections_of(s, n, &h->connections);
        if (rc == -EINVAL)
            return textin_fail(err, errlen, -EINVAL, "%s:%zu: expected wrk's 'T threads and C connections', C > 0",
                               name, it.line);
        in_block = line_is(s, n, "cosim-wrk-histogram 1");
    }
    if (!in_block)
        return textin_fail(err, errlen, -EINVAL, "%s: expected the block scenarios/tools/wrk-histogram.lua prints "
                           "('cosim-wrk-histogram 1'): run wrk with -s \"$(cosim baseline --wrk-script)\"", name);
    if (h->connections == 0)
        return textin_fail(err, errlen, -EINVAL, "%s: expected wrk's 'T threads and C connections' before the "
                           "cosim-wrk-histogram block (the whole of wrk's output)", name);
    static const char *keys[] = {"duration_us", "requests", "timeouts", "bins"};
    uint64_t *vals[] = {&h->duration_us, &h->requests, &h->timeouts, NULL};
    uint64_t bins = 0;
    vals[3] = &bins;
    for (size_t k = 0; k < 4; k++) {
        if (!textin_next_line(&it, &s, &n))
            return textin_fail(err, errlen, -EINVAL, "%s:%zu: the file ends inside the cosim-wrk-histogram block "
                               "(expected '%s N')", name, it.line + 1, keys[k]);
        rc = keyed(s, n, keys[k], vals[k]);
        if (rc != 0)
            return textin_fail(err, errlen, rc, "%s:%zu: expected '%s N' (N a whole number up to 2^53)", name,
                               it.line, keys[k]);
    }
    /* each bin is a line of at least 4 bytes ("1 1\n"): a count beyond
     * that cannot be the file's */
    if (bins > len / 4)
        return textin_fail(err, errlen, -EINVAL, "%s:%zu: 'bins %llu' is more lines than the file holds", name,
                           it.line, (unsigned long long)bins);
    h->bins = (size_t)bins;
    h->value_us = calloc(h->bins ? h->bins : 1, sizeof *h->value_us);
    h->corrected = calloc(h->bins ? h->bins : 1, sizeof *h->corrected);
    h->recorded = calloc(h->bins ? h->bins : 1, sizeof *h->recorded);
    if (!h->value_us || !h->corrected || !h->recorded) {
        wrkhist_free(h);
        return textin_fail(err, errlen, -ENOMEM, "%s: out of memory for %zu bins", name, (size_t)bins);
    }
    for (size_t i = 0; i < h->bins; i++) {
        size_t used, used2;
        if (!textin_next_line(&it, &s, &n)) {
            rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: the file ends inside the cosim-wrk-histogram block "
                             "(expected %zu more 'VALUE_US COUNT' lines)", name, it.line + 1, h->bins - i);
            goto fail;
        }
        rc = uint_at(s, n, &h->value_us[i], &used);
        if (rc == 0 && (used >= n || s[used] != ' '))
            rc = -EINVAL;
        if (rc == 0)
            rc = uint_at(s + used + 1, n - used - 1, &h->corrected[i], &used2);
        if (rc == 0 && used + 1 + used2 != n)
            rc = -EINVAL;
        if (rc == 0 && (h->corrected[i] == 0 || (i > 0 && h->value_us[i] <= h->value_us[i - 1])))
            rc = -EINVAL;
        if (rc != 0) {
            rc = textin_fail(err, errlen, rc, "%s:%zu: expected 'VALUE_US COUNT' (whole numbers up to 2^53, the "
                             "values ascending, each count > 0)", name, it.line);
            goto fail;
        }
        h->corrected_total += h->corrected[i]; /* <= 2^53 * 2^53 lines / 4: checked below */
        if (h->corrected_total > WRKHIST_EXACT) {
            rc = textin_fail(err, errlen, -ERANGE, "%s:%zu: the counts sum beyond 2^53", name, it.line);
            goto fail;
        }
    }
    if (!textin_next_line(&it, &s, &n) || !line_is(s, n, "end")) {
        rc = textin_fail(err, errlen, -EINVAL, "%s:%zu: expected 'end' after %zu bins (as 'bins' said)", name,
                         it.line, h->bins);
        goto fail;
    }
    h->interval_us = wrkhist_interval_us(h->duration_us, h->requests, h->connections);
    if (wrkhist_undo(h->value_us, h->corrected, h->bins, h->interval_us, h->recorded) != 0) {
        rc = textin_fail(err, errlen, -EINVAL, "%s: a bin's count is below the count an interval (%llu us) above it: "
                         "not the histogram wrk corrected for this run time, request count and connection count",
                         name, (unsigned long long)h->interval_us);
        goto fail;
    }
    for (size_t i = 0; i < h->bins; i++)
        h->recorded_total += h->recorded[i];
    /* every completed request records one value (src/wrk.c
     * response_complete) unless it is over the timeout (then a timeout
     * error), which is also counted for connections that time out */
    if (h->recorded_total > h->requests || h->recorded_total + h->timeouts < h->requests) {
        rc = textin_fail(err, errlen, -EINVAL, "%s: the correction undone leaves %llu values for %llu requests and "
                         "%llu timeouts (expected one value a request, or fewer by at most the timeouts; a script "
                         "that pipelines requests cannot be undone)", name, (unsigned long long)h->recorded_total,
                         (unsigned long long)h->requests, (unsigned long long)h->timeouts);
        goto fail;
    }
    return 0;
fail:
    wrkhist_free(h);
    return rc;
}

void wrkhist_free(wrkhist *h)
{
    if (!h)
        return;
    free(h->value_us);
    free(h->corrected);
    free(h->recorded);
    h->value_us = h->corrected = h->recorded = NULL;
}
