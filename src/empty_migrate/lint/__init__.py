"""``empty-migrate lint``: scorers in a target checkout that bypass the policy.

Read-only and static (``ast``, no LibCST, no inspect_ai): the checkout's root
and the evals the given paths belong to (`checkout`), where a file routes the
model's output through the policy (`routing`), and the rules that turn the
scan's findings into ``path:line:col: EMxxx`` lines (`rules`).
"""
