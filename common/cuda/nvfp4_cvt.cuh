// nvfp4_cvt.cuh: one e2m1x2 -> f16x2 conversion for every target.
//
// Blackwell (sm_100a/sm_103a and the other arch- or family-specific targets from 10.0 on) has
// `cvt.rn.f16x2.e2m1x2 d, s;` (SASS F2FP.F16.E2M1.UNPACK_B): the .b8 register s holds two e2m1
// codes, the low nibble becomes the low half of d. ptxas rejects it for sm_90/sm_90a. The attempts
// write the instruction through NVFP4_CVT_E2M1X2, so the sm_100a build keeps the hardware
// instruction and the sm_90a build gets an exact software sequence with the same result, and a
// diff between two attempts shows only the idea that changed.
#pragma once
#include <cstdint>

// Same test cuda_fp8.h uses to decide that the short-type cvt instructions exist. The family macro
// is defined only in the device pass for 'a'/'f' targets (900 for sm_90a, 1000 for sm_100a), so the
// host pass and plain sm_100 take the software path, which is also correct there.
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL) || \
    (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000 && \
     __CUDA_ARCH_FAMILY_SPECIFIC__ < 1300)
#define NVFP4_HW_E2M1 1
#else
#define NVFP4_HW_E2M1 0
#endif

// NVFP4_CVT_E2M1X2(dst, src): PTX text (for an asm statement with operands, hence `%%`) that
// converts the .b8 register `src` (two e2m1 codes) into the .b32 f16x2 register `dst`.
// Both arguments are string literals naming registers, e.g. NVFP4_CVT_E2M1X2("%%fa0", "%%a0").
#if NVFP4_HW_E2M1
#define NVFP4_CVT_E2M1X2(dst, src) "cvt.rn.f16x2.e2m1x2 " dst ", " src ";\n"
#else
// Software path, exact. An e2m1 code SEEM has value (-1)^S * 2^(EE-1) * (1 + M/2) for EE > 0 and
// (-1)^S * M/2 for EE = 0. Placing EEM in bits 11..9 of an fp16 (exponent field = EE, top mantissa
// bit = M) and S in bit 15 gives (-1)^S * 2^(EE-15) * (1 + M/2) for EE > 0 and the fp16 subnormal
// (-1)^S * M/2 * 2^-14 for EE = 0: in every case the e2m1 value times 2^-14. Multiplying by
// 2^14 (fp16 0x7400) is exact: the results are the 15 e2m1 values, all representable in fp16,
// and the signed zero keeps its sign (code 0x8 -> 0x8000 -> -0). mul.f16x2 without .ftz keeps
// the subnormal input. Both nibbles are handled in one pass: low nibble in bits 0..3, high
// nibble in bits 16..19, masks 0x00070007 (magnitude) and 0x00080008 (sign).
// cvt.u32.u8 widens the .b8 register (a .b8 source is legal for cvt); ptxas folds the
// shifts and masks into a few LOP3/SHF/IMAD instructions.
#define NVFP4_CVT_E2M1X2(dst, src)                                               \
  "{\n"                                                                           \
  ".reg .b32 %%e2m1_x, %%e2m1_t, %%e2m1_s, %%e2m1_k;\n"                           \
  "cvt.u32.u8 %%e2m1_x, " src ";\n"                  /* 0x000000HL          */   \
  "shl.b32 %%e2m1_t, %%e2m1_x, 12;\n"                                             \
  "or.b32 %%e2m1_x, %%e2m1_x, %%e2m1_t;\n"           /* H at 16..19, L at 0..3 */ \
  "and.b32 %%e2m1_t, %%e2m1_x, 0x00070007;\n"                                     \
  "shl.b32 %%e2m1_t, %%e2m1_t, 9;\n"                 /* EEM -> bits 11..9    */   \
  "and.b32 %%e2m1_s, %%e2m1_x, 0x00080008;\n"                                     \
  "shl.b32 %%e2m1_s, %%e2m1_s, 12;\n"                /* S -> bit 15          */   \
  "or.b32 %%e2m1_t, %%e2m1_t, %%e2m1_s;\n"                                        \
  "mov.b32 %%e2m1_k, 0x74007400;\n"                  /* 2^14 in both halves  */   \
  "mul.rn.f16x2 " dst ", %%e2m1_t, %%e2m1_k;\n"                                   \
  "}\n"
#endif

// One byte (two e2m1 codes) -> f16x2 bits, low nibble in the low half.
__device__ __forceinline__ uint32_t nvfp4_cvt_e2m1x2_f16x2(uint8_t byte) {
  uint32_t out;
  asm("{\n"
      ".reg .b8 %%cvt_in<4>;\n"
      "mov.b32 {%%cvt_in0, %%cvt_in1, %%cvt_in2, %%cvt_in3}, %1;\n"
      NVFP4_CVT_E2M1X2("%0", "%%cvt_in0")
      "}\n"
      : "=r"(out)
      : "r"(static_cast<uint32_t>(byte)));
  return out;
}
