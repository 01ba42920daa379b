"""ctxhub: a local context engine for coding agents (knowledge + memory, one hybrid retriever)."""

__version__ = "0.1.0"
