#!/usr/bin/env python3
"""Run the workspace's tests as `cargo test --workspace` does, but with two test binaries at a time.

`cargo test` runs its test binaries one after another. Most of ours are long and use one or two
threads (a Verilated cosim, a rust-hdl simulation, a yosys run), so a two-core machine sits half
idle for much of the suite. This runner builds every test binary with `cargo test --no-run`, then
runs them `--jobs` at a time (default: the number of cores), the ones known to be long first, each
in its package's directory as cargo would. Models that two binaries need are built once: the
Verilator builder locks each cache entry (testbench/src/verilator/builder.rs).

Each binary's output is printed whole when it ends (so two binaries never interleave), then a
line `PASS`/`FAIL` with its time; at the end, every binary's time, longest first, and the
failures. Exit status 1 if any binary failed (or the build did), 0 otherwise.

    python3 scripts/run-tests.py [--jobs N] [-- ARGS FOR EVERY TEST BINARY]

scripts/test.sh calls it (the README's test command); `-- --include-ignored` is the full tier.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

# Binaries that take minutes in the quick tier (docs/BENCHMARKS.md, "Test suite"), longest first:
# starting them first keeps both cores busy to the end. Unknown binaries follow, in cargo's order.
LONG_FIRST = [
    "cosim_corpus",
    "fuzz_cosim",
    "atomic_alu",
    "prove",
    "gen_lint",
    "board_uart",
    "explore",
    "cosim_rtl",
    "mutate",
    "warp_network",
    "progress",
    "flow",
    "verilator_smoke",
    "barrier_file",
    "copy_engine",
    "top_random",
    "fuzz",
]


def build(cargo_args):
    """`cargo test --no-run` with JSON messages: the test executables as (name, dir, path)."""
    cmd = ["cargo", "test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"] + cargo_args
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    tests = []
    for line in proc.stdout:
        if not line.startswith("{"):
            continue
        msg = json.loads(line)
        if msg.get("reason") == "compiler-message":
            rendered = msg.get("message", {}).get("rendered")
            if rendered:
                sys.stderr.write(rendered)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if not msg.get("profile", {}).get("test"):
            continue
        target = msg["target"]
        package_dir = os.path.dirname(msg["manifest_path"])
        package = os.path.relpath(package_dir)
        kind = "unittests" if target["kind"] != ["test"] else "tests"
        tests.append((f"{package}/{kind}/{target['name']}", package_dir, msg["executable"], target["name"]))
    if proc.wait() != 0:
        sys.exit(f"run-tests: `{' '.join(cmd)}` failed (exit {proc.returncode})")
    return tests


def order(tests):
    """Known-long binaries first (in LONG_FIRST's order), then the rest in cargo's order."""
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    return sorted(tests, key=lambda t: rank.get(t[3], len(LONG_FIRST)))


class Runner:
    def __init__(self, jobs, args):
        self.jobs = jobs
        self.args = args
        self.lock = threading.Lock()
        self.results = []  # (name, seconds, ok)
        self.done = 0
        self.total = 0

    def run_one(self, name, cwd, command):
        env = dict(os.environ, CARGO_MANIFEST_DIR=cwd)
        start = time.monotonic()
        with tempfile.TemporaryFile(mode="w+") as out:
            code = subprocess.call(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
            out.seek(0)
            text = out.read()
        secs = time.monotonic() - start
        with self.lock:
            self.done += 1
            status = "PASS" if code == 0 else f"FAIL (exit {code})"
            sys.stdout.write(f"\n==== {name}\n{text}")
            sys.stdout.write(f"==== [{self.done}/{self.total}] {status} {name} in {secs:.1f} s\n")
            sys.stdout.flush()
            self.results.append((name, secs, code == 0))

    def run_all(self, work):
        self.total = len(work)
        queue = list(work)

        def worker():
            while True:
                with self.lock:
                    if not queue:
                        return
                    name, cwd, command = queue.pop(0)
                self.run_one(name, cwd, command)

        threads = [threading.Thread(target=worker) for _ in range(self.jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="test binaries at a time")
    parser.add_argument("args", nargs="*", help="arguments for every test binary (after --)")
    opts = parser.parse_args()
    start = time.monotonic()
    tests = build([])
    print(f"run-tests: {len(tests)} test binaries and the doc tests, {opts.jobs} at a time", flush=True)
    work = [(name, cwd, [exe] + opts.args) for name, cwd, exe, _ in order(tests)]
    # The doc tests are compiled by rustdoc, so cargo runs them.
    work.append(("doc tests", os.getcwd(), ["cargo", "test", "--workspace", "--doc", "--quiet", "--"] + opts.args))
    runner = Runner(opts.jobs, opts.args)
    runner.run_all(work)
    wall = time.monotonic() - start
    failed = [name for name, _, ok in runner.results if not ok]
    print("\nrun-tests: time per binary, longest first")
    for name, secs, ok in sorted(runner.results, key=lambda r: -r[1]):
        print(f"  {secs:8.1f} s  {'ok  ' if ok else 'FAIL'}  {name}")
    print(f"run-tests: {len(runner.results)} run, {len(failed)} failed, {wall:.0f} s wall (build included)")
    if failed:
        print("run-tests: FAILED: " + ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
