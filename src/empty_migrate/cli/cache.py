"""``empty-migrate cache [clear]``: parse, print, set exit codes."""

import argparse
import json

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.target.cache import cache_path
from empty_migrate.target.cache_use import by_kind, cache_parts, clear_cache


def run_cache_command(args: argparse.Namespace) -> int:
    """Show where the cache is and what it holds, or (``clear``) empty it."""
    if args.action == "clear":
        return _clear()
    folder = cache_path()
    parts = cache_parts(folder)
    if args.format == "json":
        listed = [{"name": p.name, "kind": p.kind, "size": p.size} for p in parts]
        total = sum(p.size for p in parts)
        document = {"folder": str(folder), "size": total, "parts": listed}
        print(json.dumps(document, indent=2))
        return ExitCode.OK
    print(f"{folder}: {_size(sum(p.size for p in parts))}")
    width = max((len(kind) for kind, _, _ in by_kind(parts)), default=0)
    for kind, size, names in by_kind(parts):
        print(f"  {kind:<{width}}  {_size(size):>9}  {', '.join(names)}")
    print(
        "`empty-migrate cache clear` empties it; EMPTY_MIGRATE_CACHE=FOLDER "
        "puts it elsewhere"
    )
    return ExitCode.OK


def _clear() -> int:
    folder = cache_path()
    removed, left = clear_cache(folder)
    freed = sum(part.size for part in removed)
    print(f"{folder}: removed {len(removed)} part(s), {_size(freed)}")
    if left:
        names = ", ".join(part.name for part in left)
        print(f"left {len(left)} entries that are not empty-migrate's: {names}")
    return ExitCode.OK


def _size(count: int) -> str:
    """`count` bytes in B, KB, MB or GB (powers of 1000), as a reader takes them."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} B"
