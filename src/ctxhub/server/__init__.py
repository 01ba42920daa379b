"""The MCP server: the knowledge tools over stdio (default) or streamable HTTP."""
