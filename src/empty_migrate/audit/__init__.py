"""What each scorer does with each kind of non-answer, and what a real log says.

`matrix` plans the audit and turns results into rows; `run` starts `worker` in
the target's environment; `report` and `html` render it. Reading a user's own
logs is `empty_migrate.logs`.
"""
