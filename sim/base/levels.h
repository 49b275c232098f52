/* levels.h - the percentile levels cosim reports, in one table: each level
 * as an exact fraction, as a double, as its JSON key ("99.9") and as its
 * label ("p99.9"), with the outputs that state it (a set of flags).
 *
 * Every output that lists percentiles takes its levels from here: the text
 * and summary tables, summary.json, the comparison with the truth, the
 * replication band, the summary chart and the sweep's worker protocol.
 */
#ifndef COSIM_LEVELS_H
#define COSIM_LEVELS_H

#include "hist.h"

#include <stddef.h>
#include <stdint.h>

/** The denominator of every level: level = num / LEVELS_DEN (99.999% is
 *  the finest level, 99999 / 100000). */
#define LEVELS_DEN 100000

/** The outputs a level appears in (level.sets). */
enum levels_set {
    LEVELS_JSON = 1u << 0,     /**< summary.json's percentiles_ns keys */
    LEVELS_TABLE = 1u << 1,    /**< the latency columns of the text summary
                                    and of summary.md/csv/html */
    LEVELS_HEADLINE = 1u << 2, /**< the three compared levels: vs truth, the
                                    replication table, the summary chart */
    LEVELS_SWEEP = 1u << 3,    /**< the percentiles a sweep worker sends back */
    LEVELS_BAND = 1u << 4,     /**< the replication band's levels (x = 1/(1-p)
                                    from 1 to 1e5) */
};

/** The levels of LEVELS_TABLE (the summary's columns are an enum). */
#define LEVELS_N_TABLE 5

/** One percentile level. */
typedef struct level {
    uint64_t num;      /**< the level is num / LEVELS_DEN, exactly */
    double fraction;   /**< the level as a fraction in [0, 1), e.g. 0.999 */
    const char *key;   /**< the percent as decimal text, e.g. "99.9" (the
                            JSON key, the units_parse_percentile form) */
    const char *label; /**< the column label, e.g. "p99.9" */
    unsigned sets;     /**< the outputs that state it (enum levels_set) */
} level;

/** The table, in increasing order. */
extern const level levels[];
/** Its rows. */
extern const size_t levels_n;

/** The number of levels in set (an enum levels_set flag). */
size_t levels_count(unsigned set);

/**
 * The k-th level (0-based, in increasing order) of set.
 * @return the row, or NULL when set has k levels or fewer
 */
const level *levels_nth(unsigned set, size_t k);

/** The row whose key is `key` ("99.9"), or NULL. */
const level *levels_find(const char *key);

/** The value of h at level l under rule, in ns (hist_value_at_percentile;
 *  0 for an empty histogram). */
int64_t levels_value(const hist *h, hist_rank_rule rule, const level *l);

#endif
