"""Example trees -> example chunks: `layout` finds which files make each example,
`chunks` cuts them, `taxonomy` and `versions` say what each example is about."""
