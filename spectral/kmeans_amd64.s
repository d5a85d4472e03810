#include "textflag.h"

// The k-means distance kernels (kmeans_amd64.go). Every squared distance is
// Σ_j (a_j − b_j)² summed over j in order, each product rounded before it is
// added (VMULPD then VADDPD, no FMA), from 0: bitwise sqDist's.

// DIST8 adds coordinate j of eight points to their squared distances to
// another: the other's coordinate at (point) broadcast in Y0, the eight
// points' at (rows) in Y1–Y2, the sums in Y3–Y4.
#define DIST8(point, rows) \
	VBROADCASTSD (point), Y0; \
	VMOVUPD      (rows), Y1; \
	VMOVUPD      32(rows), Y2; \
	VSUBPD       Y0, Y1, Y1; \
	VSUBPD       Y0, Y2, Y2; \
	VMULPD       Y1, Y1, Y1; \
	VMULPD       Y2, Y2, Y2; \
	VADDPD       Y1, Y3, Y3; \
	VADDPD       Y2, Y4, Y4

// func scanBlockAVX2(d int, xi, p *float64) (c int, best, second float64)
//
// The nearest of the scanBlock = 8 centres packed coordinate-major at p
// (p[8j+r] is coordinate j of centre r) to row xi: xi[j] broadcast in Y0,
// the centres' coordinates in Y1–Y2, the squared distances in Y3–Y4. NaN
// distances (the padding) count as +Inf. c is the first lane of the
// smallest distance best, second the smallest of the other lanes: what
// offering the lanes in order does.
TEXT ·scanBlockAVX2(SB), NOSPLIT, $0-48
	MOVQ   d+0(FP), CX
	MOVQ   xi+8(FP), SI
	MOVQ   p+16(FP), DI
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4

scanloop:
	TESTQ        CX, CX
	JE           scanmin
	DIST8(SI, DI)
	ADDQ         $8, SI
	ADDQ         $64, DI
	DECQ         CX
	JMP          scanloop

scanmin:
	MOVQ         $0x7FF0000000000000, AX
	VMOVQ        AX, X12
	VBROADCASTSD X12, Y12                // +Inf
	VCMPPD       $3, Y3, Y3, Y13         // unordered: NaN
	VBLENDVPD    Y13, Y12, Y3, Y3
	VCMPPD       $3, Y4, Y4, Y13
	VBLENDVPD    Y13, Y12, Y4, Y4
	VMINPD       Y4, Y3, Y5
	VEXTRACTF128 $1, Y5, X6
	VMINPD       X6, X5, X5
	VPERMILPD    $1, X5, X6
	VMINPD       X6, X5, X5              // best in lane 0
	VBROADCASTSD X5, Y7
	VCMPPD       $0, Y7, Y3, Y8          // lanes equal to best
	VCMPPD       $0, Y7, Y4, Y9
	VMOVMSKPD    Y8, AX
	VMOVMSKPD    Y9, BX
	SHLQ         $4, BX
	ORQ          BX, AX
	BSFQ         AX, CX                  // the first of them
	MOVQ         CX, c+24(FP)
	VMOVSD       X5, best+32(FP)
	LEAQ         -1(AX), DX
	TESTQ        DX, AX
	JNE          scantie                 // two lanes or more hold best
	VBLENDVPD    Y8, Y12, Y3, Y3         // the others' smallest
	VBLENDVPD    Y9, Y12, Y4, Y4
	VMINPD       Y4, Y3, Y5
	VEXTRACTF128 $1, Y5, X6
	VMINPD       X6, X5, X5
	VPERMILPD    $1, X5, X6
	VMINPD       X6, X5, X5

scantie:
	VMOVSD       X5, second+40(FP)
	VZEROUPPER
	RET

// func sqDistsAVX2(n, d int, xt *float64, ld int, c, out *float64)
//
// out[i] = Σ_j (xt[j·ld + i] − c[j])² for i < n (n a positive multiple of
// 8): eight rows per iteration, c[j] broadcast in Y0, the rows' coordinates
// in Y1–Y2, the sums in Y3–Y4.
TEXT ·sqDistsAVX2(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ d+8(FP), R8
	MOVQ xt+16(FP), SI
	MOVQ ld+24(FP), R9
	SHLQ $3, R9
	MOVQ c+32(FP), R10
	MOVQ out+40(FP), DX
	XORQ AX, AX

rowloop:
	CMPQ   AX, CX
	JGE    rowdone
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	LEAQ   (SI)(AX*8), DI
	MOVQ   R10, BX
	MOVQ   R8, R11

coordloop:
	TESTQ        R11, R11
	JE           coorddone
	DIST8(BX, DI)
	ADDQ         $8, BX
	ADDQ         R9, DI
	DECQ         R11
	JMP          coordloop

coorddone:
	VMOVUPD Y3, (DX)(AX*8)
	VMOVUPD Y4, 32(DX)(AX*8)
	ADDQ    $8, AX
	JMP     rowloop

rowdone:
	VZEROUPPER
	RET

// func sumRowsAVX2(n int, x *float64, stride int, labels *int, acc *float64, counts *int)
//
// Adds row i of x (its first 8 entries, at x + i·stride) to row labels[i]
// of acc (8 entries a row) and counts it, in the order of the rows: the
// entries of a cluster's sum are added as one at a time would.
TEXT ·sumRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	MOVQ labels+24(FP), DI
	MOVQ acc+32(FP), DX
	MOVQ counts+40(FP), R9

sumloop:
	TESTQ   CX, CX
	JE      sumdone
	MOVQ    (DI), AX
	INCQ    (R9)(AX*8)
	SHLQ    $6, AX
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	VADDPD  (DX)(AX*1), Y0, Y0
	VADDPD  32(DX)(AX*1), Y1, Y1
	VMOVUPD Y0, (DX)(AX*1)
	VMOVUPD Y1, 32(DX)(AX*1)
	ADDQ    R8, SI
	ADDQ    $8, DI
	DECQ    CX
	JMP     sumloop

sumdone:
	VZEROUPPER
	RET
