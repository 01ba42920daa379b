"""Configuration of the agents that use ctxhub: `mcp_config` writes an MCP client's
server entry (claude-code, cursor, vscode, zed), `claude_hooks` adds or removes the
capture hook in Claude Code's settings. They write those files, nothing else."""
