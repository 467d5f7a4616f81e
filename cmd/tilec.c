/* tilec.c: the program entry point; everything happens in cmd/driver.c. */
#include "cmd/driver.h"

int main(int argc, char **argv)
{
    return driver_main(argc, argv);
}
