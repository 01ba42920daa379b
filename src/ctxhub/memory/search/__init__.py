"""Finding records: hybrid retrieval, query shape, abstention evidence, hits, browse."""
