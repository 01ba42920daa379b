"""The knowledge tools: one plain function per MCP tool, shared by the server, the CLI
and the eval harness, so all three exercise exactly the same code path."""
