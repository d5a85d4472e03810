#include "textflag.h"

// CSR row kernels for float32 blocks of 4·G columns (G = 2, 3, 4: 8, 12 and
// 16 columns), x rows xbytes apart (16·G, or more for a padded block whose
// rows fill whole cache lines):
//
//	func csr32G…AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int,
//		indptr *int, indices *int32, lo, hi, last int)
//
// For each row i in [lo, hi), dst[(i−lo)·4G : (i−lo+1)·4G] = Σ_k w_k·x[col_k, :]
// over the row's stored entries k in order: each float32 group of four
// columns widened (VCVTPS2PD, exact), multiplied by the broadcast weight
// (VMULPD; a unit-weight graph passes a pointer to 1.0 with wstep 0, and
// 1·x = x exactly) and added (VADDPD) into one float64 accumulator per
// column: the operations of the Go kernels block32Rows…, in the same order,
// so the sums are bitwise theirs. The block row of the entry 16 ahead (32
// for G = 2) (clamped to last, the range's last entry) is prefetched
// (PREFETCHT0 of its first and last byte): the prefetch retires at once, so
// far more misses overlap than with a load. G = 2 gathers the 32-byte rows
// of labelprop's float32 copy of 5 to 8 classes: 32 entries ahead took
// 0.94 of the time of 16 for its CG product on the 1 M-edge benchmark graph
// (median ratio of 16 interleaved pairs, 2.8–3.4 ms against 2.8–4.9 ms,
// load 3.8–4.1, 4 Dec), the same at 10 M edges (ratio 1.00, 6 pairs); 48
// and 64 were no better in a noisier run (load 4–5).
//
// Registers: SI dst, DI x, DX xbytes, R14 weight pointer, R8 indptr, R11 indices,
// CX row, R12 hi, R13 last, R9 entry, R10 the row's end, AX/BX scratch;
// Y0–Y3 accumulators, Y10 weight, Y11 widened x.

// func csr32G2AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr32G2AVX2(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xbytes+16(FP), DX
	MOVQ indptr+40(FP), R8
	MOVQ indices+48(FP), R11
	MOVQ lo+56(FP), CX
	MOVQ hi+64(FP), R12
	MOVQ last+72(FP), R13
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+32(FP), AX
	MOVQ weights+24(FP), R14
	ADDQ AX, R14
csr32G2AVX2_row:
	CMPQ CX, R12
	JGE csr32G2AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	CMPQ R9, R10
	JGE csr32G2AVX2_store
csr32G2AVX2_entry:
	LEAQ 32(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 31(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VCVTPS2PD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VCVTPS2PD 16(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	ADDQ wstep+32(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr32G2AVX2_entry
csr32G2AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	ADDQ $64, SI
	INCQ CX
	JMP csr32G2AVX2_row
csr32G2AVX2_done:
	VZEROUPPER
	RET

// func csr32G3AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr32G3AVX2(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xbytes+16(FP), DX
	MOVQ indptr+40(FP), R8
	MOVQ indices+48(FP), R11
	MOVQ lo+56(FP), CX
	MOVQ hi+64(FP), R12
	MOVQ last+72(FP), R13
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+32(FP), AX
	MOVQ weights+24(FP), R14
	ADDQ AX, R14
csr32G3AVX2_row:
	CMPQ CX, R12
	JGE csr32G3AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	CMPQ R9, R10
	JGE csr32G3AVX2_store
csr32G3AVX2_entry:
	LEAQ 16(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 47(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VCVTPS2PD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VCVTPS2PD 16(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	VCVTPS2PD 32(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y2, Y2
	ADDQ wstep+32(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr32G3AVX2_entry
csr32G3AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	ADDQ $96, SI
	INCQ CX
	JMP csr32G3AVX2_row
csr32G3AVX2_done:
	VZEROUPPER
	RET

// func csr32G4AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr32G4AVX2(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xbytes+16(FP), DX
	MOVQ indptr+40(FP), R8
	MOVQ indices+48(FP), R11
	MOVQ lo+56(FP), CX
	MOVQ hi+64(FP), R12
	MOVQ last+72(FP), R13
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+32(FP), AX
	MOVQ weights+24(FP), R14
	ADDQ AX, R14
csr32G4AVX2_row:
	CMPQ CX, R12
	JGE csr32G4AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ R9, R10
	JGE csr32G4AVX2_store
csr32G4AVX2_entry:
	LEAQ 16(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 63(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VCVTPS2PD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VCVTPS2PD 16(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	VCVTPS2PD 32(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y2, Y2
	VCVTPS2PD 48(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y3, Y3
	ADDQ wstep+32(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr32G4AVX2_entry
csr32G4AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	VMOVUPD Y3, 96(SI)
	ADDQ $128, SI
	INCQ CX
	JMP csr32G4AVX2_row
csr32G4AVX2_done:
	VZEROUPPER
	RET

// CSR row kernels for float64 blocks of 4·G columns (G = 2, 3, 4), the
// same loop on 32-byte column groups (VMOVUPD), x rows xbytes apart and dst
// rows dbytes apart:
//
//	func csr64G…AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int,
//		indptr *int, indices *int32, lo, hi, last int)
//
// dst row i−lo gets the unscaled sums Σ_k w_k·x[col_k, :], bitwise those of
// the Go kernels blockRows… before their Left and Diag scaling.

// func csr64G2AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr64G2AVX2(SB), NOSPLIT, $0-88
	MOVQ dst+0(FP), SI
	MOVQ x+16(FP), DI
	MOVQ indptr+48(FP), R8
	MOVQ indices+56(FP), R11
	MOVQ lo+64(FP), CX
	MOVQ hi+72(FP), R12
	MOVQ last+80(FP), R13
	MOVQ xbytes+24(FP), DX
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+40(FP), AX
	MOVQ weights+32(FP), R14
	ADDQ AX, R14
csr64G2AVX2_row:
	CMPQ CX, R12
	JGE csr64G2AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	CMPQ R9, R10
	JGE csr64G2AVX2_store
csr64G2AVX2_entry:
	LEAQ 16(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 63(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VMOVUPD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VMOVUPD 32(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	ADDQ wstep+40(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr64G2AVX2_entry
csr64G2AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	ADDQ dbytes+8(FP), SI
	INCQ CX
	JMP csr64G2AVX2_row
csr64G2AVX2_done:
	VZEROUPPER
	RET

// func csr64G3AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr64G3AVX2(SB), NOSPLIT, $0-88
	MOVQ dst+0(FP), SI
	MOVQ x+16(FP), DI
	MOVQ indptr+48(FP), R8
	MOVQ indices+56(FP), R11
	MOVQ lo+64(FP), CX
	MOVQ hi+72(FP), R12
	MOVQ last+80(FP), R13
	MOVQ xbytes+24(FP), DX
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+40(FP), AX
	MOVQ weights+32(FP), R14
	ADDQ AX, R14
csr64G3AVX2_row:
	CMPQ CX, R12
	JGE csr64G3AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	CMPQ R9, R10
	JGE csr64G3AVX2_store
csr64G3AVX2_entry:
	LEAQ 16(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 95(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VMOVUPD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VMOVUPD 32(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	VMOVUPD 64(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y2, Y2
	ADDQ wstep+40(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr64G3AVX2_entry
csr64G3AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	ADDQ dbytes+8(FP), SI
	INCQ CX
	JMP csr64G3AVX2_row
csr64G3AVX2_done:
	VZEROUPPER
	RET

// func csr64G4AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)
TEXT ·csr64G4AVX2(SB), NOSPLIT, $0-88
	MOVQ dst+0(FP), SI
	MOVQ x+16(FP), DI
	MOVQ indptr+48(FP), R8
	MOVQ indices+56(FP), R11
	MOVQ lo+64(FP), CX
	MOVQ hi+72(FP), R12
	MOVQ last+80(FP), R13
	MOVQ xbytes+24(FP), DX
	MOVQ (R8)(CX*8), R9
	MOVQ R9, AX
	IMULQ wstep+40(FP), AX
	MOVQ weights+32(FP), R14
	ADDQ AX, R14
csr64G4AVX2_row:
	CMPQ CX, R12
	JGE csr64G4AVX2_done
	MOVQ 8(R8)(CX*8), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ R9, R10
	JGE csr64G4AVX2_store
csr64G4AVX2_entry:
	LEAQ 16(R9), BX
	CMPQ BX, R13
	CMOVQGT R13, BX
	MOVLQSX (R11)(BX*4), BX
	IMULQ DX, BX
	PREFETCHT0 (DI)(BX*1)
	PREFETCHT0 127(DI)(BX*1)
	MOVLQSX (R11)(R9*4), AX
	IMULQ DX, AX
	VBROADCASTSD (R14), Y10
	VMOVUPD 0(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y0, Y0
	VMOVUPD 32(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y1, Y1
	VMOVUPD 64(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y2, Y2
	VMOVUPD 96(DI)(AX*1), Y11
	VMULPD Y11, Y10, Y11
	VADDPD Y11, Y3, Y3
	ADDQ wstep+40(FP), R14
	INCQ R9
	CMPQ R9, R10
	JLT csr64G4AVX2_entry
csr64G4AVX2_store:
	VMOVUPD Y0, 0(SI)
	VMOVUPD Y1, 32(SI)
	VMOVUPD Y2, 64(SI)
	VMOVUPD Y3, 96(SI)
	ADDQ dbytes+8(FP), SI
	INCQ CX
	JMP csr64G4AVX2_row
csr64G4AVX2_done:
	VZEROUPPER
	RET


// The AVX-512 row kernel of an 8-column float32 block of a unit-weight
// graph, rows 32-byte aligned and 1<<xshift bytes apart (xshift ≥ 5), and
// the same with a prefetch:
//
//	func csr32U8AVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int)
//	func csr32U8PAVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi, last int)
//
// dst[(i−lo)·8 : (i−lo+1)·8] = Σ_k x[col_k, :] over the row's stored entries
// in order, as csr32G2AVX2 forms it with the weight 1: the eight columns
// widened at once into one 512-bit register (VCVTPS2PD, exact) and added
// (VADDPD) into one float64 accumulator per column, bitwise csr32G2AVX2's
// sums (1·x = x, so its VMULPD changes nothing). The G2 kernel spends about
// 22 micro-ops an entry (the weight's broadcast and pointer, two multiplies,
// two halves, two prefetches); this one 13, and the product of labelprop's
// 1 M-edge benchmark graph (2.0 M entries, 32-byte rows, 3.2 MB) is bound
// more by them than by the gathers: on one core 3.5–3.6 ms against
// 5.0–5.3 ms, while the G2 kernel gained at most a tenth on blocks that fit
// in L2 (16-byte rows 4.1–5.1 ms, 8-byte rows 3.9–4.9 ms; 4 Dec, 17:20–17:22,
// load 1.4–1.8).
//
// The row index is scaled by a shift (SHLXQ), and the …P kernels prefetch
// (PREFETCHT0) the block row of the entry 32 ahead (16 for 16 columns),
// clamped to last, the range's last entry: six more instructions an entry,
// which mulBlock32AVX512 spends only on blocks of csr32PrefetchBytes or
// more. On the 1 M-edge graph one product on one core without them took
// 0.65–0.67 of the time with them (1.34 against 2.03–2.09 ms, medians of
// 200 interleaved products, twice, 4 Dec 19:45, load 1.8); another
// accumulator (two rows summed side by side, each in its own order) was no
// faster (0.64–0.66), so the single chain of VADDPDs is not the bound; with
// the loop aligned to 32 bytes (PCALIGN) 0.77–0.79 against 0.83–0.89 unaligned
// in a second harness (19:47–19:52, load 1.5–2.2). The 10 M-edge graph's
// 32 MB block misses the caches and the prefetch pays there: without it
// one product took 1.00–1.03 of the time with it for 8 columns and unit
// weights (80–82 ms), 1.07 for 16, 1.13 and 1.25 with random weights
// (19:53–19:54, 10–16 products, load 2.1–2.5).
//
// Registers: SI dst, DI x, R13 xshift, DX last (the …P kernels), R8 indptr,
// R11 indices, CX row, R12 hi, R14 weights (the weighted kernels), R9
// entry, R10 the row's end, AX/BX scratch; Z0 (and Z2 for 16 columns)
// accumulators, Z1 (Z3) widened x. CSR32ROWS is the row loop of the
// AVX-512 kernels: ZERO clears the accumulators, PF prefetches (NOPF, PF32
// or PF16), ADD widens, weights and adds the block row at AX, STORE writes
// a row's sums.
#define CSR32ROWS(ZERO, PF, ADD, STORE) \
	MOVQ (R8)(CX*8), R9; \
row: \
	CMPQ CX, R12; \
	JGE done; \
	MOVQ 8(R8)(CX*8), R10; \
	ZERO; \
	CMPQ R9, R10; \
	JGE store; \
	PCALIGN $32; \
entry: \
	PF; \
	MOVLQSX (R11)(R9*4), AX; \
	SHLXQ R13, AX, AX; \
	ADD; \
	INCQ R9; \
	CMPQ R9, R10; \
	JLT entry; \
store: \
	STORE; \
	INCQ CX; \
	JMP row; \
done: \
	VZEROUPPER; \
	RET

#define NOPF
#define PF32 LEAQ 32(R9), BX; CMPQ BX, DX; CMOVQGT DX, BX; MOVLQSX (R11)(BX*4), BX; SHLXQ R13, BX, BX; PREFETCHT0 (DI)(BX*1)
#define PF16 LEAQ 16(R9), BX; CMPQ BX, DX; CMOVQGT DX, BX; MOVLQSX (R11)(BX*4), BX; SHLXQ R13, BX, BX; PREFETCHT0 (DI)(BX*1)
#define X8ZERO VPXORQ Z0, Z0, Z0
#define X8ADD VCVTPS2PD 0(DI)(AX*1), Z1; VADDPD Z1, Z0, Z0
#define X8ADDW VCVTPS2PD 0(DI)(AX*1), Z1; VMULPD.BCST (R14)(R9*8), Z1, Z1; VADDPD Z1, Z0, Z0
#define X8STORE VMOVUPD Z0, 0(SI); ADDQ $64, SI
#define X16ZERO VPXORQ Z0, Z0, Z0; VPXORQ Z2, Z2, Z2
#define X16ADD X8ADD; VCVTPS2PD 32(DI)(AX*1), Z3; VADDPD Z3, Z2, Z2
#define X16ADDW X8ADDW; VCVTPS2PD 32(DI)(AX*1), Z3; VMULPD.BCST (R14)(R9*8), Z3, Z3; VADDPD Z3, Z2, Z2
#define X16STORE VMOVUPD Z0, 0(SI); VMOVUPD Z2, 64(SI); ADDQ $128, SI

TEXT ·csr32U8AVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ indptr+24(FP), R8
	MOVQ indices+32(FP), R11
	MOVQ lo+40(FP), CX
	MOVQ hi+48(FP), R12
	CSR32ROWS(X8ZERO, NOPF, X8ADD, X8STORE)

TEXT ·csr32U8PAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ indptr+24(FP), R8
	MOVQ indices+32(FP), R11
	MOVQ lo+40(FP), CX
	MOVQ hi+48(FP), R12
	MOVQ last+56(FP), DX
	CSR32ROWS(X8ZERO, PF32, X8ADD, X8STORE)

// func csr32W8AVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi int)
// func csr32W8PAVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi, last int)
//
// csr32U8AVX512 for a weighted graph: each widened row multiplied by its
// entry's weight (VMULPD with the weight broadcast from memory) before the
// add, as csr32G2AVX2 does, so bitwise its sums. R14 holds the weights.
// On the 1 M-edge benchmark graph with random weights, one product on one
// core took 0.89–0.91 of csr32G2AVX2's time (medians of 150 interleaved
// products, twice: 9.4 against 10.4 ms and 8.2 against 9.3 ms, 4 Dec
// 17:42, load 3.6 from another helper's tests, so both twice as slow as
// on a quiet machine).
TEXT ·csr32W8AVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ weights+24(FP), R14
	MOVQ indptr+32(FP), R8
	MOVQ indices+40(FP), R11
	MOVQ lo+48(FP), CX
	MOVQ hi+56(FP), R12
	CSR32ROWS(X8ZERO, NOPF, X8ADDW, X8STORE)

TEXT ·csr32W8PAVX512(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ weights+24(FP), R14
	MOVQ indptr+32(FP), R8
	MOVQ indices+40(FP), R11
	MOVQ lo+48(FP), CX
	MOVQ hi+56(FP), R12
	MOVQ last+64(FP), DX
	CSR32ROWS(X8ZERO, PF32, X8ADDW, X8STORE)

// func csr32U16AVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int)
// func csr32U16PAVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi, last int)
// func csr32W16AVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi int)
// func csr32W16PAVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi, last int)
//
// csr32U8AVX512 and csr32W8AVX512 for 16 columns in 64-byte aligned rows
// (two 512-bit accumulators), bitwise csr32G4AVX2's sums; the …P kernels
// prefetch the block row of the entry 16 ahead, as csr32G4AVX2 does. One
// product of the 1 M-edge benchmark graph on one core, as a fraction of
// the AVX2 kernel's time (medians of 100 interleaved products, 4 Dec 17:49,
// load 3.2–3.5 from other helpers; all four kernels then prefetched): 8
// columns 0.82 (3.73 against 4.57 ms) and 16 columns 0.86 (8.55 against
// 9.90 ms) unit weights; with random weights 0.88 (9.40 against 10.66 ms)
// and 0.89 (14.19 against 15.94 ms). Without the prefetch and with the
// shift, as a fraction of those prefetching kernels (same graph, 19:52 and
// 19:54, load 2.2): 8 columns 0.79–0.85 and 16 columns 1.00–1.04 unit
// weights, 0.86–1.02 and 0.80–0.91 random weights.
TEXT ·csr32U16AVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ indptr+24(FP), R8
	MOVQ indices+32(FP), R11
	MOVQ lo+40(FP), CX
	MOVQ hi+48(FP), R12
	CSR32ROWS(X16ZERO, NOPF, X16ADD, X16STORE)

TEXT ·csr32U16PAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ indptr+24(FP), R8
	MOVQ indices+32(FP), R11
	MOVQ lo+40(FP), CX
	MOVQ hi+48(FP), R12
	MOVQ last+56(FP), DX
	CSR32ROWS(X16ZERO, PF16, X16ADD, X16STORE)

TEXT ·csr32W16AVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ weights+24(FP), R14
	MOVQ indptr+32(FP), R8
	MOVQ indices+40(FP), R11
	MOVQ lo+48(FP), CX
	MOVQ hi+56(FP), R12
	CSR32ROWS(X16ZERO, NOPF, X16ADDW, X16STORE)

TEXT ·csr32W16PAVX512(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xshift+16(FP), R13
	MOVQ weights+24(FP), R14
	MOVQ indptr+32(FP), R8
	MOVQ indices+40(FP), R11
	MOVQ lo+48(FP), CX
	MOVQ hi+56(FP), R12
	MOVQ last+64(FP), DX
	CSR32ROWS(X16ZERO, PF16, X16ADDW, X16STORE)
