#include "textflag.h"

// func chebPassAVX2(n int, nx, lc, cc, pc, ru, rc *float64, k *[3]float64)
//
// The pass of a Chebyshev step on four entries at a time (chebPass): y =
// f·(s·(nx·lc − g·cc) − pc) with k = (s, g, f), each operation rounded in
// that order (no FMA), pc skipped when nil; nx ← y and, when rc is not nil,
// rc ← ru·y. n is a positive multiple of 4.
TEXT ·chebPassAVX2(SB), NOSPLIT, $0-64
	MOVQ         n+0(FP), CX
	MOVQ         nx+8(FP), SI
	MOVQ         lc+16(FP), R8
	MOVQ         cc+24(FP), R9
	MOVQ         pc+32(FP), R10
	MOVQ         ru+40(FP), R11
	MOVQ         rc+48(FP), R12
	MOVQ         k+56(FP), DX
	VBROADCASTSD (DX), Y13                   // s
	VBROADCASTSD 8(DX), Y14                  // g
	VBROADCASTSD 16(DX), Y15                 // f
	XORQ         AX, AX

chebloop:
	CMPQ    AX, CX
	JGE     chebdone
	VMOVUPD (SI)(AX*8), Y0
	VMULPD  (R8)(AX*8), Y0, Y0               // nx·lc
	VMULPD  (R9)(AX*8), Y14, Y1              // g·cc
	VSUBPD  Y1, Y0, Y0
	VMULPD  Y0, Y13, Y0                      // s·(…)
	TESTQ   R10, R10
	JE      chebnoprev
	VSUBPD  (R10)(AX*8), Y0, Y0              // − pc

chebnoprev:
	VMULPD  Y0, Y15, Y0                      // f·(…)
	VMOVUPD Y0, (SI)(AX*8)
	TESTQ   R12, R12
	JE      chebnext
	VMULPD  (R11)(AX*8), Y0, Y1
	VMOVUPD Y1, (R12)(AX*8)

chebnext:
	ADDQ $4, AX
	JMP  chebloop

chebdone:
	VZEROUPPER
	RET

// func scaleRXAVX2(n int, u, r, rx *float64, inv float64, scale int)
//
// Four entries at a time (scaleRX): u ← u·inv when scale is not 0, then
// rx ← r·u. n is a positive multiple of 4.
TEXT ·scaleRXAVX2(SB), NOSPLIT, $0-48
	MOVQ         n+0(FP), CX
	MOVQ         u+8(FP), SI
	MOVQ         r+16(FP), R8
	MOVQ         rx+24(FP), R9
	VBROADCASTSD inv+32(FP), Y15
	MOVQ         scale+40(FP), DX
	XORQ         AX, AX

scaleloop:
	CMPQ    AX, CX
	JGE     scaledone
	VMOVUPD (SI)(AX*8), Y0
	TESTQ   DX, DX
	JE      scalerx
	VMULPD  Y15, Y0, Y0
	VMOVUPD Y0, (SI)(AX*8)

scalerx:
	VMULPD  (R8)(AX*8), Y0, Y1
	VMOVUPD Y1, (R9)(AX*8)
	ADDQ    $4, AX
	JMP     scaleloop

scaledone:
	VZEROUPPER
	RET
