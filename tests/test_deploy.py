"""deploy/ as it is written: compose.yaml read as YAML (there is no Docker
engine here), the Procfile and the systemd units, every command one that
exists, every role there (the SMTP listener too), the environment each needs
set and valid, one secret and one data volume for all; and nginx.conf run by
a real nginx, with TLS, in front of `make run`."""
from __future__ import annotations

import importlib.util
import json
import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests
import yaml

from pbem.server.embedded_redis import free_port
from pbem.settings.registry import REGISTRY, errors

from .conftest import ROOT, wait_until
from .run_support import Server

DEPLOY = ROOT / "deploy"
SCRIPTS = {"pbem"}  # console scripts of the package (pyproject.toml)


def roles_of(argv: list[str]) -> str:
    """What a command runs, after checking that it exists: its modules and
    the classes it names import."""
    if argv[0].endswith("gunicorn"):
        app = argv[1].split(":")[0]
        assert importlib.util.find_spec(app), argv
        worker_class = argv[argv.index("--worker-class") + 1]
        module, _, name = worker_class.rpartition(".")
        assert hasattr(importlib.import_module(module), name), worker_class
        if "--config" in argv:
            config = argv[argv.index("--config") + 1]
            assert config.startswith("python:") and importlib.util.find_spec(config[7:]), config
        return "api"
    if argv[0].endswith("python") or argv[0] == "python":
        assert argv[1] == "-m", argv
        module = argv[2]
        assert importlib.util.find_spec(module), f"no module {module}"
        if module == "workers.worker":
            queues = [a for a in argv[3:] if not a.startswith("--")]
            assert set(queues) <= {"pbem-moves", "pbem-notify", "pbem-mail"}, queues
            return "background" if "--with-scheduler" in argv else "worker"
        return {"pbem.stream": "stream", "pbem.mail_in.listener": "mail-in"}[module]
    assert argv[0] in SCRIPTS, argv
    return argv[0]


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def sample(value: str) -> str:
    """A compose value with its ``${VAR:?...}`` / ``${VAR:-default}`` filled in."""
    return re.sub(r"\$\{(\w+)(:[?-])([^}]*)\}", lambda m: "x" * 40 if m.group(2) == ":?" else m.group(3), value)


def test_compose_runs_every_role_with_one_secret_and_one_data_volume():
    doc = compose()
    services = doc["services"]
    pbem = {name: s for name, s in services.items() if s.get("build")}
    roles = {name: roles_of(shlex.split(s["command"])) for name, s in pbem.items()}
    assert sorted(roles.values()) == ["api", "background", "mail-in", "stream", "worker"], roles
    volumes = set(doc["volumes"])
    for name, service in services.items():
        for dep in service.get("depends_on", []):
            assert dep in services, (name, dep)
    secrets_seen = set()
    for name, service in pbem.items():
        env = {k: str(v) for k, v in service["environment"].items()}
        for key in env:
            assert key in REGISTRY, f"{name}: {key} is no setting"
        assert errors({k: sample(v) for k, v in env.items()}) == [], name
        assert env["REDIS_URL"].startswith("redis://redis:"), name
        # The one secret, required: compose refuses to start without it.
        assert env["PBEM_SECRET"].startswith("${PBEM_SECRET:?"), name
        secrets_seen.add(env["PBEM_SECRET"])
        # One data volume, shared, at the data dir.
        mounts = {m.split(":")[1]: m.split(":")[0] for m in service["volumes"]}
        assert mounts.get(env["PBEM_DATA_DIR"]) in volumes, (name, mounts)
        assert env["PROMETHEUS_MULTIPROC_DIR"].startswith(env["PBEM_DATA_DIR"])
        assert env["MAIL_DOMAIN"] and env["PBEM_PUBLIC_URL"].startswith("https://")
    assert len(secrets_seen) == 1
    assert len({tuple(s["volumes"]) for s in pbem.values()}) == 1
    # The SMTP listener takes mail from outside, on the host's port 25.
    mail = next(s for n, s in pbem.items() if roles[n] == "mail-in")
    assert mail["environment"]["PBEM_MAIL_HOST"] == "0.0.0.0"
    assert f"25:{mail['environment']['PBEM_MAIL_PORT']}" in mail["ports"]
    # nginx reaches the API and the stream process where they listen.
    conf = (DEPLOY / "nginx.conf").read_text()
    api = next(s for n, s in pbem.items() if roles[n] == "api")
    stream = next(s for n, s in pbem.items() if roles[n] == "stream")
    assert "--bind 0.0.0.0:8000" in api["command"] and "server api:8000;" in conf
    assert stream["environment"]["HOST"] == "0.0.0.0"
    assert f"server stream:{stream['environment']['PBEM_STREAM_PORT']};" in conf
    nginx = services["nginx"]
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in nginx["volumes"]
    assert any(v.startswith("./tls:/etc/nginx/tls") for v in nginx["volumes"])
    assert "443:8443" in nginx["ports"]


def test_procfile_and_systemd_run_every_role():
    procfile = {}
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line and not line.startswith("#"):
            name, command = line.split(":", 1)
            procfile[name] = roles_of(shlex.split(re.sub(r"\$\{\w+:-(\w+)\}", r"\1", command)))
    assert sorted(procfile.values()) == ["api", "background", "mail-in", "stream", "worker"], procfile
    units = []
    for unit in (DEPLOY / "systemd").glob("*.service"):
        command = next(line.split("=", 1)[1] for line in unit.read_text().splitlines() if line.startswith("ExecStart="))
        if command.startswith("/bin/sh -c"):  # the worker template: one command per instance
            units += [roles_of(shlex.split(c.split("exec ", 1)[1].split(";")[0]))
                      for c in shlex.split(command)[2].split("; else")]
        else:
            units.append(roles_of(shlex.split(command.replace("/opt/pbem/.venv/bin/", ""))))
    assert sorted(units) == ["api", "background", "mail-in", "stream", "worker"], units


def test_the_image_installs_the_server_pinned_and_without_test_extras():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "-c constraints.txt" in dockerfile and ".[test]" not in dockerfile
    assert "/var/lib/pbem" in dockerfile  # the data volume's mount point, writable by the user


# -- nginx.conf, running ------------------------------------------------------------

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
DEPLOY_SECRET = "deploy-test-secret"


@pytest.fixture
def nginx_in_front(tmp_path):
    if not Path(NGINX).exists():
        pytest.skip("the nginx test needs nginx (apt-get install nginx-light; .ci/run does it)")
    # gunicorn's own access log on too, with the Authorization header in its
    # format: the credentials test reads it with nginx's and the API's.
    server = Server(tmp_path / "var", PBEM_WORKERS="1", WEB_CONCURRENCY="1", PBEM_LOG_FORMAT="json",
                    PBEM_SECRET=DEPLOY_SECRET, GUNICORN_CMD_ARGS="--access-logfile - --access-logformat "
                    "'gunicorn-access \"%(r)s\" %(s)s \"%(f)s\" auth=%({authorization}i)s'")
    tls = tmp_path / "tls"
    tls.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(tls / "privkey.pem"), "-out", str(tls / "fullchain.pem")],
                   check=True, capture_output=True)
    http_port, https_port = free_port(), free_port()
    conf = (DEPLOY / "nginx.conf").read_text()
    conf = (conf.replace("server api:8000;", f"server 127.0.0.1:{server.port};")
            .replace("server stream:8001;", f"server 127.0.0.1:{server.stream_port};")
            .replace("listen 8080;", f"listen 127.0.0.1:{http_port};")
            .replace("listen 8443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
            .replace("/etc/nginx/tls/", f"{tls}/").replace("/var/www/acme", str(tmp_path / "acme"))
            .replace("/var/log/nginx/access.log", str(tmp_path / "access.log")))
    (tmp_path / "site.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fcgi; uwsgi_temp_path {tmp_path}/uwsgi; scgi_temp_path {tmp_path}/scgi;
    include {tmp_path}/site.conf;
}}
""")
    check = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        server.wait_ready()
        yield {"https": f"https://localhost:{https_port}", "http": f"http://127.0.0.1:{http_port}",
               "cert": str(tls / "fullchain.pem"), "server": server, "access_log": tmp_path / "access.log"}
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        server.stop()


def test_nginx_serves_the_api_and_the_stream_over_tls(nginx_in_front):
    base, cert = nginx_in_front["https"], nginx_in_front["cert"]
    deadline = time.monotonic() + 20
    while True:
        try:
            health = requests.get(base + "/health", verify=cert, timeout=5)
            break
        except requests.ConnectionError:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    assert health.status_code == 200 and health.headers["Strict-Transport-Security"].startswith("max-age=")
    # nginx's own request id reaches the API, which returns it; a client's is kept.
    assert re.fullmatch(r"[0-9a-f]{32}", health.headers["X-Request-ID"])
    assert requests.get(base + "/health", verify=cert, headers={"X-Request-ID": "from-client-1"},
                        timeout=5).headers["X-Request-ID"] == "from-client-1"
    game = requests.post(base + "/games", json={"game": "wakanda", "players": 2}, verify=cert, timeout=5).json()
    # The stream path goes to the stream process itself (no 307 to another port);
    # make run starts that process last, so a busy machine may answer 502 at first.
    deadline = time.monotonic() + 20
    while True:
        with requests.get(f"{base}/games/{game['id']}/events/stream", verify=cert, stream=True, timeout=5) as first:
            if first.status_code != 502 or time.monotonic() > deadline:
                break
        time.sleep(0.3)
    with requests.get(f"{base}/games/{game['id']}/events/stream", verify=cert, stream=True, timeout=5) as sse:
        assert sse.history == [] and sse.status_code == 200
        assert sse.headers["Content-Type"].startswith("text/event-stream")
        assert next(sse.iter_lines()) .startswith(b"retry:")
    assert requests.get(base + "/ready", verify=cert, timeout=5).status_code == 200  # from loopback
    plain = requests.get(nginx_in_front["http"] + "/games", allow_redirects=False, timeout=5)
    assert plain.status_code == 301 and plain.headers["Location"].startswith("https://")


def wait_for_nginx(base: str, cert: str) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            requests.get(base + "/health", verify=cert, timeout=5)
            return
        except requests.ConnectionError:
            assert time.monotonic() < deadline
            time.sleep(0.2)


def test_no_credential_reaches_a_log(nginx_in_front):
    """A play link's MAC, a stream ticket, invitation tokens in paths, token
    queries and the Authorization header reach neither nginx's access log,
    nor the API's JSON request lines, nor gunicorn's access log: each shows
    the redacted form (a play link keeps its game and seat)."""
    from pbem.trust.signing import generate_key
    from pbem.trust.play_links import make_token
    base, cert = nginx_in_front["https"], nginx_in_front["cert"]
    wait_for_nginx(base, cert)
    game = requests.post(base + "/games", json={"game": "wakanda", "players": 2}, verify=cert, timeout=5).json()
    token = requests.post(f"{base}/games/{game['id']}/seats/0", json={"public_key": generate_key()[1], "name": "Ann"},
                          verify=cert, timeout=5).json()["token"]
    ticket = requests.post(f"{base}/games/{game['id']}/seats/0/ticket", json={}, verify=cert, timeout=5,
                           headers={"Authorization": f"Bearer {token}"}).json()["ticket"]
    link = make_token(DEPLOY_SECRET.encode(), game["id"], 0, time.time() + 3600)
    mac = link.rsplit(".", 1)[1]
    page = requests.get(f"{base}/play/{link}", verify=cert, timeout=5)
    assert page.status_code == 200 and "You play" in page.text
    assert requests.get(f"{base}/play/{link}/live", verify=cert, timeout=5).status_code == 200
    deadline = time.monotonic() + 20
    while True:   # the stream process is started last: a busy machine may answer 502 at first
        with requests.get(f"{base}/games/{game['id']}/events/stream?after=0&ticket={ticket}", verify=cert,
                          stream=True, timeout=5) as sse:
            if sse.status_code != 502 or time.monotonic() > deadline:
                assert sse.status_code == 200
                break
        time.sleep(0.3)
    secrets = {"mac": mac, "ticket": ticket, "token": token, "invitation": "invitationsecret1",
               "join": "joinsecret2", "query": "querysecret3", "referer": "referersecret4"}
    requests.get(f"{base}/invitations/invitationsecret1", verify=cert, timeout=5)
    requests.get(f"{base}/join/joinsecret2/accept?x=1", verify=cert, timeout=5)
    requests.get(f"{base}/games/{game['id']}?after=1&creator_token=querysecret3", verify=cert, timeout=5)
    requests.get(f"{base}/games/{game['id']}", verify=cert, timeout=5,
                 headers={"Authorization": f"Bearer {token}", "Referer": f"{base}/play/{game['id']}.0.9.referersecret4"})
    assert requests.get(f"{nginx_in_front['http']}/play/{link}", allow_redirects=False,
                        timeout=5).status_code == 301
    server = nginx_in_front["server"]
    wanted = f"/play/{game['id']}.0.REDACTED"
    access = wait_until(lambda: (lambda t: t if t.count(wanted) >= 3 else None)(
        nginx_in_front["access_log"].read_text()), timeout=10)
    api = wait_until(lambda: (lambda t: t if wanted + "/live" in t and "auth=REDACTED" in t else None)(
        server.output()), timeout=10)
    for name, text in (("nginx", access), ("api and gunicorn", api)):
        for what, secret in secrets.items():
            assert secret not in text, (name, what, [line for line in text.splitlines() if secret in line])
    assert f'"GET {wanted} HTTP/' in access and f"{wanted}/live" in access
    assert "/invitations/REDACTED" in access and "/join/REDACTED/accept" in access
    assert f"/games/{game['id']}/events/stream?REDACTED" in access and '"REDACTED"' in access
    lines = [json.loads(line) for line in api.splitlines() if line.startswith("{")]
    paths = {x["path"] for x in lines if x.get("event") == "request"}
    assert {wanted, wanted + "/live", "/invitations/REDACTED", "/join/REDACTED/accept"} <= paths, paths
    assert f'"GET {wanted} HTTP/1.0" 200' in api or f'"GET {wanted} HTTP/1.1" 200' in api   # gunicorn's line


def test_the_cluster_overlay_gives_every_role_the_cluster_and_a_plain_redis_for_rq():
    """compose.cluster.yaml on compose.yaml: six nodes on redis-cluster.conf,
    made into a cluster once, and every pbem role given a valid cluster URL,
    the plain Redis for RQ and the shard count, after the cluster is made."""
    base, overlay = compose(), yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())
    roles = {name for name, s in base["services"].items() if s.get("build")}
    nodes = [n for n in overlay["services"] if re.fullmatch(r"redis-\d", n)]
    assert len(nodes) == 6
    conf = (DEPLOY / "redis-cluster.conf").read_text()
    assert re.search(r"^cluster-enabled yes$", conf, re.M) and re.search(r"^appendonly yes$", conf, re.M)
    for n in nodes:
        assert any(v.endswith(":/etc/valkey/redis-cluster.conf:ro") for v in overlay["services"][n]["volumes"])
    init = overlay["services"]["cluster-init"]
    assert "--cluster create" in init["command"][0] and "--cluster-replicas 1" in init["command"][0]
    assert set(init["depends_on"]) == set(nodes)
    for name in roles:
        service = overlay["services"][name]
        env = {k: str(v) for k, v in service["environment"].items()}
        assert set(env) <= set(REGISTRY) and errors(env) == [], name
        assert env["REDIS_URL"].startswith("redis+cluster://redis-1:6379,"), name
        assert env["PBEM_QUEUE_REDIS_URL"] == "redis://redis:6379/0" and "redis" in base["services"]
        assert service["depends_on"]["cluster-init"]["condition"] == "service_completed_successfully"
