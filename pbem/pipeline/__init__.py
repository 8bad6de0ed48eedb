"""The move pipeline between the API and the workers: submissions go onto a
Redis stream per shard and lingering drain jobs apply them (``queues``:
``StreamQueue``, ``MoveQueue``), one queue per shard of a sharded store
(``shard_queues``), and on a cluster the drainers run as threads of the
worker (``drainers``)."""
