"""Example trees -> example chunks: `files` says which files are indexed and reads them,
`layout` finds which files make each example, `spans` says where to cut them and `chunks`
builds the chunks, `taxonomy` (over `python_facts` and `prose`) and `versions` say what
each example is about."""
