// 93a built under a cap on registers instead of its launch bounds (which allow 64 a thread), the
// kernel's code otherwise unchanged: with REG_CAP = 56 an SM holds 36 warps instead of 32 (a warp's
// registers are allocated 256 at a time), so blocks of 7 warps (K = 7168 on the H100) fit 5 to an
// SM instead of 4. REG_CAP = 0 builds 93a as it is, through this file: the control.
// The build's cache key does not cover the included file: the probe passes its source id as a
// define (INCLUDED_SOURCE), so that an edit to 93a would rebuild this too.
#include <cuda_runtime.h>
#ifndef REG_CAP
#define REG_CAP 0
#endif
#if REG_CAP > 0
#undef __launch_bounds__
#define __launch_bounds__(...) __maxnreg__(REG_CAP)
#endif
#include "../../attempts/93a-shallow-split-sums/kernel.cu"
