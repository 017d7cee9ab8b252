"""`outcomes` over a store of 10,000 sample epochs, beside read_eval_log and Scout.

Builds (once, kept in the user cache) a store of real Inspect logs with the
installed inspect_ai: tests/logs/build_logs.py at scale, run `--rounds`
times (`--scale` repeats of every stand-in run, in both formats: about 2,550
sample epochs a round). Then measures, as fresh processes:

- ``empty-migrate outcomes STORE --format json`` against a fresh Python that
  calls inspect_ai's ``read_eval_log`` on every log (the anchor), alternated
  `--runs` times: median CPU time (user + sys) and wall time, peak RSS. Goal:
  CPU at most 0.75x the anchor's;
- the peak RSS of each over the first round, the first two and all of them,
  to show whether memory grows with the number of samples;
- ``scout scan empty_migrate/empty_outcome -T STORE`` once (skip with
  `--no-scout`): wall time, samples a second, the most processes of its tree
  seen at once and their summed peak RSS (sampled every 50 ms);
- with `--s3`: a moto S3 server started on a free port, the store uploaded to
  it, and ``outcomes s3://bench/store`` measured against the same command over
  the local store.

Usage:
    python bench/large_store.py [--runs 3] [--rounds 4] [--scale 31] [--no-scout] [--s3]
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import READ_EVAL_LOG, Measured, run

ROOT = Path(__file__).parents[1]
BUILD_LOGS = ROOT / "tests" / "audit" / "logs" / "build_logs.py"
GOAL = 0.75


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "empty-migrate" / "bench"


def build_store(rounds: int, scale: int) -> list[Path]:
    """The store's round folders, each built once with the installed inspect_ai."""
    from importlib.metadata import version

    store = cache_root() / f"large-store-{version('inspect-ai')}-x{scale}"
    folders = []
    for n in range(rounds):
        folder = store / f"round{n}"
        if not folder.is_dir():
            print(f"building {folder} (about a minute)", file=sys.stderr)
            with tempfile.TemporaryDirectory() as scratch:
                staging = Path(scratch) / "logs"
                build = [sys.executable, str(BUILD_LOGS), "--inside", str(staging)]
                build += ["--scale", str(scale)]
                subprocess.run(build, check=True, cwd=scratch, capture_output=True)
                folder.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(staging), folder)
        folders.append(folder)
    return folders


def outcomes_command(*locations: str) -> list[str]:
    tool = shutil.which("empty-migrate")
    ours = [tool] if tool else [sys.executable, "-m", "empty_migrate"]
    return [*ours, "outcomes", *locations, "--format", "json"]


def anchor_command(*folders: Path) -> list[str]:
    return [sys.executable, "-c", READ_EVAL_LOG, *map(str, folders)]


def alternated(
    commands: dict[str, list[str]], runs: int, env: dict[str, str] | None = None
) -> dict[str, list[Measured]]:
    """Each command run `runs` times, alternated, after one unmeasured run each."""
    for command in commands.values():
        run(command, env)  # warms the file cache
    measured: dict[str, list[Measured]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            measured[name].append(run(command, env))
    return measured


def median(runs: list[Measured], field: str) -> float:
    return statistics.median(getattr(m, field) for m in runs)


def compare_with_anchor(folders: list[Path], runs: int) -> None:
    samples = int(run(anchor_command(*folders)).out)
    print(
        f"store: {samples:,} sample epochs in {len(folders)} rounds under "
        f"{folders[0].parent}"
    )
    measured = alternated(
        {
            "outcomes": outcomes_command(*map(str, folders)),
            "read_eval_log": anchor_command(*folders),
        },
        runs,
    )
    for name, each in measured.items():
        print(
            f"{name:<14} CPU {median(each, 'cpu'):6.2f} s  wall "
            f"{median(each, 'wall'):6.2f} s  peak {max(m.peak_mib for m in each)} MiB"
        )
    ratio = median(measured["outcomes"], "cpu") / median(
        measured["read_eval_log"], "cpu"
    )
    verdict = "meets" if ratio <= GOAL else "misses"
    print(
        f"CPU ratio: {ratio:.2f}x ({verdict} the {GOAL}x goal; medians of {runs} "
        "alternated fresh runs)"
    )


def memory_by_size(folders: list[Path]) -> None:
    print("peak RSS by store size (one run each):")
    sizes = sorted({1, max(1, len(folders) // 2), len(folders)})
    for n in sizes:
        part = folders[:n]
        anchor = run(anchor_command(*part))
        ours = run(outcomes_command(*map(str, part)))
        print(
            f"  {int(anchor.out):>7,} samples: outcomes {ours.peak_mib} MiB, "
            f"read_eval_log {anchor.peak_mib} MiB"
        )


def scout_scan(folders: list[Path]) -> None:
    scout = shutil.which("scout")
    if not scout:
        print("scout: not installed (pip install 'empty-migrate[scout]'); skipped")
        return
    store = folders[0].parent
    samples = int(run(anchor_command(*folders)).out)
    with tempfile.TemporaryDirectory() as scans:
        command = [
            scout,
            "scan",
            "empty_migrate/empty_outcome",
            "-T",
            str(store),
            "--scans",
            scans,
            "--display",
            "none",
        ]
        measured = run(command, watch_tree=True)
        rows = scan_rows(Path(scans))
    # Scout reads the .eval logs of a folder (0.6.1 lists no .json log): its
    # rate is of the samples it scanned
    print(
        f"scout scan: {rows:,} of the {samples:,} sample epochs scanned (its "
        f".eval logs); wall {measured.wall:.1f} s, CPU {measured.cpu:.1f} s "
        f"(children included), {rows / measured.wall:.1f} samples/s; up to "
        f"{measured.processes} processes at once, peak {measured.tree_peak_mib} "
        "MiB summed over them"
    )


def scan_rows(scans: Path) -> int:
    import pyarrow.parquet as pq

    return sum(
        pq.read_metadata(p).num_rows for p in scans.rglob("empty_outcome.parquet")
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


S3_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def on_s3(folders: list[Path], runs: int) -> None:
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        env = {**os.environ, **S3_ENV, "AWS_ENDPOINT_URL": endpoint}
        client = _s3_client(endpoint)
        client.create_bucket(Bucket="bench")
        store = folders[0].parent
        for folder in folders:
            for log in sorted(folder.iterdir()):
                key = f"store/{log.relative_to(store)}"
                client.upload_file(str(log), "bench", key)
        local = outcomes_command(*map(str, folders))
        remote = outcomes_command("s3://bench/store")
        first = subprocess.run(remote, env=env, capture_output=True, text=True)
        if first.returncode != 0:
            said = (first.stderr.strip().splitlines() or [""])[-1]
            print(f"outcomes on S3: failed (exit {first.returncode}): {said}")
            return
        same = first.stdout.replace("s3://bench/store", str(store)) == run(local).out
        measured = alternated({"local": local, "s3": remote}, runs, env)
        for name, each in measured.items():
            peak = max(m.peak_mib for m in each)
            print(
                f"outcomes, {name:<5} CPU {median(each, 'cpu'):6.2f} s  wall "
                f"{median(each, 'wall'):6.2f} s  peak {peak} MiB"
            )
        print(f"S3 rows the same as the local store's: {same}")
    finally:
        server.terminate()
        server.wait()


def _s3_client(endpoint: str):  # type: ignore[no-untyped-def]
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        **{
            "aws_access_key_id": "testing",
            "aws_secret_access_key": "testing",
            "region_name": "us-east-1",
        },
    )
    for _ in range(100):  # the server takes a moment to listen
        try:
            client.list_buckets()
            return client
        except Exception:
            time.sleep(0.1)
    sys.exit(f"the moto server at {endpoint} did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--scale", type=int, default=31)
    parser.add_argument("--no-scout", action="store_true")
    parser.add_argument("--s3", action="store_true")
    args = parser.parse_args()
    folders = build_store(args.rounds, args.scale)
    print(
        f"machine: {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    compare_with_anchor(folders, args.runs)
    memory_by_size(folders)
    if not args.no_scout:
        scout_scan(folders)
    if args.s3:
        on_s3(folders, args.runs)


if __name__ == "__main__":
    main()
