#include "textflag.h"

// SUMY0 sets AX to the sum of the eight 32-bit lanes of Y0 (and clobbers
// X1).
#define SUMY0 \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDD       X1, X0, X0; \
	VPSHUFD      $0x4e, X0, X1; \
	VPADDD       X1, X0, X0; \
	VPSHUFD      $0xb1, X0, X1; \
	VPADDD       X1, X0, X0; \
	VMOVD        X0, AX

// The kernels compute Σ_t (a[t] − b[t])² of byte vectors whose length n is
// a multiple of 32: bytes are widened to 16-bit lanes (VPMOVZXBW),
// subtracted, and squared and summed in pairs into 32-bit lanes (VPMADDWD, or
// VPDPWSSD which also accumulates: at most 2·255² per pair). Each takes a
// bound and returns the partial sum as soon as it reaches the bound at a
// check: after the first 256 bytes, then after every further 192
// (u8FirstCheck and u8CheckEvery in sqdist_u8.go).
// The sum of the last bytes is checked like the others and then returned.

// func sqDistU8Kernel(a, b *uint8, n int, bound uint32, wide bool) uint32
//
// wide: AVX-512 BW and VNNI, 32 bytes per 512-bit register, VPDPWSSD
// squares, pairs and accumulates in one instruction; else AVX2.
TEXT ·sqDistU8Kernel(SB), NOSPLIT, $0-36
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	MOVL bound+24(FP), R8
	MOVQ $256, DX // bytes left before the next check (u8FirstCheck)
	MOVBQZX wide+28(FP), R9
	TESTQ   R9, R9
	JNZ     v5start
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9

a2loop:
	CMPQ      CX, $64
	JB        a2tail
	VPMOVZXBW (SI), Y0
	VPMOVZXBW (DI), Y1
	VPMOVZXBW 16(SI), Y2
	VPMOVZXBW 16(DI), Y3
	VPMOVZXBW 32(SI), Y4
	VPMOVZXBW 32(DI), Y5
	VPMOVZXBW 48(SI), Y6
	VPMOVZXBW 48(DI), Y7
	VPSUBW    Y1, Y0, Y0
	VPSUBW    Y3, Y2, Y2
	VPSUBW    Y5, Y4, Y4
	VPSUBW    Y7, Y6, Y6
	VPMADDWD  Y0, Y0, Y0
	VPMADDWD  Y2, Y2, Y2
	VPMADDWD  Y4, Y4, Y4
	VPMADDWD  Y6, Y6, Y6
	VPADDD    Y0, Y8, Y8
	VPADDD    Y2, Y9, Y9
	VPADDD    Y4, Y8, Y8
	VPADDD    Y6, Y9, Y9
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $64, CX
	SUBQ      $64, DX
	JNZ       a2loop
	JMP       a2check

a2tail: // 0 or 32 bytes left
	TESTQ     CX, CX
	JZ        a2check
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
	XORQ      CX, CX

a2check:
	VPADDD Y9, Y8, Y0
	JMP    check

v5start:
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9

v5loop:
	CMPQ      CX, $64
	JB        v5tail
	VPMOVZXBW (SI), Z0
	VPMOVZXBW (DI), Z1
	VPMOVZXBW 32(SI), Z2
	VPMOVZXBW 32(DI), Z3
	VPSUBW    Z1, Z0, Z0
	VPSUBW    Z3, Z2, Z2
	VPDPWSSD  Z0, Z0, Z8
	VPDPWSSD  Z2, Z2, Z9
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $64, CX
	SUBQ      $64, DX
	JNZ       v5loop
	JMP       v5check

v5tail: // 0 or 32 bytes left
	TESTQ     CX, CX
	JZ        v5check
	VPMOVZXBW (SI), Z0
	VPMOVZXBW (DI), Z1
	VPSUBW    Z1, Z0, Z0
	VPDPWSSD  Z0, Z0, Z8
	XORQ      CX, CX

v5check:
	VPADDD        Z9, Z8, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD        Y1, Y0, Y0

check: // AX = the sum of the lanes of Y0; return it at the end or at the bound
	SUMY0
	TESTQ        CX, CX
	JZ           done
	CMPL         AX, R8
	JAE          done
	MOVQ         $192, DX // u8CheckEvery
	TESTQ        R9, R9
	JNZ          v5loop
	JMP          a2loop

done:
	VZEROUPPER
	MOVL AX, ret+32(FP)
	RET

// func dotU8I16Kernel(x *uint8, w *int16, n int, wide bool) int32
//
// Σ_t x[t]·w[t] for n a multiple of 32: bytes widened to 16-bit lanes
// (VPMOVZXBW) and multiplied by the weights, summed in pairs into 32-bit
// lanes (VPMADDWD: |x·w| ≤ 255·2¹⁵ per product, so a pair cannot overflow
// for weights of magnitude at most 2¹⁵ − 1). wide: AVX-512 BW, 32 bytes per
// step; else AVX2, 16.
TEXT ·dotU8I16Kernel(SB), NOSPLIT, $0-36
	MOVQ    x+0(FP), SI
	MOVQ    w+8(FP), DI
	MOVQ    n+16(FP), CX
	MOVBQZX wide+24(FP), R9
	TESTQ   R9, R9
	JZ      d2start
	VPXORD  Z8, Z8, Z8

d5loop:
	VPMOVZXBW (SI), Z0
	VPMADDWD  (DI), Z0, Z0
	VPADDD    Z0, Z8, Z8
	ADDQ      $32, SI
	ADDQ      $64, DI
	SUBQ      $32, CX
	JNZ       d5loop
	VEXTRACTI64X4 $1, Z8, Y1
	VPADDD        Y1, Y8, Y0
	JMP           dsum

d2start:
	VPXOR Y8, Y8, Y8

d2loop:
	VPMOVZXBW (SI), Y0
	VPMADDWD  (DI), Y0, Y0
	VPADDD    Y0, Y8, Y8
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $16, CX
	JNZ       d2loop
	VMOVDQA   Y8, Y0

dsum:
	SUMY0
	VZEROUPPER
	MOVL         AX, ret+32(FP)
	RET

// DSTEP adds a·(b − 128) of the next 64 bytes to acc, going to dtail when
// fewer are left and to dcheck at a check.
#define DSTEP(acc) \
	CMPQ      CX, $64; \
	JB        dtail; \
	VMOVDQU64 (SI), Z0; \
	VPXORD    (DI), Z7, Z1; \
	VPDPBUSD  Z1, Z0, acc; \
	ADDQ      $64, SI; \
	ADDQ      $64, DI; \
	SUBQ      $64, CX; \
	SUBQ      $64, DX; \
	JZ        dcheck

// func sqDistU8DotKernel(a, b *uint8, n int, bound uint32, ua, vb *uint8) uint32
//
// The AVX-512 VNNI kernel on one dot product: with a fixed and b read as the
// signed bytes b − 128 (b XOR 0x80), VPDPBUSD sums Σ_t a_t·(b_t − 128) four
// products to a 32-bit lane, 64 bytes per instruction, into four
// accumulators. At each check (after dotFirstCheck bytes, then every
// dotCheckEvery, and at the end)
//
//	Σ_{t<c} (a_t − b_t)² = U_a(c) + V_b(c) − 2·Σ_{t<c} a_t·(b_t − 128)
//
// with U_a(c) = Σ_{t<c} a_t² − 256·Σ_{t<c} a_t and V_b(c) = Σ_{t<c} b_t²
// read from the tables ua and vb (one little-endian int32 per check, in
// order), summed in 64 bits.
TEXT ·sqDistU8DotKernel(SB), NOSPLIT, $0-52
	MOVQ         a+0(FP), SI
	MOVQ         b+8(FP), DI
	MOVQ         n+16(FP), CX
	MOVL         bound+24(FP), R8
	MOVQ         ua+32(FP), R10
	MOVQ         vb+40(FP), R11
	MOVQ         $512, DX // bytes left before the next check (dotFirstCheck)
	MOVL         $0x80808080, AX
	VPBROADCASTD AX, Z7
	VPXORD       Z8, Z8, Z8
	VPXORD       Z9, Z9, Z9
	VPXORD       Z10, Z10, Z10
	VPXORD       Z11, Z11, Z11

dloop: // four steps of 64 bytes, one accumulator each; a check may follow any
	DSTEP(Z8)
	DSTEP(Z9)
	DSTEP(Z10)
	DSTEP(Z11)
	JMP       dloop

dtail: // 0 or 32 bytes left; the upper halves are a = 0 and b − 128 = −128
	TESTQ    CX, CX
	JZ       dcheck
	VMOVDQU  (SI), Y0
	VMOVDQU  (DI), Y1
	VPXORD   Z7, Z1, Z1
	VPDPBUSD Z1, Z0, Z8
	XORQ     CX, CX

dcheck: // BX = U_a + V_b − 2·Σ a·(b − 128); return it at the end or at the bound
	VPADDD        Z9, Z8, Z0
	VPADDD        Z11, Z10, Z1
	VPADDD        Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD        Y1, Y0, Y0
	SUMY0
	MOVLQSX       AX, AX
	MOVLQSX       (R10), BX
	MOVLQZX       (R11), R9
	ADDQ          R9, BX
	SUBQ          AX, BX
	SUBQ          AX, BX
	ADDQ          $4, R10
	ADDQ          $4, R11
	TESTQ         CX, CX
	JZ            ddone
	CMPQ          BX, R8
	JAE           ddone
	MOVQ          $512, DX // dotCheckEvery
	JMP           dloop

ddone:
	VZEROUPPER
	MOVL BX, ret+48(FP)
	RET

// func prefetchLines(p *uint8, lines int)
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ lines+8(FP), CX
	TESTQ CX, CX
	JLE  pfdone

pfloop:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	DECQ       CX
	JNZ        pfloop

pfdone:
	RET
