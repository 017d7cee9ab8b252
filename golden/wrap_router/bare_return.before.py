def demo_scorer():
    return
