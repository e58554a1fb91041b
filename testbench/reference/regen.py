#!/usr/bin/env python3
"""Write testbench/ptx/<name>.launch.yaml and <name>.expected.json for every kernel reference.

A kernel reference is any module in testbench/reference/ other than corpus.py and regen.py.
Usage: regen.py [NAME...]   (default: all). Exits non-zero if a reference has no matching .ptx.
"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PTX_DIR = os.path.join(os.path.dirname(HERE), "ptx")
NOT_KERNELS = {"corpus", "regen"}
sys.path.insert(0, HERE)

import corpus  # noqa: E402


def kernel_names():
    return sorted(f[:-3] for f in os.listdir(HERE)
                  if f.endswith(".py") and f[:-3] not in NOT_KERNELS and not f.startswith("_"))


def regen(name):
    module = importlib.import_module(name)
    launch = module.launch()
    final = module.reference(launch)
    tolerance = getattr(module, "TOLERANCE", None)
    ptx = os.path.join(PTX_DIR, f"{name}.ptx")
    if not os.path.exists(ptx):
        raise SystemExit(f"regen.py: {name}: no {ptx}")
    comment = (module.__doc__ or name).strip()
    with open(os.path.join(PTX_DIR, f"{name}.launch.yaml"), "w") as f:
        f.write(launch.to_yaml(comment))
    with open(os.path.join(PTX_DIR, f"{name}.expected.json"), "w") as f:
        f.write(corpus.expected_json(launch, final, tolerance))
    print(f"regen {name}")


def main():
    names = sys.argv[1:] or kernel_names()
    for name in names:
        regen(name)


if __name__ == "__main__":
    main()
