"""A finished Wakanda game's record through the real server path (an embedded Redis), with fixed
keys, seed and nonces: `.venv/bin/python docs/examples/make_record.py > docs/examples/wakanda.record.jsonl`.
The game id and times differ on each run; tests/test_contract.py verifies the committed file."""
import random, tempfile, sys, redis
from nacl.signing import SigningKey
import hashlib
from pbem.server.embedded_redis import EmbeddedRedis
from pbem.service import Service
from pbem.store import Store
from pbem.pipeline.queues import MoveQueue
from pbem.trust import signing
d=tempfile.mkdtemp()
srv=EmbeddedRedis(d).start()
try:
    r=redis.Redis.from_url(srv.url); r.flushall()
    q=MoveQueue(r, 1000)
    svc=Service(Store(r), enqueue=q.push)
    g=svc.create_game("wakanda",2,{},"an example game",seed=bytes(range(32)))["id"]
    keys=[]
    for s in range(2):
        pr=signing.b64e(hashlib.sha256(f"example seat {s}".encode()).digest())
        keys.append(pr); svc.join(g,s,signing.public_key_of(pr),["Ann","Bob"][s])
    rng=random.Random(7); n=0
    while True:
        l=svc.load(g)
        if l.game.result(l.state): break
        seat=sorted(l.game.to_act(l.state))[0]
        mv=rng.choice(l.game.legal_moves(l.state,seat))
        svc.submit(g, signing.make_envelope(g,seat,l.version,mv,keys[seat],nonce=f"example-{n:04d}")); n+=1
        q.drain(svc.apply_moves, linger_s=0)
    sys.stdout.write("\n".join(svc.record_lines(g,None))+"\n")
finally:
    srv.stop()
