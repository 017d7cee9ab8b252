from inspect_ai.scorer import Score, scorer

from inspect_evals.demo.labels import classify


@scorer(metrics=[])
def demo_scorer():
    async def score(state, target):
        if not state.output:
            return Score(value=0.0)
        return Score(value=float(classify(target.text) == "yes"))

    return score
