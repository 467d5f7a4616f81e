/* params.h: tuning parameters the kernel includes (a change rebuilds it). */
#define SAXPY_TILE 512
