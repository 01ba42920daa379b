"""Fake secrets shared by the test_redact* files."""

# Secrets are assembled from parts so that this file itself trips no secret scanner.
GITHUB = "ghp_" + "k3J9sL2mQ8vX1cB7nR4tY6wE0pA5dF2gH9iU"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
OPENAI = "sk-" + "proj-Q9vX2mLk8RtYpW3nB7cJ4hD6fG1sA5eZ0uI"
ANTHROPIC = "sk-" + "ant-api03-Zx8Vb6Nm4Lk2Jh0Gf9Ds7Ap5Qw3Er1Ty-AbCdEf"
AWS_ID = "AKIA" + "4EXAMPLEQ7ZT2VXW"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
GOOGLE = "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"
STRIPE = "sk_" + "live_51HxYzAbCdEfGhIjKlMnOpQr"
STRIPE_RESTRICTED = "rk_" + "live_51H8abcdefghijklmnop"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIn0"
    ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2uzf8Xe0nWz1\n"
    "QZ5cTk4w1jz0bVv7yLz3l6xq2s0+AbCdEf==\n"
    "-----END RSA PRIVATE KEY-----"
)


AZURE_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq" + "/K1SZFPTOtr/KBHBeksoGMGw=="
)
