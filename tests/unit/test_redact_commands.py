"""Secrets that a command's own flags or arguments carry: redacted, counted and learned;
ordinary commands stay as they are; a large log of commands is scanned fast."""

from __future__ import annotations

import time

import pytest

from ctxhub.memory.redaction.redact import Redactor, redact, redact_counted
from tests.unit.redact_samples import AWS_SECRET, AZURE_KEY

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
