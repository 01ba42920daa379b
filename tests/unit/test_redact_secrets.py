"""Secret redaction in text: every kind of secret goes (tokens, keys, passwords,
connection strings, Azure credentials, mysql's attached passwords), ordinary code and
prose stay as they are."""

from __future__ import annotations

import pytest

from ctxhub.memory.redaction.redact import redact
from tests.unit.redact_samples import (
    ANTHROPIC,
    AWS_ID,
    AWS_SECRET,
    AZURE_KEY,
    GITHUB,
    GITHUB_PAT,
    GOOGLE,
    JWT,
    OPENAI,
    PEM,
    SLACK,
    STRIPE,
    STRIPE_RESTRICTED,
)


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        (f"AWS_ACCESS_KEY_ID={AWS_ID}", AWS_ID, "aws_access_key"),
        (f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET, "aws_secret_key"),
        (f"export GITHUB_TOKEN={GITHUB}", GITHUB, "github_token"),
        (f"git clone https://x-access:{GITHUB_PAT}@github.com/o/r", GITHUB_PAT, None),
        (f"OPENAI_API_KEY={OPENAI}", OPENAI, "openai_key"),
        (f"client = Anthropic(api_key='{ANTHROPIC}')", ANTHROPIC, "anthropic_key"),
        (f"slack: {SLACK}", SLACK, "slack_token"),
        (f"maps?key={GOOGLE}", GOOGLE, "google_api_key"),
        (f"stripe.api_key = {STRIPE}", STRIPE, "stripe_key"),
        (f"restricted {STRIPE_RESTRICTED}", STRIPE_RESTRICTED, "stripe_key"),
        (f'{{"id_token": "{JWT}"}}', JWT, "jwt"),
        (
            "curl -H 'Authorization: Bearer abc123def456ghi789' https://api.x.io",
            "abc123def456",
            None,
        ),
        ('{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}', "dXNlcjpwYXNzd29yZA", "authorization"),
        ("fetch(url, {token}) // Bearer 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a", "bearer"),
        ("DB_PASSWORD=hunter2\nDEBUG=1", "hunter2", "password"),
        ("SECRET_KEY='django-insecure-7c#x!q'", "django-insecure", "secret"),
        ('API_KEY="abcd1234efgh"', "abcd1234efgh", "key"),
        ("database:\n  user: app\n  password: s3cr3t!\n", "s3cr3t!", "password"),
        ('{"user": "bob", "password": "p@ssw0rd"}', "p@ssw0rd", "password"),
        ('{"apiKey": "abcdef123456", "n": 1}', "abcdef123456", "key"),
        ("X-Auth-Token: 4f1c9a7e2b\n", "4f1c9a7e2b", "token"),
        ("mysql -u root --password hunter2 app", "hunter2", "password"),
        ("mysql -u root --password=hunter2 app", "hunter2", "password"),
        ("psql -U app --db-pass 'Zq9!xw' -h db", "Zq9!xw", "password"),
        ("[pypi]\nusername = __token__\npassword = pw-90210-x\n", "pw-90210-x", "password"),
        ("the staging password is `Wz8kLq2vRt`, rotate it", "Wz8kLq2vRt", "password"),
        (f"{PEM}\nnext line", "MIIEpAIBAAKCAQEA", "private_key"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", "b3BlbnNz", None),
        ("machine api.example.com login bob password s3cret99", "s3cret99", "password"),
        ("machine example.com\n  login bob\n  password hunter22\n", "hunter22", "password"),
        ("curl -u admin:Adm1nPw https://x", "Adm1nPw", "password"),
    ],
)
def test_secret_is_replaced_by_a_marker(text: str, secret: str, kind: str | None) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out
    if kind is not None:
        assert f"[REDACTED:{kind}]" in out


@pytest.mark.parametrize(
    ("url", "kept", "secret"),
    [
        ("postgres://app:Sup3rS3cret@db.internal:5432/app", "postgres://app:", "Sup3rS3cret"),
        ("postgresql+psycopg2://u:p%40ss9@h/db", "postgresql+psycopg2://u:", "p%40ss9"),
        ("mysql://root:toor123@localhost:3306/shop", "mysql://root:", "toor123"),
        (
            "mongodb+srv://admin:hunter2@cluster0.abcde.mongodb.net/test",
            "mongodb+srv://admin:",
            "hunter2",
        ),
        ("redis://:r3dis-pass@cache:6379/0", "redis://:", "r3dis-pass"),
        ("amqp://guest:gu3st-pw@rabbit:5672//", "amqp://guest:", "gu3st-pw"),
        ("https://user:pa@ss99@host.example/x", "https://user:", "pa@ss99"),
    ],
)
def test_connection_string_keeps_scheme_user_and_host(url: str, kept: str, secret: str) -> None:
    out = redact(f"DATABASE_URL={url}")
    host = url.rsplit("@", 1)[1]
    assert out == f"DATABASE_URL={kept}[REDACTED:password]@{host}"
    assert secret not in out


AZURE_SIG = "Zq3rT8kLm2Vx" + "9%2BaBcDeFgH1jK4%2FnOpQrStUv%3D"
SAS_QUERY = "sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2025-01-01T00:00:00Z&spr=https&sig="


@pytest.mark.parametrize(
    ("text", "secret", "kind", "kept"),
    [
        (
            "DefaultEndpointsProtocol=https;AccountName=devacct;"
            f"AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
            AZURE_KEY,
            "azure_key",
            "AccountName=devacct;AccountKey=[REDACTED:azure_key];EndpointSuffix=core.windows.net",
        ),
        (
            f'"AzureWebJobsStorage": "AccountName=a;AccountKey={AZURE_KEY}"',
            AZURE_KEY,
            "azure_key",
            'AccountKey=[REDACTED:azure_key]"',
        ),
        (
            f"export AZURE_STORAGE_ACCOUNT_KEY={AZURE_KEY}",
            AZURE_KEY,
            "azure_key",
            "export AZURE_STORAGE_ACCOUNT_KEY=[REDACTED:azure_key]",
        ),
        (
            "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey"
            ";SharedAccessKey=" + AZURE_KEY[:44],
            AZURE_KEY[:44],
            "azure_key",
            "SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=[REDACTED:azure_key]",
        ),
        (
            "BlobEndpoint=https://acct.blob.core.windows.net/;"
            f"SharedAccessSignature={SAS_QUERY}{AZURE_SIG}",
            AZURE_SIG,
            "azure_sas",
            "BlobEndpoint=https://acct.blob.core.windows.net/;"
            "SharedAccessSignature=[REDACTED:azure_sas]",
        ),
        (
            f"curl 'https://acct.blob.core.windows.net/c/report.csv?{SAS_QUERY}{AZURE_SIG}' -o r",
            AZURE_SIG,
            "azure_sas",
            f"report.csv?{SAS_QUERY}[REDACTED:azure_sas]' -o r",
        ),
        (
            f"https://acct.queue.core.windows.net/q?sig={AZURE_SIG}&se=2025-01-01&sp=r",
            AZURE_SIG,
            "azure_sas",
            "q?sig=[REDACTED:azure_sas]&se=2025-01-01&sp=r",
        ),
        (
            "mysql -u root -pMyS3cret shop",
            "MyS3cret",
            "password",
            "-u root -p[REDACTED:password] shop",
        ),
        (
            "mysqldump -pSecret db > db.sql",
            "Secret",
            "password",
            "mysqldump -p[REDACTED:password] db",
        ),
        (
            "docker exec db mysql -h 127.0.0.1 -P3306 -uroot -p'my pass' -e 'select 1'",
            "my pass",
            "password",
            "-P3306 -uroot -p'[REDACTED:password]' -e 'select 1'",
        ),
        (
            'mariadb-dump -p"Zq9;x" app',
            "Zq9;x",
            "password",
            'mariadb-dump -p"[REDACTED:password]" app',
        ),
        (
            "/usr/bin/mysqladmin -uroot -ps3cr3t status && ssh -p2222 host",
            "s3cr3t",
            "password",
            "-p[REDACTED:password] status && ssh -p2222 host",
        ),
    ],
)
def test_azure_credentials_and_mysql_attached_passwords(
    text: str, secret: str, kind: str, kept: str
) -> None:
    out = redact(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert kept in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        "mysql -h db -P3306 -u root -p",
        "mysql -u root -p 3306",  # `-p` prompts; 3306 is the database
        "mysql -u root -p shop < dump.sql",
        "mysql --port=3306 -P 3306 -uroot -p",
        "mysql -u root -p$MYSQL_PWD shop",
        'mysqldump -p"${DB_PASS}" shop',
        "ssh -p2222 host && mkdir -p build && docker run -p8080:80 app",
        "pip install mysqlclient -pre; mkdir -p out",
        "import mysql.connector; tar -pxf a.tgz",
        "mysql_config --cflags -pthread",
        "the mysql -p flag asks for the password",
        "AccountKey=<your-account-key>;AccountName=devacct",
        "AccountKey=${AZURE_STORAGE_KEY};EndpointSuffix=core.windows.net",
        "account_key = accountKeyFromEnvironment",
        "account_key = get_account_key()",
        "SharedAccessKeyName=RootManageSharedAccessKey",
        "SharedAccessSignature=$SAS_TOKEN",
        "def check(sig=inspect.signature(f)): ...",
        "https://example.com/search?q=sig&page=2",
        "GET /api?signature=abc&sig=short",
    ],
)
def test_azure_and_mysql_lookalikes_stay_untouched(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "commit 3f2a9c1e5b7d4e8a9c0f1d2e3f4a5b6c7d8e9f01",
        "request 123e4567-e89b-12d3-a456-426614174000 failed",
        "password_field = forms.CharField(widget=forms.PasswordInput)",
        "def get_token():\n    return self.token",
        "password = os.environ['DB_PASSWORD']",
        "token = make_token(user, scope='read')",
        "conn = psycopg2.connect(host=h, password=pw, user=u)",
        "api_key = key",
        "secret = settings.SECRET",
        "def login(username: str, password: str) -> Session:",
        "class Config:\n    token: str\n    password: Optional[str] = None",
        "if token == 'abc':\n    pass",
        "Use the --password option to set it interactively.",
        'headers = {"Authorization": f"Bearer {token}"}',
        'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com',
        "token: ${{ secrets.GITHUB_TOKEN }}",
        'url = f"postgres://{user}:{password}@{host}/db"',
        'FATAL:  password authentication failed for user "postgres"',
        "the password is required and the token expired",
        '{"max_tokens": 1024, "input_tokens": 55, "tokenizer": "bpe"}',
        "git@github.com:org/repo.git and ssh://git@github.com/org/repo",
        "Bearer authentication is used by the API",
        "The task-management-system-component-library is risk-free-and-open-source",
        "DB_PASSWORD=${DB_PASSWORD:-changeme}",
        'SECRET_KEY = "<your-secret-key>"',
        "password: '***'",
        "http://localhost:8080/health and https://example.com:443/path",
        'tok.enable_padding(pad_id=0, pad_token="[PAD]", unk_token="<unk>")',
        'guard = " (bearer token required)" if token else ""',
        "~78/s for 256-token chunks), as the activations stop fitting in cache",
        "Secret redaction: API keys are replaced; pass `--token x` to override",
    ],
)
def test_ordinary_code_and_prose_stay_untouched(text: str) -> None:
    assert redact(text) == text
