// A deliberately broken kernel with the attempts' ABI: the last thread writes one element past
// the end of c. `make sanitize` must report it, which shows the sanitizer target can fail.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

__global__ void planted_out_of_bounds(__half* c, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = __float2half(0.0f);  // the bug: <= instead of <
}

extern "C" int nvfp4_gemv(const uint8_t*, const uint8_t*, const uint8_t*, const uint8_t*, __half* c,
                          int m, int k, int l, long long, long long, cudaStream_t stream) {
  const long long n = static_cast<long long>(m) * l;
  planted_out_of_bounds<<<static_cast<unsigned>((n + 128) / 128), 128, 0, stream>>>(c, n);
  return static_cast<int>(cudaGetLastError());
}
