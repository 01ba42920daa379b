"""Python source -> API chunks: `chunks` is the entry and `definition_chunks` builds one
chunk per definition; `source` decodes and parses a file, `definitions`, `callgraph`,
`aliases`, `overview`, `name_templates`, `exports` and `messages` read what each
definition says, `deprecations` (with `deprecation_finder`, `deprecated_shims`,
`deprecation_helpers`, `deprecation_text` and `changelog`) find what is deprecated."""
