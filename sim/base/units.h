/* units.h - parsing and printing of durations, rates and decimals.
 *
 * cosim's time is int64_t nanoseconds everywhere (MODEL.md, "Time"). Scenario
 * files always carry a unit: a bare number is an error, never a guess. All
 * parsing is exact decimal arithmetic, so "0.9s" is 900000000 ns, not the
 * nearest double.
 *
 * Every number cosim reads, with or without a unit, follows one grammar
 * (docs/scenario-format.md, "Numbers"): DIGITS or DIGITS.DIGITS, at most 18
 * significant digits and 18 decimals; no sign, exponent, hexadecimal, inf or
 * nan, no ".5" or "5.". A refusal says which rule the text broke.
 */
#ifndef COSIM_UNITS_H
#define COSIM_UNITS_H

#include <stddef.h>
#include <stdint.h>

/** Largest duration a scenario may state: 10^6 s (about 11.6 days). */
#define UNITS_MAX_DURATION_NS ((int64_t)1000000 * 1000000000)

/**
 * An interval of num_ns/den nanoseconds, kept as an exact fraction so that a
 * rate such as 3/s gives the grid t_i = floor(i * 10^9 / 3) without drift.
 * Invariants: num_ns >= 1, den >= 1, the fraction is reduced.
 */
typedef struct units_interval {
    uint64_t num_ns; /**< numerator, nanoseconds */
    uint64_t den;    /**< denominator */
} units_interval;

/**
 * Parse a duration with its unit: "<decimal><unit>", unit one of ns, us (or
 * µs), ms, s. Examples: "2.5s", "500ms", "100us", "0s".
 *
 * @param text    the text; leading and trailing blanks are ignored
 * @param out_ns  receives the duration in nanoseconds
 * @param why     on error, receives a static English reason
 * @return 0, or -EINVAL when the text is not a duration (no unit, a sign,
 *         a fraction of a nanosecond, garbage), -ERANGE when it exceeds
 *         UNITS_MAX_DURATION_NS.
 */
int units_parse_duration(const char *text, int64_t *out_ns, const char **why);

/**
 * Parse a rate "<decimal>/<unit>" (unit s, ms, us, ns, min) into the exact
 * interval between events: 1000/s gives 1000000/1 ns, 3/s gives 1000000000/3.
 *
 * @param text  the text, such as "1000/s" or "2.5/s"
 * @param out   receives the interval as a reduced fraction of nanoseconds
 * @param why   on error, a static English reason
 * @return 0, -EINVAL (not a rate, zero rate) or -ERANGE (interval below
 *         1/1000 ns or above UNITS_MAX_DURATION_NS, or a fraction that cannot
 *         be kept exactly in 64-bit numerator and denominator).
 */
int units_parse_rate(const char *text, units_interval *out, const char **why);

/**
 * Parse a plain non-negative decimal (no unit) into a double, for
 * dimensionless parameters such as a lognormal sigma or a gamma shape, and
 * for probabilities and tolerances: the grammar above ("0.2", "15", never
 * "1e-1", "0x1p-2", "-0", "inf" or "nan"), rounded to the nearest double.
 *
 * @return 0 or -EINVAL (with *why set) when the text is not such a number.
 */
int units_parse_number(const char *text, double *out, const char **why);

/**
 * Parse a decimal of the one grammar at the start of text, leaving what
 * follows (a unit) for the caller: "12.5ms" gives 12.5, 1 decimal, and
 * *rest pointing at "ms". For ranges of values with a unit (cosim sweep
 * --vary).
 *
 * @param out       the value, rounded to the nearest long double (exact for
 *                  up to 18 significant digits when printed back with
 *                  *decimals decimals)
 * @param decimals  how many digits follow the decimal point as written
 * @param rest      receives the text after the number
 * @return 0 or -EINVAL (with *why).
 */
int units_parse_decimal_prefix(const char *text, long double *out, unsigned *decimals, const char **rest,
                               const char **why);

/**
 * Parse a non-negative integer count (digits only, optional '_' or ','
 * separators are not accepted), such as a number of users or a seed.
 *
 * @param max  the largest value accepted
 * @return 0, -EINVAL (not digits) or -ERANGE (above max).
 */
int units_parse_count(const char *text, uint64_t max, uint64_t *out, const char **why);

/**
 * Parse a decimal percentile "99.9" (0 <= p <= 100, at most 9 decimals)
 * exactly: p/100 = *num / *den with *den a power of ten.
 *
 * @return 0 or -EINVAL.
 */
int units_parse_percentile(const char *text, uint64_t *num, uint64_t *den, const char **why);

/**
 * The interval as a whole number of nanoseconds, rounded down (used where an
 * integer expected interval is needed, as in HdrHistogram's
 * recordValueWithExpectedInterval).
 */
int64_t units_interval_floor_ns(units_interval iv);

/**
 * The i-th instant of a grid anchored at anchor_ns: anchor_ns + floor(i * iv).
 * Exact (128-bit intermediate).
 */
int64_t units_interval_at(units_interval iv, int64_t anchor_ns, uint64_t i);

/**
 * How many grid instants anchor + floor(i * iv), i = 0, 1, ..., lie before
 * end_ns: the number of requests a schedule plans for [anchor_ns, end_ns).
 * Returns 0 when end_ns <= anchor_ns.
 */
uint64_t units_interval_count_before(units_interval iv, int64_t anchor_ns, int64_t end_ns);

/**
 * The interval multiplied by k (k users each at rate/k), reduced, checked:
 * the product of two user-given figures may pass 2^64.
 *
 * @param k    the factor (a number of users), at least 1
 * @param out  receives k * iv
 * @return 0, or -ERANGE when k is 0 or the numerator would pass 2^64 - 1
 *         (*out untouched).
 */
int units_interval_mul(units_interval iv, uint64_t k, units_interval *out);

/**
 * units_interval_mul for callers that checked it first (scenario_load
 * does): the interval multiplied by k, reduced. Never wraps: a product past
 * 2^64 - 1 ns gives the interval 2^64 - 1 ns.
 */
units_interval units_interval_scale(units_interval iv, uint64_t k);

/** What is wrong with a window, for units_parse_window's caller to say. */
typedef struct units_window_error {
    int side;        /**< 0: no ".." in the text; 1: START is wrong; 2: END is wrong */
    size_t dots;     /**< with side > 0: the offset of the first ".." in the text */
    const char *why; /**< the reason (static): units_parse_duration's, or
                          "expected START..END with units, e.g. 0.85s..1.6s" */
} units_window_error;

/**
 * Parse a window "START..END" of two durations with their units
 * ("0.85s..1.6s"; blanks around either are ignored), split at the first
 * "..". The order is not checked here: each caller says what an empty or
 * reversed window means to it (a chart's window, a stall's windows).
 * Used for --window, [scenario] chart_window and [stall] windows.
 *
 * @param start_ns,end_ns  receive START and END in ns
 * @param err              on error, which side is wrong and why
 * @return 0, -EINVAL (not a window), -ERANGE (a duration too long; side
 *         and why say which), -ENOMEM.
 */
int units_parse_window(const char *text, int64_t *start_ns, int64_t *end_ns, units_window_error *err);

/**
 * Greatest common divisor of a and b (Euclid's algorithm: gcd(a, b) =
 * gcd(b, a mod b), gcd(a, 0) = a). gcd(0, 0) is 0. Used to keep interval
 * fractions reduced and for the stall checker's hyperperiod lcm.
 */
uint64_t units_gcd_u64(uint64_t a, uint64_t b);

/**
 * Format a duration for people: 4 significant digits and the unit chosen by
 * size ("950 ns", "100.2 us", "1.868 ms", "10.10 ms", "2.500 s").
 *
 * @param buf,len  destination (24 bytes suffice)
 * @return buf
 */
char *units_format_duration(int64_t ns, char *buf, size_t len);

/**
 * Format a duration exactly in the largest unit that divides it
 * ("500ms", "2.5s", "100us", "7ns"): the inverse of units_parse_duration.
 *
 * @return buf
 */
char *units_format_duration_exact(int64_t ns, char *buf, size_t len);

/**
 * Format a number in the grammar units_parse_number reads (no exponent),
 * with the fewest significant digits (at most 17) that read back as the
 * same double: 1e-6 -> "0.000001", 1e6 -> "1000000", 1.000001 ->
 * "1.000001", 0.5 -> "0.5". Negative, infinite or NaN x, or a text longer
 * than len, falls back to "%g".
 *
 * @param buf,len  destination (48 bytes suffice for 1e-18 .. 1e18)
 * @return buf
 */
char *units_format_number(double x, char *buf, size_t len);

/** Format a count with thousands separators: 99900 -> "99,900". @return buf */
char *units_format_count(uint64_t n, char *buf, size_t len);

#endif
