"""The codemods, discovered in one place: ``CODEMODS`` maps name to codemod.

Ships inside the installed package as ``empty_migrate.codemods``. Each codemod
lives in its own module named for what it does, with its golden cases in
``golden/<name>/``. The mapping's order is the pipeline order: a file touched
by several codemods gets them in this order.
"""

from empty_migrate.codemods.base import Codemod
from empty_migrate.codemods.bump_task_version import BumpTaskVersion
from empty_migrate.codemods.changelog import Changelog
from empty_migrate.codemods.fix_reason_tag import FixReasonTag
from empty_migrate.codemods.install_router import InstallRouter
from empty_migrate.codemods.judge_bypass import JudgeBypass
from empty_migrate.codemods.replace_dead_check import ReplaceDeadCheck
from empty_migrate.codemods.replace_preset import ReplacePreset
from empty_migrate.codemods.update_tests import UpdateTests
from empty_migrate.codemods.wrap_router import WrapRouter

CODEMODS: dict[str, Codemod] = {
    codemod.name: codemod
    for codemod in [
        InstallRouter(),
        ReplacePreset(),
        WrapRouter(),
        JudgeBypass(),
        ReplaceDeadCheck(),
        FixReasonTag(),
        UpdateTests(),
        BumpTaskVersion(),
        Changelog(),
    ]
}
