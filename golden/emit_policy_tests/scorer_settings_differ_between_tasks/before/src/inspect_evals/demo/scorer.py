from inspect_ai.scorer import accuracy, match, scorer


@scorer(metrics=[accuracy()])
def demo_scorer():
    return match()
