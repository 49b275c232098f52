/* tester_steady.c - the one file of the recipe's tester kind (see
 * tests/recipe/tester_kinds_extra.def): U users, each sending its next
 * request one interval D after its previous reply. Written as
 * docs/hacking.md's "To add a tester kind" says, over tester_loop.h. */
#include "tester_loop.h"

static int steady_prepare(tester_loop *L)
{
    int rc = tester_loop_alloc_users(L, (size_t)L->spec->users);
    if (!rc)
        tester_loop_init_users(L, 0); /* every user sends at 0 */
    return rc;
}

/* The next send: the reply plus floor(D). */
TESTER_INLINE int steady_next(tester_loop *L, const tester_hot *h, tester_user *u, const tester_request *rq)
{
    (void)h;
    u->next_ns = rq->reply_ns + units_interval_floor_ns(L->spec->interval);
    u->intended_ns = u->next_ns;
    return 0;
}

static int steady_run(tester_loop *L);

const tester_strategy tester_steady_strategy = {
    .kind = TESTER_STEADY, .prepare = steady_prepare, .run = steady_run, .connections = 1,
    .next_send = steady_next,
};

TESTER_LOOP_FN int steady_run(tester_loop *L)
{
    return tester_loop_run(L, &tester_steady_strategy);
}
