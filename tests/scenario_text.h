/* scenario_text.h - a scenario from a string, for tests: the test fails
 * with the reader's message when the text does not load. Header-only. */
#ifndef COSIM_TESTS_SCENARIO_TEXT_H
#define COSIM_TESTS_SCENARIO_TEXT_H

#include "scenario.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

/* Read text as the scenario file "t.ini"; the caller frees the result
 * with scenario_free. Needs _POSIX_C_SOURCE 200809L (fmemopen). */
static inline scenario *load(const char *text)
{
    char err[1024];
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    scenario *s = NULL;
    scenario_error e = scenario_load_stream(&s, f, "t.ini", NULL, 0, err, sizeof err);
    fclose(f);
    ck_assert_msg(e == SCENARIO_OK, "%s", err);
    return s;
}

#endif
