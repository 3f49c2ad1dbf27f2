// nvfp4_gemv.h: the entry points a CUDA attempt implements (contract 1, docs/contracts.md).
//
// Every attempts/NN-slug/kernel.cu includes this header, so a definition whose parameters differ
// from these declarations is a compile error ("conflicting declaration of C function"), and the
// Python loader (common/attempts.py) is checked against this file by tests/test_contracts.py.
//
// An attempt defines exactly one of the two launch functions:
//   nvfp4_gemv                 no device scratch memory;
//   nvfp4_gemv_with_workspace  scratch memory of nvfp4_gemv_workspace_bytes(m, k, l) bytes,
//                              which the attempt must then also define.
// Optionally it defines nvfp4_gemv_setup, called once per process before its first launch.
//
// Arguments: raw pointers to GPU MODE's tensors, whose memory order is [L][rows][cols]
// (a: M x K/2 bytes per batch, sfa: M x K/16, b and sfb: row 0 of a 128-row padded block whose
// batch stride is b_batch_stride / sfb_batch_stride bytes, c: M halves per batch). m is a
// multiple of 128, k a multiple of 64, l >= 1; every pointer is 16-byte aligned. The launch
// goes on `stream`; the return value is a cudaError_t (cudaSuccess = 0), normally
// cudaGetLastError() after the launches.
//
// Workspace: 16-byte aligned, zero-filled when the loader first allocates it, reused by every
// later call of the same process. An attempt that relies on zeros (counters, semaphores) must
// leave the workspace zeroed again before its last kernel finishes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

extern "C" {
int nvfp4_gemv(const uint8_t* a, const uint8_t* b, const uint8_t* sfa, const uint8_t* sfb,
               __half* c, int m, int k, int l,
               long long b_batch_stride, long long sfb_batch_stride, cudaStream_t stream);

int nvfp4_gemv_with_workspace(const uint8_t* a, const uint8_t* b, const uint8_t* sfa,
                              const uint8_t* sfb, __half* c, int m, int k, int l,
                              long long b_batch_stride, long long sfb_batch_stride,
                              void* workspace, cudaStream_t stream);

size_t nvfp4_gemv_workspace_bytes(int m, int k, int l);

int nvfp4_gemv_setup(void);
}
