"""Secret redaction: `redact` applies `patterns` and the command-line rules in `commands`."""
