"""Shared by the netlist scripts (lut-attribution.py, logic-depth.py): the command line
`NETLIST TOP [N]` and the names of a yosys JSON module's nets."""
import json
import sys


def load_module(doc, default_shown):
    """(netlist path, top, shown, module) from `sys.argv`; exits with `doc` or a clear error."""
    if len(sys.argv) < 3:
        sys.exit(doc)
    netlist, top = sys.argv[1], sys.argv[2]
    shown = int(sys.argv[3]) if len(sys.argv) > 3 else default_shown
    module = json.load(open(netlist))["modules"].get(top)
    if module is None:
        sys.exit(f"{netlist}: no module `{top}`")
    return netlist, top, shown, module


def bit_names(module, indexed=False):
    """Bit -> (name of its net, hidden): a visible name before a `$`-name. With `indexed`, a
    multi-bit net's bit is named `net[i]`."""
    names = {}
    for name, net in module["netnames"].items():
        hidden = net.get("hide_name", 0)
        for i, bit in enumerate(net["bits"]):
            label = f"{name}[{i}]" if indexed and len(net["bits"]) > 1 else name
            if isinstance(bit, int) and (bit not in names or (names[bit][1] and not hidden)):
                names[bit] = (label, hidden)
    return names
