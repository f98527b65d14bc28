"""Table chat: the players seated at a table write, everyone at it (spectators too) reads.

Writing. A ``ChatCommand`` (``proto/maumau/v1/chat.proto``) is sent by NATS request/reply to
``cmd.chat.<table_id>``; every replica subscribes to ``cmd.chat.*`` in the queue group
``chat``. The reply is a ``ChatReply``: ``posted`` (the stream sequence and the line as
stored) or a ``Refusal``:

==================  ====================================================================
``bad_request``     not a ``ChatCommand``; no command id, table or actor; another table's
``unknown_table``   nothing was ever created under that id
``not_seated``      the actor has no seat at the table (spectators and strangers read only)
``empty``           nothing left once control characters are stripped
``too_long``        more than 300 characters (``MAUMAU_CHAT_MAX_CHARS``)
``bad_reaction``    a reaction that is none of ``REACTIONS``, or a reaction with a text
``too_fast``        more than 5 lines in 10 s by one player at one table (``MAUMAU_CHAT_RATE``)
``unavailable``     an internal failure; nothing was stored, the line may be sent again
==================  ====================================================================

A reaction is a line too: the command's ``reaction`` (one of ``REACTIONS``: applause, laughter…)
instead of a text, stored with the seat and name like any line and counted in the same rate
limit; the client shows it as the reaction's picture and sound.

Membership comes from the table's event stream (``TABLES``), folded with the table
service's own ``evolve`` and caught up before every line. The line's seat and name are the
table's, never the writer's identity (an identity is a device or account token; spectators
read every line). The text is plain text, stripped of control, zero-width and bidi
characters (``services.chat.text``) and otherwise stored as sent: the client renders it as
text, never as HTML.

The rate limit is kept in the replica's memory, per (table, actor): with several replicas a
player could write up to ``count × replicas`` lines in the window (the queue group spreads
requests), which is enough to stop flooding; a shared limit would cost a round trip per line.

Storing and reading. A line is one message on ``chat.<table_id>`` of the stream ``CHAT``
(file storage, ``MAUMAU_STREAM_REPLICAS`` replicas, ``max_msgs_per_subject=100``, direct
gets), published with ``Nats-Msg-Id`` = the command id so a re-sent line is stored once
(a replica also remembers recent command ids, so a re-sent line is not counted twice).
``services.chat.store.history(js, table_id)`` returns the last ≤100 lines, oldest first;
live lines are the messages on ``chat.<table_id>``.
"""

# The shared reactions a seated player may send (the client draws each with its emoji and sound)
REACTIONS = frozenset({"aplausos", "risos", "uau", "amei", "ops", "boa"})
