"""The text of a check_deprecation answer: the verdict first, then the records cited
(each once, labelled with its source's version)."""

from __future__ import annotations

from ctxhub.core.knowledge import Deprecation
from ctxhub.core.outputs import DeprecationReport
from ctxhub.tools.deprecation_checks import checked_line
from ctxhub.tools.deprecation_records import removed_in, superseded_in
from ctxhub.tools.releases import label, release


def deprecation_report(report: DeprecationReport) -> str:
    if report.candidates:
        return "\n".join([_candidates_report(report), *_parameter_of(report)])
    lines = [_verdict(report)]
    if not report.deprecated and report.not_installed:
        lines.append(f"NOTE: {report.not_installed}")
    if not report.deprecated and report.parameters:
        if report.newer:
            lines.append(_newer_line(report))
        lines += [_cite(d, report) for d in report.parameters[:10]]
    elif report.deprecated:
        lines += _details(report)
    lines += _newer(report)
    lines += _withdrawn(report)
    lines += _parameter_of(report)
    lines += report.source_notes
    return "\n".join(lines)


def _parameter_of(report: DeprecationReport) -> list[str]:
    """Where the bare name asked is a deprecated parameter (and where a newer release
    than the one that runs makes it one)."""
    lines = []
    if report.parameter_of:
        owners = ", ".join(dict.fromkeys(d.symbol for d in report.parameter_of))
        lines.append(f"as a parameter: `{report.symbol}` is deprecated where passed to {owners}")
        lines += [_cite(d, report) for d in report.parameter_of]
    if report.parameter_of_newer:
        said = ", ".join(
            dict.fromkeys(f"{d.symbol} ({_when(d, report)})" for d in report.parameter_of_newer)
        )
        running = report.running
        than = f", newer than the {label(running)}" if running is not None else ""
        whose = " in your version" if running is not None and running.installed else ""
        lines.append(
            f"as a parameter, later: `{report.symbol}` is deprecated where passed to {said}"
            f"{than}: not in effect{whose}"
        )
        lines += [_cite(d, report) for d in report.parameter_of_newer]
    return lines


def _verdict(report: DeprecationReport) -> str:
    """The answer's first line."""
    if report.unknown:
        near = f"; did you mean {', '.join(report.did_you_mean)}?" if report.did_you_mean else ""
        return f"{report.symbol}: unknown symbol (no definition of that name is indexed{near})"
    if not report.found and report.parameter_of and not report.deprecated:
        return f"{report.symbol}: no symbol of that name is indexed; it is a deprecated parameter"
    if not report.found and report.parameter_of_newer and not report.deprecated:
        return (
            f"{report.symbol}: no symbol of that name is indexed; only a newer release"
            " deprecates it as a parameter"
        )
    if not report.deprecated and report.parameters:
        return _parameter_head(report)
    if not report.deprecated and report.newer and report.running is not None:
        # stated for a later release only: nothing the running version does
        running = report.running
        whose = "your version" if running.installed else "that version"
        return (
            f"{report.symbol}: {_newer_phrase(report)}, newer than the {label(running)}:"
            f" {'not deprecated' if _newer_deprecates(report) else 'still there'} in {whose}"
        )
    if not report.deprecated:
        if report.undeprecated:
            return f"{report.symbol}: not deprecated (a deprecation was withdrawn: see below)"
        return f"{report.symbol}: no deprecation found (checked: {checked_line(report.checked)})"
    head = f"{report.symbol}: DEPRECATED"
    if report.since:
        head += f" since {report.since}"
    if report.removed:
        head = f"{report.symbol}: REMOVED" + (
            f" in {report.removed_in}" if report.removed_in else ""
        )
        if report.since:
            head += f" (deprecated since {report.since})"
    if report.evidence == "docs":
        # weaker than code: say where, and that the code itself says nothing
        head = f"{report.symbol}: deprecated (stated in the docs: {report.location})"
        if report.since:
            head += f" since {report.since}"
    if report.replacement:
        head += f"; use {report.replacement} instead"
        if report.replacement_deprecated:
            head += " (itself deprecated)"
    return head


def _details(report: DeprecationReport) -> list[str]:
    lines = []
    if report.not_installed:  # first: the name does not import in the project at all
        lines.append(f"NOTE: {report.not_installed}")
    if report.evidence == "docs":
        lines.append("evidence: docs only (no deprecation found in the indexed code)")
    if report.note:
        lines.append(f"note: {report.note}")
    if report.location and report.evidence != "docs":  # the head already cites the page
        lines.append(f"at {report.location}")
    if report.deprecated_location:  # a removal cites its own record, then the deprecation
        lines.append(f"deprecated at {report.deprecated_location}")
    if report.newer:
        lines.append(_newer_line(report))
    if report.parameters:
        lines.append(f"also: {'; '.join(_parameter_phrases(report))}")
    for entry in report.entries[:10]:
        lines.append(
            f"- {entry.symbol} [{entry.origin}]"
            + (f" -> {entry.replacement}" if entry.replacement else "")
            + f" · {_where(entry, report)}"
        )
    return lines


def _where(d: Deprecation, report: DeprecationReport) -> str:
    """`source (version):path:line`, and the other versions that say the same."""
    versions = report.source_versions

    def label(source: str) -> str:
        return f"{source} {versions[source]}" if source in versions else source

    where = f"{label(d.source)}:{d.path}" if d.path else label(d.source)
    if d.path and d.line:
        where += f":{d.line}"
    if d.also_in:
        where += f" (also in {', '.join(label(s) for s in d.also_in)})"
    return where


def _when(d: Deprecation, report: DeprecationReport) -> str:
    """The release a newer record states, or the release whose code holds it."""
    gone, version = removed_in(d)
    version = (version if gone else d.since) or report.source_versions.get(d.source)
    return version or d.source


def _newer_deprecates(report: DeprecationReport) -> bool:
    return any(not removed_in(d)[0] for d in report.newer)


def _newer_phrase(report: DeprecationReport) -> str:
    """What the newer records state: `deprecated in 6.3`, `removed in 7.0`, `its `x`
    parameter deprecated in 6.4`, each once, earliest release first."""
    said: dict[str, str] = {}
    for d in sorted(report.newer, key=lambda d: release(_when(d, report)) or ()):
        gone = removed_in(d)[0]
        what = f"its `{d.parameter}` parameter " if d.parameter else ""
        what = "one way of using it " if d.partial and not d.parameter else what
        said.setdefault(f"{what}{'removed' if gone else 'deprecated'}", _when(d, report))
    return " and ".join(f"{what} in {version}" for what, version in said.items())


def _newer_line(report: DeprecationReport) -> str:
    """For an answer that holds for the running version: what a later release states."""
    running = report.running
    if running is None:
        return f"later: {_newer_phrase(report)}"
    whose = "your version" if running.installed else "that version"
    return (
        f"later: {_newer_phrase(report)}, newer than the {label(running)}: not in effect in {whose}"
    )


def _newer(report: DeprecationReport) -> list[str]:
    """The newer records, cited (the verdict or a `later:` line has said what they state)."""
    return [
        f"- {d.symbol} [{d.origin}] ({_when(d, report)}, newer)"
        + (f" -> {d.replacement}" if d.replacement else "")
        + f" · {_where(d, report)}"
        for d in report.newer[:10]
    ]


def _cite(d: Deprecation, report: DeprecationReport) -> str:
    return f"- {d.symbol} [{d.origin}] {d.note or ''} · {_where(d, report)}"


def _parameter_head(report: DeprecationReport) -> str:
    """Not deprecated itself; name each deprecated parameter (and usage), since when, what
    instead."""
    return f"{report.symbol}: not deprecated; {'; '.join(_parameter_phrases(report))}"


def _parameter_phrases(report: DeprecationReport) -> list[str]:
    said: dict[str, str] = {}
    gone: dict[str, str] = {}  # parameters a changelog (or a later note) says were removed
    # deprecations a later note superseded (the behaviour changed): (since, in which version)
    over: dict[str, tuple[str | None, str | None]] = {}
    for name in dict.fromkeys(d.parameter for d in report.parameters if d.parameter):
        # code and changelog may each tell part: since from one, the replacement from another
        about = [d for d in report.parameters if d.parameter == name]
        removals = [removed_in(d) for d in about]
        removed = any(gone_ for gone_, _ in removals)
        ended = [superseded_in(d) for d in about]
        since = next((d.since for d in about if d.since), None)
        instead = next((d.replacement for d in about if d.replacement), None)
        if removed:
            when = next((v for _, v in removals if v), None)
            extra = [f"in {when}"] if when else []
        elif all(ended):
            # every record says a later change ended the deprecation: it is no warning now
            over[name] = (since, ended[0])
            continue
        else:
            extra = [f"since {since}"] if since else []
        extra += [f"use `{instead}` instead"] if instead else []
        told = gone if removed else said
        told[name] = f" ({'; '.join(extra)})" if extra else ""
    heads = []
    for told, verb, plural in (
        (said, "is deprecated", "are deprecated"),
        (gone, "was REMOVED", "were REMOVED"),
    ):
        if len(told) == 1:
            ((name, extra_text),) = told.items()
            heads.append(f"its `{name}` parameter {verb}{extra_text}")
        elif told:
            heads.append(
                f"these parameters {plural}: " + ", ".join(f"`{n}`{e}" for n, e in told.items())
            )
    for name, (since, version) in over.items():
        heads.append(_superseded(f"its `{name}` parameter", since, version))
    usages = [d for d in report.parameters if d.parameter is None]
    ended_usages = [superseded_in(d) for d in usages]
    if usages and all(ended_usages):
        since = next((d.since for d in usages if d.since), None)
        heads.append(_superseded("a way of using it", since, ended_usages[0]))
    elif usages:
        heads.append("one way of using it is deprecated (see the note)")
    return heads


def _superseded(what: str, since: str | None, version: str | None) -> str:
    """A deprecation a later change ended: not current, and not a removal of the name."""
    deprecated = f" in {since}" if since else ""
    return (
        f"{what} was deprecated{deprecated} and the deprecation superseded in {version}: the"
        " behaviour changed (see the note)"
    )


def _withdrawn(report: DeprecationReport) -> list[str]:
    """ "`cmp` was deprecated in 19.2.0 and undeprecated in 21.1.0" for each withdrawal."""
    lines = []
    for undo in report.undeprecated[:5]:
        what = f"its `{undo.parameter}` parameter" if undo.parameter else undo.symbol
        when = f" in {undo.since}" if undo.since else ""
        lines.append(
            f"no longer deprecated: {what} was undeprecated{when} · {_where(undo, report)}"
        )
    return lines


def _candidates_report(report: DeprecationReport) -> str:
    """An ambiguous short name: each definition's verdict, none for the name itself."""
    n = len(report.candidates)
    lines = [
        f"{report.symbol}: {n} definitions carry that name; the answer depends on which one"
        " (ask with the qualified name):"
    ]
    for candidate in report.candidates:
        head = _verdict(candidate)
        if not (candidate.deprecated or candidate.parameters or candidate.undeprecated):
            head = head if candidate.newer else f"{candidate.symbol}: no deprecation found"
        lines.append(f"- {head}")
        cited = candidate.entries or candidate.parameters or candidate.newer
        if cited:
            lines.append(f"  {_where(cited[0], candidate)}")
    lines.append(f"checked: {checked_line(report.checked)}")
    lines += report.source_notes  # each source's once, whichever definitions cited it
    return "\n".join(lines)
