#include "textflag.h"

// func sellSumsAVX2(sums, x, right, weights *float64, indices, lens *int32, off *int, chunks, mode int)
//
// For each of `chunks` SELL-4 chunks, sums[4k+r] = Σ_j w_j·r_c·x_c over the
// entries j < lens[4k+r] of slot r (chunk k's entries start at off[k], stored
// column by column), one accumulator lane per row, the terms added in row
// order — the operations of CSR.scaledRows, four rows at a time. The chunk's
// loop runs to lens[4k] (its longest row); lanes past their row's length are
// masked off in the gathers, which then leave the +0 they were cleared to,
// and adding +0 never changes an accumulator (it cannot hold −0: it starts at
// +0 and x + y is −0 only when both are). Multiplies and adds are separate
// instructions, as the Go compiler emits them (no FMA), so the sums are
// bitwise those of the portable kernel.
//
// mode 0: x_c; 1: w_j·x_c; 2: r_c·x_c; 3: (w_j·r_c)·x_c.
//
// Y0 accumulators, Y1 row lengths, Y2 step j (4×int64), Y3/Y8 gather masks,
// X4 four column indices, Y5 gathered x, Y6 weights, Y9 gathered r, Y14 ones.
TEXT ·sellSumsAVX2(SB), NOSPLIT, $0-72
	MOVQ sums+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ right+16(FP), R8
	MOVQ weights+24(FP), R9
	MOVQ indices+32(FP), R10
	MOVQ lens+40(FP), R11
	MOVQ off+48(FP), R12
	MOVQ chunks+56(FP), CX
	MOVQ mode+64(FP), BX
	MOVQ $1, AX
	VMOVQ AX, X14
	VPBROADCASTQ X14, Y14
	TESTQ CX, CX
	JZ   done

chunk:
	MOVQ      (R12), AX
	LEAQ      (R10)(AX*4), R13
	LEAQ      (R9)(AX*8), R14
	MOVLQSX   (R11), DX
	VPMOVSXDQ (R11), Y1
	VPXOR     Y2, Y2, Y2
	VXORPD    Y0, Y0, Y0
	TESTQ     DX, DX
	JZ        store
	CMPQ      BX, $1
	JEQ       weighted
	CMPQ      BX, $2
	JEQ       unitright
	CMPQ      BX, $3
	JEQ       weightedright

unit:
	VPCMPGTQ   Y2, Y1, Y3
	VMOVDQU    (R13), X4
	VXORPD     Y5, Y5, Y5
	VGATHERDPD Y3, (DI)(X4*8), Y5
	VADDPD     Y5, Y0, Y0
	VPADDQ     Y14, Y2, Y2
	ADDQ       $16, R13
	DECQ       DX
	JNZ        unit
	JMP        store

weighted:
	VPCMPGTQ   Y2, Y1, Y3
	VMOVDQU    (R13), X4
	VXORPD     Y5, Y5, Y5
	VGATHERDPD Y3, (DI)(X4*8), Y5
	VMOVUPD    (R14), Y6
	VMULPD     Y5, Y6, Y7
	VADDPD     Y7, Y0, Y0
	VPADDQ     Y14, Y2, Y2
	ADDQ       $16, R13
	ADDQ       $32, R14
	DECQ       DX
	JNZ        weighted
	JMP        store

unitright:
	VPCMPGTQ   Y2, Y1, Y3
	VMOVDQA    Y3, Y8
	VMOVDQU    (R13), X4
	VXORPD     Y5, Y5, Y5
	VXORPD     Y9, Y9, Y9
	VGATHERDPD Y3, (DI)(X4*8), Y5
	VGATHERDPD Y8, (R8)(X4*8), Y9
	VMULPD     Y5, Y9, Y7
	VADDPD     Y7, Y0, Y0
	VPADDQ     Y14, Y2, Y2
	ADDQ       $16, R13
	DECQ       DX
	JNZ        unitright
	JMP        store

weightedright:
	VPCMPGTQ   Y2, Y1, Y3
	VMOVDQA    Y3, Y8
	VMOVDQU    (R13), X4
	VXORPD     Y5, Y5, Y5
	VXORPD     Y9, Y9, Y9
	VGATHERDPD Y3, (DI)(X4*8), Y5
	VGATHERDPD Y8, (R8)(X4*8), Y9
	VMOVUPD    (R14), Y6
	VMULPD     Y9, Y6, Y7
	VMULPD     Y5, Y7, Y7
	VADDPD     Y7, Y0, Y0
	VPADDQ     Y14, Y2, Y2
	ADDQ       $16, R13
	ADDQ       $32, R14
	DECQ       DX
	JNZ        weightedright

store:
	VMOVUPD Y0, (SI)
	ADDQ    $32, SI
	ADDQ    $8, R12
	ADDQ    $16, R11
	DECQ    CX
	JNZ     chunk

done:
	VZEROUPPER
	RET
