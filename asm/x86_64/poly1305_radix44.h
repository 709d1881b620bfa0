/*
 * poly1305_radix44.h (x86_64) -- FIN44, shared by the IFMA Poly1305 loop (poly1305_avx512.S)
 * and its table code (poly1305_ifma_table.S): the end of one radix-2^44 product mod
 * p = 2^130 - 5, on zmm or ymm registers. From the sums L_k and U_k of the low and high
 * (`vpmadd52luq`/`vpmadd52huq`) parts of the products of limb k, whose weight 2^52 is 2^8
 * times the next limb's (above limb 2, 2^140 = 5 * 2^10 mod p):
 *     d0 = L0 + 5 * 2^10 U2,   d1 = L1 + 2^8 U0,   d2 = L2 + 2^8 U1,
 * then one carry pass, two chains at once:
 *     c0 = d0 >> 44, c2 = d2 >> 42;  h0 = (d0 & M44) + 5 c2;  d1 += c0;
 *     c1 = d1 >> 44;  h1 = d1 & M44;  h2 = (d2 & M42) + c1.
 * The bounds are in poly1305_avx512.S's header (and the table's for its levels). m44, m42:
 * registers holding M44 = 2^44 - 1 and M42 = 2^42 - 1 in every lane; h may be l.
 */
.macro FIN44 h0, h1, h2, l0, l1, l2, u0, u1, u2, m44=%zmm27, m42=%zmm28
        /* d1 = L1 + 2^8 U0, d2 = L2 + 2^8 U1, d0 = L0 + (2^12 + 2^10) U2 */
        vpsllq  $8, \u0, \u0
        vpaddq  \u0, \l1, \l1
        vpsllq  $8, \u1, \u1
        vpaddq  \u1, \l2, \l2
        vpsllq  $10, \u2, \u2
        vpaddq  \u2, \l0, \l0
        vpsllq  $2, \u2, \u2
        vpaddq  \u2, \l0, \l0
        /* carry: c0 = d0 >> 44, c2 = d2 >> 42 */
        vpsrlq  $44, \l0, \u0
        vpsrlq  $42, \l2, \u2
        vpandq  \m44, \l0, \l0
        vpandq  \m42, \l2, \l2
        vpaddq  \u0, \l1, \l1
        vpaddq  \u2, \l0, \l0
        vpsllq  $2, \u2, \u2
        vpaddq  \u2, \l0, \h0                         /* h0 = (d0 & M44) + 5 c2 */
        vpsrlq  $44, \l1, \u1
        vpandq  \m44, \l1, \h1                        /* h1 = d1 & M44 */
        vpaddq  \u1, \l2, \h2                         /* h2 = (d2 & M42) + c1 */
.endm
