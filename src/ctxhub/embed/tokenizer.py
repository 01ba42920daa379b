"""The model's real WordPiece tokenizer, shared by the embedder and the chunkers."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ctxhub.embed.model_files import model_dir

if TYPE_CHECKING:  # the tokenizers package loads with the first tokenizer
    from tokenizers import Tokenizer

#: all-MiniLM-L6-v2 was trained with 256-token inputs (tokenizer.json defaults to 128).
MAX_TOKENS = 256


@lru_cache(maxsize=1)
def load_tokenizer(max_length: int = MAX_TOKENS) -> Tokenizer:
    """A tokenizer that truncates to `max_length` and pads each batch to its longest row."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.enable_truncation(max_length=max_length)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    return tok


@lru_cache(maxsize=1)
def _counting_tokenizer() -> Tokenizer:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def count_tokens(texts: Sequence[str]) -> list[int]:
    """Model tokens per text (special tokens [CLS]/[SEP] included), without truncation."""
    if not texts:
        return []
    return [len(e.ids) for e in _counting_tokenizer().encode_batch(list(texts))]
