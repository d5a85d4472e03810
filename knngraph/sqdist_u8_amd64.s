#include "textflag.h"

// func sqDistU8AVX2(a, b *uint8, n int) uint32
//
// Σ_t (a[t] − b[t])² for n a multiple of 32: 32 bytes per iteration are
// widened to 16-bit lanes (VPMOVZXBW), subtracted, and squared and summed in
// pairs into 32-bit lanes (VPMADDWD: at most 2·255² each), in two
// accumulators.
TEXT ·sqDistU8AVX2(SB), NOSPLIT, $0-28
	MOVQ  n+16(FP), CX
	VPXOR Y8, Y8, Y8
	MOVQ  a+0(FP), SI
	VPXOR Y9, Y9, Y9
	MOVQ  b+8(FP), DI

uloop:
	VPMOVZXBW (SI), Y0
	VPMOVZXBW (DI), Y1
	VPMOVZXBW 16(SI), Y2
	VPMOVZXBW 16(DI), Y3
	VPSUBW    Y1, Y0, Y0
	VPSUBW    Y3, Y2, Y2
	VPMADDWD  Y0, Y0, Y0
	VPMADDWD  Y2, Y2, Y2
	VPADDD    Y0, Y8, Y8
	VPADDD    Y2, Y9, Y9
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JNZ       uloop

	VPADDD       Y9, Y8, Y8
	VEXTRACTI128 $1, Y8, X1
	VPADDD       X1, X8, X8
	VPSHUFD      $0x4e, X8, X1
	VPADDD       X1, X8, X8
	VPSHUFD      $0xb1, X8, X1
	VPADDD       X1, X8, X8
	VMOVD        X8, AX
	VZEROUPPER
	MOVL         AX, ret+24(FP)
	RET
