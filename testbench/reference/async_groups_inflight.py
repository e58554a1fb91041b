"""Hand PTX: cp.async and bulk async-group waits while an 8 KiB bulk copy ahead is in flight."""
from corpus import Launch

BIG = 8192


def launch():
    # bytes 1..251, never 0 (shared and global memory start zeroed, so a read before the copy
    # landed shows)
    data = [(i * 89 + 13) % 251 + 1 for i in range(BIG + 32)]
    l = Launch(block=[32], grid=[1])
    l.buffer("src", "u8", data=data)
    l.buffer("gout", "u8", length=BIG)
    l.buffer("out", "u8", length=48)
    l.param("src", "gout", "out")
    return l


def reference(l):
    src = l.get("src").data
    # phase 1: X = src[8192..8208] (cp.async 16 B, PTX ISA §9.7.9.25.3.1), read after wait_group 0
    # phase 2: Y = src[8208..8224], read after wait_group 3 with Y's group the oldest of four
    # phase 3: the 8 KiB in shared (src[0..8192], loaded twice) stored to gout (its source is
    # overwritten only after wait_group.read 0); out[32..48] = gout's last 16 bytes
    out = src[BIG:BIG + 16] + src[BIG + 16:BIG + 32] + src[BIG - 16:BIG]
    return {"gout": src[:BIG], "out": out}
