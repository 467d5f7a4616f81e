/* tile_printf: a conversion without an argument. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    tile_printf("%d and %d\n", n);
}
// expect: tests/diag/printf_too_few.tile.c:6:25: error: conversion '%d' has no argument: tile_printf has 1 argument after its format
// expect-no-other-errors
