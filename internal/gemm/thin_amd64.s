#include "textflag.h"

// func dot4AVX2(n int, v0, v1, v2, v3, w, acc *float64)
//
// Eight elements per iteration: w in Y0–Y1, two accumulators per column
// (Y2–Y5 for the first four elements, Y6–Y9 for the next four), added at
// the end and stored as four lanes per column in acc[0:16].
TEXT ·dot4AVX2(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ v0+8(FP), R8
	MOVQ v1+16(FP), R9
	MOVQ v2+24(FP), R10
	MOVQ v3+32(FP), R11
	MOVQ w+40(FP), SI
	MOVQ acc+48(FP), DX
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	XORQ   AX, AX

dotloop:
	CMPQ        AX, CX
	JGE         dotdone
	VMOVUPD     (SI)(AX*8), Y0
	VMOVUPD     32(SI)(AX*8), Y1
	VFMADD231PD (R8)(AX*8), Y0, Y2
	VFMADD231PD 32(R8)(AX*8), Y1, Y6
	VFMADD231PD (R9)(AX*8), Y0, Y3
	VFMADD231PD 32(R9)(AX*8), Y1, Y7
	VFMADD231PD (R10)(AX*8), Y0, Y4
	VFMADD231PD 32(R10)(AX*8), Y1, Y8
	VFMADD231PD (R11)(AX*8), Y0, Y5
	VFMADD231PD 32(R11)(AX*8), Y1, Y9
	ADDQ        $8, AX
	JMP         dotloop

dotdone:
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	VADDPD  Y8, Y4, Y4
	VADDPD  Y9, Y5, Y5
	VMOVUPD Y2, (DX)
	VMOVUPD Y3, 32(DX)
	VMOVUPD Y4, 64(DX)
	VMOVUPD Y5, 96(DX)
	VZEROUPPER
	RET

// func subMul4AVX2(n int, v0, v1, v2, v3, w *float64, c *[4]float64)
//
// Eight elements per iteration: w in Y0–Y1, (c0·v0 + c1·v1) in Y2–Y3,
// (c2·v2 + c3·v3) in Y4–Y5, the broadcast coefficients in Y10–Y13.
TEXT ·subMul4AVX2(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         v0+8(FP), R8
	MOVQ         v1+16(FP), R9
	MOVQ         v2+24(FP), R10
	MOVQ         v3+32(FP), R11
	MOVQ         w+40(FP), SI
	MOVQ         c+48(FP), DX
	VBROADCASTSD (DX), Y10
	VBROADCASTSD 8(DX), Y11
	VBROADCASTSD 16(DX), Y12
	VBROADCASTSD 24(DX), Y13
	XORQ         AX, AX

subloop:
	CMPQ        AX, CX
	JGE         subdone
	VMULPD      (R8)(AX*8), Y10, Y2
	VMULPD      32(R8)(AX*8), Y10, Y3
	VMULPD      (R10)(AX*8), Y12, Y4
	VMULPD      32(R10)(AX*8), Y12, Y5
	VFMADD231PD (R9)(AX*8), Y11, Y2
	VFMADD231PD 32(R9)(AX*8), Y11, Y3
	VFMADD231PD (R11)(AX*8), Y13, Y4
	VFMADD231PD 32(R11)(AX*8), Y13, Y5
	VMOVUPD     (SI)(AX*8), Y0
	VMOVUPD     32(SI)(AX*8), Y1
	VADDPD      Y4, Y2, Y2
	VADDPD      Y5, Y3, Y3
	VSUBPD      Y2, Y0, Y0
	VSUBPD      Y3, Y1, Y1
	VMOVUPD     Y0, (SI)(AX*8)
	VMOVUPD     Y1, 32(SI)(AX*8)
	ADDQ        $8, AX
	JMP         subloop

subdone:
	VZEROUPPER
	RET
