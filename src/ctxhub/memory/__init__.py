"""Memory: problem/solution records agents log, import or mine, found again by search."""
