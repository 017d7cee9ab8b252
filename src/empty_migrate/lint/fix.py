"""What ``lint --fix`` would do: the migration's own answer, computed.

``lint`` says "--fix migrates X" only when the migration would rewrite X, so
the migration is computed here (planned and run as ``--eval`` would, writing
nothing) for the registered evals with findings. An eval it leaves as it is
comes back with the migration's reason: its code drifted from its entry (and
what to change there), a unit it shares code with cannot be migrated, a
construct no codemod can rewrite. So lint, ``--fix`` and ``--eval`` say the
same thing, and ``--fix`` never promises what it then skips.
"""

import datetime
from collections.abc import Callable
from pathlib import Path

from empty_migrate.lint.rules import FixPlan
from empty_migrate.registry.loader import Registry


def fix_plan(registry: Registry, root: Path) -> Callable[[list[str]], FixPlan]:
    """A `lint` fix plan: what migrating the given evals of `root` would do."""

    def compute(evals: list[str]) -> FixPlan:
        # imported here: only a lint with findings computes a migration
        from empty_migrate.pipeline.migrate import migrate, select_codemods
        from empty_migrate.pipeline.plan import plan_run

        plan = plan_run(registry, root, evals)
        today = datetime.date.today().isoformat()
        run = migrate(registry, root, plan, select_codemods(), today)
        fixable = [r.eval for r in run.evals if r.status == "rewritten"]
        left = {
            r.eval: r.reason or r.status
            for r in run.evals
            if r.status in ("skipped", "failed")
        }
        return fixable, left, list(plan.notes)

    return compute
