"""Measuring one fresh process: wall and CPU time, peak RSS (for the benchmarks)."""

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

# the anchor of the outcomes benchmarks: inspect_ai's own whole read of every log
# under the folders it is given
READ_EVAL_LOG = """
import sys
from pathlib import Path
from inspect_ai.log import read_eval_log
found = (p for d in sys.argv[1:] for p in Path(d).rglob("*"))
logs = sorted(p for p in found if p.suffix in {".eval", ".json"})
print(sum(len(read_eval_log(str(p)).samples or []) for p in logs))
"""


@dataclass(frozen=True)
class Measured:
    """One fresh run.

    Attributes:
        wall: Wall seconds.
        cpu: User + system CPU seconds, its waited-for children included.
        peak_mib: The process's own peak RSS (the largest child's, if larger).
        tree_peak_mib: The largest RSS of the process and its children summed,
            sampled every 50 ms (0 unless asked for).
        processes: The most processes of its tree seen at once (0 unless asked for).
        out: Its standard output.
    """

    wall: float
    cpu: float
    peak_mib: int
    tree_peak_mib: int
    processes: int
    out: str


def run(
    command: list[str],
    env: Mapping[str, str] | None = None,
    *,
    watch_tree: bool = False,
) -> Measured:
    """Run `command` as a fresh process and measure it; exit if it fails.

    With `watch_tree`, its tree of processes is sampled (psutil) for the sum
    of their RSS and their count.
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        # waited for with wait4, not communicate, to get this child's own usage
        child = subprocess.Popen(
            command, stdout=out, stderr=err, env=dict(env) if env else None
        )
        tree = _TreeWatch(child.pid) if watch_tree else None
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if tree:
            tree.stop()
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"{' '.join(command)} failed: {err.read().decode()[-800:]}")
        out.seek(0)
        text = out.read().decode()
    return Measured(
        wall,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss // 1024,
        tree.peak // (1 << 20) if tree else 0,
        tree.most if tree else 0,
        text,
    )


class _TreeWatch:
    def __init__(self, pid: int) -> None:
        import psutil

        self._root = psutil.Process(pid)
        self._error = psutil.Error
        self.peak = 0
        self.most = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(0.05):
            try:
                tree = [self._root, *self._root.children(recursive=True)]
                rss = sum(p.memory_info().rss for p in tree)
            except self._error:
                continue
            self.peak = max(self.peak, rss)
            self.most = max(self.most, len(tree))

    def stop(self) -> None:
        self._done.set()
        self._thread.join()
