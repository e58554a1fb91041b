#!/usr/bin/env python3
"""Where a flat module's LUTs go: attribute each LUT of a flattened ECP5 or Xilinx netlist to the
registers, RAMs and output ports its output cone reaches (through other LUTs, wide muxes and carry
cells), split evenly among them where the logic is shared.

yosys names a flip-flop's output net after the register it implements, so the groups read as
RTL names (`out_preds`, `redux_acc`, `results.banks$N$read_data`); indices are folded (`$N`).
A rough guide to what to cut next, not an exact partition: ABC merges logic across registers.

Usage (docs/FPGA.md shows the figures it gave):
    smsync gen --config configs/fpga-small.yaml --out rtl
    yosys -q -p "read_verilog rtl/warp_network.v; synth_ecp5 -top warp_network; write_json wn.json"
    scripts/lut-attribution.py wn.json warp_network [top-N]
"""
import collections
import re
import sys

from netlist_json import bit_names, load_module

# Combinational cells of the ECP5 (synth_ecp5) and Xilinx 7-series (synth_xilinx) netlists.
LOGIC = ("LUT4", "PFUMX", "L6MUX21", "CCU2C", "LUT1", "LUT2", "LUT3", "LUT5", "LUT6", "MUXF7", "MUXF8", "CARRY4")
LUTS = ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6")


def main():
    netlist, top, shown, module = load_module(__doc__, 40)
    names = bit_names(module)
    cells = module["cells"]
    sinks = collections.defaultdict(list)
    for cell_name, cell in cells.items():
        for port, bits in cell["connections"].items():
            if cell.get("port_directions", {}).get(port) == "output":
                continue
            for bit in bits:
                if isinstance(bit, int):
                    sinks[bit].append(cell_name)
    out_ports = {
        b for p in module["ports"].values() if p["direction"] == "output" for b in p["bits"] if isinstance(b, int)
    }

    def group(cell_name):
        conn = cells[cell_name]["connections"]
        q = conn.get("Q") or conn.get("DO") or []
        name = names.get(q[0], ("?", 1))[0] if q else cell_name
        return re.sub(r"\$q$", "", re.sub(r"\$\d+", "$N", re.sub(r"\[\d+\]", "", name)))

    reach = {}
    sys.setrecursionlimit(1_000_000)

    def reached(cell_name):
        if cell_name in reach:
            return reach[cell_name]
        reach[cell_name] = frozenset()
        found = set()
        cell = cells[cell_name]
        for port, bits in cell["connections"].items():
            if cell.get("port_directions", {}).get(port) != "output":
                continue
            for bit in (b for b in bits if isinstance(b, int)):
                if bit in out_ports:
                    found.add("port:" + re.sub(r"\[\d+\]", "", names.get(bit, ("?", 1))[0]))
                for sink in sinks[bit]:
                    found |= reached(sink) if cells[sink]["type"] in LOGIC else {group(sink)}
        reach[cell_name] = frozenset(found)
        return reach[cell_name]

    cost = collections.Counter()
    luts = [c for c, cell in cells.items() if cell["type"] in LUTS]
    for cell_name in luts:
        groups = reached(cell_name) or {"(drives nothing)"}
        for g in groups:
            cost[g] += 1 / len(groups)
    print(f"{len(luts)} LUTs in {top}")
    for g, n in cost.most_common(shown):
        print(f"{n:8.0f}  {g}")


if __name__ == "__main__":
    main()
