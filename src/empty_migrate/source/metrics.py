"""What an eval's metrics and epoch reducers read of a score (``ast`` only).

A score the router writes for a non-answer never comes from the eval's own
scorer: it holds the verdict, ``answer`` (the output's text) and only the
metadata the router is told to give it (``copy_metadata``,
``verdict_metadata``). A metric that reads a key of ``score.metadata`` the
eval's scorer puts there (``human_solvable``, copied from the sample) would
count a routed sample in the wrong subset, or drop it. This module finds,
without running anything:

* **Readers**: every ``@metric`` and ``@score_reducer`` factory of the package
  and the function it returns (a nested ``def``, a function of the package,
  or a lambda), and what that function reads of each score: keys of
  ``score.metadata`` (``[k]``, ``.get(k)``, ``k in``), keys of a dict
  ``score.value`` (``as_dict()`` too), ``score.answer``, and keys of
  ``sample_metadata``. The score is followed through names, ``or {}``,
  ``cast``, loops, comprehensions, ``list.append`` and into the functions of
  the same package it is passed to (`FOLLOW_DEPTH` calls deep). A key is a
  string constant, or a name bound to one or to a list of them (a loop over
  ``["target_context_length", "target_position"]``). Dict-form metrics
  (``metrics={"score": [mean()]}``) read their keys of the value, and
  inspect_ai's ``grouped(metric, key)`` reads ``key`` of the *sample*
  metadata (``SampleScore.sample_metadata``), which every score has.
* **Uses**: which readers a ``@scorer(metrics=...)`` lists, and which a
  ``Task(metrics=..., epochs=Epochs(..., reducer))`` lists (for the ``@task``
  holding the call, or for every task when a helper builds it), and the
  package's scorer factories each task's ``Task(scorer=...)`` calls.
* **Sources**: for each ``Score(metadata=...)`` (or ``x.metadata = ...``)
  the package builds, which keys come from the sample's metadata
  (``state.metadata`` whole, or ``{"k": state.metadata["k"]}``) and which the
  scorer computes.

Not followed: a method called on ``self``, a metric class (a
``MetricProtocol`` object rather than a function), metrics or reducers passed
in from outside the package, a key built at run time (an f-string, a
parameter), and containers of scores other than lists (a dict of lists
grouped by a key loses the scores it holds; the key read to group them is
seen).
"""

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from empty_migrate.source.findings import Finding
from empty_migrate.source.package_index import (
    FunctionRef,
    ModuleRef,
    PackageIndex,
    Target,
    parameters,
)
from empty_migrate.source.syntax import (
    Function,
    QualifiedPath,
    decorator_kinds,
    last_name,
    scope_bindings,
    state_like,
)
from empty_migrate.source.workspace import Workspace

METADATA, VALUE, ANSWER, SAMPLE_METADATA = (
    "metadata",
    "value",
    "answer",
    "sample_metadata",
)
FOLLOW_DEPTH = 4
"""How many calls deep a score is followed into the package's functions."""

_READER_DECORATORS = {"metric": "metric", "score_reducer": "reducer"}
_SAMPLE_SCORE, _SCORE, _META, _VALUE, _SAMPLE_META = (
    "sample_score",
    "score",
    "meta",
    "value",
    "sample_meta",
)
_LIST, _DICT = "[]", "{}"
_ANNOTATIONS = {"SampleScore": _SAMPLE_SCORE, "Score": _SCORE}
_PASS_THROUGH = {"list", "tuple", "sorted", "reversed", "dict", "copy", "deepcopy"}
Key = tuple[str, str]
"""A function of the package: ``(file, qualified name)``."""
_READ_FORMS = {"subscript": "[{key!r}]", "get": ".get({key!r})", "in": "{key!r} in"}


@dataclass(frozen=True)
class FieldRead:
    """One read of a score's field by a metric or reducer.

    Attributes:
        reader: The ``@metric`` or ``@score_reducer`` factory (or the scorer
            whose dict-form metrics read a value key).
        file: Where the read is, relative to ``src/inspect_evals``.
        line: Its line.
        field: ``metadata`` (score metadata), ``value`` (a key of a dict
            value), ``answer`` or ``sample_metadata``.
        key: The key read; None for ``answer`` or a key the scan cannot name.
        form: ``subscript`` (fails without the key), ``get`` or ``in``
            (tolerate its absence, but count the score differently).
    """

    reader: str
    file: str
    line: int
    field: str
    key: str | None
    form: str = "subscript"

    @property
    def read(self) -> str:
        """The read as code: ``score.metadata['human_solvable']``."""
        if self.field == ANSWER:
            return "score.answer"
        owner = {
            METADATA: "score.metadata",
            VALUE: "score.value",
            SAMPLE_METADATA: "sample_metadata",
        }[self.field]
        if self.key is None:
            return f"{owner}[<a key the scan cannot name>]"
        form = _READ_FORMS[self.form].format(key=self.key)
        return f"{form} {owner}" if self.form == "in" else owner + form

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reader} reads {self.read}"


@dataclass(frozen=True)
class Reader:
    """A ``@metric`` or ``@score_reducer`` of the package, and what it reads.

    Attributes:
        name: The factory's name.
        file: Its file, relative to ``src/inspect_evals``.
        line: The line of its ``def``.
        kind: ``metric``, ``reducer`` or ``metrics`` (a scorer's dict-form
            metrics).
        reads: Every field it reads, in source order.
        functions: The functions its reads were found in, as ``(file,
            qualified name)``, its factory's too.
        uses: Other readers of the package its code names (``re_f1_score``
            called inside ``metrics_by_task``): their reads are its reads.
    """

    name: str
    file: str
    line: int
    kind: str
    reads: tuple[FieldRead, ...] = ()
    functions: frozenset[Key] = frozenset()
    uses: frozenset[Key] = frozenset()


@dataclass(frozen=True)
class MetadataSource:
    """Where one key of the score metadata a scorer builds comes from.

    Attributes:
        file: The file of the ``Score(...)`` or assignment.
        line: Its line.
        function: The qualified name of the function building it.
        key: The score metadata key; None when the whole of the sample's
            metadata is copied in (``metadata=state.metadata``).
        sample_key: The sample metadata key it is copied from; None if the
            scorer computes it.
    """

    file: str
    line: int
    function: str
    key: str | None
    sample_key: str | None

    @property
    def from_sample(self) -> bool:
        """Whether the key is the sample's key of the same name (or all of them)."""
        return self.key is None or self.key == self.sample_key

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        if self.key is None:
            return f"{where}: {self.function} copies the sample's metadata"
        if self.sample_key is None:
            return f"{where}: {self.function} computes {self.key!r}"
        copied = f"state.metadata[{self.sample_key!r}]"
        return f"{where}: {self.function} sets {self.key!r} from {copied}"


@dataclass(frozen=True)
class MetadataNeed:
    """A score metadata key a scorer's readers read, and where its scores get it.

    Attributes:
        key: The key.
        read: The first read of it.
        sources: Where the scorer's code (else the package's) sets it; empty
            if the scan finds no ``Score(metadata=...)`` that does.
    """

    key: str
    read: FieldRead
    sources: tuple[MetadataSource, ...]

    @property
    def copied_from(self) -> MetadataSource | None:
        """Where the scorer copies the key from the sample's metadata, if it does."""
        return next((s for s in self.sources if s.from_sample), None)


@dataclass
class MetricReport:
    """What one eval package's metrics and reducers read, and who uses them.

    Functions are `Key` s, ``(file, qualified name)``.

    Attributes:
        readers: Every reader, by its factory.
        scorer_readers: A ``@scorer`` factory -> the readers its
            ``@scorer(metrics=...)`` lists.
        task_readers: ``@task`` name -> the readers its ``Task(...)`` lists;
            key None for a ``Task(...)`` built outside a ``@task`` (it
            counts for every task).
        task_scorers: ``@task`` name (or None) -> the package's ``@scorer``
            factories its ``Task(scorer=...)`` names.
        function_scorers: A module-level function that is not a scorer (a
            shared helper, a task) -> the ``@scorer`` factories it names.
        sources: Where the score metadata the package builds comes from.
    """

    readers: dict[Key, Reader] = field(default_factory=dict)
    scorer_readers: dict[Key, set[Key]] = field(default_factory=dict)
    task_readers: dict[str | None, set[Key]] = field(default_factory=dict)
    task_scorers: dict[str | None, set[Key]] = field(default_factory=dict)
    function_scorers: dict[Key, set[Key]] = field(default_factory=dict)
    sources: list[MetadataSource] = field(default_factory=list)

    def reads_for(
        self, scorer: Key, factory: bool, tasks: Iterable[str | None]
    ) -> list[FieldRead]:
        """The reads of every reader that sees a registered scorer's scores.

        Args:
            scorer: The registry entry's function, ``(file, name)``.
            factory: Whether the entry is a ``@scorer`` factory (else a
                ``Task(scorer=...)`` or shared helper, whose factories are
                those it names or defines, and those its tasks name).
            tasks: The tasks it runs in (None: every task).
        """
        every_task = self._tasks(tasks)
        chosen = {r for task in every_task for r in self.task_readers.get(task, ())}
        for key in self.factories(scorer, factory, every_task):
            chosen |= self.scorer_readers.get(key, set())
        found = {r for key in self._with_uses(chosen) for r in self.readers[key].reads}
        return sorted(found, key=_read_order)

    def _tasks(self, tasks: Iterable[str | None]) -> set[str | None]:
        """The task keys that count for `tasks`, None (outside any task) too."""
        chosen = set(tasks)
        if None in chosen:
            return {None, *self.task_readers, *self.task_scorers}
        return {None, *chosen}

    def factories(
        self, scorer: Key, factory: bool, tasks: Iterable[str | None]
    ) -> set[Key]:
        """The ``@scorer`` factories whose scores a registry entry's scores are."""
        found = {
            key
            for key in self.scorer_readers
            if _holds(scorer, key) or (factory and _same_factory(scorer, key))
        }
        if not factory:
            found |= self.function_scorers.get(scorer, set())
            for task in tasks:
                found |= self.task_scorers.get(task, set())
        return found | {scorer}

    def metadata_needs(
        self, scorer: Key, factory: bool, tasks: Iterable[str | None]
    ) -> list["MetadataNeed"]:
        """Each score metadata key a registered scorer's readers need from it.

        Keys a reducer of the package writes are left out. Each comes with
        the first read, and where the scorer's own code (its factories and
        the functions in them) puts the key into a score, else where any
        code of the package does.
        """
        every_task = self._tasks(tasks)
        written = self.written_by_readers()
        reads = [
            read
            for read in self.reads_for(scorer, factory, every_task)
            if read.field == METADATA and read.key is not None
            if read.key not in written
        ]
        own = self.factories(scorer, factory, every_task)
        needs = []
        for key in dict.fromkeys(read.key for read in reads if read.key):
            first = next(read for read in reads if read.key == key)
            sources = self.sources_of(key)
            mine = [s for s in sources if any(_within(s, f) for f in own)]
            needs.append(MetadataNeed(key, first, tuple(mine or sources)))
        return needs

    def _with_uses(self, chosen: set[Key]) -> set[Key]:
        """The readers, and every reader they use, transitively."""
        found, todo = set(), list(chosen)
        while todo:
            key = todo.pop()
            if key in found or key not in self.readers:
                continue
            found.add(key)
            todo += self.readers[key].uses
        return found

    def written_by_readers(self) -> set[str]:
        """Score metadata keys a reducer (or metric code) of the package writes."""
        functions = {f for reader in self.readers.values() for f in reader.functions}
        return {
            source.key
            for source in self.sources
            if source.key is not None and (source.file, source.function) in functions
        }

    def sources_of(self, key: str) -> list[MetadataSource]:
        """Where the package's scores get a metadata key (or all the sample's)."""
        return [s for s in self.sources if s.key in (key, None)]

    def unattached(self) -> list[Reader]:
        """Readers no scorer or task the scan sees lists (a multi_scorer's reducer)."""
        used = {
            key
            for table in (self.scorer_readers, self.task_readers)
            for keys in table.values()
            for key in keys
        }
        used = self._with_uses(used)
        return [r for key, r in sorted(self.readers.items()) if key not in used]


def _within(source: "MetadataSource", function: Key) -> bool:
    """Whether a source is in a function or a function nested in it."""
    return source.file == function[0] and (source.function + ".").startswith(
        function[1] + "."
    )


def _holds(scorer: Key, key: Key) -> bool:
    """Whether a factory is nested in the entry's function (healthbench's)."""
    return key[0] == scorer[0] and key[1].startswith(scorer[1] + ".")


def _same_factory(scorer: Key, key: Key) -> bool:
    """Whether a factory is the entry's, named by its own name even when nested."""
    return key[0] == scorer[0] and key[1].rpartition(".")[2] == scorer[1]


def read_metrics(workspace: Workspace, eval_name: str) -> MetricReport:
    """Read an eval package's metrics, reducers, their uses and metadata sources."""
    index = PackageIndex(workspace, eval_name)
    report = MetricReport()
    constants: dict[str, dict[str, frozenset[str]]] = {}
    for file in index.files():
        text = index.text(file)
        readers = "metric" in text or "reducer" in text
        sources = "metadata" in text and "Score" in text
        module = index.module(file) if readers or sources else None
        for path, node in module.definitions.items() if module else []:
            if not isinstance(node, Function):
                continue
            kind = _reader_kind(node) if readers else None
            if kind is not None:
                ref = FunctionRef(file, path)
                reader = _read(index, ref, node, kind, constants)
                report.readers[(file, node.name)] = reader
            if sources:
                report.sources += _metadata_sources(file, path, node)
    search = _Search()
    for file in index.files():
        text = index.text(file)
        module = index.module(file) if _mentions_uses(text) else None
        if module is not None:
            _Uses(index, file, report, search).find(module.tree, text)
    return report


def _mentions_uses(text: str) -> bool:
    return "metrics" in text or "Task(" in text or "epochs" in text


def _reader_kind(node: Function) -> str | None:
    names = {last_name(d) for d in node.decorator_list}
    return next((_READER_DECORATORS[n] for n in names if n in _READER_DECORATORS), None)


# Readers


def _read(
    index: PackageIndex,
    ref: FunctionRef,
    factory: Function,
    kind: str,
    constants: dict[str, dict[str, frozenset[str]]],
) -> Reader:
    """Read the function a ``@metric``/``@score_reducer`` factory returns."""
    reading = _Reading(index, factory.name, constants)
    seed = _SAMPLE_SCORE + _LIST if kind == "metric" else _SCORE + _LIST
    for returned in map(_uncast, _own_returns(factory)):
        if isinstance(returned, ast.Lambda):
            _Evaluator(reading, ref, {}, 0).lambda_kinds(returned, [seed])
        elif isinstance(returned, ast.Name):
            target = index.resolve(returned.id, ref.file, ref.path)
            if isinstance(target, FunctionRef):
                reading.follow(target, {0: frozenset({seed})}, {}, 0)
        elif isinstance(returned, ast.Call):
            _Evaluator(reading, ref, {}, 0).kinds(returned)
            _read_built(reading, ref, returned, seed)
    functions = {ref, *(visited for visited, _ in reading.done)}
    return Reader(
        factory.name,
        ref.file,
        factory.lineno,
        kind,
        tuple(sorted(reading.reads, key=_read_order)),
        frozenset((f.file, f.name) for f in functions),
        frozenset(_readers_named(index, functions) - {(ref.file, factory.name)}),
    )


def _read_built(
    reading: "_Reading", ref: FunctionRef, call: ast.Call, seed: str
) -> None:
    """A factory that returns a helper's call (``return reliability_at(k=5)``).

    What the helper returns is read as the factory's own return would be.
    """
    name = call.func.id if isinstance(call.func, ast.Name) else None
    target = reading.index.resolve(name, ref.file, ref.path) if name else None
    helper = (
        reading.index.definition(target) if isinstance(target, FunctionRef) else None
    )
    if not isinstance(helper, Function) or decorator_kinds(helper.decorator_list):
        return
    assert isinstance(target, FunctionRef)  # for mypy: helper says so
    for returned in map(_uncast, _own_returns(helper)):
        if isinstance(returned, ast.Name):
            inner = reading.index.resolve(returned.id, target.file, target.path)
            if isinstance(inner, FunctionRef):
                reading.follow(inner, {0: frozenset({seed})}, {}, 0)


def _readers_named(index: PackageIndex, functions: Iterable[FunctionRef]) -> set[Key]:
    """The readers of the package that functions call (a metric built of metrics)."""
    found = set()
    for ref in functions:
        node = index.definition(ref)
        for item in ast.walk(node) if node else []:
            if not (isinstance(item, ast.Call) and isinstance(item.func, ast.Name)):
                continue
            target = index.resolve(item.func.id, ref.file, ref.path)
            if isinstance(target, FunctionRef) and len(target.path) == 1:
                definition = index.definition(target)
                if isinstance(definition, Function) and _reader_kind(definition):
                    found.add((target.file, target.path[0]))
    return found


def _read_order(read: FieldRead) -> tuple[str, int, str, str, str]:
    return (read.file, read.line, read.field, read.key or "", read.reader)


def _uncast(node: ast.expr) -> ast.expr:
    """``x`` of ``cast(T, x)``; any other expression as it is."""
    if isinstance(node, ast.Call) and last_name(node.func) == "cast":
        if len(node.args) == 2:
            return node.args[1]
    return node


def _own_returns(function: Function) -> list[ast.expr]:
    """The values a function's own ``return`` statements give (nested defs left out)."""
    found = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            found.append(node.value)
        elif not isinstance(node, Function | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return found


Seeds = frozenset[tuple[str, frozenset[str]]]


class _Reading:
    """The reads of one reader, over every function its scores reach."""

    def __init__(
        self,
        index: PackageIndex,
        reader: str,
        constants: dict[str, dict[str, frozenset[str]]],
    ) -> None:
        self.index = index
        self.reader = reader
        self.reads: set[FieldRead] = set()
        self.done: dict[tuple[FunctionRef, Seeds], frozenset[str]] = {}
        self.constants = constants
        """Each module's string constants, kept for the package's readers."""

    def follow(
        self,
        ref: FunctionRef,
        by_position: dict[int, frozenset[str]],
        by_name: dict[str, frozenset[str]],
        depth: int,
    ) -> frozenset[str]:
        """Read a package function given what its arguments hold; what it returns."""
        node = self.index.definition(ref)
        if not isinstance(node, Function) or depth > FOLLOW_DEPTH:
            return frozenset()
        names = parameters(node)
        seeds = dict(_annotated(node))
        for position, kinds in by_position.items():
            if position < len(names):
                seeds[names[position]] = seeds.get(names[position], frozenset()) | kinds
        for name, kinds in by_name.items():
            if name in names:
                seeds[name] = seeds.get(name, frozenset()) | kinds
        key = (ref, frozenset(seeds.items()))
        if key in self.done:
            return self.done[key]
        self.done[key] = frozenset()  # a recursive call returns nothing known
        returned = _Evaluator(self, ref, seeds, depth).run(node)
        self.done[key] = returned
        return returned

    def record(
        self, file: str, node: ast.AST, kind: str, key: str | None, form: str
    ) -> None:
        fields = {_META: METADATA, _VALUE: VALUE, _SAMPLE_META: SAMPLE_METADATA}
        line = getattr(node, "lineno", 0)
        self.reads.add(FieldRead(self.reader, file, line, fields[kind], key, form))

    def record_answer(self, file: str, node: ast.AST) -> None:
        line = getattr(node, "lineno", 0)
        self.reads.add(FieldRead(self.reader, file, line, ANSWER, None))

    def module_constants(self, file: str) -> dict[str, frozenset[str]]:
        """A module's names bound to a string or a list of strings, imports too."""
        if file not in self.constants:
            self.constants[file] = {}
            module = self.index.module(file)
            if module is not None:
                found = _constants(scope_bindings(module.tree.body))
                for name, (source, imported) in module.imports.items():
                    target = self.index.imported(source, None)
                    if imported and isinstance(target, ModuleRef):
                        other = self.module_constants(target.file)
                        if imported in other:
                            found[name] = other[imported]
                self.constants[file] = found
        return self.constants[file]


def _inside(kinds: frozenset[str], container: str) -> frozenset[str]:
    """What a list (``[]``) or dict (``{}``) of each kind holds, as kinds."""
    return frozenset(k + container for k in kinds)


def _outside(kinds: frozenset[str], container: str) -> frozenset[str]:
    """What an item of each kind that is a list (or dict) of something is."""
    return frozenset(k[: -len(container)] for k in kinds if k.endswith(container))


def _is_method(node: ast.expr, name: str) -> bool:
    """Whether a node calls a method `name` (``x.items()``)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
    )


def _annotated(node: Function) -> Iterator[tuple[str, frozenset[str]]]:
    """Parameters annotated as a score or sample score, or a list of them."""
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    for argument in arguments:
        kind = _annotation_kind(argument.annotation)
        if kind:
            yield argument.arg, frozenset({kind})


def _annotation_kind(annotation: ast.expr | None) -> str | None:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if annotation is None:
        return None
    if isinstance(annotation, ast.Subscript):
        inner = _annotation_kind(annotation.slice)
        return inner + _LIST if inner and not inner.endswith(_LIST) else None
    return _ANNOTATIONS.get(last_name(annotation))


def _constants(bindings: dict[str, list[ast.expr | None]]) -> dict[str, frozenset[str]]:
    found = {}
    for name, values in bindings.items():
        strings = [_strings(v) for v in values]
        if values and all(s is not None for s in strings):
            found[name] = frozenset(k for s in strings if s for k in s)
    return found


def _strings(node: ast.expr | None) -> frozenset[str] | None:
    """A string constant, or a list/tuple/set of them, as its strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return frozenset({node.value})
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
        parts = [_strings(e) for e in node.elts]
        if all(p is not None and len(p) == 1 for p in parts):
            return frozenset(k for p in parts if p for k in p)
    return None


class _Evaluator:
    """What each name of one function holds (kinds), recording reads on the way.

    A kind is ``sample_score``, ``score``, ``meta`` (a score's metadata),
    ``value`` or ``sample_meta``, with ``[]`` for each level of list. The
    body is walked twice in source order, so a name bound late in a loop is
    known on the second walk; reads are a set, so seeing one twice is one.
    """

    def __init__(
        self,
        reading: _Reading,
        ref: FunctionRef,
        seeds: dict[str, frozenset[str]],
        depth: int,
    ) -> None:
        self.reading = reading
        self.ref = ref
        self.depth = depth
        self.env: dict[str, frozenset[str]] = dict(seeds)
        self.keys: dict[str, frozenset[str]] = self._enclosing_constants()
        self.returned: set[str] = set()

    def _enclosing_constants(self) -> dict[str, frozenset[str]]:
        found = dict(self.reading.module_constants(self.ref.file))
        index = self.reading.index
        for depth in range(1, len(self.ref.path)):
            outer = index.definition(FunctionRef(self.ref.file, self.ref.path[:depth]))
            if isinstance(outer, Function):
                found |= _constants(scope_bindings(outer.body))
        return found

    def run(self, node: Function) -> frozenset[str]:
        for _ in range(2):
            self.block(node.body)
        return frozenset(self.returned)

    def lambda_kinds(self, node: ast.Lambda, seeds: list[str]) -> frozenset[str]:
        names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        for name, kind in zip(names, seeds, strict=False):
            self.env[name] = frozenset({kind})
        return self.kinds(node.body)

    # statements

    def block(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, Function | ast.ClassDef):
            return
        if isinstance(node, ast.Assign):
            held = self.kinds(node.value)
            for target in node.targets:
                self.bind(target, node.value, held)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.bind(node.target, node.value, self.kinds(node.value))
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.bind_loop(node.target, node.iter)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.returned |= self.kinds(node.value)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.kinds(child)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                self.block([s for s in block if isinstance(s, ast.stmt)])
        for handler in getattr(node, "handlers", []):
            self.block(handler.body)
        for case in getattr(node, "cases", []):
            self.block(case.body)

    def bind(self, target: ast.expr, value: ast.expr, held: frozenset[str]) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = self.env.get(target.id, frozenset()) | held
            strings = _strings(value)
            if strings is not None:
                self.keys[target.id] = strings
        elif isinstance(target, ast.Tuple | ast.List) and isinstance(
            value, ast.Tuple | ast.List
        ):
            for one, part in zip(target.elts, value.elts, strict=False):
                self.bind(one, part, self.kinds(part))
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self.kinds(target.slice)
            self.add(target.value.id, _inside(held, _DICT))
        else:
            self.kinds(target)

    def add(self, name: str, held: frozenset[str]) -> None:
        """A name holds `held` too (a container something was put in)."""
        self.env[name] = self.env.get(name, frozenset()) | held

    def bind_loop(self, target: ast.expr, iterable: ast.expr) -> None:
        """Bind a ``for`` (or comprehension) target to what iterating gives."""
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
            name, args = iterable.func.id, iterable.args
            if name == "enumerate" and args and isinstance(target, ast.Tuple):
                if len(target.elts) == 2:
                    self.bind_loop(target.elts[1], args[0])
                    return
            if name == "zip" and isinstance(target, ast.Tuple):
                for one, part in zip(target.elts, args, strict=False):
                    self.bind_loop(one, part)
                return
        if _is_method(iterable, "items") and isinstance(target, ast.Tuple):
            assert isinstance(iterable, ast.Call)  # for mypy: _is_method says so
            assert isinstance(iterable.func, ast.Attribute)
            if len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
                values = _outside(self.kinds(iterable.func.value), _DICT)
                self.add(target.elts[1].id, values)
            return
        held = self.kinds(iterable)
        items = _outside(held, _LIST)
        if _is_method(iterable, "values"):
            assert isinstance(iterable, ast.Call) and isinstance(
                iterable.func, ast.Attribute
            )
            items = _outside(_outside(self.kinds(iterable.func.value), _DICT), _LIST)
        if isinstance(target, ast.Name):
            self.env[target.id] = self.env.get(target.id, frozenset()) | items
            strings = self._key_strings(iterable)
            if strings:
                self.keys[target.id] = strings

    def _key_strings(self, node: ast.expr) -> frozenset[str] | None:
        if isinstance(node, ast.Name):
            return self.keys.get(node.id)
        return _strings(node)

    # expressions

    def kinds(self, node: ast.expr) -> frozenset[str]:
        """What an expression holds, recording every read in it."""
        if isinstance(node, ast.Name):
            return self.env.get(node.id, frozenset())
        if isinstance(node, ast.Attribute):
            return self.attribute(node, self.kinds(node.value))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BoolOp):
            return frozenset().union(*(self.kinds(v) for v in node.values))
        if isinstance(node, ast.IfExp):
            self.kinds(node.test)
            return self.kinds(node.body) | self.kinds(node.orelse)
        if isinstance(node, ast.NamedExpr):
            held = self.kinds(node.value)
            self.bind(node.target, node.value, held)
            return held
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            self.generators(node.generators)
            return _inside(self.kinds(node.elt), _LIST)
        if isinstance(node, ast.DictComp):
            self.generators(node.generators)
            self.kinds(node.key)
            return _inside(self.kinds(node.value), _DICT)
        if isinstance(node, ast.Compare):
            self.membership(node)
        if isinstance(node, ast.Starred):
            return self.kinds(node.value)
        if isinstance(node, ast.Lambda):
            return frozenset()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.kinds(child)
        return frozenset()

    def generators(self, generators: list[ast.comprehension]) -> None:
        for generator in generators:
            self.bind_loop(generator.target, generator.iter)
            for condition in generator.ifs:
                self.kinds(condition)

    def attribute(self, node: ast.Attribute, owner: frozenset[str]) -> frozenset[str]:
        found: set[str] = set()
        if _SAMPLE_SCORE in owner:
            found |= {
                "score": {_SCORE},
                "sample_metadata": {_SAMPLE_META},
            }.get(node.attr, set())
        if _SCORE in owner:
            found |= {"metadata": {_META}, "value": {_VALUE}}.get(node.attr, set())
            if node.attr == "answer":
                self.reading.record_answer(self.ref.file, node)
        return frozenset(found)

    def subscript(self, node: ast.Subscript) -> frozenset[str]:
        owner = self.kinds(node.value)
        self.kinds(node.slice)
        if isinstance(node.slice, ast.Slice):
            found = frozenset(k for k in owner if k.endswith(_LIST))
        else:
            found = _outside(owner, _LIST) | _outside(owner, _DICT)
        self.read_keys(owner, node.slice, node, "subscript")
        return found

    def read_keys(
        self, owner: frozenset[str], key: ast.expr, node: ast.AST, form: str
    ) -> None:
        for kind in owner & {_META, _VALUE, _SAMPLE_META}:
            names = self._key_strings(key)
            if isinstance(key, ast.Constant) and not isinstance(key.value, str):
                continue  # a list index into a value, not a key
            for name in sorted(names) if names else [None]:
                self.reading.record(self.ref.file, node, kind, name, form)

    def membership(self, node: ast.Compare) -> None:
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            owner = self.kinds(node.comparators[0])
            self.read_keys(owner, node.left, node, "in")

    def call(self, node: ast.Call) -> frozenset[str]:
        arguments = [self.kinds(a) for a in node.args]
        keywords = {k.arg: self.kinds(k.value) for k in node.keywords if k.arg}
        function = node.func
        if isinstance(function, ast.Attribute):
            owner = self.kinds(function.value)
            return self.method(node, function, owner, arguments)
        if not isinstance(function, ast.Name):
            self.kinds(function)
            return frozenset()
        name = function.id
        if name == "cast" and len(arguments) == 2:
            return arguments[1]
        if name == "getattr" and len(node.args) >= 2:
            attribute = node.args[1]
            if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str):
                fake = ast.Attribute(node.args[0], attribute.value, ast.Load())
                ast.copy_location(fake, node)
                return self.attribute(fake, arguments[0])
        if name in _PASS_THROUGH and arguments:
            return arguments[0]
        if not any(arguments) and not any(keywords.values()):
            return frozenset()
        target = self.reading.index.resolve(name, self.ref.file, self.ref.path)
        if isinstance(target, FunctionRef):
            by_position = {i: k for i, k in enumerate(arguments) if k}
            by_name = {n: k for n, k in keywords.items() if k and n}
            return self.reading.follow(target, by_position, by_name, self.depth + 1)
        return frozenset()

    def method(
        self,
        node: ast.Call,
        function: ast.Attribute,
        owner: frozenset[str],
        arguments: list[frozenset[str]],
    ) -> frozenset[str]:
        name = function.attr
        if name == "get" and node.args:
            self.read_keys(owner, node.args[0], node, "get")
            return _outside(owner, _DICT)
        if name == "as_dict" and _SCORE in owner:
            return frozenset({_VALUE})
        if name == "copy":
            return owner
        if name in {"append", "add", "extend"} and arguments:
            held = arguments[0] if name == "extend" else _inside(arguments[0], _LIST)
            container = function.value
            if isinstance(container, ast.Name):
                self.add(container.id, held)
            elif isinstance(container, ast.Subscript) and isinstance(
                container.value, ast.Name
            ):
                self.add(container.value.id, _inside(held, _DICT))
            return frozenset()
        module = function.value
        if isinstance(module, ast.Name) and any(arguments):
            target = self.reading.index.resolve(module.id, self.ref.file, self.ref.path)
            if isinstance(target, ModuleRef):
                ref = FunctionRef(target.file, (name,))
                by_position = {i: k for i, k in enumerate(arguments) if k}
                return self.reading.follow(ref, by_position, {}, self.depth + 1)
        return frozenset()


# Uses: which scorer or task lists a reader


Scope = tuple[str, QualifiedPath]
"""A scope of the package: ``(file, path of the function)``, ``()`` for a module."""
_HOPS = 4
"""How many bindings and helper calls a metrics, epochs or scorer expression
is followed through: mask's ``metrics.append({"*": submetrics})``,
zerobench's ``epochs=repeated_metrics``, bound to a helper's ``Epochs(k,
pass_at_evals + reliability_at_evals)`` of registered reducer names."""


@dataclass
class _Search:
    """What one package's search for uses keeps between modules."""

    seen: set[tuple[str, QualifiedPath, str]] = field(default_factory=set)
    """Names and helpers already followed in one query: each once."""
    bindings: dict[Scope, dict[str, list[ast.expr]]] = field(default_factory=dict)
    """Each scope's bindings, once worked out."""
    resolved: dict[tuple[str, QualifiedPath, str], Target] = field(default_factory=dict)
    """What each name means where it is used."""


class _Uses:
    """Find ``@scorer(metrics=...)`` and ``Task(...)`` in one module."""

    def __init__(
        self,
        index: PackageIndex,
        file: str,
        report: MetricReport,
        search: "_Search",
    ) -> None:
        self.index = index
        self.file = file
        self.report = report
        self.search = search
        self.seen = search.seen
        self.bindings = search.bindings

    def _resolve(self, name: str, scope: QualifiedPath) -> Target:
        """`PackageIndex.resolve`, kept: a package names the same few things often."""
        key = (self.file, scope, name)
        if key not in self.search.resolved:
            self.search.resolved[key] = self.index.resolve(name, self.file, scope)
        return self.search.resolved[key]

    def _first_time(self, scope: QualifiedPath, name: str) -> bool:
        """Whether a name (or helper) is followed for the first time in a search."""
        key = (self.file, scope, name)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def _other(self, file: str) -> "_Uses":
        """The same search, in another module of the package."""
        return _Uses(self.index, file, self.report, self.search)

    def find(self, tree: ast.Module, text: str) -> None:
        """Record the uses in a module (of `text`) in the report."""
        if "metrics" in text or "Task(" in text:
            self._in(tree.body, (), None)
        for statement in tree.body if "scorer" in text else []:
            if isinstance(statement, Function) and "scorer" not in decorator_kinds(
                statement.decorator_list
            ):
                self.seen.clear()
                called: set[Key] = set()
                for name in _called_or_returned(statement):
                    # a name it calls or returns, not followed further
                    called |= self._scorer_factories(name, (statement.name,), _HOPS)
                if called:
                    key = (self.file, statement.name)
                    self.report.function_scorers[key] = called

    def _in(self, body: list[ast.stmt], scope: QualifiedPath, task: str | None) -> None:
        for statement in body:
            if isinstance(statement, Function):
                path = (*scope, statement.name)
                kinds = decorator_kinds(statement.decorator_list)
                self._decorators(statement, path)
                inner = statement.name if "task" in kinds and not scope else task
                self._in(statement.body, path, inner)
                continue
            if isinstance(statement, ast.ClassDef):
                self._in(statement.body, (*scope, statement.name), task)
                continue
            for node in _expressions(statement):
                if isinstance(node, ast.Call) and last_name(node.func) == "Task":
                    self._task(node, scope, task)
            for name in ("body", "orelse", "finalbody"):
                block = getattr(statement, name, None)
                if isinstance(block, list):
                    self._in(block, scope, task)
            for handler in getattr(statement, "handlers", []):
                self._in(handler.body, scope, task)

    def _decorators(self, node: Function, path: QualifiedPath) -> None:
        for decorator in node.decorator_list:
            if not (
                isinstance(decorator, ast.Call) and last_name(decorator) == "scorer"
            ):
                continue
            for keyword in decorator.keywords:
                if keyword.arg == "metrics":
                    self.seen.clear()
                    key = (self.file, ".".join(path))
                    found = self._readers(keyword.value, path[:-1])
                    found |= self._dict_metrics(keyword.value, node.name, path[:-1])
                    self.report.scorer_readers.setdefault(key, set()).update(found)

    def _task(self, node: ast.Call, scope: QualifiedPath, task: str | None) -> None:
        found: set[Key] = set()
        for keyword in node.keywords:
            self.seen.clear()
            if keyword.arg in {"metrics", "epochs"}:
                found |= self._readers(keyword.value, scope)
            if keyword.arg == "metrics":
                found |= self._dict_metrics(keyword.value, task or "Task", scope)
            if keyword.arg == "scorer":
                scorers = self.report.task_scorers.setdefault(task, set())
                scorers |= self._scorer_factories(keyword.value, scope)
        self.report.task_readers.setdefault(task, set()).update(found)

    def _readers(self, node: ast.expr, scope: QualifiedPath, hops: int = 0) -> set[Key]:
        """The package's readers an expression names, through bindings and calls."""
        found: set[Key] = set()
        registered = self._registered_reducer_names()
        for item in ast.walk(node):
            if isinstance(item, ast.Constant) and item.value in registered:
                found.add(registered[item.value])
            elif isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
                module = self._resolve(item.value.id, scope)
                if isinstance(module, ModuleRef):
                    key = (module.file, item.attr)
                    found |= {key} & set(self.report.readers)
            elif isinstance(item, ast.Name):
                found |= self._named(item.id, scope, hops)
        return found

    def _named(self, name: str, scope: QualifiedPath, hops: int) -> set[Key]:
        """The readers a name is, or holds, or a helper it names returns."""
        target = self._resolve(name, scope)
        if isinstance(target, FunctionRef) and len(target.path) == 1:
            key = (target.file, target.path[0])
            if key in self.report.readers:
                return {key}
            if hops < _HOPS and self._first_time(target.path, ""):
                return self._readers_returned(target, hops)
            return set()
        found: set[Key] = set()
        if target is None and hops < _HOPS and self._first_time(scope, name):
            for value in self._bound_values(name, scope):
                found |= self._readers(value, scope, hops + 1)
        return found

    def _readers_returned(self, ref: FunctionRef, hops: int) -> set[Key]:
        """Readers a helper the expression calls returns (``default_metrics()``)."""
        node = self.index.definition(ref)
        if not isinstance(node, Function) or decorator_kinds(node.decorator_list):
            return set()
        inner = self._other(ref.file)
        found: set[Key] = set()
        for value in _own_returns(node):
            found |= inner._readers(value, ref.path, hops + 1)
        return found

    def _bound_values(self, name: str, scope: QualifiedPath) -> list[ast.expr]:
        """What a name is bound to in the module and the functions around `scope`.

        What is appended to it counts too (``metrics.append(core_summary())``).
        """
        module = self.index.module(self.file)
        if module is None:
            return []
        values = list(self._bindings(self.file, ()).get(name, []))
        for depth in range(1, len(scope) + 1):
            if isinstance(module.definitions.get(scope[:depth]), Function):
                values += self._bindings(self.file, scope[:depth]).get(name, [])
        return values

    def _bindings(self, file: str, scope: QualifiedPath) -> dict[str, list[ast.expr]]:
        """Each name's known values in one scope, appended ones too (kept)."""
        key = (file, scope)
        if key not in self.bindings:
            module = self.index.module(file)
            node = module.definitions.get(scope) if module and scope else None
            body = node.body if isinstance(node, Function) else []
            if module is not None and not scope:
                body = module.tree.body
            found = {
                name: [v for v in values if v is not None]
                for name, values in scope_bindings(body).items()
            }
            for name, value in _appended(body):
                found.setdefault(name, []).append(value)
            self.bindings[key] = found
        return self.bindings[key]

    def _registered_reducer_names(self) -> dict[str, Key]:
        """``@score_reducer(name="5_of_5_reliability")``: the names epochs may give."""
        found = {}
        for key, reader in self.report.readers.items():
            if reader.kind != "reducer":
                continue
            found[reader.name] = key
            node = self.index.definition(FunctionRef(reader.file, (reader.name,)))
            for decorator in node.decorator_list if isinstance(node, Function) else []:
                for keyword in getattr(decorator, "keywords", []):
                    if keyword.arg == "name" and isinstance(
                        keyword.value, ast.Constant
                    ):
                        found[str(keyword.value.value)] = key
        return found

    def _dict_metrics(
        self, node: ast.expr, owner: str, scope: QualifiedPath
    ) -> set[Key]:
        """Dict-form metrics read their keys of a dict value: a reader of their own."""
        dicts = [d for d in ast.walk(node) if isinstance(d, ast.Dict)]
        if isinstance(node, ast.Name):
            bound = self._bound_values(node.id, scope)
            dicts += [d for d in bound if isinstance(d, ast.Dict)]
        keys = sorted(
            {
                (k.value, k.lineno)
                for d in dicts
                for k in d.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
                if "*" not in k.value
            }
        )
        if not keys:
            return set()
        name = f"{owner} metrics={{...}}"
        reads = tuple(FieldRead(name, self.file, line, VALUE, k) for k, line in keys)
        reader = Reader(name, self.file, keys[0][1], "metrics", reads)
        self.report.readers[(self.file, name)] = reader
        return {(self.file, name)}

    def _scorer_factories(
        self, node: ast.AST, scope: QualifiedPath, hops: int = 0
    ) -> set[Key]:
        """The package's ``@scorer`` factories an expression (or function) names.

        Through a local name bound to a helper's call, and what that helper
        returns (mask's ``build_accuracy_and_honesty_scorer``), `_HOPS` deep.
        """
        found: set[Key] = set()
        for item in ast.walk(node):
            if not isinstance(item, ast.Name):
                continue
            target = self._resolve(item.id, scope)
            definition = (
                self.index.definition(target)
                if isinstance(target, FunctionRef)
                else None
            )
            if isinstance(definition, Function):
                assert isinstance(target, FunctionRef)  # for mypy: definition says so
                if "scorer" in decorator_kinds(definition.decorator_list):
                    found.add((target.file, ".".join(target.path)))
                elif (
                    hops < _HOPS
                    and not decorator_kinds(definition.decorator_list)
                    and self._other(target.file)._first_time(target.path, "")
                ):
                    inner = self._other(target.file)
                    for value in _own_returns(definition):
                        found |= inner._scorer_factories(value, target.path, hops + 1)
            elif target is None and hops < _HOPS and self._first_time(scope, item.id):
                for value in self._bound_values(item.id, scope):
                    found |= self._scorer_factories(value, scope, hops + 1)
        return found


def _called_or_returned(function: Function) -> list[ast.Name]:
    """The names a function calls or returns: where it could name a scorer."""
    found = [
        node.func
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    found += [node for node in _own_returns(function) if isinstance(node, ast.Name)]
    return found


def _appended(body: list[ast.stmt]) -> Iterator[tuple[str, ast.expr]]:
    """``(name, x)`` for each ``name.append(x)`` or ``name.extend(x)`` in a block."""
    for statement in body:
        for node in ast.walk(statement):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"append", "extend"}
                and isinstance(node.func.value, ast.Name)
            ):
                for argument in node.args:
                    yield node.func.value.id, argument


def _expressions(statement: ast.stmt) -> Iterator[ast.AST]:
    """Every node of a simple statement's own expressions (no nested blocks)."""
    for name, value in ast.iter_fields(statement):
        if name in {"body", "orelse", "finalbody", "handlers", "cases"}:
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, ast.AST):
                yield from ast.walk(item)


# Sources: where the score metadata a scorer builds comes from


def _metadata_sources(
    file: str, path: QualifiedPath, node: Function
) -> list[MetadataSource]:
    """Each key of score metadata a function builds, and where it comes from."""
    bindings: dict[str, list[ast.expr | None]] | None = None
    name = ".".join(path)
    found: list[MetadataSource] = []
    for item in _own_nodes(node):
        built: ast.expr | None = None
        if isinstance(item, ast.Call) and last_name(item.func) in {"Score", "unscored"}:
            built = next((k.value for k in item.keywords if k.arg == "metadata"), None)
        elif isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Attribute) and t.attr == "metadata" for t in item.targets
        ):
            built = item.value
        if built is not None and isinstance(item, ast.Call | ast.Assign):
            if bindings is None:
                bindings = scope_bindings(node.body, node.args)
            for key, sample_key in _sources(built, bindings, node, set()):
                found.append(MetadataSource(file, item.lineno, name, key, sample_key))
    return found


def _own_nodes(function: Function) -> Iterator[ast.AST]:
    """Every node of a function's body, nested functions and classes left out."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, Function | ast.ClassDef):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


Source = tuple[str | None, str | None]


def _sources(
    node: ast.expr,
    bindings: dict[str, list[ast.expr | None]],
    function: Function,
    seen: set[str],
) -> list[Source]:
    """``(key, sample key)`` for each key an expression builds into score metadata."""
    if _is_sample_metadata(node, bindings):
        return [(None, None)]
    if isinstance(node, ast.Dict):
        found: list[Source] = []
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                found += _sources(value, bindings, function, seen)
            elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.append((key.value, _sample_key(value, bindings)))
        return found
    if isinstance(node, ast.BoolOp):
        return [s for v in node.values for s in _sources(v, bindings, function, seen)]
    if isinstance(node, ast.IfExp):
        return [
            *_sources(node.body, bindings, function, seen),
            *_sources(node.orelse, bindings, function, seen),
        ]
    if isinstance(node, ast.Call) and last_name(node.func) in {"dict", "copy"}:
        inner = node.args[0] if node.args else getattr(node.func, "value", None)
        found = _sources(inner, bindings, function, seen) if inner else []
        for keyword in node.keywords:
            if keyword.arg:
                found.append((keyword.arg, _sample_key(keyword.value, bindings)))
        return found
    if isinstance(node, ast.Name) and node.id not in seen:
        seen.add(node.id)
        found = []
        for bound in bindings.get(node.id, []):
            if bound is not None:
                found += _sources(bound, bindings, function, seen)
        return found + _stored(node.id, bindings, function)
    return []


def _stored(
    name: str, bindings: dict[str, list[ast.expr | None]], function: Function
) -> list[Source]:
    """Keys set on a metadata dict after it is built: ``name["k"] = v``, ``update``."""
    found: list[Source] = []
    for item in _own_nodes(function):
        if isinstance(item, ast.Assign):
            for target in item.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == name
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    found.append(
                        (target.slice.value, _sample_key(item.value, bindings))
                    )
        if (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Attribute)
            and item.func.attr == "update"
            and isinstance(item.func.value, ast.Name)
            and item.func.value.id == name
            and item.args
        ):
            found += _sources(item.args[0], bindings, function, {name})
    return found


def _is_sample_metadata(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> bool:
    """``state.metadata`` (or a name bound only to it, or a copy of it)."""
    if isinstance(node, ast.Attribute) and node.attr == "metadata":
        return state_like(last_name(node.value))
    if isinstance(node, ast.Call) and last_name(node.func) in {"dict", "copy"}:
        inner = node.args[0] if node.args else getattr(node.func, "value", None)
        return inner is not None and _is_sample_metadata(inner, bindings, hops)
    if isinstance(node, ast.Name) and hops < 3:
        values = bindings.get(node.id, [])
        return bool(values) and all(
            v is not None and _is_sample_metadata(v, bindings, hops + 1) for v in values
        )
    return False


def _sample_key(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> str | None:
    """The sample metadata key a value is read from, if it is one."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        if _is_sample_metadata(node.value, bindings):
            return str(node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and _is_sample_metadata(node.func.value, bindings)
    ):
        return str(node.args[0].value)
    if isinstance(node, ast.Attribute) and _is_typed_metadata(node.value, bindings):
        return node.attr
    if isinstance(node, ast.Name) and hops < 3:
        values = [v for v in bindings.get(node.id, []) if v is not None]
        keys = {_sample_key(v, bindings, hops + 1) for v in values}
        if len(keys) == 1 and len(values) == len(bindings.get(node.id, [])):
            return keys.pop()
    return None


def _is_typed_metadata(
    node: ast.expr, bindings: dict[str, list[ast.expr | None]], hops: int = 0
) -> bool:
    """``state.metadata_as(Model)``, or a name bound only to it."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "metadata_as" and state_like(
            last_name(node.func.value)
        )
    if isinstance(node, ast.Name) and hops < 3:
        values = bindings.get(node.id, [])
        return bool(values) and all(
            v is not None and _is_typed_metadata(v, bindings, hops + 1) for v in values
        )
    return False


def findings(reads: Iterable[FieldRead]) -> list[Finding]:
    """Reads as findings, for the scan's listing."""
    return [Finding(r.file, r.line, f"{r.reader} reads {r.read}") for r in reads]
