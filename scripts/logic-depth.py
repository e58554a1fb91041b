#!/usr/bin/env python3
"""The deepest register-to-register paths of a flat ECP5 netlist, named by the RTL's nets.

nextpnr-ecp5 prints a critical path only after routing, and a board top that takes hours to
route gives no path for hours. This walks the synthesised netlist instead: every path from a
start point (a flip-flop's Q, a block RAM's output, an input pin) through LUTs, carry chains,
multipliers and distributed-RAM reads to an end point (a flip-flop's D/CE/LSR, a RAM's address
or data, an output pin), weighted by a rough ECP5 delay per cell with its routing hop (ns;
speed grade 6, fitted to routed ULX3S tops: a LUT4 with its hop ~1.45, a block RAM's read
~5.8 (its output not registered), a carry cell ~0.05 along the chain, a distributed RAM read
~1.3, a multiplier ~4). Placement adds wire delay to the long paths, so the ranking is
the guide, not the nanoseconds. Flatten the netlist first (the flow keeps the units apart):

Usage (docs/FPGA.md shows what it found):
    yosys -q -p "read_json work/ulx3s_top.ecp5-85k.json; setattr -mod -unset keep_hierarchy *; \
                 hierarchy -top ulx3s_top; flatten; write_json flat.json"
    scripts/logic-depth.py flat.json ulx3s_top [paths-shown]
"""
import collections
import re
import sys

from netlist_json import bit_names, load_module

LUT_NS = 1.45         # a LUT4 and the hop into it (routed ULX3S top: 0.24 + ~1.2 routing)
CARRY_ENTRY_NS = 1.2  # into a CCU2C's A/B and out of its COUT or S
CARRY_STEP_NS = 0.05  # CIN -> COUT along the chain
CARRY_SUM_NS = 0.3    # CIN -> S
DPR_READ_NS = 1.3     # TRELLIS_DPR16X4 RAD -> DO
MULT_NS = 4.0         # MULT18X18D, combinational
CLK_TO_Q_NS = 0.5     # start point
RAM_CLK_TO_Q_NS = 5.8 # DP16KD read, output not registered (routed ULX3S top: 5.83)

# Combinational arcs: cell type -> [(input ports, output ports, ns)].
ARCS = {
    "LUT4": [(("A", "B", "C", "D"), ("Z",), LUT_NS)],
    "PFUMX": [(("ALUT", "BLUT", "C0"), ("Z",), 0.4)],
    "L6MUX21": [(("D0", "D1", "SD"), ("Z",), 0.4)],
    "CCU2C": [
        (("A0", "B0", "C0", "D0"), ("S0", "COUT", "S1"), CARRY_ENTRY_NS),
        (("A1", "B1", "C1", "D1"), ("S1", "COUT"), CARRY_ENTRY_NS),
        (("CIN",), ("COUT",), CARRY_STEP_NS),
        (("CIN",), ("S0", "S1"), CARRY_SUM_NS),
    ],
    "TRELLIS_DPR16X4": [(("RAD[0]", "RAD[1]", "RAD[2]", "RAD[3]"), ("DO[0]", "DO[1]", "DO[2]", "DO[3]"), DPR_READ_NS)],
    "MULT18X18D": [(None, None, MULT_NS)],  # every A/B input to every P output
    "ALU54B": [(None, None, MULT_NS)],
}
START_NS = {"TRELLIS_FF": CLK_TO_Q_NS, "DP16KD": RAM_CLK_TO_Q_NS, "TRELLIS_IO": 0.0}


def main():
    _, _, shown, module = load_module(__doc__, 10)
    names = {b: n for b, (n, _) in bit_names(module, indexed=True).items()}
    driver, arcs_from = build_graph(module)
    arrival, back = longest_arrivals(module, driver, arcs_from)
    ends = end_points(module, arrival)
    ends.sort(key=lambda e: -e[0])
    seen = set()
    printed = 0
    for ns, bit, cell in ends:
        key = fold(rtl_name(names.get(bit, str(bit))))
        if key in seen:
            continue
        seen.add(key)
        path = trace(bit, back)
        levels = sum(1 for _, c in path if c and module["cells"][c]["type"] == "LUT4")
        print(f"{ns:6.1f} ns  {levels:3d} LUT levels  -> {key} ({module['cells'][cell]['type']})")
        steps = []
        for b, _ in path:
            step = rtl_name(names.get(b, str(b)))
            if not steps or steps[-1] != step:
                steps.append(step)
        print("           " + "\n        -> ".join(steps))
        printed += 1
        if printed == shown:
            break


def rtl_name(name):
    """The RTL signal a techmapped net stands for: abc9 and techmap names extend the name of
    the register or signal the logic was cut from with `_LUT4_Z_...`, `_CCU2C_...` chains."""
    name = re.split(r"_(?:LUT4|CCU2C|TRELLIS_\w+|MULT18X18D|PFUMX|L6MUX21|DP16KD)_", name)[0]
    return re.sub(r"\[\d+\]$", "", name)


def fold(name):
    """Fold bit and array indices so one register's bits count once."""
    return re.sub(r"\[\d+\]|\$\d+", "", name)


def port_bits(cell, port):
    """`RAD[2]` names bit 2 of the port `RAD`; plain names the whole port."""
    m = re.fullmatch(r"(\w+)\[(\d+)\]", port)
    conns = cell["connections"]
    if m and m.group(1) in conns:
        return [conns[m.group(1)][int(m.group(2))]]
    return conns.get(port, [])


def build_graph(module):
    """driver: bit -> cell driving it; arcs_from: input bit -> [(cell, output bit, ns)]."""
    driver = {}
    arcs_from = collections.defaultdict(list)
    for name, cell in module["cells"].items():
        dirs = cell.get("port_directions", {})
        for port, bits in cell["connections"].items():
            if dirs.get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = name
        for ins, outs, ns in ARCS.get(cell["type"], []):
            if ins is None:
                ins = [p for p, d in dirs.items() if d == "input"]
                outs = [p for p, d in dirs.items() if d == "output"]
            in_bits = [b for p in ins for b in port_bits(cell, p) if isinstance(b, int)]
            out_bits = [b for p in outs for b in port_bits(cell, p) if isinstance(b, int)]
            for i in in_bits:
                for o in out_bits:
                    arcs_from[i].append((name, o, ns))
    return driver, arcs_from


def longest_arrivals(module, driver, arcs_from):
    """Arrival time of every bit reached from a start point, in topological order."""
    arrival, back = {}, {}
    indegree = collections.Counter()
    for i, outs in arcs_from.items():
        for _, o, _ in outs:
            indegree[o] += 1
    ready = []
    for name, cell in module["cells"].items():
        start = START_NS.get(cell["type"])
        if start is None:
            continue
        for port, bits in cell["connections"].items():
            if cell.get("port_directions", {}).get(port) == "output":
                for b in bits:
                    if isinstance(b, int) and indegree[b] == 0:
                        arrival[b] = start
                        back[b] = (None, name)
    for port in module["ports"].values():
        if port["direction"] == "input":
            for b in port["bits"]:
                if isinstance(b, int):
                    arrival.setdefault(b, 0.0)
                    back.setdefault(b, (None, None))
    # Every bit with no combinational driver is a start (constants, undriven, black boxes).
    for b in list(arcs_from):
        if indegree[b] == 0 and b not in arrival:
            arrival[b] = 0.0
            back[b] = (None, driver.get(b))
    ready = [b for b in arrival if indegree[b] == 0]
    while ready:
        b = ready.pop()
        for cell, o, ns in arcs_from.get(b, ()):
            t = arrival[b] + ns
            if t > arrival.get(o, -1.0):
                arrival[o] = t
                back[o] = (b, cell)
            indegree[o] -= 1
            if indegree[o] == 0:
                ready.append(o)
    stuck = sum(1 for b, n in indegree.items() if n > 0)
    if stuck:
        print(f"note: {stuck} bits on combinational loops left out", file=sys.stderr)
    return arrival, back


def end_points(module, arrival):
    """(arrival ns, bit, cell) at every sequential input and output pin."""
    ends = []
    for name, cell in module["cells"].items():
        kind = cell["type"]
        if kind in ARCS and kind != "TRELLIS_DPR16X4":
            continue
        dirs = cell.get("port_directions", {})
        for port, bits in cell["connections"].items():
            if dirs.get(port) != "input" or port in ("CLK", "WCK", "CLKA", "CLKB") or (
                kind == "TRELLIS_DPR16X4" and port == "RAD"
            ):
                continue
            for b in bits:
                if isinstance(b, int) and b in arrival:
                    ends.append((arrival[b], b, name))
    return ends


def trace(bit, back):
    """The path into `bit`, start first: [(bit, cell driving it)]."""
    path = []
    while bit is not None:
        prev, cell = back.get(bit, (None, None))
        path.append((bit, cell))
        bit = prev
    return path[::-1]


if __name__ == "__main__":
    main()
