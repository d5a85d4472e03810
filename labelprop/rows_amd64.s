#include "textflag.h"

// The row passes for rows of 5 to 8 columns with AVX2: lanes = columns, the
// first 4 columns in a 256-bit vector, the others in a 256-bit, 128-bit or
// scalar one (columns 4–7: Y, 4–5: X, 4: or 6: scalar), so that every
// load and store covers exactly the row's entries. Each entry takes the
// generated Go kernel's IEEE operations (rows_gen.go) in the same order (no
// FMA): the results are bitwise the same.
//
// AVX-512 kernels with one masked 8-lane vector a row were 2.4 times faster
// than the Go in a micro-benchmark but made the command's steps slower
// (0.41 ms against 0.33, 4 Dec); these take 0.22 ms.

// STEP4, STEP2 and STEP1 step the row's 4, 2 or 1 entries at byte offset
// off of p, r and x (float32 offset poff of p32), with alpha, beta and on
// in AL, BE, OF and t_i, u_i broadcast in Y0, Y1:
//	x_ij += alpha_j·(u_i·p_ij)
//	f := float32(on_j·(t_i·r_ij + beta_j·p_ij)); p_ij = float64(f); p32_ij = f
#define STEP4(off, poff, AL, BE, OF) \
	VMOVUPD    off(SI), Y2 \
	VMULPD     Y2, Y1, Y3 \
	VMULPD     Y3, AL, Y3 \
	VADDPD     off(DI), Y3, Y3 \
	VMOVUPD    Y3, off(DI) \
	VMULPD     off(DX), Y0, Y3 \
	VMULPD     Y2, BE, Y4 \
	VADDPD     Y4, Y3, Y3 \
	VMULPD     Y3, OF, Y3 \
	VCVTPD2PSY Y3, X3 \
	VCVTPS2PD  X3, Y4 \
	VMOVUPD    Y4, off(SI) \
	VMOVUPS    X3, poff(R11)

#define STEP2(off, poff, AL, BE, OF) \
	VMOVUPD    off(SI), X2 \
	VMULPD     X2, X1, X3 \
	VMULPD     X3, AL, X3 \
	VADDPD     off(DI), X3, X3 \
	VMOVUPD    X3, off(DI) \
	VMULPD     off(DX), X0, X3 \
	VMULPD     X2, BE, X4 \
	VADDPD     X4, X3, X3 \
	VMULPD     X3, OF, X3 \
	VCVTPD2PSX X3, X3 \
	VCVTPS2PD  X3, X4 \
	VMOVUPD    X4, off(SI) \
	VMOVSD     X3, poff(R11)

#define STEP1(off, poff, AL, BE, OF) \
	VMOVSD    off(SI), X2 \
	VMULSD    X2, X1, X3 \
	VMULSD    X3, AL, X3 \
	VADDSD    off(DI), X3, X3 \
	VMOVSD    X3, off(DI) \
	VMULSD    off(DX), X0, X3 \
	VMULSD    X2, BE, X4 \
	VADDSD    X4, X3, X3 \
	VMULSD    X3, OF, X3 \
	VCVTSD2SS X3, X3, X3 \
	VCVTSS2SD X3, X3, X4 \
	VMOVSD    X4, off(SI) \
	VMOVSS    X3, poff(R11)

// STEPARGS loads the arguments of stepRows32W<w>AVX2 and the coefficients
// of columns 0–3.
#define STEPARGS \
	MOVQ    x+0(FP), DI \
	MOVQ    xbytes+8(FP), R8 \
	MOVQ    p+16(FP), SI \
	MOVQ    r+24(FP), DX \
	MOVQ    t+32(FP), R9 \
	MOVQ    u+40(FP), R10 \
	MOVQ    alpha+48(FP), AX \
	MOVQ    beta+56(FP), BX \
	MOVQ    on+64(FP), CX \
	MOVQ    p32+72(FP), R11 \
	MOVQ    n+80(FP), R13 \
	VMOVUPD (AX), Y10 \
	VMOVUPD (BX), Y12 \
	VMOVUPD (CX), Y14

// STEPNEXT moves to the next row (rb bytes of p and r).
#define STEPNEXT(rb) \
	ADDQ $rb, SI \
	ADDQ $rb, DX \
	ADDQ R8, DI \
	ADDQ $32, R11 \
	ADDQ $8, R9 \
	ADDQ $8, R10

#define BCAST \
	VBROADCASTSD (R9), Y0 \
	VBROADCASTSD (R10), Y1

// FINQ4, FINQ2 and FINQ1 set the row's 4, 2 or 1 entries at byte offset
// off of q to diag_i·p_ij + left_i·s_ij (s's rows of 8 have the entry at
// the same offset), diag_i and left_i broadcast in Y0 and Y1, leaving p_ij
// in Y2 and q_ij in Y3.
#define FINQ4(off) \
	VMOVUPD off(SI), Y2 \
	VMULPD  Y2, Y0, Y3 \
	VMULPD  off(DX), Y1, Y4 \
	VADDPD  Y4, Y3, Y3 \
	VMOVUPD Y3, off(DI)

#define FINQ2(off) \
	VMOVUPD off(SI), X2 \
	VMULPD  X2, X0, X3 \
	VMULPD  off(DX), X1, X4 \
	VADDPD  X4, X3, X3 \
	VMOVUPD X3, off(DI)

#define FINQ1(off) \
	VMOVSD off(SI), X2 \
	VMULSD X2, X0, X3 \
	VMULSD off(DX), X1, X4 \
	VADDSD X4, X3, X3 \
	VMOVSD X3, off(DI)

// FINS4, FINS2 and FINS1 are FINQ adding (u_i·p_ij)·q_ij to the sums in
// S, u_i broadcast in Y5.
#define FINS4(off, S) \
	FINQ4(off) \
	VMULPD Y2, Y5, Y4 \
	VMULPD Y3, Y4, Y4 \
	VADDPD Y4, S, S

#define FINS2(off, S) \
	FINQ2(off) \
	VMULPD X2, X5, X4 \
	VMULPD X3, X4, X4 \
	VADDPD X4, S, S

#define FINS1(off, S) \
	FINQ1(off) \
	VMULSD X2, X5, X4 \
	VMULSD X3, X4, X4 \
	VADDSD X4, S, S

// DEF4, DEF2 and DEF1 add d_i·p_ij to the sums in Z, d_i broadcast in Y0.
#define DEF4(off, Z) \
	VMULPD off(SI), Y0, Y4 \
	VADDPD Y4, Z, Z

#define DEF2(off, Z) \
	VMULPD off(SI), X0, X4 \
	VADDPD X4, Z, Z

#define DEF1(off, Z) \
	VMULSD off(SI), X0, X4 \
	VADDSD X4, Z, Z

// FINARGS loads the arguments of finish32W<w>AVX2 but d.
#define FINARGS \
	MOVQ acc+0(FP), AX \
	MOVQ accD+8(FP), BX \
	MOVQ q+16(FP), DI \
	MOVQ p+24(FP), SI \
	MOVQ s+32(FP), DX \
	MOVQ diag+40(FP), R9 \
	MOVQ left+48(FP), R10 \
	MOVQ u+56(FP), R11 \
	MOVQ n+72(FP), R13

#define FINBCAST \
	VBROADCASTSD (R9), Y0 \
	VBROADCASTSD (R10), Y1

// FINNEXT moves to the next row (rb bytes of p and q).
#define FINNEXT(rb) \
	ADDQ $rb, SI \
	ADDQ $rb, DI \
	ADDQ $64, DX \
	ADDQ $8, R9 \
	ADDQ $8, R10


// UPD4, UPD2 and UPD1 set the row's 4, 2 or 1 entries at byte offset off
// of r to v_ij = r_ij − alpha_j·q_ij and add v_ij·v_ij to the sums in S,
// leaving v_ij in Y3; UPDD4, UPDD2 and UPDD1 also add e_i·v_ij to the sums
// in Z, e_i = d_i·t_i broadcast in Y5.
#define UPD4(off, AL, S) \
	VMULPD  off(DX), AL, Y2 \
	VMOVUPD off(SI), Y3 \
	VSUBPD  Y2, Y3, Y3 \
	VMOVUPD Y3, off(SI) \
	VMULPD  Y3, Y3, Y4 \
	VADDPD  Y4, S, S

#define UPD2(off, AL, S) \
	VMULPD  off(DX), AL, X2 \
	VMOVUPD off(SI), X3 \
	VSUBPD  X2, X3, X3 \
	VMOVUPD X3, off(SI) \
	VMULPD  X3, X3, X4 \
	VADDPD  X4, S, S

#define UPD1(off, AL, S) \
	VMULSD off(DX), AL, X2 \
	VMOVSD off(SI), X3 \
	VSUBSD X2, X3, X3 \
	VMOVSD X3, off(SI) \
	VMULSD X3, X3, X4 \
	VADDSD X4, S, S

#define UPDD4(off, AL, S, Z) \
	UPD4(off, AL, S) \
	VMULPD Y3, Y5, Y4 \
	VADDPD Y4, Z, Z

#define UPDD2(off, AL, S, Z) \
	UPD2(off, AL, S) \
	VMULPD X3, X5, X4 \
	VADDPD X4, Z, Z

#define UPDD1(off, AL, S, Z) \
	UPD1(off, AL, S) \
	VMULSD X3, X5, X4 \
	VADDSD X4, Z, Z

// func stepRows32W5AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)
TEXT ·stepRows32W5AVX2(SB), NOSPLIT, $0-88
	STEPARGS
	VMOVSD 32(AX), X11
	VMOVSD 32(BX), X13
	VMOVSD 32(CX), X15

loop:
	BCAST
	STEP4(0, 0, Y10, Y12, Y14)
	STEP1(32, 16, X11, X13, X15)
	STEPNEXT(40)
	DECQ R13
	JNZ  loop
	VZEROUPPER
	RET

// func stepRows32W6AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)
TEXT ·stepRows32W6AVX2(SB), NOSPLIT, $0-88
	STEPARGS
	VMOVUPD 32(AX), X11
	VMOVUPD 32(BX), X13
	VMOVUPD 32(CX), X15

loop:
	BCAST
	STEP4(0, 0, Y10, Y12, Y14)
	STEP2(32, 16, X11, X13, X15)
	STEPNEXT(48)
	DECQ R13
	JNZ  loop
	VZEROUPPER
	RET

// func stepRows32W7AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)
TEXT ·stepRows32W7AVX2(SB), NOSPLIT, $0-88
	STEPARGS
	VMOVUPD 32(AX), X11
	VMOVUPD 32(BX), X13
	VMOVUPD 32(CX), X15
	VMOVSD  48(AX), X7
	VMOVSD  48(BX), X8
	VMOVSD  48(CX), X9

loop:
	BCAST
	STEP4(0, 0, Y10, Y12, Y14)
	STEP2(32, 16, X11, X13, X15)
	STEP1(48, 24, X7, X8, X9)
	STEPNEXT(56)
	DECQ R13
	JNZ  loop
	VZEROUPPER
	RET

// func stepRows32W8AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)
TEXT ·stepRows32W8AVX2(SB), NOSPLIT, $0-88
	STEPARGS
	VMOVUPD 32(AX), Y11
	VMOVUPD 32(BX), Y13
	VMOVUPD 32(CX), Y15

loop:
	BCAST
	STEP4(0, 0, Y10, Y12, Y14)
	STEP4(32, 16, Y11, Y13, Y15)
	STEPNEXT(64)
	DECQ R13
	JNZ  loop
	VZEROUPPER
	RET

// func finish32W5AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)
TEXT ·finish32W5AVX2(SB), NOSPLIT, $0-80
	FINARGS
	TESTQ AX, AX
	JNZ   sums

loopq:
	FINBCAST
	FINQ4(0)
	FINQ1(32)
	FINNEXT(40)
	DECQ R13
	JNZ  loopq
	VZEROUPPER
	RET

sums:
	VMOVUPD 0(AX), Y8
	VMOVSD 32(AX), X9

loops:
	FINBCAST
	VBROADCASTSD (R11), Y5
	FINS4(0, Y8)
	FINS1(32, X9)
	FINNEXT(40)
	ADDQ $8, R11
	DECQ R13
	JNZ  loops
	VMOVUPD Y8, 0(AX)
	VMOVSD X9, 32(AX)
	MOVQ d+64(FP), R14
	TESTQ R14, R14
	JZ   done
	MOVQ p+24(FP), SI
	MOVQ n+72(FP), R13
	VMOVUPD 0(BX), Y11
	VMOVSD 32(BX), X12

loopd:
	VBROADCASTSD (R14), Y0
	DEF4(0, Y11)
	DEF1(32, X12)
	ADDQ $40, SI
	ADDQ $8, R14
	DECQ R13
	JNZ  loopd
	VMOVUPD Y11, 0(BX)
	VMOVSD X12, 32(BX)

done:
	VZEROUPPER
	RET

// func finish32W6AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)
TEXT ·finish32W6AVX2(SB), NOSPLIT, $0-80
	FINARGS
	TESTQ AX, AX
	JNZ   sums

loopq:
	FINBCAST
	FINQ4(0)
	FINQ2(32)
	FINNEXT(48)
	DECQ R13
	JNZ  loopq
	VZEROUPPER
	RET

sums:
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), X9

loops:
	FINBCAST
	VBROADCASTSD (R11), Y5
	FINS4(0, Y8)
	FINS2(32, X9)
	FINNEXT(48)
	ADDQ $8, R11
	DECQ R13
	JNZ  loops
	VMOVUPD Y8, 0(AX)
	VMOVUPD X9, 32(AX)
	MOVQ d+64(FP), R14
	TESTQ R14, R14
	JZ   done
	MOVQ p+24(FP), SI
	MOVQ n+72(FP), R13
	VMOVUPD 0(BX), Y11
	VMOVUPD 32(BX), X12

loopd:
	VBROADCASTSD (R14), Y0
	DEF4(0, Y11)
	DEF2(32, X12)
	ADDQ $48, SI
	ADDQ $8, R14
	DECQ R13
	JNZ  loopd
	VMOVUPD Y11, 0(BX)
	VMOVUPD X12, 32(BX)

done:
	VZEROUPPER
	RET

// func finish32W7AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)
TEXT ·finish32W7AVX2(SB), NOSPLIT, $0-80
	FINARGS
	TESTQ AX, AX
	JNZ   sums

loopq:
	FINBCAST
	FINQ4(0)
	FINQ2(32)
	FINQ1(48)
	FINNEXT(56)
	DECQ R13
	JNZ  loopq
	VZEROUPPER
	RET

sums:
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), X9
	VMOVSD 48(AX), X10

loops:
	FINBCAST
	VBROADCASTSD (R11), Y5
	FINS4(0, Y8)
	FINS2(32, X9)
	FINS1(48, X10)
	FINNEXT(56)
	ADDQ $8, R11
	DECQ R13
	JNZ  loops
	VMOVUPD Y8, 0(AX)
	VMOVUPD X9, 32(AX)
	VMOVSD X10, 48(AX)
	MOVQ d+64(FP), R14
	TESTQ R14, R14
	JZ   done
	MOVQ p+24(FP), SI
	MOVQ n+72(FP), R13
	VMOVUPD 0(BX), Y11
	VMOVUPD 32(BX), X12
	VMOVSD 48(BX), X13

loopd:
	VBROADCASTSD (R14), Y0
	DEF4(0, Y11)
	DEF2(32, X12)
	DEF1(48, X13)
	ADDQ $56, SI
	ADDQ $8, R14
	DECQ R13
	JNZ  loopd
	VMOVUPD Y11, 0(BX)
	VMOVUPD X12, 32(BX)
	VMOVSD X13, 48(BX)

done:
	VZEROUPPER
	RET

// func finish32W8AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)
TEXT ·finish32W8AVX2(SB), NOSPLIT, $0-80
	FINARGS
	TESTQ AX, AX
	JNZ   sums

loopq:
	FINBCAST
	FINQ4(0)
	FINQ4(32)
	FINNEXT(64)
	DECQ R13
	JNZ  loopq
	VZEROUPPER
	RET

sums:
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9

loops:
	FINBCAST
	VBROADCASTSD (R11), Y5
	FINS4(0, Y8)
	FINS4(32, Y9)
	FINNEXT(64)
	ADDQ $8, R11
	DECQ R13
	JNZ  loops
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	MOVQ d+64(FP), R14
	TESTQ R14, R14
	JZ   done
	MOVQ p+24(FP), SI
	MOVQ n+72(FP), R13
	VMOVUPD 0(BX), Y11
	VMOVUPD 32(BX), Y12

loopd:
	VBROADCASTSD (R14), Y0
	DEF4(0, Y11)
	DEF4(32, Y12)
	ADDQ $64, SI
	ADDQ $8, R14
	DECQ R13
	JNZ  loopd
	VMOVUPD Y11, 0(BX)
	VMOVUPD Y12, 32(BX)

done:
	VZEROUPPER
	RET

// func updateRowsW5AVX2(acc, accD, alpha, r, q, t, d *float64, n int)
TEXT ·updateRowsW5AVX2(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), AX
	MOVQ accD+8(FP), BX
	MOVQ alpha+16(FP), CX
	MOVQ r+24(FP), SI
	MOVQ q+32(FP), DX
	MOVQ t+40(FP), R10
	MOVQ d+48(FP), R9
	MOVQ n+56(FP), R13
	VMOVUPD 0(CX), Y10
	VMOVSD 32(CX), X11
	VMOVUPD 0(AX), Y8
	VMOVSD 32(AX), X9
	TESTQ R9, R9
	JNZ   defl

loop:
	UPD4(0, Y10, Y8)
	UPD1(32, X11, X9)
	ADDQ $40, SI
	ADDQ $40, DX
	DECQ R13
	JNZ  loop
	JMP  sums

defl:
	VMOVUPD 0(BX), Y12
	VMOVSD 32(BX), X13

loopd:
	VMOVSD (R9), X5
	VMULSD (R10), X5, X5 // e_i = d_i·t_i
	VBROADCASTSD X5, Y5
	UPDD4(0, Y10, Y8, Y12)
	UPDD1(32, X11, X9, X13)
	ADDQ $40, SI
	ADDQ $40, DX
	ADDQ $8, R9
	ADDQ $8, R10
	DECQ R13
	JNZ  loopd
	VMOVUPD Y12, 0(BX)
	VMOVSD X13, 32(BX)

sums:
	VMOVUPD Y8, 0(AX)
	VMOVSD X9, 32(AX)
	VZEROUPPER
	RET

// func updateRowsW6AVX2(acc, accD, alpha, r, q, t, d *float64, n int)
TEXT ·updateRowsW6AVX2(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), AX
	MOVQ accD+8(FP), BX
	MOVQ alpha+16(FP), CX
	MOVQ r+24(FP), SI
	MOVQ q+32(FP), DX
	MOVQ t+40(FP), R10
	MOVQ d+48(FP), R9
	MOVQ n+56(FP), R13
	VMOVUPD 0(CX), Y10
	VMOVUPD 32(CX), X11
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), X9
	TESTQ R9, R9
	JNZ   defl

loop:
	UPD4(0, Y10, Y8)
	UPD2(32, X11, X9)
	ADDQ $48, SI
	ADDQ $48, DX
	DECQ R13
	JNZ  loop
	JMP  sums

defl:
	VMOVUPD 0(BX), Y12
	VMOVUPD 32(BX), X13

loopd:
	VMOVSD (R9), X5
	VMULSD (R10), X5, X5 // e_i = d_i·t_i
	VBROADCASTSD X5, Y5
	UPDD4(0, Y10, Y8, Y12)
	UPDD2(32, X11, X9, X13)
	ADDQ $48, SI
	ADDQ $48, DX
	ADDQ $8, R9
	ADDQ $8, R10
	DECQ R13
	JNZ  loopd
	VMOVUPD Y12, 0(BX)
	VMOVUPD X13, 32(BX)

sums:
	VMOVUPD Y8, 0(AX)
	VMOVUPD X9, 32(AX)
	VZEROUPPER
	RET

// func updateRowsW7AVX2(acc, accD, alpha, r, q, t, d *float64, n int)
TEXT ·updateRowsW7AVX2(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), AX
	MOVQ accD+8(FP), BX
	MOVQ alpha+16(FP), CX
	MOVQ r+24(FP), SI
	MOVQ q+32(FP), DX
	MOVQ t+40(FP), R10
	MOVQ d+48(FP), R9
	MOVQ n+56(FP), R13
	VMOVUPD 0(CX), Y10
	VMOVUPD 32(CX), X11
	VMOVSD 48(CX), X7
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), X9
	VMOVSD 48(AX), X6
	TESTQ R9, R9
	JNZ   defl

loop:
	UPD4(0, Y10, Y8)
	UPD2(32, X11, X9)
	UPD1(48, X7, X6)
	ADDQ $56, SI
	ADDQ $56, DX
	DECQ R13
	JNZ  loop
	JMP  sums

defl:
	VMOVUPD 0(BX), Y12
	VMOVUPD 32(BX), X13
	VMOVSD 48(BX), X14

loopd:
	VMOVSD (R9), X5
	VMULSD (R10), X5, X5 // e_i = d_i·t_i
	VBROADCASTSD X5, Y5
	UPDD4(0, Y10, Y8, Y12)
	UPDD2(32, X11, X9, X13)
	UPDD1(48, X7, X6, X14)
	ADDQ $56, SI
	ADDQ $56, DX
	ADDQ $8, R9
	ADDQ $8, R10
	DECQ R13
	JNZ  loopd
	VMOVUPD Y12, 0(BX)
	VMOVUPD X13, 32(BX)
	VMOVSD X14, 48(BX)

sums:
	VMOVUPD Y8, 0(AX)
	VMOVUPD X9, 32(AX)
	VMOVSD X6, 48(AX)
	VZEROUPPER
	RET

// func updateRowsW8AVX2(acc, accD, alpha, r, q, t, d *float64, n int)
TEXT ·updateRowsW8AVX2(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), AX
	MOVQ accD+8(FP), BX
	MOVQ alpha+16(FP), CX
	MOVQ r+24(FP), SI
	MOVQ q+32(FP), DX
	MOVQ t+40(FP), R10
	MOVQ d+48(FP), R9
	MOVQ n+56(FP), R13
	VMOVUPD 0(CX), Y10
	VMOVUPD 32(CX), Y11
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9
	TESTQ R9, R9
	JNZ   defl

loop:
	UPD4(0, Y10, Y8)
	UPD4(32, Y11, Y9)
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ R13
	JNZ  loop
	JMP  sums

defl:
	VMOVUPD 0(BX), Y12
	VMOVUPD 32(BX), Y13

loopd:
	VMOVSD (R9), X5
	VMULSD (R10), X5, X5 // e_i = d_i·t_i
	VBROADCASTSD X5, Y5
	UPDD4(0, Y10, Y8, Y12)
	UPDD4(32, Y11, Y9, Y13)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $8, R9
	ADDQ $8, R10
	DECQ R13
	JNZ  loopd
	VMOVUPD Y12, 0(BX)
	VMOVUPD Y13, 32(BX)

sums:
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	VZEROUPPER
	RET
