#include "textflag.h"

// LOADROW loads the next row's p, r and x (masked by K1) into P, R, X.
#define LOADROW(P, R, X) \
	VMOVUPD.Z (SI)(R12*1), K1, P \
	VMOVUPD.Z (DX)(R12*1), K1, R \
	VMOVUPD.Z (DI)(R8*1), K1, X

// STEPROW steps the row in P, R, X and stores it: x_ij += alpha_j·(u_i·p_ij),
// f = float32(on_j·(t_i·r_ij + beta_j·p_ij)), p_ij = float64(f), p32_ij = f;
// then moves to the next row.
#define STEPROW(P, R, X) \
	VBROADCASTSD (R9), Z0 \
	VBROADCASTSD (R10), Z1 \
	VMULPD    P, Z1, Z5 \
	VMULPD    Z5, Z10, Z5 \
	VADDPD    Z5, X, X \
	VMOVUPD   X, K1, (DI) \
	VMULPD    R, Z0, Z6 \
	VMULPD    P, Z11, Z7 \
	VADDPD    Z7, Z6, Z6 \
	VMULPD    Z6, Z12, Z6 \
	VCVTPD2PS Z6, Y6 \
	VCVTPS2PD Y6, Z7 \
	VMOVUPD   Z7, K1, (SI) \
	VMOVUPS   Y6, K1, (R11) \
	ADDQ R12, SI \
	ADDQ R12, DX \
	ADDQ R8, DI \
	ADDQ $32, R11 \
	ADDQ $8, R9 \
	ADDQ $8, R10

// func stepRows32AVX512(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, w, n int)
//
// stepRows32W<w> of rows_gen.go for n ≥ 1 rows of 5 ≤ w ≤ 8 columns, one
// row per masked vector (lanes j < w), operation by operation. The next
// row is loaded before the row's stores: a row's masked 64-byte store
// spans the next row of p and r, and loading that row after the store
// stalled the kernel (10 ns a row against the Go kernels' 6, 4 Dec); two
// rows on (at least 80 bytes) no store overlaps.
TEXT ·stepRows32AVX512(SB), NOSPLIT, $0-96
	MOVQ x+0(FP), DI
	MOVQ xbytes+8(FP), R8
	MOVQ p+16(FP), SI
	MOVQ r+24(FP), DX
	MOVQ t+32(FP), R9
	MOVQ u+40(FP), R10
	MOVQ alpha+48(FP), AX
	MOVQ beta+56(FP), BX
	MOVQ w+80(FP), CX
	MOVQ $1, R14
	SHLQ CX, R14
	DECQ R14
	KMOVW R14, K1 // lanes j < w
	MOVQ on+64(FP), CX
	VMOVUPD.Z (AX), K1, Z10 // alpha
	VMOVUPD.Z (BX), K1, Z11 // beta
	VMOVUPD.Z (CX), K1, Z12 // on
	MOVQ p32+72(FP), R11
	MOVQ w+80(FP), R12
	MOVQ n+88(FP), R13
	SHLQ $3, R12 // row bytes of p and r

	VMOVUPD.Z (SI), K1, Z2
	VMOVUPD.Z (DX), K1, Z3
	VMOVUPD.Z (DI), K1, Z4

loop:
	DECQ R13
	JZ   lastA
	LOADROW(Z13, Z14, Z15)
	STEPROW(Z2, Z3, Z4)
	DECQ R13
	JZ   lastB
	LOADROW(Z2, Z3, Z4)
	STEPROW(Z13, Z14, Z15)
	JMP  loop

lastA:
	STEPROW(Z2, Z3, Z4)
	VZEROUPPER
	RET

lastB:
	STEPROW(Z13, Z14, Z15)
	VZEROUPPER
	RET
