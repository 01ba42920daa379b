"""Docs pages -> doc chunks: `chunks` is the entry (`chunk_page`, `pages_of_file`); the
other modules clean MDX, read frontmatter, split llms-full.txt dumps and headings, and
pack sections into token windows."""
