/* rng.h - GSL generators seeded explicitly from the scenario.
 *
 * cosim never reads GSL_RNG_TYPE or GSL_RNG_SEED from the environment: the
 * generator type and the seed come from the scenario (or --seed), so a
 * scenario and a seed give the same bytes on every machine. Each purpose
 * (service times, arrivals, think times, ...) has its own stream so that
 * drawing one never shifts another: every tester sees the same service time
 * s_k for its k-th request (common random numbers).
 */
#ifndef COSIM_RNG_H
#define COSIM_RNG_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

/** The independent streams a scenario draws from. */
typedef enum rng_stream {
    RNG_SERVICE = 1,  /**< service times s_k: drawn by server_submit only, one a request in order
                           (in blocks of SERVER_DRAW_BATCH, server.c) */
    RNG_ARRIVALS = 2, /**< Poisson inter-arrival times of open testers */
    RNG_THINK = 3,    /**< think times of closed users */
    RNG_STALLS = 4,   /**< random stalls */
    RNG_TRUTH = 5,    /**< service times of ground-truth probes */
    RNG_SESSIONS = 6, /**< partly-open: whether a session continues */
    RNG_RESAMPLE = 7, /**< new service times of requests a window preempts
                           (stall preemption = resample) */
    RNG_RESAMPLE_PROBES = 8, /**< the same for ground-truth probes, so that
                                  probes never shift the requests' draws */
} rng_stream;

/** The default generator: GSL's MT19937. */
#define RNG_DEFAULT_GENERATOR "mt19937"

/**
 * Turn GSL's abort-on-error handler off, once per process, so that a GSL
 * failure is a return code cosim checks, never an abort. Idempotent.
 */
void rng_init(void);

/**
 * Allocate generator `generator` (a GSL name such as "mt19937" or "taus2")
 * seeded for `stream` of scenario seed `seed`: the GSL seed is the low 32
 * bits of splitmix64(seed + stream * 0x9E3779B97F4A7C15) (Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), so
 * streams of one seed are unrelated; 32 bits, the width of GSL's unsigned
 * long seed in the browser build, so both builds seed alike.
 *
 * @return 0, -EINVAL for a name rng_check_name refuses, -ENOMEM.
 */
int rng_new(gsl_rng **out, const char *generator, uint64_t seed, rng_stream stream);

/** Free; rng_free(NULL) does nothing. */
void rng_free(gsl_rng *r);

/** 0 if `generator` names a GSL generator cosim takes, -EINVAL if it
 *  names none, -ENOTSUP for the four whose sequences differ between the
 *  native and browser builds (ran3, ranlux, ranlux389, zuf: rng.c). */
int rng_check_name(const char *generator);

#endif
