/* lecture.h - `cosim lecture SCENARIO... -o DIR` (cli/lecture.c). */
#ifndef COSIM_CLI_LECTURE_H
#define COSIM_CLI_LECTURE_H

/**
 * Run each scenario and write DIR/index.html, one page per scenario and
 * the charts and tables they show (docs/cosim.1, "cosim lecture").
 *
 * @param argc,argv  from "lecture" on
 * @return the exit code (exitcode.h): 1 when a scenario's [expect] missed
 */
int lecture_main(int argc, char **argv);

#endif
