FROM python:3.12-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY pbem ./pbem
COPY workers ./workers
RUN pip install --no-cache-dir .
USER nobody
