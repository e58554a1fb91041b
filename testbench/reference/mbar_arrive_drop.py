"""Hand PTX: mbarrier arrive/noComplete/arrive_drop, pending_count, token and parity waits, tx."""
from corpus import Launch

CTAS, THREADS = 2, 64


def launch():
    l = Launch(block=[THREADS], grid=[CTAS])
    l.buffer("out", "u32", length=CTAS * 16)
    l.param("out")
    return l


class MBarrier:
    """The mbarrier state machine of PTX ISA section 9.7.13.15 (phases: 9.7.13.15.4-9.7.13.15.7),
    for the single-thread steps."""

    def __init__(self, count):
        self.phase, self.expected, self.pending, self.tx = 0, count, count, 0

    def _try_complete(self):
        if self.pending == 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.expected

    def arrive(self, count=1, no_complete=False, drop=False):
        if drop:
            self.expected -= count
        token = (self.phase, self.pending)
        self.pending -= count
        assert self.pending >= 0
        before = self.phase
        self._try_complete()
        assert not (no_complete and self.phase != before), "noComplete arrive completed a phase"
        return token

    def expect_tx(self, k):
        self.tx += k
        self._try_complete()

    def complete_tx(self, k):
        self.tx -= k
        self._try_complete()

    def test_wait(self, token):
        return int(token[0] != self.phase)

    def test_wait_parity(self, parity):
        return int(parity != self.phase & 1)


def reference(l):
    out = []
    for _cta in range(CTAS):
        o = [0] * 16
        m, t = MBarrier(64), MBarrier(1)
        tok = m.arrive(10, no_complete=True)
        o[0] = tok[1]
        o[1] = m.test_wait(tok)
        lane32_tok = None
        for lane in range(32):
            tk = m.arrive()
            if lane == 0:
                lane32_tok = tk
        o[2] = m.arrive(21, no_complete=True)[1]
        t1_tok = m.arrive(drop=True)
        o[3] = m.test_wait(lane32_tok)
        o[4] = m.test_wait(t1_tok)
        o[5] = m.test_wait_parity(0)
        o[6] = m.test_wait_parity(1)
        waited = 0
        for tid in range(THREADS):
            if tid != 1:
                m.arrive()
        for tid in range(THREADS):
            if tid != 1:
                assert m.test_wait_parity(1)
                waited += 1
        o[7] = m.arrive(5, no_complete=True, drop=True)[1]
        for tid in range(3, 61):
            m.arrive()
        o[8] = m.test_wait_parity(0)
        o[9] = m.arrive(1, no_complete=True)[1]
        t.expect_tx(96)
        t.complete_tx(32)
        t.complete_tx(64)
        o[10] = t.test_wait_parity(0)
        t.arrive()
        assert t.test_wait_parity(0)
        t.complete_tx(16)
        t.expect_tx(16)
        t.arrive()
        o[12] = t.test_wait_parity(1)
        o[11] = t.test_wait_parity(0)
        o[13] = waited
        out += o
    return {"out": out}
