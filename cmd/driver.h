/* driver.h: the tilec command line: options, subcommands, the compile of
 * each input and the writing of its outputs and dependency file. */
#ifndef TILEC_DRIVER_H
#define TILEC_DRIVER_H
int driver_main(int argc, char **argv);
#endif
