FROM python:3.12-slim
WORKDIR /app
# Pinned: the versions the tests ran with (constraints.txt, `make lock`);
# the server only, without the test extras.
COPY pyproject.toml README.md constraints.txt ./
COPY pbem ./pbem
COPY workers ./workers
RUN pip install --no-cache-dir -c constraints.txt . \
    && mkdir -p /var/lib/pbem && chown nobody /var/lib/pbem
# The data volume (compose.yaml) mounts here; an empty named volume takes
# this directory's owner, so the processes (nobody) can write to it.
VOLUME /var/lib/pbem
USER nobody
