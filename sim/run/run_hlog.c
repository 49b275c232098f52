/* run_hlog.c - each tester's recorded latencies as an HdrHistogram interval
 * log (run_hlog.h). */
#include "run_hlog.h"
#include "grow.h"
#include "hist.h"
#include "hlog.h"
#include "units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values recorded in one interval, as measured (before a correction). */
typedef struct interval_values {
    int64_t *v;
    size_t n, cap;
} interval_values;

struct run_hlog {
    const scenario *s;
    size_t n_iv;           /* regular intervals, and one more for late replies */
    interval_values *iv;   /* n_iv + 1 */
    int64_t last_reply_ns; /* the latest reply recorded after the duration */
    size_t tester;         /* the tester whose values iv holds */
    int failed;            /* -ENOMEM while observing */
    char **text;           /* per tester: its interval lines (NUL-terminated) */
    size_t *text_len;
};

int run_hlog_new(run_hlog **out, const scenario *s)
{
    *out = NULL;
    int64_t i = s->hlog_interval_ns;
    if (i <= 0)
        return -EINVAL;
    uint64_t n = (uint64_t)(s->duration_ns / i) + (s->duration_ns % i != 0); /* ceil(duration / I) */
    if (n > RUN_HLOG_MAX_INTERVALS)
        return -EINVAL;
    run_hlog *h = calloc(1, sizeof *h);
    if (!h)
        return -ENOMEM;
    h->s = s;
    h->n_iv = (size_t)n;
    h->iv = calloc(h->n_iv + 1, sizeof *h->iv);
    h->text = calloc(s->n_testers ? s->n_testers : 1, sizeof *h->text);
    h->text_len = calloc(s->n_testers ? s->n_testers : 1, sizeof *h->text_len);
    if (!h->iv || !h->text || !h->text_len) {
        run_hlog_free(h);
        return -ENOMEM;
    }
    *out = h;
    return 0;
}

void run_hlog_observe(run_hlog *h, size_t tester, const tester_request *rq)
{
    if (tester >= h->s->n_testers || !rq->recorded || h->failed)
        return;
    h->tester = tester;
    size_t k = rq->reply_ns >= h->s->duration_ns ? h->n_iv : (size_t)(rq->reply_ns / h->s->hlog_interval_ns);
    if (k == h->n_iv && rq->reply_ns > h->last_reply_ns)
        h->last_reply_ns = rq->reply_ns;
    interval_values *x = &h->iv[k];
    if (x->n == x->cap) {
        int64_t *v = grow_array(x->v, &x->cap, sizeof *v, 64);
        if (!v) {
            h->failed = -ENOMEM;
            return;
        }
        x->v = v;
    }
    x->v[x->n++] = rq->latency_ns;
}

/* Forget the values of every interval (keeping the memory). */
static void clear_values(run_hlog *h)
{
    for (size_t k = 0; k <= h->n_iv; k++)
        h->iv[k].n = 0;
    h->last_reply_ns = h->s->duration_ns;
}

/* Record interval k's values into acc as tester t records them. */
static void fill(const run_hlog *h, const tester_spec *t, size_t k, hist *acc)
{
    const interval_values *x = &h->iv[k];
    hist_reset(acc);
    if (!tester_kind_has(t->kind, TESTER_KIND_CORRECTS)) {
        for (size_t j = 0; j < x->n; j++)
            hist_record(acc, x->v[j]);
        return;
    }
    /* the correction's interval D, as the corrected tester takes it */
    int64_t d = tester_expected_interval_ns(t);
    for (size_t j = 0; j < x->n; j++)
        hist_record_corrected(acc, x->v[j], d, t->correction, 0, NULL);
}

int run_hlog_tester_done(run_hlog *h, size_t tester, const tester_result *res)
{
    const scenario *s = h->s;
    int rc = h->failed;
    hist *acc = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = NULL;
    if (!rc)
        rc = hist_new(&acc, s->sub_bits);
    if (!rc && !(f = open_memstream(&buf, &len)))
        rc = -ENOMEM;
    uint64_t total = 0;
    for (size_t k = 0; !rc && k <= h->n_iv; k++) {
        if (k == h->n_iv && h->iv[k].n == 0)
            break; /* no reply after the duration: no late interval */
        fill(h, &s->testers[tester], k, acc);
        total += hist_count(acc);
        int64_t start = k == h->n_iv ? s->duration_ns : (int64_t)k * s->hlog_interval_ns;
        int64_t end = k == h->n_iv ? h->last_reply_ns : start + s->hlog_interval_ns;
        if (k < h->n_iv && end > s->duration_ns)
            end = s->duration_ns;
        rc = hlog_write_interval(f, NULL, start, end - start, acc);
    }
    if (f && fclose(f) && !rc)
        rc = -EIO;
    if (!rc && total != hist_count(res->hist))
        rc = -EPROTO;
    if (rc)
        free(buf);
    else {
        free(h->text[tester]);
        h->text[tester] = buf;
        h->text_len[tester] = len;
    }
    hist_free(acc);
    clear_values(h);
    h->failed = 0;
    return rc;
}

void run_hlog_free(run_hlog *h)
{
    if (!h)
        return;
    for (size_t k = 0; h->iv && k <= h->n_iv; k++)
        free(h->iv[k].v);
    free(h->iv);
    for (size_t i = 0; h->text && i < h->s->n_testers; i++)
        free(h->text[i]);
    free(h->text);
    free(h->text_len);
    free(h);
}

const char *run_hlog_text(const run_hlog *h, size_t tester, size_t *len)
{
    *len = h && h->text[tester] ? h->text_len[tester] : 0;
    return h ? h->text[tester] : NULL;
}
