/*
 * cet.h (x86_64) -- Intel CET marking for every x86_64 assembly file (DESIGN.md rule 10).
 *
 * Included once, right after the file's `#if defined(__ELF__) && defined(__x86_64__)`.
 *
 * ENDBR: the first instruction of every global function. With indirect branch tracking (IBT)
 * on, an indirect `call`/`jmp` must land on `endbr64`, and our entry points are reached
 * through function pointers (the kernel tables of the wrappers, the ABI harness). On a CPU
 * without CET, or with IBT off, `endbr64` is a 4-byte NOP (F3 0F 1E FA, a hint in the
 * reserved-NOP space), so it is emitted unconditionally.
 *
 * The note: a `.note.gnu.property` section with GNU_PROPERTY_X86_FEATURE_1_AND = IBT | SHSTK.
 * The linker ANDs this property over every input object and marks the output as
 * CET-compatible only if all of them carry it; one object without it turns IBT and shadow
 * stacks off for the whole program (or fails the link under `-z cet-report=error`).
 * Claiming SHSTK is correct because no function here returns other than by a `ret` that
 * matches its `call` (no stack switching, no `jmp` through a popped return address).
 * Layout (x86-64 psABI, "Program Property"; ELF64, so 8-byte alignment):
 *     namesz = 4, descsz = 16, type = NT_GNU_PROPERTY_TYPE_0 (5), name "GNU\0",
 *     desc = { pr_type = 0xc0000002, pr_datasz = 4, pr_data = 3 (bit 0 IBT, bit 1 SHSTK),
 *              4 bytes of padding to 8 }.
 */

#define ENDBR   endbr64

        .pushsection .note.gnu.property, "a"
        .p2align 3
        .long   .Lcet_name_end - .Lcet_name     /* namesz */
        .long   .Lcet_desc_end - .Lcet_desc     /* descsz */
        .long   5                               /* NT_GNU_PROPERTY_TYPE_0 */
.Lcet_name:
        .asciz  "GNU"
.Lcet_name_end:
.Lcet_desc:
        .long   0xc0000002                      /* GNU_PROPERTY_X86_FEATURE_1_AND */
        .long   4                               /* pr_datasz */
        .long   3                               /* IBT | SHSTK */
        .p2align 3
.Lcet_desc_end:
        .popsection
