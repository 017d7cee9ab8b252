"""The metric reader's findings as data: reads, readers, sources, the report.

`MetricReport` answers, for a registered scorer, what its metrics read
(`MetricReport.reads_for`) and which score metadata keys they need from it
(`MetricReport.metadata_needs`). ``metrics.py`` says how it is found.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

METADATA, VALUE, ANSWER, SAMPLE_METADATA = (
    "metadata",
    "value",
    "answer",
    "sample_metadata",
)


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
        return sorted(found, key=read_order)

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
            mine = [s for s in sources if any(within(s, f) for f in own)]
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


def within(source: "MetadataSource", function: Key) -> bool:
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


def read_order(read: FieldRead) -> tuple[str, int, str, str, str]:
    """The order reads are listed in: by place, then field, key and reader."""
    return (read.file, read.line, read.field, read.key or "", read.reader)
