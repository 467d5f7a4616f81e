/* device_check.cu: the CUDA launchers' device check on a real GPU
 * (tilec_check_device in runtime/tilec_ops.h, called by every generated
 * launcher).  Uses examples/vec_add's generated launcher (c = a + b), built
 * by tests/gpu/run.sh device from build/gpu/gen/vec_add:
 *   - device, pinned and managed memory pass and compute the right sum;
 *   - pageable host memory is TILEC_ERR_DEVICE naming the argument and the
 *     device (or passes and computes, on a GPU with pageable memory access:
 *     HMM or ATS), and leaves no CUDA error behind;
 *   - empty arrays pass whatever their pointer;
 *   - tilec_set_device_check(0) lets a host pointer through the check (the
 *     check is called directly: nothing is launched on host memory);
 *   - with two GPUs, another device's memory follows cudaDeviceCanAccessPeer.
 * Run `device_check env-off` with TILEC_NO_DEVICE_CHECK=1 to test the
 * environment switch.  Prints "device_check: N passed, N failed" and the
 * cost of one cached check. */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"
#include "tilec_ops.h"
#include "tilec_rt.h"
#include "vec_add.h"

#define HAS(hay, needle) CHECK(strstr((hay), (needle)) != NULL, "\"%s\" lacks \"%s\"", (hay), (needle))

static const int64_t N = 5000;

static tilec_status add(float *a, float *b, float *c, int64_t n)
{
    tilec_array A = tilec_array_1d(a, TILEC_FLOAT32, n), B = tilec_array_1d(b, TILEC_FLOAT32, n),
                C = tilec_array_1d(c, TILEC_FLOAT32, n);
    return vec_add(NULL, tilec_grid_1d(n, 1024), &A, &B, &C);
}

/* c == a + b for the inputs below (a[i] = i, b[i] = 2i + 0.5) */
static int sum_ok(const float *c, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (c[i] != (float)i + (float)(2 * i) + 0.5f) return 0;
    return 1;
}

static void fill(float *a, float *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i) + 0.5f;
    }
}

int main(int argc, char **argv)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        printf("device_check: no CUDA device\n");
        return 2;
    }
    cudaSetDevice(0);
    std::vector<float> ha(N), hb(N), hc(N);
    fill(ha.data(), hb.data(), N);
    tilec_array host_a = tilec_array_1d(ha.data(), TILEC_FLOAT32, N);

    if (argc > 1 && strcmp(argv[1], "env-off") == 0) {
        /* TILEC_NO_DEVICE_CHECK=1 in the environment */
        CHECK_INT(tilec_device_check_enabled(), 0);
        CHECK_INT(tilec_check_device(&host_a, "a"), TILEC_OK);
        tilec_set_device_check(1); /* the call overrides the environment */
        CHECK_INT(tilec_check_device(&host_a, "a"), TILEC_ERR_DEVICE);
        return check_done("device_check env-off");
    }
    CHECK_INT(tilec_device_check_enabled(), 1);

    int pageable = 0;
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
    printf("device 0: pageable memory access %d, %d device(s)\n", pageable, ndev);

    /* device memory */
    float *da, *db, *dc;
    CHECK_INT(cudaMalloc(&da, N * sizeof(float)), cudaSuccess);
    CHECK_INT(cudaMalloc(&db, N * sizeof(float)), cudaSuccess);
    CHECK_INT(cudaMalloc(&dc, N * sizeof(float)), cudaSuccess);
    cudaMemcpy(da, ha.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(dc, 0, N * sizeof(float));
    CHECK_INT(add(da, db, dc, N), TILEC_OK);
    CHECK_INT(cudaMemcpy(hc.data(), dc, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(sum_ok(hc.data(), N), "device memory: wrong sum");
    CHECK_INT(add(da, db, dc, N), TILEC_OK); /* cached now */

    /* pageable host memory, as an input and as the output */
    tilec_status s = add(ha.data(), db, dc, N);
    if (!pageable) {
        CHECK_INT(s, TILEC_ERR_DEVICE);
        HAS(tilec_last_error(), "argument 'a': host memory (pageable), the launch runs on device 0");
        CHECK_INT(cudaGetLastError(), cudaSuccess); /* nothing left for the next launch */
        s = add(da, db, hc.data(), N);
        CHECK_INT(s, TILEC_ERR_DEVICE);
        HAS(tilec_last_error(), "argument 'c': host memory (pageable)");
        CHECK_INT(add(da, db, dc, N), TILEC_OK); /* and the next launch is fine */
        CHECK_STR(tilec_last_error(), "");
        /* not cached: still refused */
        CHECK_INT(tilec_check_device(&host_a, "a"), TILEC_ERR_DEVICE);
        CHECK_INT(tilec_check_device(&host_a, "a"), TILEC_ERR_DEVICE);
    } else {
        CHECK_INT(s, TILEC_OK);
        CHECK_INT(cudaDeviceSynchronize(), cudaSuccess);
        cudaMemcpy(hc.data(), dc, N * sizeof(float), cudaMemcpyDeviceToHost);
        CHECK(sum_ok(hc.data(), N), "pageable memory with HMM/ATS: wrong sum");
    }

    /* the switch: the check passes a host pointer without looking (nothing
     * is launched on it here) */
    tilec_set_device_check(0);
    CHECK_INT(tilec_device_check_enabled(), 0);
    CHECK_INT(tilec_check_device(&host_a, "a"), TILEC_OK);
    tilec_set_device_check(1);
    CHECK_INT(tilec_check_device(&host_a, "a"), pageable ? TILEC_OK : TILEC_ERR_DEVICE);

    /* empty arrays pass, whatever the pointer */
    tilec_array empty = tilec_array_1d(ha.data(), TILEC_FLOAT32, 0);
    CHECK_INT(tilec_check_device(&empty, "e"), TILEC_OK);
    empty.data = (void *)(uintptr_t)16;
    CHECK_INT(tilec_check_device(&empty, "e"), TILEC_OK);
    CHECK_INT(cudaGetLastError(), cudaSuccess);

    /* pinned host memory: reachable through unified addressing */
    float *pa, *pc;
    CHECK_INT(cudaMallocHost(&pa, N * sizeof(float)), cudaSuccess);
    CHECK_INT(cudaMallocHost(&pc, N * sizeof(float)), cudaSuccess);
    memcpy(pa, ha.data(), N * sizeof(float));
    memset(pc, 0, N * sizeof(float));
    CHECK_INT(add(pa, db, pc, N), TILEC_OK);
    CHECK_INT(cudaDeviceSynchronize(), cudaSuccess);
    CHECK(sum_ok(pc, N), "pinned memory: wrong sum");

    /* registered host memory */
    std::vector<float> reg(N);
    memcpy(reg.data(), ha.data(), N * sizeof(float));
    CHECK_INT(cudaHostRegister(reg.data(), N * sizeof(float), cudaHostRegisterDefault), cudaSuccess);
    CHECK_INT(add(reg.data(), db, dc, N), TILEC_OK);
    CHECK_INT(cudaMemcpy(hc.data(), dc, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(sum_ok(hc.data(), N), "registered memory: wrong sum");
    cudaHostUnregister(reg.data());

    /* managed memory */
    float *ma;
    CHECK_INT(cudaMallocManaged(&ma, N * sizeof(float)), cudaSuccess);
    memcpy(ma, ha.data(), N * sizeof(float));
    CHECK_INT(add(ma, db, dc, N), TILEC_OK);
    CHECK_INT(cudaMemcpy(hc.data(), dc, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(sum_ok(hc.data(), N), "managed memory: wrong sum");

    /* another device's memory */
    if (ndev >= 2) {
        float *other;
        int can = 0;
        cudaSetDevice(1);
        CHECK_INT(cudaMalloc(&other, N * sizeof(float)), cudaSuccess);
        cudaSetDevice(0);
        cudaDeviceCanAccessPeer(&can, 0, 1);
        tilec_array o = tilec_array_1d(other, TILEC_FLOAT32, N);
        s = tilec_check_device(&o, "b");
        if (can) {
            CHECK_INT(s, TILEC_OK);
        } else {
            CHECK_INT(s, TILEC_ERR_DEVICE);
            HAS(tilec_last_error(), "argument 'b': memory of device 1, the launch runs on device 0");
        }
        /* the launch on device 1 itself passes */
        cudaSetDevice(1);
        CHECK_INT(tilec_check_device(&o, "b"), TILEC_OK);
        cudaSetDevice(0);
        cudaFree(other);
    } else {
        printf("one device: the peer case is not tested\n");
    }

    /* the cost of a cached check, and of the launcher's whole path */
    {
        tilec_array d = tilec_array_1d(da, TILEC_FLOAT32, N);
        const int reps = 1000000;
        int bad = 0;
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; i++) bad += tilec_check_device(&d, "a") != TILEC_OK;
        auto t1 = std::chrono::steady_clock::now();
        tilec_array p = tilec_array_1d(pa, TILEC_FLOAT32, N);
        for (int i = 0; i < reps / 10; i++) bad += tilec_check_device(&p, "a") != TILEC_OK;
        auto t2 = std::chrono::steady_clock::now();
        int dev = -1;
        for (int i = 0; i < reps; i++) bad += tilec_check_device(&d, "a", &dev) != TILEC_OK;
        auto t3 = std::chrono::steady_clock::now();
        /* whole launches, check on and off (the launch rate bounds both) */
        tilec_array B = tilec_array_1d(db, TILEC_FLOAT32, N), C = tilec_array_1d(dc, TILEC_FLOAT32, N);
        const int launches = 100000;
        cudaDeviceSynchronize();
        auto t3b = std::chrono::steady_clock::now();
        for (int i = 0; i < launches; i++) bad += vec_add(NULL, tilec_grid_1d(N, 1024), &d, &B, &C) != TILEC_OK;
        cudaDeviceSynchronize();
        auto t4 = std::chrono::steady_clock::now();
        tilec_set_device_check(0);
        for (int i = 0; i < launches; i++) bad += vec_add(NULL, tilec_grid_1d(N, 1024), &d, &B, &C) != TILEC_OK;
        cudaDeviceSynchronize();
        auto t5 = std::chrono::steady_clock::now();
        tilec_set_device_check(1);
        CHECK_INT(bad, 0);
        printf("tilec_check_device: %.1f ns cached (device memory), %.1f ns uncached (pinned host), "
               "%.1f ns cached with the device known; vec_add launches: %.2f us checked, %.2f us unchecked\n",
               std::chrono::duration<double, std::nano>(t1 - t0).count() / reps,
               std::chrono::duration<double, std::nano>(t2 - t1).count() / (reps / 10),
               std::chrono::duration<double, std::nano>(t3 - t2).count() / reps,
               std::chrono::duration<double, std::micro>(t4 - t3b).count() / launches,
               std::chrono::duration<double, std::micro>(t5 - t4).count() / launches);
    }
    CHECK_INT(cudaGetLastError(), cudaSuccess);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFreeHost(pa);
    cudaFreeHost(pc);
    cudaFree(ma);
    return check_done("device_check");
}
