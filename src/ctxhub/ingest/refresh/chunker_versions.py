"""The version of each unit kind's chunker, part of every unit's content hash (`plan.py`)."""

from __future__ import annotations

#: What each kind's chunker makes of the same bytes, versioned: a unit's hash covers its
#: kind's version, so after an upgrade that chunks a kind differently, the next refresh
#: re-reads those units (embeddings of unchanged texts come from the cache). Bump a
#: kind's number whenever its chunks change for unchanged files. A docs page that reads
#: changelog records (a changelog page, or one including a changelog) covers the
#: changelog number too, so a changelog bump alone re-reads it.
CHUNKER_VERSIONS: dict[str, int] = {
    "python": 49,  # 2: super() and typed-attribute calls, call receivers; 3: helpers by
    # behaviour, attribute docstrings; 4: window texts of long chunks; 5: calls through
    # typed locals, parameters and properties; 6: name templates (`f"key_{key}"`);
    # 7: the API a module declares (`__all__`, a package's re-exports); 8: a module
    # that offers only deprecated names is deprecated; 9: a class's name-mangled methods
    # (`__helper`) in its embedded member list; 10: the messages a function emits by
    # key from a message table; 11: the message templates a function formats; 12:
    # templates keyed by their first three telling words, without markup, specs or keys;
    # 13: a warning about one argument is a parameter record ("parameter `x`: ...");
    # 14: documented or exported module-level instances (`name = Class(...)`); 15: a
    # private module declares no API; 16: no instances of TypeVar, none by a private
    # module's `__all__`; 17: a function's value is `value_of`, not an instance; 18:
    # a top-level docstring note about one parameter or usage, a later-superseded note,
    # a conditional warning about one usage, a deprecated `Annotated` Doc: partial records;
    # and every name of a chained alias (`s = attributes = attrs`) is an alias, and a
    # function's calls of its own nested defs are `calls_nested`; 19: a pre-configured
    # name (`frozen = partial(define, frozen=True)`) is an alias with `bound_arguments`;
    # 20: a public module's `from .mod import name as other` is an alias; 21: a note
    # under a `:param x:` field deprecates x, a warning's message read from a local
    # variable, `warnings.warn("... deprecated")` without a category, a docstring
    # paragraph "This class is deprecated", runtime deprecated-alias tables; 22: what a
    # public module imports under another name (`extra.renamed`); 23: a helper's message
    # joined with `+` or passed bare, numeric arguments, a warning naming its own function;
    # 24: every def has a chunk, a trivial one (`self.x = x`, an abstract `pass`)
    # lookup-only; 25: "in favor of" read as a replacement (only "in favour of" was),
    # decorator and helper arguments (version, instead=, thing=); 26: each base qualified
    # as the module binds it (`bases_qualified`), the absolute name of calls through an
    # import (`calls_imported`), the line of each call (`call_lines`); 27: warning classes
    # named for deprecation, members of a module that warns on import, `deprecat*=`
    # lazy-import tables, filled `__getattr__` templates, `!r` kept, since from comments;
    # 28: a Sphinx relative reference (`.Cls.method`) read as a name;
    # 29: a module records its star imports, `__all__`, lazy-import tables and public
    # constants; 30: notes read Sphinx roles as the docs show them (`.Cls.m` is `Cls.m`),
    # a note that only names its parameter takes the parameter entry's sentence (or goes,
    # when another record tells of that parameter); 31: public type aliases and typing
    # names (`Hook = Callable[...]`, `T = TypeVar("T")`) recorded among the constants;
    # 32: each recorded constant a lookup-only chunk of its own (its own id), a method of
    # a module-level instance (`structure = converter.structure`) and `x: Final = y` aliases;
    # 33: a module of imports and `__all__` alone is `reexports_only`; 34: each
    # documented class attribute a lookup-only `attribute` chunk (`Class.attr`), and a
    # module-level `name = deprecated(...)(func)` / `deprecated(func, ...)` a deprecated
    # lookup-only alias chunk (`wraps`) with its decorator's deprecation record; 35: calls
    # on values typed by an annotated return (`x or get_broker()`, `Cls.create()`, other
    # modules' too) and by the signature an override's parameters inherit; 36: a cycle in
    # bases leaves them unknown, an inherited parameter type yields to a conflicting
    # assignment, a class made in a function and its members are local (`nested_in`),
    # a deprecated wrapper wraps only a function (never a constant or `__name__`);
    # 37: a method alias in a class body (`pop = peek`, `__repr__ = __str__`) a lookup-only
    # `alias` chunk of its own (`Class.pop`, `alias_of` the method), shadowing a base's
    # method of that name; 38: only a base's method (`Base.method`) is aliased from
    # another class, never another class's attribute (`extra = Extra.forbid`); 39: an
    # alias chunk's span holds the attribute docstring under it (`Alias = X` + a string);
    # 40: embedded text leaves out `versionadded` / `versionchanged` notes; 41: a
    # dunder-named helper (`__deprecated__`), a constructor that always warns deprecates
    # its class, a `**kwargs` option (`'old' in options`) is the parameter; 42: "The
    # entire `x` module is deprecated", "use the primitives from `y`", a module
    # `__getattr__` serving a local table's keys, a def's warning naming its module;
    # 43: a parameter that marks something deprecated (`deprecated: bool`) is no record;
    # 44: calls through module-level instances (`_factory.get()`), a local's class follows
    # the assignments reaching each call, an unknown one recorded unresolved on its local
    # 45: a parameterless helper's fixed warning (`_deprecated()`) at each call site,
    # a deprecated module's replacement (since) on each member (re-export) naming none, a
    # `__getattr__` proxy's since (its warning's comments, docstring) on the names it serves, an
    # `Annotated` Doc saying "will be removed in a future version" or a `deprecated(...)`
    # marker in the annotation: parameter records (code-marked `deprecated=True`: none)
    # 46: an instance of a privately aliased class (`logger = _Logger()`) is `instance_of`
    # it, a private rename (`Logger as _Logger`) recorded, public CamelCase literal constants
    # 47: calls on a named receiver of unknown type (`handler.emit`), as written, in
    # `calls_untyped` (left out of the graph; traces count them)
    # 48: a package `__init__` without `__all__` re-exports no name its own code uses
    # that it imports from a public module (`pkg/config` using `pkg.router.Router`)
    # 49: a module-level `deprecated('name', 'message')` call (zope.deprecation) naming a
    # name of the module, each name of a literal loop; "deprecated as of Product 1.9";
    # a note under a bare parameter entry (`custom_predicates` alone on its line) is that
    # parameter's, an undated parameter record dated by its docstring entry or another
    # record of it, one docstring's records of one parameter merged
    "docs": 23,  # 2: included files; 3: reST through docutils; 4: Sphinx `.. class::`;
    # 5: MyST roles and directives in Markdown made readable; 6: a worked example's
    # tag only on the sections that hold its code; 7: an H1 after the title's is a new
    # top-level section, not the title's child; HTML read in the charset its <meta>
    # names, short HTML pages kept, an H1 with markup not repeated after the title;
    # 8: a reST section that only names definitions for autodoc is lookup-only; 9: a
    # built HTML page's chunks cite the .html file's lines and their heading's id; 10:
    # Sphinx relative references (`.Cls.m`) read without the dot, `:pep:` as "PEP n";
    # 11: text includes (`.. include::`, MyST `{include}`) carry the included page's
    # text, include options select lines, a page without an H1 takes its MkDocs nav
    # title, any heading or its folder's name (not `index`); 12: an included changelog's
    # text is lookup-only (get_doc opens it, search does not rank it); 13: a window
    # holding both the page's lines and included ones names the included file's lines
    # (`included_parts`); 14: one release's page in a release-notes folder
    # (`releases/v6.0.0.rst`) is a changelog: lookup-only
    # 15: as changelog 9 (a docs-only source's release pages read their records); 16: as
    # changelog 10; 17: a section over one window is cut into even windows (no short tail);
    # 18: window texts of chunks longer than one vector reads, under title and breadcrumb;
    # 19: a reST window lists the API descriptions it documents (`extra.describes`:
    # names column, `describes` terms for the symbol path), stubs left out; 20: section
    # titles inside autodoc / description directives are sections (Sphinx's
    # nested_parse_with_titles), each object group its breadcrumb; 21: as changelog 11;
    # 22: a literalinclude of any text file (a `.pt` template), "See also:" said once
    # 23: a changelog's name with a prefix or suffix (`BFG_HISTORY.rst`) is lookup-only
    "dump": 4,  # 2: as docs 7; 3: as docs 17; 4: as docs 18
    "examples": 3,  # 2: a small example file is one chunk; 3: the overview cites its
    # main file's lines (section, line_start, line_end)
    "changelog": 13,  # 2: "`f()`'s *x* argument ..." deprecates parameter x of f, not f;
    # 3: bold/italic version and section lines, "Removed `x`" bullets outside sections,
    # no horizontal rule in an entry, one record per entry repeated across versions;
    # 4: a reST `~~~` underline is no code fence (towncrier sub-headings), an entry's
    # names are those its sentence opens with, no builtin/typing/stdlib names, "`a`
    # method on `B`" is B.a, "`x` has been deprecated" bullets, "in favor of"; 5: an
    # entry's opening issue link (towncrier's `` `#265 <url>`_: ``) left out, "`x` support";
    # 6: the Sphinx `changelog` extension (`.. change::` with `:tags:`, `unreleased*/`
    # fragments), "was removed" / "undeprecated" entries, `:paramref:` and *x* arguments,
    # bare CamelCase names an entry opens by deprecating, a removed parameter also under
    # its dotted name; 7: notes read Sphinx roles as the docs show them, a Sphinx entry's
    # bullet list of parameters under their owners ("* `Ops.f` - "x" (use "y")");
    # 8: a later sentence of a bullet that deprecates its names ("The `X` name is still
    # available ..., but is deprecated"), `CHANGES.txt` and extensionless `HISTORY`
    # 9: names under a module's heading (`tornado.gen`) are that module's, "have been
    # removed. This includes `a`, ..., and `b`", "`a`, and `b` have been removed", "the
    # `x` decorator/constant/exception ... has been removed"; 10: a sibling module's member under
    # a module's heading (`httputil.X` under `tornado.web`) is `tornado.httputil.X`;
    # 11: "The ``X`` method was removed" outside a Removed section, "The entire `x` module"
    # 12: "Accessing ... on the *x* module is deprecated" a usage record of module x, a
    # Markdown link's text read for the replacement ("use [`y`](url)")
    # 13: a changelog's name with a prefix or suffix (`BFG_HISTORY.rst`, `OLD_CHANGES.md`),
    # each name of a nested list under "... deprecated:", "warns if X is not passed" a usage
}
