/* The main of every check test: run the file's test_suite() and report
 * (as TAP on stdout when CK_TAP_LOG_FILE_NAME=-, as meson sets it). */
#include <check.h>
#include <stdlib.h>

Suite *test_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(test_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
