from inspect_ai.scorer import Score, accuracy, scorer


@scorer(metrics={"score": [accuracy()], "element_acc": [accuracy()]})
def demo_scorer():
    async def score(state, target):
        return Score(value={"score": "C", "element_acc": 1.0})

    return score
