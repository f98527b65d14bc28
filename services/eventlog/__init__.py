"""The event log: every aggregate's events on NATS JetStream, and the machinery around them.

One generic store (``store``: a stream per kind of aggregate, a subject per aggregate, appends
that expect the subject's last sequence and carry a de-duplication id), the ``Repository`` that
folds stored batches into aggregates, stream reading (``direct``) and consuming (``consuming``),
and the base of every SQL projection (``projector``, ``sql``). It knows no aggregate: tables,
accounts, disputes and chat build their stores on it (docs/architecture.md).
"""
