/* levels.c - the percentile levels cosim reports (levels.h). */
#include "levels.h"

#include <string.h>

#define J LEVELS_JSON
#define T LEVELS_TABLE
#define H LEVELS_HEADLINE
#define S LEVELS_SWEEP
#define B LEVELS_BAND

/* 0, then the nines and halves up to 99.999% (the band's x = 1/(1-p)
 * from 1 to 1e5); the reports use the round nines among them. */
const level levels[] = {
    {0, 0, "0", "p0", B},
    {50000, 0.5, "50", "p50", J | T | H | S | B},
    {75000, 0.75, "75", "p75", B},
    {90000, 0.9, "90", "p90", J | T | S | B},
    {95000, 0.95, "95", "p95", J | B},
    {98000, 0.98, "98", "p98", B},
    {99000, 0.99, "99", "p99", J | T | H | S | B},
    {99500, 0.995, "99.5", "p99.5", B},
    {99800, 0.998, "99.8", "p99.8", B},
    {99900, 0.999, "99.9", "p99.9", J | T | H | S | B},
    {99950, 0.9995, "99.95", "p99.95", B},
    {99980, 0.9998, "99.98", "p99.98", B},
    {99990, 0.9999, "99.99", "p99.99", J | T | B},
    {99995, 0.99995, "99.995", "p99.995", B},
    {99998, 0.99998, "99.998", "p99.998", B},
    {99999, 0.99999, "99.999", "p99.999", B},
};
const size_t levels_n = sizeof levels / sizeof levels[0];

size_t levels_count(unsigned set)
{
    size_t n = 0;
    for (size_t i = 0; i < levels_n; i++)
        n += (levels[i].sets & set) != 0;
    return n;
}

const level *levels_nth(unsigned set, size_t k)
{
    for (size_t i = 0; i < levels_n; i++)
        if ((levels[i].sets & set) && k-- == 0)
            return &levels[i];
    return NULL;
}

const level *levels_find(const char *key)
{
    for (size_t i = 0; i < levels_n; i++)
        if (strcmp(levels[i].key, key) == 0)
            return &levels[i];
    return NULL;
}

int64_t levels_value(const hist *h, hist_rank_rule rule, const level *l)
{
    return hist_value_at_percentile(h, rule, l->num, LEVELS_DEN);
}
