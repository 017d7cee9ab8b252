"""update_tests: update the target's tests that pin the old non-answer behaviour.

A test of the target that asserts what a non-answer scored before the
migration (``INCORRECT`` for an empty answer the policy now scores
``NOANSWER``, a test double that stands for an empty answer but has no
choices, which the policy reads as no output at all) fails once the eval is
migrated. Such a test is updated on purpose, in the same eval's change, and
never deleted or skipped: the registry names each one (``test_updates``) with
the reason and the smallest text edits that make it assert the new behaviour,
and the changelog says so. Each edit must match exactly once; a test that has
changed since the registry was written stops the eval's migration. Safe: it
changes no score, and runs only when the eval's scoring was migrated.
"""

from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip


class UpdateTests(Codemod):
    """Apply the registry's edits to tests that pin the old non-answer behaviour."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        return sorted({update.file for update in target.entry.test_updates})

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        for update in target.entry.test_updates:
            if update.file != path:
                continue
            for edit in update.edits:
                found = text.count(edit.old)
                if found == 1:
                    text = text.replace(edit.old, edit.new)
                elif found or edit.new not in text:
                    raise Skip(
                        f"{update.test}: the text to update occurs {found} times, "
                        "not once; the test changed since the registry was written"
                    )
        return text
