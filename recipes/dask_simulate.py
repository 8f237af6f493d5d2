#!/usr/bin/env python3
"""Run one `alien-checkers simulate` plan as shards on a Dask cluster and merge them.

Each shard is the same plan's games `--first-game K --games N`, run as a
subprocess of the binary on a Dask worker (one thread, `--quiet`); the shard
reports come back to this script, which writes them to --parts and runs
`alien-checkers simulate merge`. The merged report is the single run's,
byte for byte (docs/simulate.md, "Shards, interruptions and merge").

Without --scheduler it starts a LocalCluster of worker processes on this
machine; with --scheduler tcp://HOST:8786 it uses that cluster (each worker
needs the binary and the content). Dask is needed only here:

    python3 -m venv /tmp/daskvenv && /tmp/daskvenv/bin/pip install "dask[distributed]"
    /tmp/daskvenv/bin/python recipes/dask_simulate.py --games 200 --shards 4 \\
        --out merged.json -- --a greedy --b greedy --seed 1

Arguments after `--` go to every shard's `simulate` (deck, players, seed, ...;
not --first-game, --games, --threads, --out or --games-out, which this script
sets). `--root` may hold `{shard}`, replaced by the shard's number, for content
found at a different path on each machine.
"""

import argparse
import os
import subprocess
import sys
import tempfile


def run_shard(binary, simulate_args, root, shard, first, games):
    """Runs one shard on a worker; returns (the worker's address, the report's text).

    Raises with the shard's stderr when the binary fails."""
    from dask.distributed import get_worker

    with tempfile.TemporaryDirectory(prefix="alien-checkers-shard-") as scratch:
        out = os.path.join(scratch, "part.json")
        command = [binary, "simulate", *simulate_args]
        if root:
            command += ["--root", root.format(shard=shard)]
        command += ["--first-game", str(first), "--games", str(games), "--threads", "1", "--quiet", "--out", out]
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"shard {shard} ({' '.join(command)}) failed: {done.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            return get_worker().address, f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scheduler", help="a Dask scheduler's address; default: a LocalCluster here")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="LocalCluster worker processes")
    parser.add_argument("--binary", default="alien-checkers", help="the binary, as the workers find it")
    parser.add_argument("--games", type=int, required=True, help="games of the run, from --first-game")
    parser.add_argument("--first-game", type=int, default=0)
    parser.add_argument("--shards", type=int, required=True, help="how many shards to cut the games into")
    parser.add_argument("--root", help="the content root on the workers; {shard} is replaced by the shard's number")
    parser.add_argument("--parts", default="parts", help="folder for the shards' reports (created)")
    parser.add_argument("--out", required=True, help="the merged report (JSON)")
    parser.add_argument("simulate_args", nargs="*", help="after --: arguments for every shard's simulate")
    args = parser.parse_args()
    if args.shards < 1 or args.games < args.shards:
        parser.error("--shards must be at least 1 and at most --games")

    from dask.distributed import Client, LocalCluster

    # Shard k plays its share of the games, contiguous, in game order.
    bounds = [args.first_game + args.games * k // args.shards for k in range(args.shards + 1)]
    shards = [(k, bounds[k], bounds[k + 1] - bounds[k]) for k in range(args.shards)]

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        futures = [
            client.submit(run_shard, args.binary, args.simulate_args, args.root, k, first, games,
                          key=f"alien-checkers-shard-{k}-{first}", pure=False)
            for k, first, games in shards
        ]
        reports = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    os.makedirs(args.parts, exist_ok=True)
    files = []
    for (k, first, games), (worker, text) in zip(shards, reports):
        path = os.path.join(args.parts, f"part-{first}.json")
        print(f"shard {k}: games {first}-{first + games - 1} on worker {worker} -> {path}", file=sys.stderr)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        files.append(path)
    merge = [args.binary, "simulate", "merge", *files, "--out", args.out]
    sys.exit(subprocess.run(merge).returncode)


if __name__ == "__main__":
    main()
