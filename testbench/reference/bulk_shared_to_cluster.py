"""Hand PTX: cp.async.bulk shared::cta -> shared::cluster (own CTA) of 16, 48 and 256 bytes on one mbarrier."""
from corpus import Launch

BYTES = 320


def launch():
    data = [(i * 37 + 5) % 251 + 1 for i in range(BYTES)]   # never 0 (shared memory starts zeroed)
    l = Launch(block=[32], grid=[1])
    l.buffer("src", "u8", data=data)
    l.buffer("out", "u8", length=BYTES)
    l.param("src", "out")
    return l


def reference(l):
    # The three copies cover dbuf[0..320) once (PTX ISA §9.7.9.25.4.1); the mbarrier's phase
    # completes after the expect_tx(320) is met, so every byte is read after it landed.
    return {"out": list(l.get("src").data)}
