"""The words of a changelog entry: what the migration changes for one eval's numbers.

Everything is generated from the registry entry and the router's `POLICY`: for
each routed scorer, the route of every non-answer outcome after the eval's
overrides, the value it now scores, whether a judge is spared, and what the
polarity makes of a refusal verdict. Scorers described by the same words are
grouped; if there are several groups, each is labelled by its tasks (or, when
tasks share scorers, by its scorers).
"""

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from empty_migrate.codemods.bump_task_version.rewrite import ROUTER_REFERENCE
from empty_migrate.codemods.kit.base import EvalTarget
from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.codemods.kit.router_call import ROUTER_FUNCTION, SCORE_CONSTANTS
from empty_migrate.entries.output_locations import observable
from empty_migrate.entries.schema import Resolved, VerdictExpression, resolve
from empty_migrate.runtime.policy import Outcome, Route, route_for, route_reason

POLICY_NAME = "shared empty-response policy"

_ADJECTIVES = {
    Outcome.EMPTY: "empty",
    Outcome.REASONING_ONLY: "reasoning-only",
    Outcome.TOOL_CALLS_ONLY: "tool-call-only",
    Outcome.TRUNCATED: "truncated",
}
_REFUSALS = (Outcome.REFUSED, Outcome.REFUSED_AFTER_PARTIAL)
_NOUNS = {
    Outcome.FILTERED: "content-filter blocks",
    Outcome.OVERFLOW: "prompts that overflow the context before any tool ran",
    Outcome.NO_OUTPUT: "responses with no output at all",
}
_ERRORS = {
    Outcome.OVERFLOW: "ContextOverflowError",
    Outcome.NO_OUTPUT: "EmptyResponseError",
}
_POLARITY = {
    "refusal_good": "On these harmful prompts, {subject} now counts as a refusal.",
    "refusal_bad": "On these benign prompts, {subject} now counts as a refusal, "
    "i.e. over-refusal.",
    "per_sample": "{Subject} now counts as a refusal: the safe response on harmful "
    "samples, over-refusal on benign ones",
}

_FILE_REF = r"(?<![\w/.-])[\w.-]+(?:/[\w.-]+)*\.(?:py|yaml|md)(?:::\w+(?:\.\w+)*)?"
# what CommonMark reads as raw HTML (markdownlint's MD033), with the word around it
_HTML_TAG = r"[\w.-]*</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>`]*)?/?>[\w.-]*"
_MISREAD = re.compile(f"{_FILE_REF}|{_HTML_TAG}")
_CODE_SPAN = re.compile(r"(`[^`]*`)")


@dataclass(frozen=True)
class Description:
    """What non-answers now score for one scorer, sentence by sentence.

    Attributes:
        routes: What each kind of non-answer now scores.
        judge: Whether the judge still sees them ("" if there is no judge).
        polarity: What the refusal verdict means for the metric ("" if none).
    """

    routes: str
    judge: str
    polarity: str

    def sentences(self) -> list[str]:
        """All of it, for the README entry."""
        return [s for s in (self.routes, self.judge, self.polarity) if s]

    def short(self) -> str:
        """At most two sentences, for the fragment: polarity before the judge."""
        return " ".join(s for s in (self.routes, self.polarity or self.judge) if s)


def lead(target: EvalTarget) -> str:
    """The sentence naming the policy and what the code codemods did."""
    scorers = len([s for s in target.entry.scorers if target.reads_model_output(s)])
    names = "the scorer is" if scorers == 1 else "the scorers are"
    routed = is_routed(target.changed_by)
    # once routed, each scorer's description says whether its judge is spared
    clauses = [
        d.changelog_clause.format(scorers=names, router=ROUTER_FUNCTION)
        for d in target.changed_by
        if d.changelog_clause and not (routed and d.spares_judge)
    ]
    # the router reference marks the entry as this migration's, for a re-run
    policy = f"the {POLICY_NAME} ({ROUTER_REFERENCE})"
    if not clauses:
        return f"Non-answers now follow {policy}."
    if routed:
        return f"Non-answers now follow {policy}: {_join(clauses)}."
    return f"{capital(_join(clauses))}, following {policy}."


def summary(target: EvalTarget) -> str:
    """One or two sentences for the scriv fragment."""
    groups = shapes(target)
    if not groups:
        return lead(target)
    if len(groups) == 1:
        return groups[0][1].short()
    kind = "task" if groups[0][0].startswith("task") else "scorer"
    return (
        f"Non-answers now follow the {POLICY_NAME}, which scores them differently "
        f"per {kind}; the README changelog says how."
    )


def shapes(target: EvalTarget) -> list[tuple[str, Description]]:
    """(label, description) per group of routed scorers; a lone group has label "".

    Labels read ``tasks `a` and `b``` or ``scorers `x```. Empty when no codemod
    in this run changed how non-answers are routed.
    """
    if not is_routed(target.changed_by):
        return []
    groups: dict[Description, list[tuple[str | None, str]]] = {}
    for task, scorer, settings in _routed(target):
        described = describe(settings, target.changed_by)
        groups.setdefault(described, []).append((task, scorer))
    if len(groups) == 1:
        return [("", next(iter(groups)))]
    return list(zip(_labels(list(groups.values())), groups, strict=True))


def describe(settings: Resolved, changed_by: Iterable[Declaration] = ()) -> Description:
    """What non-answers now score for one scorer with these settings."""
    routes = _routes(settings)
    return Description(
        capital("; ".join(_clauses(routes, settings))) + ".",
        _judge_sentence(routes, settings, changed_by),
        _polarity_sentence(routes, settings),
    )


def overrides(target: EvalTarget) -> list[str]:
    """One sentence per override of a routed scorer: its route and the reason."""
    found: list[str] = []
    for _, _, settings in _routed(target):
        for override in settings.overrides:
            usual = route_for(settings.category, override.outcome)
            text = f"`{override.outcome}` is routed to `{override.route}` rather "
            text += f"than `{usual}`: {code_refs(override.reason.rstrip('.'))}."
            found += [text] if text not in found else []
    return found


def scoring_changes(target: EvalTarget) -> list[str]:
    """What the migration changes in one eval's scoring, line by line, for a report.

    What each kind of non-answer now scores (per group of scorers), what it
    scored before, and no line at all if the run changed no routing.
    """
    groups = shapes(target)
    lines = [
        (f"{capital(label)}: " if label else "") + " ".join(d.sentences())
        for label, d in groups
    ]
    return [*lines, before(target)] if lines else []


def test_updates(target: EvalTarget) -> list[str]:
    """One sentence per test the migration updates, with the reason."""
    if not target.wants("update_tests"):
        return []
    return [
        f"Updated test `{update.test}`, which pinned the old behaviour: "
        f"{code_refs(update.why.rstrip('.'))}."
        for update in target.entry.test_updates
    ]


def before(target: EvalTarget) -> str:
    """The registry's line on what an empty answer scored before the change."""
    return f"Before this change: {code_refs(target.entry.today.rstrip('.'))}."


def code_refs(text: str) -> str:
    """`text` with what Markdown would misread as inline code, as in the READMEs.

    That is its files and its ``path.py::symbol`` citations (``_utils.py``
    would start emphasis, ``__init__`` would be bold) and anything that reads
    as an HTML tag (``<think>`` would vanish from the page, and the target's
    markdownlint forbids inline HTML).
    """
    parts = _CODE_SPAN.split(text)
    for index in range(0, len(parts), 2):
        parts[index] = _MISREAD.sub(lambda m: f"`{m.group(0)}`", parts[index])
    return "".join(parts)


def is_routed(changed_by: Iterable[Declaration]) -> bool:
    """Whether a codemod that routes non-answers by the policy changed the eval."""
    return any(d.routes for d in changed_by)


def render(value: Any) -> str:
    """A registry value as inline code, score letters as inspect_ai's constants.

    A verdict only code can give is described in words instead.
    """
    if isinstance(value, VerdictExpression):
        return code_refs(value.meaning)
    return f"`{_code(value)}`"


def _routed(target: EvalTarget) -> list[tuple[str | None, str, Resolved]]:
    return [
        (task, scorer.name, resolve(target.entry, task, scorer))
        for scorer in target.entry.scorers
        if target.reads_model_output(scorer)
        for task in target.entry.tasks_of(scorer)
    ]


def _routes(settings: Resolved) -> dict[Outcome, Route]:
    overrides = {o.outcome: o.route for o in settings.overrides}
    return {
        outcome: route_for(settings.category, outcome, overrides)
        for outcome in Outcome
        if outcome != Outcome.ANSWERED and observable(outcome, settings.output)
    }


def _clauses(routes: dict[Outcome, Route], settings: Resolved) -> list[str]:
    # a policy route to the scorer changes nothing; an overridden one is news
    overridden = {o.outcome for o in settings.overrides}
    by_route: dict[Route, list[Outcome]] = {}
    for outcome, route in routes.items():
        if route != Route.SCORE or outcome in overridden:
            by_route.setdefault(route, []).append(outcome)
    return [_clause(route, outcomes, settings) for route, outcomes in by_route.items()]


def _clause(route: Route, outcomes: list[Outcome], settings: Resolved) -> str:
    things = _things(outcomes)
    reasons = _join([f"`{r}`" for r in map(route_reason, outcomes) if r], "or")
    if route in (Route.NO_ANSWER, Route.REFUSAL_VERDICT):
        return f"{things} now score {_verdict(route, settings)} with reason {reasons}"
    if route == Route.UNSCORED:
        return f"{things} are now unscored (excluded from the metrics)"
    if route == Route.RAISE:
        errors = ", ".join(f"`{_ERRORS[o]}`" for o in outcomes)
        return f"{things} now raise a sample error ({errors})"
    if route == Route.SCORE_TAGGED:
        tagged = f"a failing score with no reason is now tagged {reasons}"
        return f"{things} are still scored, and {tagged}"
    return f"{things} are still scored as answers"


def _verdict(route: Route, settings: Resolved) -> str:
    if route == Route.REFUSAL_VERDICT:
        return f"{render(settings.refusal_verdict)}, as a full refusal does,"
    if settings.no_answer_verdict is None:
        return "`NOANSWER`"
    return render(settings.no_answer_verdict)


def _things(outcomes: list[Outcome]) -> str:
    adjectives = [_ADJECTIVES[o] for o in outcomes if o in _ADJECTIVES]
    parts = [f"{_join(adjectives)} answers"] if adjectives else []
    if adjectives == ["truncated"]:
        parts = ["answers cut off before any visible text"]
    refusals = [o for o in outcomes if o in _REFUSALS]
    if refusals == [Outcome.REFUSED_AFTER_PARTIAL]:
        parts.append("refusals after a partial answer")
    elif refusals == [Outcome.REFUSED]:
        parts.append("outright refusals")
    elif refusals:
        parts.append("refusals")
    return _join(parts + [_NOUNS[o] for o in outcomes if o in _NOUNS])


def _judge_sentence(
    routes: dict[Outcome, Route], settings: Resolved, changed_by: Iterable[Declaration]
) -> str:
    judged = settings.judge in ("scorer", "several") or (
        settings.judge == "solver" and any(d.spares_judge for d in changed_by)
    )
    spared = {Route.NO_ANSWER, Route.REFUSAL_VERDICT, Route.UNSCORED}
    if not judged or not spared & set(routes.values()):
        return ""
    if {Route.SCORE, Route.SCORE_TAGGED} & set(routes.values()):
        return "Only those still scored reach the judge."
    return "The judge is no longer called on any of them."


def _polarity_sentence(routes: dict[Outcome, Route], settings: Resolved) -> str:
    template = _POLARITY.get(settings.polarity)
    if template is None or Route.REFUSAL_VERDICT not in routes.values():
        return ""
    empty = routes[Outcome.EMPTY] == Route.REFUSAL_VERDICT
    subject = "an empty answer" if empty else "a non-answer"
    text = template.format(subject=subject, Subject=capital(subject))
    if settings.polarity == "per_sample":
        key = settings.polarity_key
        text += f" (sample metadata `{key}`)." if key else "."
    return text


def _labels(groups: list[list[tuple[str | None, str]]]) -> list[str]:
    for index, kind in ((0, "task"), (1, "scorer")):
        names = [list(dict.fromkeys(pair[index] for pair in g)) for g in groups]
        flat = [n for g in names for n in g]
        if None not in flat and len(flat) == len(set(flat)):
            return [_plural(kind, [f"`{n}`" for n in g]) for g in names]
    return [_plural("task", [f"`{t}` with scorer `{s}`" for t, s in g]) for g in groups]


def _plural(kind: str, names: list[str]) -> str:
    return f"{kind}{'s' * (len(names) > 1)} {_join(names)}"


def _code(value: Any) -> str:
    if isinstance(value, dict):
        items = ", ".join(f'"{k}": {_code(v)}' for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, str):
        return SCORE_CONSTANTS.get(value, f'"{value}"')
    if isinstance(value, float) and math.isnan(value):
        return 'float("nan")'
    return repr(value)


def _join(items: list[str], word: str = "and") -> str:
    items = list(dict.fromkeys(items))
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def capital(text: str) -> str:
    """`text` with its first letter in upper case, the rest as it is."""
    return text[:1].upper() + text[1:]
