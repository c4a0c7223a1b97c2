#!/usr/bin/env python3
"""Adjudicator speed, as the README's Speed table states it.

Builds the criterion benches of one movement phase (`benches/adjudicate.rs`:
Spring 1901 and the middle game) from the working tree, runs them ROUNDS
times and prints every run with the load average: criterion's median (the
median of its samples, each one the mean time of a batch of phases) and its
slope estimate (the headline "time" criterion prints), in nanoseconds. Then
the median of each over the runs.

With --base REV it also builds the bench at that git revision and alternates
the two builds run by run, so that both see the same load, and prints the
ratio of the medians.

Usage: scripts/bench_adjudicate.py [--rounds N] [--base REV]
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

BENCHES = {"spring": "spring_1901_22_orders", "middle": "middle_game_34_units"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(source, target_dir):
    """Builds the adjudicate bench in `source`; returns the binary's path."""
    out = subprocess.run(
        ["cargo", "bench", "--locked", "--bench", "adjudicate", "--no-run"],
        cwd=source,
        env={**os.environ, "CARGO_TARGET_DIR": target_dir},
        capture_output=True,
        text=True,
    )
    found = re.findall(r"Executable .*\((.*)\)", out.stderr)
    if out.returncode != 0 or not found:
        sys.exit(f"building the bench in {source} failed:\n{out.stderr}")
    return os.path.join(source, found[-1])


def run(binary, workdir):
    """One criterion run of both benches: {bench: (median ns, slope ns)}."""
    pattern = "^(" + "|".join(BENCHES.values()) + ")$"
    subprocess.run(
        [binary, "--bench", pattern, "--noplot"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    figures = {}
    for short, name in BENCHES.items():
        path = os.path.join(workdir, "target", "criterion", name, "new", "estimates.json")
        with open(path) as f:
            e = json.load(f)
        figures[short] = (e["median"]["point_estimate"], e["slope"]["point_estimate"])
    return figures


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--base", help="a git revision to compare with")
    args = ap.parse_args()

    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    builds = {"current": build(ROOT, target)}
    if args.base:
        builds[args.base] = build(checkout(args.base, target), os.path.join(target, "bench-base"))

    scratch = tempfile.mkdtemp(prefix="legate-bench-")
    try:
        runs = measure(builds, args.rounds, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report(runs, args)


def checkout(rev, target):
    """A worktree of `rev` under the target directory. It stays there, its
    files untouched where `rev` does not change them, so that the next
    comparison builds only what changed."""
    tree = os.path.join(target, "bench-base-tree")
    if os.path.isdir(tree):
        git = ["git", "-C", tree, "checkout", "--quiet", "--force", "--detach", rev]
    else:
        git = ["git", "-C", ROOT, "worktree", "add", "--quiet", "--detach", tree, rev]
    subprocess.run(git, check=True)
    return tree


def measure(builds, rounds, scratch):
    """Runs every build `rounds` times, alternating; prints each run."""
    runs = {name: [] for name in builds}
    for r in range(1, rounds + 1):
        for name, binary in builds.items():
            workdir = os.path.join(scratch, "runs", re.sub(r"\W", "_", name))
            os.makedirs(workdir, exist_ok=True)
            before = load()
            figures = run(binary, workdir)
            runs[name].append(figures)
            cells = "  ".join(f"{b} median {m:.0f} slope {s:.0f}" for b, (m, s) in figures.items())
            print(f"run {r} {name:>10}  load {before}  {cells}", flush=True)
    return runs


def report(runs, args):
    print(f"\nmedian over {args.rounds} runs, ns per phase:")
    medians = {}
    for name, figures in runs.items():
        for b in BENCHES:
            med = statistics.median(f[b][0] for f in figures)
            slope = statistics.median(f[b][1] for f in figures)
            medians[name, b] = med
            print(f"{name:>10} {b:>6}: median {med:.0f}  slope {slope:.0f}  "
                  f"(medians of single runs {min(f[b][0] for f in figures):.0f}-"
                  f"{max(f[b][0] for f in figures):.0f})")
    if args.base:
        for b in BENCHES:
            print(f"ratio current / {args.base} {b}: {medians['current', b] / medians[args.base, b]:.3f}")


if __name__ == "__main__":
    main()
