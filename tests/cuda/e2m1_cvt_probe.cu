// Decodes all 256 e2m1x2 bytes through the shared header, so a test can compare every word with
// the Python format module on the GPU (the sm_90a build exercises the software path).
#include <cuda_runtime.h>
#include <cstdint>
#include "nvfp4_cvt.cuh"

__global__ void e2m1x2_decode_all_kernel(uint32_t* out) {
  out[threadIdx.x] = nvfp4_cvt_e2m1x2_f16x2(static_cast<uint8_t>(threadIdx.x));
}

extern "C" int e2m1x2_decode_all(uint32_t* out, cudaStream_t stream) {
  e2m1x2_decode_all_kernel<<<1, 256, 0, stream>>>(out);
  return static_cast<int>(cudaGetLastError());
}
