"""Bit intrinsics of the kernels (domains are int64 bitmasks): LLVM's ctpop, cttz and ctlz."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of an int64 (LLVM ctpop)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero int64 (LLVM cttz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def highest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero int64 (63 - LLVM ctlz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen
