"""Writing and maintaining records: log (merge / variant), links, feedback, pending, transfer."""
