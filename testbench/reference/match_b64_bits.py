"""match.any / match.all on 64-bit keys over every key bit in both polarities on every lane.

The kernel computes its keys (testbench/cuda/match_b64_bits.cu); `keys` below is the same
formula (match.all's key, one per round, needs none: every lane holds it), so the expected masks follow from PTX ISA §9.7.13.12 alone.
"""
from corpus import Launch

ROUNDS = 128
MASK64 = (1 << 64) - 1


def key_hash(r, k):
    x = ((k + 1) * 0x9E37_79B9_7F4A_7C15 + r * 0xD1B5_4A32_D192_ED03) & MASK64
    return x ^ (x >> 29)


def any_keys(r):
    """Round r's match.any keys, lanes 0..31 (match.all's are one key per round: equal)."""
    bit = 1 << (r % 64)
    bases = [key_hash(r, k) & ~bit for k in range(16)]
    assert len(set(bases)) == 16, f"round {r}: two pairs share a key"
    return [bases[lane // 2] | (bit if lane % 2 == r // 64 else 0) for lane in range(32)]


def launch():
    l = Launch(block=[32], grid=[1])
    for name in ("any_out", "all_out", "all_pred"):
        l.buffer(name, "u32", length=ROUNDS * 32)
    l.param("any_out", "all_out", "all_pred")
    return l


def reference(l):
    any_o, all_o, all_p = [], [], []
    for r in range(ROUNDS):
        k = any_keys(r)
        any_o += [sum(1 << j for j in range(32) if k[j] == k[i]) for i in range(32)]
        # every lane holds the same key: the mask of all 32 lanes, predicate true
        all_o += [0xFFFF_FFFF] * 32
        all_p += [1] * 32
    return {"any_out": any_o, "all_out": all_o, "all_pred": all_p}
