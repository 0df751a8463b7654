"""Cache prefetch hints for the batched loops (``llvm.prefetch``, a no-op where unsupported).

A batch larger than the last-level cache is stepped from main memory: each game's state and
observation lines arrive one miss at a time while the game's kernels wait on them. Asking for
the next game's lines while the current one is stepped overlaps those misses with its work
(docs/speed.md). A hint never faults and never changes a value.
"""

from __future__ import annotations

import numba as nb
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

CACHE_LINE = 64  # bytes


def _prefetch_intrinsic(write: int):
    """An intrinsic ``f(array_1d, index)`` hinting that ``array[index]`` will be read
    (``write=0``) or written (``write=1``) soon, into every cache level."""

    @intrinsic
    def hint(typingctx, array, index):
        if not (
            isinstance(array, types.Array) and array.ndim == 1 and isinstance(index, types.Integer)
        ):
            return None

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            item = cgutils.get_item_pointer(
                context, builder, aryty, ary, [args[1]], wraparound=False
            )
            byte = builder.bitcast(item, ir.IntType(8).as_pointer())
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [byte.type, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            # (address, write, locality 3: keep in all levels, data cache)
            flags = [ir.Constant(i32, write), ir.Constant(i32, 3), ir.Constant(i32, 1)]
            builder.call(fn, [byte, *flags])
            return context.get_dummy_value()

        return types.none(array, index), codegen

    return hint


prefetch_read = _prefetch_intrinsic(0)
prefetch_write = _prefetch_intrinsic(1)


@nb.njit(cache=True)
def prefetch_rows(states, obs, i):
    """Hint every cache line of game ``i``'s state (to be updated) and observation (to be
    overwritten)."""
    state, out = states[i], obs[i]
    per_line = CACHE_LINE // state.itemsize
    for k in range(0, state.size + per_line, per_line):
        prefetch_write(state, min(k, state.size - 1))
    per_line = CACHE_LINE // out.itemsize
    for k in range(0, out.size + per_line, per_line):
        prefetch_write(out, min(k, out.size - 1))
