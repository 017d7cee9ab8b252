import re

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    scorer,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import sandbox


def extract_code(text: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    return blocks[-1] if blocks else ""


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        code = extract_code(state.output.completion)
        if not code.strip():
            return Score(value=INCORRECT, explanation="No code block found")
        result = await sandbox().exec(["python", "-c", code])
        if not result.success:
            return Score(value=INCORRECT, explanation=result.stderr)
        if not state.output.completion:
            try:
                await sandbox().read_file("/tmp/answer.py")
            except FileNotFoundError:
                return Score(value=INCORRECT, explanation="No answer file")
        return Score(value=CORRECT if result.stdout == target.text else INCORRECT)

    return score
