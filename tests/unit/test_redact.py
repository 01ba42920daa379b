"""Secret redaction: every kind of secret goes, ordinary code and prose stay as they are."""

from __future__ import annotations

import time

import pytest

from ctxhub.core.records import RecordInput
from ctxhub.memory.redaction.redact import Redactor, redact, redact_counted, redact_record

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


AZURE_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq" + "/K1SZFPTOtr/KBHBeksoGMGw=="
)
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


def test_redaction_is_idempotent_and_counted() -> None:
    text = (
        f"DATABASE_URL=postgres://app:Sup3rS3cret@db/app\nGITHUB_TOKEN={GITHUB}\n"
        f"password: hunter22\n{PEM}\n"
    )
    once, counts = redact_counted(text)
    assert redact(once) == once
    assert counts == {"password": 2, "github_token": 1, "private_key": 1}


def test_redactor_scrubs_a_learned_secret_everywhere() -> None:
    redactor = Redactor()
    redactor.learn("postgres://billing:Wz8kLq2vRt@db.internal/billing")
    out = redactor.redact("it worked once Wz8kLq2vRt was set")
    assert out == "it worked once [REDACTED:secret] was set"
    assert redactor.counts["secret"] == 1
    # A plain word never becomes a known secret: it would eat ordinary text.
    plain = Redactor()
    plain.learn("postgres://postgres:postgres@localhost/db")
    assert plain.redact("run postgres locally") == "run postgres locally"


def test_redact_record_cleans_every_text_field_and_keeps_the_rest() -> None:
    record = RecordInput(
        problem=f"push failed with GITHUB_TOKEN={GITHUB}",
        solution="set password: hunter22 in the config; hunter22 must be quoted",
        error_type="AuthError",
        stack_trace=f"Authorization: Bearer {GITHUB}",
        code_snippet=f"client = OpenAI(api_key='{OPENAI}')",
        code_diff="-DB_PASSWORD=old\n+DB_PASSWORD=n3w-Passw0rd",
        file_path="config/.env",
        url="https://bob:Xy9pass@git.example.com/repo",
        language="Python",
        tags=["auth"],
        confidence=0.8,
        source="session",
        session_id="s-1",
    )
    clean = redact_record(record)
    dumped = clean.model_dump_json()
    for secret in (GITHUB, OPENAI, "hunter22", "n3w-Passw0rd", "Xy9pass"):
        assert secret not in dumped
    assert clean.language == "python" and clean.tags == ["auth"] and clean.confidence == 0.8
    assert clean.error_type == "AuthError" and clean.file_path == "config/.env"
    assert clean.url == "https://bob:[REDACTED:password]@git.example.com/repo"


def test_redaction_is_fast_on_a_large_log() -> None:
    line = "2025-06-03 09:14:02 INFO worker.py:88 processed batch 1234 in 0.52s token_count=17\n"
    text = line * 20_000 + f"GITHUB_TOKEN={GITHUB}\n"  # ~1.7 MB
    started = time.perf_counter()
    out = redact(text)
    assert GITHUB not in out and out.count("[REDACTED:") == 1
    assert time.perf_counter() - started < 5.0


# Secrets that a command's own flags or arguments carry (`ctxhub.memory.redaction.commands`).
VAULT = "hvs." + "CAESIJ9q7Lk2mXvB8nR4tY6wE0pA5dF2gH9iUzQ1"
NPM_AUTH = "bnBtdXNlcjpucG0tUGFzczk="


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            f"aws configure set aws_secret_access_key {AWS_SECRET}",
            "aws configure set aws_secret_access_key [REDACTED:secret]",
        ),
        (
            "aws --profile dev configure set profile.dev.aws_session_token FwoGZXIvYXdzEJr/wEa",
            "aws --profile dev configure set profile.dev.aws_session_token [REDACTED:token]",
        ),
        (
            "aws secretsmanager create-secret --name db --secret-string 'Sm9 s3cret'",
            "aws secretsmanager create-secret --name db --secret-string '[REDACTED:secret]'",
        ),
        (
            "docker login -u bob -p Dk3rPass! reg.io",
            "docker login -u bob -p [REDACTED:password] reg.io",
        ),
        (
            "docker login -u bob -pDk3rPass! reg.io",
            "docker login -u bob -p[REDACTED:password] reg.io",
        ),
        (
            "docker login -u bob -p=Dk3rPass reg.io",
            "docker login -u bob -p=[REDACTED:password] reg.io",
        ),
        (
            "docker login -u bob --password hunter reg.io",
            "docker login -u bob --password [REDACTED:password] reg.io",
        ),
        (
            "sudo /usr/bin/docker --context prod login reg.io -u bob -p 'Dk3r Pass'",
            "sudo /usr/bin/docker --context prod login reg.io -u bob -p '[REDACTED:password]'",
        ),
        (
            "docker login \\\n  -u bob \\\n  -p Dk3rPass \\\n  reg.io",
            "docker login \\\n  -u bob \\\n  -p [REDACTED:password] \\\n  reg.io",
        ),
        (
            "podman login -u bob -p Pd9pass quay.io",
            "podman login -u bob -p [REDACTED:password] quay.io",
        ),
        (
            "helm registry login ghcr.io -u bob -p Hm9pass",
            "helm registry login ghcr.io -u bob -p [REDACTED:password]",
        ),
        (
            "echo Dk3rPass | docker login -u bob --password-stdin reg.io",
            "echo [REDACTED:password] | docker login -u bob --password-stdin reg.io",
        ),
        (
            "docker login -u bob --password-stdin reg.io <<< 'Dk3r Pass'",
            "docker login -u bob --password-stdin reg.io <<< '[REDACTED:password]'",
        ),
        (
            "printf '%s' Sw4rmS3cret | docker secret create db_pw -",
            "printf '%s' [REDACTED:secret] | docker secret create db_pw -",
        ),
        (
            "sshpass -p S5hPass ssh -p 2222 bob@host",
            "sshpass -p [REDACTED:password] ssh -p 2222 bob@host",
        ),
        ("sshpass -pS5hPass scp f host:", "sshpass -p[REDACTED:password] scp f host:"),
        (
            "redis-cli -h cache -p 6379 -a R3disPw ping",
            "redis-cli -h cache -p 6379 -a [REDACTED:password] ping",
        ),
        (
            "redis-cli --user app --pass hunter ping",
            "redis-cli --user app --pass [REDACTED:password] ping",
        ),
        (
            "redis-cli -h c config set requirepass N3wPw",
            "redis-cli -h c config set requirepass [REDACTED:password]",
        ),
        (
            "redis-server --port 6380 --requirepass R3disPw",
            "redis-server --port 6380 --requirepass [REDACTED:password]",
        ),
        ("az login -u bob@x.io -p Az9Pass!", "az login -u bob@x.io -p [REDACTED:password]"),
        (
            "az login --service-principal -u app --password hunter --tenant t",
            "az login --service-principal -u app --password [REDACTED:password] --tenant t",
        ),
        (
            f"az storage blob upload -f a -c c -n a --account-name acct --account-key {AZURE_KEY}",
            "--account-name acct --account-key [REDACTED:azure_key]",
        ),
        ("htpasswd -b .htpasswd bob Ht9Pass", "htpasswd -b .htpasswd bob [REDACTED:password]"),
        (
            "htpasswd -bcB -C 10 /etc/nginx/.htpasswd bob 'Ht9 Pass' > /dev/null",
            "htpasswd -bcB -C 10 /etc/nginx/.htpasswd bob '[REDACTED:password]' > /dev/null",
        ),
        ("htpasswd -nb bob hunter", "htpasswd -nb bob [REDACTED:password]"),
        (
            "npm config set //registry.npmjs.org/:_authToken Np9Abc123def",
            "npm config set //registry.npmjs.org/:_authToken [REDACTED:token]",
        ),
        (
            f"npm config set //npm.corp.io/:_auth={NPM_AUTH}",
            "npm config set //npm.corp.io/:_auth=[REDACTED:secret]",
        ),
        (
            "yarn config set npmAuthToken Yn9Abc123def",
            "yarn config set npmAuthToken [REDACTED:token]",
        ),
        (
            "poetry config http-basic.corp bob Po9pass",
            "poetry config http-basic.corp bob [REDACTED:password]",
        ),
        (
            "poetry config pypi-token.corp Po9token",
            "poetry config pypi-token.corp [REDACTED:token]",
        ),
        (
            "twine upload -u __token__ -p Tw9secret dist/*",
            "twine upload -u __token__ -p [REDACTED:password] dist/*",
        ),
        ("vault login s.Va9tokenvalue", "vault login [REDACTED:token]"),
        (f"export VAULT_TOKEN={VAULT}", "export VAULT_TOKEN=[REDACTED:vault_token]"),
        (
            "echo Gh9tokenvalue | gh auth login --with-token",
            "echo [REDACTED:token] | gh auth login --with-token",
        ),
        (
            "gh secret set API_KEY --body Gh9secret",
            "gh secret set API_KEY --body [REDACTED:secret]",
        ),
        ("gh secret set API_KEY -b hunter", "gh secret set API_KEY -b [REDACTED:secret]"),
        (
            "kubectl -n prod create secret generic app --from-literal=DSN=Kc9dsn"
            " --from-literal user=bob",
            "kubectl -n prod create secret generic app --from-literal=DSN=[REDACTED:secret]"
            " --from-literal user=[REDACTED:secret]",
        ),
        (
            "openssl rsa -in k.pem -passin pass:hunter -out o.pem",
            "openssl rsa -in k.pem -passin pass:[REDACTED:password] -out o.pem",
        ),
        (
            "openssl enc -aes-256-cbc -k Op9key -in f -out f.enc",
            "openssl enc -aes-256-cbc -k [REDACTED:password] -in f -out f.enc",
        ),
        (
            "ssh-keygen -t ed25519 -N Sk9phrase -f key",
            "ssh-keygen -t ed25519 -N [REDACTED:password] -f key",
        ),
        (
            "keytool -importkeystore -srcstorepass Kt9pass -deststorepass changeit",
            "keytool -importkeystore -srcstorepass [REDACTED:password]"
            " -deststorepass [REDACTED:password]",
        ),
        ("7z a -pZz9pass -mhe=on a.7z f", "7z a -p[REDACTED:password] -mhe=on a.7z f"),
        ("zip -P Zp9pass a.zip f", "zip -P [REDACTED:password] a.zip f"),
        (
            "ldapsearch -x -D cn=admin,dc=x -w Ld9pass -b dc=x",
            "ldapsearch -x -D cn=admin,dc=x -w [REDACTED:password] -b dc=x",
        ),
        (
            "sqlcmd -S db -U sa -P 'Ms9 pass' -Q 'select 1'",
            "sqlcmd -S db -U sa -P '[REDACTED:password]' -Q 'select 1'",
        ),
        ("mongosh -u admin -p Mg9pass", "mongosh -u admin -p [REDACTED:password]"),
        ("curl -uadmin:Cu9pass https://x.io", "curl -uadmin:[REDACTED:password] https://x.io"),
        (
            "curl -U proxy:Pr9pass -x http://p:3128 https://x.io",
            "curl -U proxy:[REDACTED:password] -x http://p:3128 https://x.io",
        ),
        (
            "skopeo copy --src-creds bob:Sk9pass docker://a docker://b",
            "skopeo copy --src-creds bob:[REDACTED:password] docker://a docker://b",
        ),
        ("smbclient //h/s -U bob%Sm9pass", "smbclient //h/s -U bob%[REDACTED:password]"),
        ("rabbitmqctl add_user bob Rb9pass", "rabbitmqctl add_user bob [REDACTED:password]"),
        (
            "rabbitmqctl -n rabbit@h change_password bob hunter",
            "rabbitmqctl -n rabbit@h change_password bob [REDACTED:password]",
        ),
        ("echo 'bob:Ch9pass' | chpasswd", "echo 'bob:[REDACTED:password]' | chpasswd"),
        ("echo hunter | passwd --stdin bob", "echo [REDACTED:password] | passwd --stdin bob"),
        ("cf auth bob Cf9pass", "cf auth bob [REDACTED:password]"),
        ("doctl auth init -t Do9token", "doctl auth init -t [REDACTED:token]"),
        ("lftp -u bob,Lf9pass ftp://h", "lftp -u bob,[REDACTED:password] ftp://h"),
        (
            "echo Dk3rPass | sudo docker login -u bob --password-stdin",
            "echo [REDACTED:password] | sudo docker login -u bob --password-stdin",
        ),
        (
            "git commit -m 'docker login -p Dk3rPass'",
            "git commit -m 'docker login -p [REDACTED:password]'",
        ),
        (
            "ran `sshpass -p S5hPass ssh host` and then ls",
            "ran `sshpass -p [REDACTED:password] ssh host` and then ls",
        ),
    ],
)
def test_command_line_secret_is_redacted(text: str, expected: str) -> None:
    out = redact(text)
    assert expected in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        "docker login -u bob --password=Dk3rPass! reg.io",
        "mysql -u root -pMyS3cret shop",
        'psql "postgresql://app:Pg9pass@db/app"',
        "PGPASSWORD=Pg9pass psql -h db -U app",
        "curl -u admin:Cu9pass https://x.io",
        "pip install --index-url https://bob:Pi9pass@pypi.corp.io/simple pkg",
        f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}",
        "kubectl create secret generic x --from-literal=password=Kc9pass",
        "openssl pkcs12 -export -in c.pem -passout pass:Op9pass -out c.p12",
        "git clone https://bob:Gt9token@git.corp.io/o/r",
        "wget --user=bob --password Wg9pass https://x.io/f",
    ],
)
def test_command_line_secrets_other_rules_already_catch(text: str) -> None:
    out = redact(text)
    assert "[REDACTED:" in out
    assert not any(s in out for s in ("Dk3rPass", "MyS3cret", "Pg9pass", "Cu9pass", "Pi9pass"))
    assert not any(s in out for s in (AWS_SECRET, "Kc9pass", "Op9pass", "Gt9token", "Wg9pass"))
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        "docker ps -a",
        "docker run -p 8080:80 -e DEBUG=1 --name login app",
        "docker run --name login -p 8080:80 app login",
        "docker login reg.io",
        "docker login -u bob --password-stdin reg.io < pw.txt",
        'echo "$REG_PW" | docker login -u bob --password-stdin reg.io',
        "cat ~/.pw | docker login -u bob --password-stdin",
        'docker login -u bob -p "$(cat ~/.pw)" reg.io',
        "docker login -u bob -p $REG_PW reg.io",
        "docker login -u bob -p '<password>' reg.io",
        "docker login -u bob -p *** reg.io",
        "docker secret create db_pw ./pw.txt",
        "docker build -t app . && docker push app",
        "redis-cli -h host ping",
        "redis-cli -h host -p 6379 -n 2 keys '*'",
        'redis-cli -a "$REDIS_PASSWORD" ping',
        "redis-cli --askpass -h cache",
        "sshpass -f file ssh host",
        "sshpass -e ssh -p 2222 host",
        'sshpass -p "$SSHPASS" ssh host',
        "ls -p && grep -p pattern f && mkdir -p build",
        "ssh -p 2222 host && git log -p && pytest -p no:cacheprovider",
        "aws configure list",
        "aws configure set region us-east-1",
        "aws configure get aws_secret_access_key",
        "aws s3 ls s3://bucket --profile dev",
        "htpasswd -c .htpasswd bob",
        "htpasswd -D .htpasswd bob",
        "vault login -method=github",
        "vault login -",
        "vault status && vault kv get secret/app",
        "az login && az login --use-device-code && az account show",
        "kubectl create secret generic x --from-file=./key.pem",
        "kubectl get secret x -o yaml",
        "npm config set registry https://registry.npmjs.org/",
        "npm config get //registry.npmjs.org/:_authToken",
        "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
        "openssl rsa -in k.pem -passin env:KEY_PW -out o.pem",
        "openssl enc -d -aes-256-cbc -pass file:pw.txt -in f.enc",
        'ssh-keygen -t ed25519 -N "" -f key && ssh-keygen -p -f key',
        "7z x a.7z -p && zip -r a.zip dir && unzip -o a.zip",
        "gh auth login --with-token < token.txt",
        "gh secret set NAME < secret.txt && gh secret list",
        "echo hello | grep h",
        'echo "$PW" | chpasswd',
        "curl -u bob https://x.io && curl -U proxy -x http://p https://x.io",
        "poetry config virtualenvs.in-project true",
        "rabbitmqctl list_users",
        "Use `docker login --password-stdin` rather than -p",
    ],
)
def test_ordinary_commands_stay_untouched(text: str) -> None:
    assert redact(text) == text


def test_command_line_secrets_are_counted_and_learned() -> None:
    text = "sshpass -p S5hPass!x ssh host\nredis-cli -a R3disPw ping"
    out, counts = redact_counted(text)
    assert counts == {"password": 2}
    assert "S5hPass!x" not in out and "R3disPw" not in out
    redactor = Redactor()
    redactor.learn(text)
    assert redactor.redact("it worked with S5hPass!x") == "it worked with [REDACTED:secret]"


@pytest.mark.parametrize(
    "noise",
    [
        "2025-06-03 09:14:02 docker ps -a | redis-cli -h cache ping | az account show\n" * 20_000,
        "curl docker " * 100_000 + "\n",  # a program named again and again on one line
    ],
)
def test_command_scan_is_fast_on_a_large_log(noise: str) -> None:
    text = noise + "sshpass -p S5hPass ssh host\n"  # ~1.2-1.6 MB of commands
    started = time.perf_counter()
    out = redact(text)
    assert "S5hPass" not in out and out.count("[REDACTED:") == 1
    assert time.perf_counter() - started < 5.0
