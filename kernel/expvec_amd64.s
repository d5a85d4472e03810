#include "textflag.h"

// func expDivAVX512(x *float64, n int, den float64, c *[expVecConsts]float64)
//
// x[i] = exp(x[i]/den) for i < n, n a multiple of 8, eight lanes at a time:
// k = round(x·log2 e), r = x − k·ln2 (two FMAs, Cody–Waite), the degree-13
// Taylor polynomial of e^r by Horner's rule, then VSCALEFPD multiplies by
// 2^k (saturating to 0 or +Inf). c holds log2 e, ln2 (high, low), the clamps
// of the argument and the coefficients 1/13!, …, 1/1!, 1/0!.
TEXT ·expDivAVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ c+24(FP), DX
	VBROADCASTSD den+16(FP), Z16
	VBROADCASTSD 0(DX), Z17
	VBROADCASTSD 8(DX), Z12
	VBROADCASTSD 16(DX), Z13
	VBROADCASTSD 24(DX), Z14
	VBROADCASTSD 32(DX), Z15
	VBROADCASTSD 40(DX), Z18
	VBROADCASTSD 48(DX), Z19
	VBROADCASTSD 56(DX), Z20
	VBROADCASTSD 64(DX), Z21
	VBROADCASTSD 72(DX), Z22
	VBROADCASTSD 80(DX), Z23
	VBROADCASTSD 88(DX), Z24
	VBROADCASTSD 96(DX), Z25
	VBROADCASTSD 104(DX), Z26
	VBROADCASTSD 112(DX), Z27
	VBROADCASTSD 120(DX), Z28
	VBROADCASTSD 128(DX), Z29
	VBROADCASTSD 136(DX), Z30
	VBROADCASTSD 144(DX), Z31

expDivAVX512_loop:
	CMPQ CX, $8
	JL   expDivAVX512_done
	VMOVUPD (SI), Z0
	VDIVPD  Z16, Z0, Z0
	VMAXPD  Z0, Z14, Z0 // a NaN argument is kept
	VMINPD  Z0, Z15, Z0
	VMULPD  Z17, Z0, Z1
	VRNDSCALEPD $0, Z1, Z1 // k = round to nearest even
	VMOVAPD Z0, Z2
	VFNMADD231PD Z12, Z1, Z2 // r = x − k·ln2hi
	VFNMADD231PD Z13, Z1, Z2 // r −= k·ln2lo
	VMOVAPD Z18, Z3
	VFMADD213PD Z19, Z2, Z3
	VFMADD213PD Z20, Z2, Z3
	VFMADD213PD Z21, Z2, Z3
	VFMADD213PD Z22, Z2, Z3
	VFMADD213PD Z23, Z2, Z3
	VFMADD213PD Z24, Z2, Z3
	VFMADD213PD Z25, Z2, Z3
	VFMADD213PD Z26, Z2, Z3
	VFMADD213PD Z27, Z2, Z3
	VFMADD213PD Z28, Z2, Z3
	VFMADD213PD Z29, Z2, Z3
	VFMADD213PD Z30, Z2, Z3
	VFMADD213PD Z31, Z2, Z3
	VSCALEFPD Z1, Z3, Z3 // p·2^k
	VMOVUPD Z3, (SI)
	ADDQ $64, SI
	SUBQ $8, CX
	JMP  expDivAVX512_loop

expDivAVX512_done:
	VZEROUPPER
	RET

// func sqDistsAVX512(out, cn *float64, n int, xn, cancel float64) int
//
// out[j] = (xn + cn[j]) − 2·out[j] for j < n, n a multiple of 8, eight lanes
// at a time, as the scalar loop of Matrix.finish rounds it; it stops before
// the first group of eight in which some d² < cancel·(xn + cn[j]) (left
// unchanged, for the caller's direct distances) and returns the number of
// entries done.
TEXT ·sqDistsAVX512(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), SI
	MOVQ cn+8(FP), DI
	MOVQ n+16(FP), CX
	VBROADCASTSD xn+24(FP), Z1
	VBROADCASTSD cancel+32(FP), Z2
	XORQ AX, AX

sqDistsAVX512_loop:
	CMPQ AX, CX
	JGE  sqDistsAVX512_done
	VMOVUPD (SI)(AX*8), Z3
	VADDPD  (DI)(AX*8), Z1, Z4 // s = xn + cn[j]
	VADDPD  Z3, Z3, Z5         // 2v, exact
	VSUBPD  Z5, Z4, Z6         // d² = s − 2v
	VMULPD  Z2, Z4, Z7         // cancel·s
	VCMPPD  $0x11, Z7, Z6, K1  // d² < cancel·s (ordered, quiet)
	KORTESTW K1, K1
	JNZ     sqDistsAVX512_done
	VMOVUPD Z6, (SI)(AX*8)
	ADDQ    $8, AX
	JMP     sqDistsAVX512_loop

sqDistsAVX512_done:
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET
