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

// func dot4x2AVX2(n int, v0, v1, v2, v3, a, b, acc *float64)
//
// Four elements per iteration: a in Y0, b in Y1, each basis column loaded
// once into Y10–Y13 and multiplied into the a accumulators Y2–Y5 and the b
// accumulators Y6–Y9, stored as four lanes per column in acc[0:32].
TEXT ·dot4x2AVX2(SB), NOSPLIT, $0-64
	MOVQ   n+0(FP), CX
	MOVQ   v0+8(FP), R8
	MOVQ   v1+16(FP), R9
	MOVQ   v2+24(FP), R10
	MOVQ   v3+32(FP), R11
	MOVQ   a+40(FP), SI
	MOVQ   b+48(FP), DI
	MOVQ   acc+56(FP), DX
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	XORQ   AX, AX

dot2loop:
	CMPQ        AX, CX
	JGE         dot2done
	VMOVUPD     (SI)(AX*8), Y0
	VMOVUPD     (DI)(AX*8), Y1
	VMOVUPD     (R8)(AX*8), Y10
	VMOVUPD     (R9)(AX*8), Y11
	VMOVUPD     (R10)(AX*8), Y12
	VMOVUPD     (R11)(AX*8), Y13
	VFMADD231PD Y10, Y0, Y2
	VFMADD231PD Y10, Y1, Y6
	VFMADD231PD Y11, Y0, Y3
	VFMADD231PD Y11, Y1, Y7
	VFMADD231PD Y12, Y0, Y4
	VFMADD231PD Y12, Y1, Y8
	VFMADD231PD Y13, Y0, Y5
	VFMADD231PD Y13, Y1, Y9
	ADDQ        $4, AX
	JMP         dot2loop

dot2done:
	VMOVUPD Y2, (DX)
	VMOVUPD Y3, 32(DX)
	VMOVUPD Y4, 64(DX)
	VMOVUPD Y5, 96(DX)
	VMOVUPD Y6, 128(DX)
	VMOVUPD Y7, 160(DX)
	VMOVUPD Y8, 192(DX)
	VMOVUPD Y9, 224(DX)
	VZEROUPPER
	RET

// func subMul4x2AVX2(n int, v0, v1, v2, v3, a, b *float64, ca, cb *[4]float64)
//
// Four elements per iteration: the basis columns in Y0–Y3, (ca·v) in Y4 and
// (cb·v) in Y5, a and b in Y6–Y7, the broadcast coefficients in Y8–Y15.
TEXT ·subMul4x2AVX2(SB), NOSPLIT, $0-72
	MOVQ         n+0(FP), CX
	MOVQ         v0+8(FP), R8
	MOVQ         v1+16(FP), R9
	MOVQ         v2+24(FP), R10
	MOVQ         v3+32(FP), R11
	MOVQ         a+40(FP), SI
	MOVQ         b+48(FP), DI
	MOVQ         ca+56(FP), DX
	MOVQ         cb+64(FP), BX
	VBROADCASTSD (DX), Y8
	VBROADCASTSD 8(DX), Y9
	VBROADCASTSD 16(DX), Y10
	VBROADCASTSD 24(DX), Y11
	VBROADCASTSD (BX), Y12
	VBROADCASTSD 8(BX), Y13
	VBROADCASTSD 16(BX), Y14
	VBROADCASTSD 24(BX), Y15
	XORQ         AX, AX

sub2loop:
	CMPQ        AX, CX
	JGE         sub2done
	VMOVUPD     (R8)(AX*8), Y0
	VMOVUPD     (R9)(AX*8), Y1
	VMOVUPD     (R10)(AX*8), Y2
	VMOVUPD     (R11)(AX*8), Y3
	VMULPD      Y0, Y8, Y4
	VMULPD      Y0, Y12, Y5
	VFMADD231PD Y1, Y9, Y4
	VFMADD231PD Y1, Y13, Y5
	VFMADD231PD Y2, Y10, Y4
	VFMADD231PD Y2, Y14, Y5
	VFMADD231PD Y3, Y11, Y4
	VFMADD231PD Y3, Y15, Y5
	VMOVUPD     (SI)(AX*8), Y6
	VMOVUPD     (DI)(AX*8), Y7
	VSUBPD      Y4, Y6, Y6
	VSUBPD      Y5, Y7, Y7
	VMOVUPD     Y6, (SI)(AX*8)
	VMOVUPD     Y7, (DI)(AX*8)
	ADDQ        $4, AX
	JMP         sub2loop

sub2done:
	VZEROUPPER
	RET
