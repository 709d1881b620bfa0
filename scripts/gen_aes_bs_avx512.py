#!/usr/bin/env python3
"""Generates asm/x86_64/aes_bs_avx512.S, the fixsliced AES rounds on zmm registers.

Run from the repository root: `python3 scripts/gen_aes_bs_avx512.py > asm/x86_64/aes_bs_avx512.S`
(CI checks that the committed file is what this script prints).

The algorithm is the one of src/aes/fixslice.rs, which this script reads: the two S-box
circuits are parsed from `sub_bytes` and `inv_sub_bytes` there (Boyar-Peralta, XOR/AND
gates), and MixColumns, its inverse, the rotations `rc` and the round structure of
`encrypt`/`decrypt` are restated below in the same terms. Each round becomes a data-flow
graph over the eight state words; the script then

  1. fuses trees of up to three inputs of XOR/AND/OR/select gates into one `vpternlogq`
     (an AVX-512F instruction computing any Boolean function of three registers, the
     function given as an 8-bit truth table), so e.g. `a ^ b ^ c` is one instruction;
  2. keeps every value in one of the 32 zmm registers (the allocation is a linear scan over
     the straight-line code of one round; the S-box never needs more than 32 live values);
  3. prints each piece (SubBytes, each of the four MixColumns variants with AddRoundKey,
     AddRoundKey alone) as straight-line code taking the state in zmm0-7 and leaving it
     there, inside a loop over the rounds that picks the MixColumns variant of each.

A zmm register holds eight 64-bit lanes, each lane a batch of four blocks in the layout of
src/aes/soft64.rs, so one call transforms 32 blocks. Round keys are the 64-bit kernel's
(`[u64; 8]` per round) and are broadcast to the lanes by the `{1to8}` memory operand.
"""

import re
import sys

FIXSLICE = "src/aes/fixslice.rs"

LANE, ROW, COL = 64, 16, 4


def low_cols(n):
    group = (1 << (n * COL)) - 1
    m = 0
    for r in range(4):
        m |= group << (r * ROW)
    return m


def parse_circuit(text, name):
    start = text.index(f"pub(crate) fn {name}<")
    body = text[start:]
    m_in = re.search(r"let \[([\w, ]+)\] = \*s;", body)
    m_out = re.search(r"\*s = \[([\w, ]+)\];", body)
    inputs = [x.strip() for x in m_in.group(1).split(",")]
    outputs = [x.strip() for x in m_out.group(1).split(",")]
    gates = []
    for line in body[m_in.end() : m_out.start()].splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        g = re.fullmatch(r"let (\w+) = (\w+) ([\^&|]) (\w+);", line)
        if not g:
            raise SystemExit(f"{name}: cannot parse {line!r}")
        gates.append(g.groups())
    assert len(inputs) == 8 and len(outputs) == 8
    return inputs, gates, outputs


# ---------------------------------------------------------------------------------------
# The data-flow graph.

class Node:
    __slots__ = ("id", "op", "args", "arg", "uses", "mat", "leaves")

    def __init__(self, nid, op, args, arg):
        self.id, self.op, self.args, self.arg = nid, op, args, arg
        self.uses = []  # consumer nodes (one entry per use)
        self.mat = op not in BOOL  # materialised in a register (or memory, for "mem")
        self.leaves = None


BOOL = {"xor", "and", "or", "sel"}


class Graph:
    def __init__(self):
        self.nodes = []
        self.outputs = []
        self.consts = {}

    def add(self, op, args=(), arg=None):
        n = Node(len(self.nodes), op, list(args), arg)
        for a in n.args:
            a.uses.append(n)
        self.nodes.append(n)
        return n

    # Values
    def state_in(self, b):
        return self.add("in", arg=b)

    def key(self, off):
        return self.add("mem", arg=("key", off))

    def const(self, value):
        return self.add("mem", arg=("const", value))

    def xor(self, a, b):
        return self.add("xor", (a, b))

    def and_(self, a, b):
        return self.add("and", (a, b))

    def or_(self, a, b):
        return self.add("or", (a, b))

    def sel(self, m, a, b):
        """(a & m) | (b & ~m)."""
        return self.add("sel", (m, a, b))

    def ror(self, a, n):
        n %= LANE
        return a if n == 0 else self.add("ror", (a,), n)

    def shuf(self, a, perm):
        """Byte i of every 64-bit lane <- byte perm[i] of the same lane."""
        return self.add("shuf", (a,), tuple(perm))


# ---------------------------------------------------------------------------------------
# The AES of src/aes/fixslice.rs on graph values.

def sbox(g, circuit, s):
    inputs, gates, outputs = circuit
    env = {name: s[b] for b, name in enumerate(inputs)}
    ops = {"^": g.xor, "&": g.and_, "|": g.or_}
    for dst, a, op, b in gates:
        env[dst] = ops[op](env[a], env[b])
    return [env[name] for name in outputs]


def rc(g, x, dr, dc):
    """fixslice's `Word::rc` for 64-bit lanes: row r, column s <- row r + dr, column s + dc."""
    if dc == 0:
        return g.ror(x, dr * ROW)
    if dc % 2 == 0:
        # Whole bytes move (as the AVX2 kernel's `rc`): byte 2r + h comes from row r + dr,
        # column pair h + dc/2.
        perm = [2 * (((i >> 1) + dr) % 4) + ((i & 1) + dc // 2) % 2 for i in range(8)]
        return g.shuf(x, perm)
    near = (dr * ROW + dc * COL) % LANE
    wrap = ((dr + 3) * ROW + dc * COL) % LANE
    return g.sel(g.const(low_cols(4 - dc)), g.ror(x, near), g.ror(x, wrap))


def xtime(g, t):
    return [t[7], g.xor(t[0], t[7]), t[1], g.xor(t[2], t[7]), g.xor(t[3], t[7]), t[4], t[5], t[6]]


def mix_columns(g, s, m):
    a1 = [rc(g, s[b], 1, m) for b in range(8)]
    t = [g.xor(s[b], a1[b]) for b in range(8)]
    x2 = xtime(g, t)
    return [g.xor(g.xor(x2[b], a1[b]), rc(g, t[b], 2, (2 * m) % 4)) for b in range(8)]


def inv_mix_columns(g, s, m):
    u = [g.xor(s[b], rc(g, s[b], 2, (2 * m) % 4)) for b in range(8)]
    u4 = xtime(g, xtime(g, u))
    return mix_columns(g, [g.xor(s[b], u4[b]) for b in range(8)], m)


def add_key(g, s):
    """AddRoundKey with the round key at RK (the caller steps RK from round to round)."""
    return [g.xor(s[b], g.key(8 * b)) for b in range(8)]


# SR^2 (fixslice's `shift_rows_2`): rows 1 and 3 swap their column pairs, i.e. bytes 2, 3
# and 6, 7 of each lane swap.
SR2 = [0, 1, 3, 2, 4, 5, 7, 6]


def piece(build):
    """A graph over the eight state words in zmm0-7, its outputs back in zmm0-7."""
    g = Graph()
    s = [g.state_in(b) for b in range(8)]
    g.outputs = build(g, s)
    return g


# The pieces of fixslice::encrypt and fixslice::decrypt. Middle round i uses MixColumns
# variant i mod 4.
def pieces(circuit, enc):
    key = piece(add_key)
    if enc:
        mix = [piece(lambda g, s, m=m: add_key(g, mix_columns(g, s, m))) for m in range(4)]
    else:
        mix = [piece(lambda g, s, m=m: inv_mix_columns(g, add_key(g, s), m)) for m in range(4)]
    return {
        "key": key,
        "sbox": piece(lambda g, s: sbox(g, circuit, s)),
        "mix": mix,
        "sr2": piece(lambda g, s: [g.shuf(x, SR2) for x in s]),
    }


# ---------------------------------------------------------------------------------------
# Fusion into three-input Boolean functions.

A, B, C = 0xF0, 0xCC, 0xAA  # truth-table patterns of vpternlogq's three operands


def fuse(g):
    out_ids = {n.id for n in g.outputs}
    for n in g.outputs:
        n.mat = True

    def inlinable(a):
        return a.op in BOOL and not a.mat and len(a.uses) == 1 and a.id not in out_ids

    def leaves_of(n):
        seen = []
        for a in n.args:
            for leaf in (a.leaves if inlinable(a) else [a]):
                if leaf not in seen:
                    seen.append(leaf)
        return seen

    def ok(ls):
        return len(ls) <= 3 and sum(1 for x in ls if x.op == "mem") <= 1

    for n in g.nodes:
        if n.op not in BOOL:
            continue
        ls = leaves_of(n)
        while not ok(ls):
            cands = [a for a in n.args if inlinable(a)]
            assert cands, "a gate with more than 3 direct inputs"
            max(cands, key=lambda a: len(a.leaves)).mat = True
            ls = leaves_of(n)
        n.leaves = ls
        if len(n.uses) != 1 or any(u.op not in BOOL for u in n.uses):
            n.mat = True
    return [n for n in g.nodes if n.mat and n.op not in ("in", "mem")]


def truth_table(n, assign):
    """Truth table of node n over the leaves in `assign` (leaf -> pattern)."""
    if n in assign:
        return assign[n]
    v = [truth_table(a, assign) for a in n.args]
    if n.op == "xor":
        return v[0] ^ v[1]
    if n.op == "and":
        return v[0] & v[1]
    if n.op == "or":
        return v[0] | v[1]
    if n.op == "sel":
        return (v[1] & v[0]) | (v[2] & ~v[0] & 0xFF)
    raise AssertionError(n.op)


# ---------------------------------------------------------------------------------------
# Register allocation and printing.

class Emitter:
    def __init__(self, g, prog, label):
        self.g, self.prog, self.label = g, prog, label
        self.lines = []
        self.reg = {}
        self.free = list(range(31, -1, -1))
        self.max_live = 0
        self.consts = {}
        # Last position (in prog) at which each value is read; outputs live to the end.
        self.last = {}
        for i, n in enumerate(prog):
            for leaf in self.srcs(n):
                self.last[leaf.id] = i
        for n in g.outputs:
            self.last[n.id] = len(prog)

    @staticmethod
    def srcs(n):
        return n.leaves if n.op in BOOL else n.args

    def operand(self, n):
        if n.op == "mem":
            kind, v = n.arg
            if kind == "key":
                return f"{v}(RK){{1to8}}" if v else "(RK){1to8}"
            return f"{const_label(v)}(%rip){{1to8}}"
        return f"%zmm{self.reg[n.id]}"

    def alloc(self, n):
        r = self.free.pop()
        self.reg[n.id] = r
        self.max_live = max(self.max_live, 32 - len(self.free))
        return r

    def release(self, i, n):
        for leaf in dict.fromkeys(self.srcs(n)):
            if leaf.op != "mem" and self.last[leaf.id] == i:
                self.free.append(self.reg.pop(leaf.id))
                self.free.sort(reverse=True)

    def emit(self, s):
        self.lines.append("        " + s)

    def run(self):
        # The inputs arrive in zmm0-7.
        for b, n in enumerate(self.g.nodes[:8]):
            assert n.op == "in" and n.arg == b
            self.reg[n.id] = b
            self.free.remove(b)
        for i, n in enumerate(self.prog):
            self.instr(i, n)
        # The outputs go back to zmm0-7: a parallel move, cycles broken through a free register.
        moves = {b: self.reg[n.id] for b, n in enumerate(self.g.outputs) if self.reg[n.id] != b}
        while moves:
            ready = [d for d in moves if d not in moves.values()]
            if ready:
                d = ready[0]
                self.emit(f"vmovdqa64 %zmm{moves.pop(d)}, %zmm{d}")
                continue
            d = next(iter(moves))
            tmp = next(r for r in range(8, 32) if r not in moves.values() and r not in moves)
            self.emit(f"vmovdqa64 %zmm{d}, %zmm{tmp}")
            moves = {k: (tmp if v == d else v) for k, v in moves.items()}
        return self.lines

    def instr(self, i, n):
        if n.op == "ror":
            (a,) = n.args
            src = self.operand(a)
            self.release(i, n)
            d = self.alloc(n)
            self.emit(f"vprorq ${n.arg}, {src}, %zmm{d}")
            return
        if n.op == "shuf":
            (a,) = n.args
            src = self.operand(a)
            self.release(i, n)
            d = self.alloc(n)
            self.emit(f"vpshufb {shuf_label(n.arg)}(%rip), {src}, %zmm{d}")
            return
        ls = list(n.leaves)
        mem = [x for x in ls if x.op == "mem"]
        regs = [x for x in ls if x.op != "mem"]
        if len(ls) == 2:
            x, y = (regs[0], mem[0]) if mem else (regs[0], regs[1])
            tt = truth_table(n, {x: B, y: C})
            simple = {B ^ C: "vpxorq", B & C: "vpandq", B | C: "vporq", (~B & 0xFF) & C: "vpandnq"}
            if tt in simple:
                so, sx = self.operand(y), self.operand(x)
                self.release(i, n)
                d = self.alloc(n)
                self.emit(f"{simple[tt]} {so}, {sx}, %zmm{d}")
                return
            if not mem and ((~C & 0xFF) & B) == tt:
                so, sx = self.operand(x), self.operand(y)
                self.release(i, n)
                d = self.alloc(n)
                self.emit(f"vpandnq {so}, {sx}, %zmm{d}")
                return
            # Any other function of two: a ternary one whose first operand repeats x.
            order = [x, x, y]
        else:
            assert len(ls) == 3, n.op
            # Operand C may be memory; the destination overwrites operand A, so A should be
            # a register operand that dies here (else it is copied first).
            cands = regs if mem else ls
            dying = [x for x in cands if self.last[x.id] == i]
            a = dying[0] if dying else cands[0]
            rest = [x for x in ls if x is not a]
            if mem:
                rest.sort(key=lambda x: x.op == "mem")
            order = [a, rest[0], rest[1]]
        a, b, c = order
        pats = {}
        for leaf, p in ((a, A), (b, B), (c, C)):
            pats.setdefault(leaf, p)
        if len(pats) == 2:  # x, x, y: operand B repeats A
            tt = truth_table(n, {a: A, c: C})
            tt = expand_aa(tt)
        else:
            tt = truth_table(n, pats)
        sb, sc = self.operand(b), self.operand(c)
        if self.last[a.id] == i and a.op != "mem":
            d = self.reg[a.id]
            self.release(i, n)
            # `a` died here and its register was freed: take it back as the destination.
            self.free.remove(d)
            self.reg[n.id] = d
        else:
            sa = self.operand(a)
            self.release(i, n)
            d = self.alloc(n)
            self.emit(f"vmovdqa64 {sa}, %zmm{d}")
        self.emit(f"vpternlogq ${tt:#04x}, {sc}, {sb}, %zmm{d}")


def expand_aa(tt):
    """A truth table over (A, C) computed with patterns A, C, turned into one over (A, B, C)
    with B = A (the bits where B != A are never selected; copy A's)."""
    out = 0
    for idx in range(8):
        a, c = (idx >> 2) & 1, idx & 1
        src = (a << 2) | (a << 1) | c
        if (tt >> src) & 1:
            out |= 1 << idx
    return out


CONSTS = {}
SHUFS = {}


def const_label(v):
    return CONSTS.setdefault(v, f".Lmask{len(CONSTS)}")


def shuf_label(perm):
    return SHUFS.setdefault(perm, f".Lperm{len(SHUFS)}")


def body(g):
    prog = fuse(g)
    em = Emitter(g, prog, "")
    lines = em.run()
    return lines, em.max_live


STATS = []


def code(name, g):
    lines, live = body(g)
    stat = f"{name}: {len(lines)} instructions, at most {live} live registers"
    if stat not in STATS:
        STATS.append(stat)
    return "\n".join(lines)


def load_store(op):
    if op == "load":
        return "\n".join(f"        vmovdqu64 {64 * b}(ST), %zmm{b}" for b in range(8))
    return "\n".join(f"        vmovdqu64 %zmm{b}, {64 * b}(ST)" for b in range(8))


def sr2_test(label):
    """Jumps to `label` unless Nr mod 4 = 2 (Nr 10 and 14: the stored form is SR^2)."""
    return f"""        movl    %esi, %eax
        andl    $3, %eax
        cmpl    $2, %eax
        jne     {label}"""


def dispatch(prefix, reg):
    """Jumps to `{prefix}{m}` for m = `reg` mod 4 (the round number: public)."""
    return f"""        movl    {reg}, %r8d
        andl    $3, %r8d
        jz      {prefix}0
        cmpl    $2, %r8d
        jb      {prefix}1
        je      {prefix}2
        jmp     {prefix}3"""


def encrypt_fn(p):
    fn = "simdcrypt_aes_bs_encrypt_avx512"
    mix = "\n".join(f"""/* MixColumns variant {m} (round i = {m} mod 4), AddRoundKey. */
.Lenc_mix{m}:
{code(f"encrypt MixColumns {m} + AddRoundKey", p["mix"][m])}
        jmp     .Lenc_next""" for m in range(4))
    return f"""
/* void {fn}(const u64 rk[8 * (nr + 1)], size_t nr, u64 state[64]) */
        .globl  {fn}
        .hidden {fn}
        .type   {fn}, @function
        .p2align 5
{fn}:
        .cfi_startproc
        ENDBR
{load_store("load")}
{code("AddRoundKey", p["key"])}
        movl    $1, %ecx                /* round i = 1..Nr */
.Lenc_round:
        addq    $64, RK                 /* RK = round key i */
{code("encrypt SubBytes", p["sbox"])}
        cmpq    %rcx, %rsi
        je      .Lenc_last
{dispatch(".Lenc_mix", "%ecx")}
{mix}
.Lenc_next:
        addl    $1, %ecx
        jmp     .Lenc_round
.Lenc_last:
{code("AddRoundKey", p["key"])}
{sr2_test(".Lenc_store")}
{code("SR^2", p["sr2"])}
.Lenc_store:
{load_store("store")}
        CLEAR
        ret
        .cfi_endproc
        .size   {fn}, .-{fn}"""


def decrypt_fn(p):
    fn = "simdcrypt_aes_bs_decrypt_avx512"
    mix = "\n".join(f"""/* AddRoundKey, InvMixColumns variant {m} (round i = {m} mod 4). */
.Ldec_mix{m}:
{code(f"decrypt AddRoundKey + InvMixColumns {m}", p["mix"][m])}
        jmp     .Ldec_sbox""" for m in range(4))
    return f"""
/* void {fn}(const u64 rk[8 * (nr + 1)], size_t nr, u64 state[64]) */
        .globl  {fn}
        .hidden {fn}
        .type   {fn}, @function
        .p2align 5
{fn}:
        .cfi_startproc
        ENDBR
{load_store("load")}
        movq    %rsi, %rax
        shlq    $6, %rax
        addq    %rax, RK                /* RK = round key Nr */
{sr2_test(".Ldec_first")}
{code("SR^2", p["sr2"])}
.Ldec_first:
{code("AddRoundKey", p["key"])}
        movq    %rsi, %rcx              /* round i = Nr-1..1 after the first InvSubBytes */
.Ldec_sbox:
{code("decrypt InvSubBytes", p["sbox"])}
        subq    $64, RK                 /* RK = round key i */
        subq    $1, %rcx
        jz      .Ldec_last
{dispatch(".Ldec_mix", "%ecx")}
{mix}
.Ldec_last:
{code("AddRoundKey", p["key"])}
{load_store("store")}
        CLEAR
        ret
        .cfi_endproc
        .size   {fn}, .-{fn}"""


def main():
    text = open(FIXSLICE).read()
    fwd = parse_circuit(text, "sub_bytes")
    inv = parse_circuit(text, "inv_sub_bytes")
    functions = [encrypt_fn(pieces(fwd, True)), decrypt_fn(pieces(inv, False))]
    print(HEADER.rstrip())
    for st in STATS:
        print(f" *   {st}")
    print(" */")
    print(PRELUDE.rstrip())
    print("        .section .rodata")
    print("        .p2align 6")
    for perm, label in SHUFS.items():
        ctl = [p + 8 * h for h in range(2) for p in perm] * 4
        print(f"/* vpshufb control: byte i of each 64-bit lane <- byte {list(perm)}[i]. */")
        print(f"{label}:")
        for k in range(0, 64, 16):
            print("        .byte   " + ", ".join(str(x) for x in ctl[k : k + 16]))
    print("        .p2align 3")
    for v, label in CONSTS.items():
        print(f"{label}:\n        .quad   {v:#018x}")
    print("\n        .text")
    for f in functions:
        print(f)
    print(TRAILER.rstrip())


HEADER = """/*
 * aes_bs_avx512.S (x86_64) -- GENERATED by scripts/gen_aes_bs_avx512.py from
 * src/aes/fixslice.rs; do not edit: change the script or fixslice.rs and regenerate.
 *
 * Fixsliced AES rounds (the algorithm of src/aes/fixslice.rs) on 512-bit registers: one call
 * encrypts or decrypts 32 blocks held as eight zmm words, word b = bit b of every byte, each
 * 64-bit lane a batch of four blocks in the layout of src/aes/soft64.rs. The bit transposition
 * to and from that layout, and the modes, are in the safe wrapper src/aes/x86_64_avx512bs.rs.
 *
 * Features: AVX512F (vpternlogq, vprorq, embedded broadcast) and AVX512BW (vpshufb on zmm);
 * the Rust token Avx512Bw proves them. ABI: System V AMD64 psABI; leaf functions using only
 * rax, rcx, rdx, rsi, rdi and zmm0-31 (all caller-saved), no stack; they end with
 * CLEAR (vec_clear.h: every vector register zeroed; the bit-sliced state and the round keys
 * were in them).
 *
 * Structure: each piece below is straight-line code that takes the state in zmm0-7 and leaves
 * it there (its values in zmm0-31). A loop runs the rounds: SubBytes, then (but in the last
 * round) the MixColumns variant of round i, i mod 4, picked by a branch on i, with RK stepped
 * by one round key (64 bytes) per round. About 1 700 instructions per call for AES-128.
 *
 * Constant time: the branches depend on Nr and the round number only (public); every memory
 * address is the state buffer, a round key or a constant, never data-dependent.
 * vpternlogq, vprorq, vpxorq, vpandq and vpshufb have fixed latency.
 *
 * Functions (rk: the 64-bit kernel's round keys, [u64; 8] per round, Nr + 1 rounds; nr: 10,
 * 12 or 14; state: 8 words x 8 lanes, word b at byte 64b; any alignment):
 *   void simdcrypt_aes_bs_encrypt_avx512(const u64 *rk, size_t nr, u64 state[64])
 *   void simdcrypt_aes_bs_decrypt_avx512(const u64 *rk, size_t nr, u64 state[64])
 * encrypt is fixslice::encrypt and decrypt fixslice::decrypt on the eight lanes at once.
 *
 * Instructions per piece:"""

PRELUDE = """
#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define RK      %rdi
#define ST      %rdx
"""

TRAILER = """
        .section .note.GNU-stack, "", @progbits
#endif
"""

if __name__ == "__main__":
    sys.exit(main())
