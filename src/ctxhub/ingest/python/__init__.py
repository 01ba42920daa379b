"""Python source -> API chunks: `chunks` is the entry; `source` decodes and parses a file,
`definitions`, `callgraph`, `aliases` and `overview` read what each definition says,
`deprecations` (with `deprecation_text` and `changelog`) find what is deprecated."""
