/*
 * vec_clear.h (x86_64) -- CLEAR, shared by the AVX-512 Poly1305 assembly
 * (poly1305_avx512.S, poly1305_avx512f.S, poly1305_ifma_table.S): zeroes every vector
 * register before a function returns, as they held r, its powers, the accumulator or message
 * limbs. An EVEX write to xmm16-31 zeroes the whole register, and `vzeroall` zeroes ymm0-15
 * (and so the upper halves, as `vzeroupper` would). Needs AVX512F (EVEX) and AVX.
 */
.macro CLEAR
        vpxord  %xmm16, %xmm16, %xmm16
        vpxord  %xmm17, %xmm17, %xmm17
        vpxord  %xmm18, %xmm18, %xmm18
        vpxord  %xmm19, %xmm19, %xmm19
        vpxord  %xmm20, %xmm20, %xmm20
        vpxord  %xmm21, %xmm21, %xmm21
        vpxord  %xmm22, %xmm22, %xmm22
        vpxord  %xmm23, %xmm23, %xmm23
        vpxord  %xmm24, %xmm24, %xmm24
        vpxord  %xmm25, %xmm25, %xmm25
        vpxord  %xmm26, %xmm26, %xmm26
        vpxord  %xmm27, %xmm27, %xmm27
        vpxord  %xmm28, %xmm28, %xmm28
        vpxord  %xmm29, %xmm29, %xmm29
        vpxord  %xmm30, %xmm30, %xmm30
        vpxord  %xmm31, %xmm31, %xmm31
        vzeroall
.endm
