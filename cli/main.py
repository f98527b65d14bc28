"""The ``maumau`` command: one entry point for every service and tool of the platform."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
NATS_HELP = "the platform's NATS (default: NATS_URL, else the one `make run` started here, in .data/run.json)"


def run(main: Coroutine[Any, Any, T]) -> T:
    from services.runtime.lifecycle import run as run_service

    return run_service(main)


def _rules_script(args: argparse.Namespace) -> int:
    from services.rules.script import ScriptError, main

    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    try:
        lines = main(text)
    except ScriptError as e:
        print(f"maumau rules-script: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def _rules_serve(args: argparse.Namespace) -> int:
    from services.rules.server import serve
    from services.runtime.settings import Settings

    run(serve(args.host, args.port, Settings.from_env().health_port))  # MAUMAU_HEALTH_PORT: /metrics
    return 0


def _table_serve(args: argparse.Namespace) -> int:
    from services.runtime.settings import Settings
    from services.table.main import serve_table

    run(serve_table(Settings.from_env()))
    return 0


def _chat_serve(args: argparse.Namespace) -> int:
    from services.chat.main import serve_chat
    from services.runtime.settings import Settings

    run(serve_chat(Settings.from_env()))
    return 0


def _accounts_serve(args: argparse.Namespace) -> int:
    from services.accounts.main import serve_accounts
    from services.runtime.settings import Settings

    run(serve_accounts(Settings.from_env()))
    return 0


def _projector(args: argparse.Namespace) -> int:
    from services.readmodels.main import run_projector
    from services.runtime.settings import Settings

    run(run_projector(Settings.from_env(), args.rebuild))
    return 0


def _clock_serve(args: argparse.Namespace) -> int:
    from services.clock.main import serve_clock
    from services.runtime.settings import Settings

    run(serve_clock(Settings.from_env()))
    return 0


def _bots_serve(args: argparse.Namespace) -> int:
    from services.bots.main import serve_bots
    from services.runtime.settings import Settings

    run(serve_bots(Settings.from_env()))
    return 0


def _gateway_serve(args: argparse.Namespace) -> int:
    import uvloop

    from gateway.server import serve
    from services.runtime.lifecycle import tune_gc
    from services.runtime.settings import Settings

    uvloop.install()
    tune_gc()
    serve(Settings.from_env(), args.host, args.port)
    return 0


def _loadtest(args: argparse.Namespace) -> int:
    from tools.load.loadtest import Plan, idle_sockets_default
    from tools.load.loadtest import run as loadtest

    idle = idle_sockets_default(args.clients, args.url) if args.idle_sockets is None else args.idle_sockets
    plan = Plan(clients=args.clients, tables=args.tables, seconds=args.seconds, warmup=args.warmup, rate=args.rate,
                idle_sockets=idle, seed=args.seed, idle_tables=args.idle_tables)
    print(run(loadtest(plan, args.url)))
    return 0


def _chaos(args: argparse.Namespace) -> int:
    from tools.load.chaos import main

    print(main(args.seconds, args.seed, args.tables, args.rate))
    return 0


def _up(args: argparse.Namespace) -> int:
    from services.runtime.supervisor import main

    return main(args.data, args.cluster)


def _bench_rules(args: argparse.Namespace) -> int:
    from tools.bench.rules import run

    print(run(args.ruleset, args.players, args.seconds, args.seed))
    return 0


def _bench_bots(args: argparse.Namespace) -> int:
    from tools.bench.bots import AnchorMissing, run

    try:
        print(run(args.ruleset, args.players, args.games, args.ms, args.seed, args.opponents, args.anchor,
                  args.oracle, args.workers, report=sys.stderr))
    except AnchorMissing as e:
        print(f"maumau bench bots: {e}", file=sys.stderr)
        return 2
    return 0


def _bench_table(args: argparse.Namespace) -> int:
    from tools.bench.table import run as bench

    print(run(bench(args.tables, args.seconds, args.seed, args.nats_url, args.rate)))
    return 0


def _nats_url(args: argparse.Namespace) -> str:
    """The NATS the command talks to (said on stderr; kept in ``args`` for the error if it does not answer)."""
    from services.runtime.platform import nats_url

    url, source = nats_url(args.nats_url)
    args.found_nats = f"{url} (from {source})"
    print(f"maumau: NATS at {args.found_nats}", file=sys.stderr)
    return url


def _bench_capacity(args: argparse.Namespace) -> int:
    from tools.bench.capacity import run as bench

    print(run(bench(args.tables, args.seconds, args.seed, args.runs)))
    return 0


def _verify(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from services.record import records

    if args.file is not None:
        return records.verify_file(Path(args.file), Path(args.public_key) if args.public_key else None,
                                   sys.stdout)
    if args.all:
        return asyncio.run(records.verify_all(_nats_url(args), sys.stdout))
    if args.table_id is None:
        print("maumau verify: name a table, --all, or an export with --file", file=sys.stderr)
        return 2
    return asyncio.run(records.verify_table(_nats_url(args), args.table_id, sys.stdout))


def _export(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from services.record import records
    from services.runtime.settings import Settings

    key = Path(Settings.from_env().signing_key)
    if args.output == "-":
        return asyncio.run(records.export_table(_nats_url(args), args.table_id, key, sys.stdout.buffer))
    with open(args.output, "wb") as out:
        return asyncio.run(records.export_table(_nats_url(args), args.table_id, key, out))


def _replay(args: argparse.Namespace) -> int:
    import asyncio

    from services.record import records, replay

    viewer = replay.FULL if args.full else args.seat
    return asyncio.run(records.replay_table(_nats_url(args), args.table_id, viewer, args.until, args.json,
                                            sys.stdout))


def _bench_replay(args: argparse.Namespace) -> int:
    from tools.bench.replay import run as bench

    print(run(bench(args.tables, args.events, args.seed)))
    return 0


def _bench_replays(args: argparse.Namespace) -> int:
    from tools.bench.replays import Plan
    from tools.bench.replays import run as bench

    plan = Plan(long_tables=args.long_tables, batches=args.batches, cached_asks=args.cached_asks, tables=args.tables,
                rate=args.rate, seconds=args.seconds, warmup=args.warmup, flood_rate=args.flood_rate,
                rounds=args.rounds, seed=args.seed)
    print(run(bench(plan)))
    return 0


def _bench_rankings(args: argparse.Namespace) -> int:
    from tools.bench.rankings import run as bench

    print(bench(args.matches, args.queries, args.database_url, args.seed))
    return 0


def _staff(args: argparse.Namespace) -> int:
    import asyncio

    from gateway.signout import sign_out_command
    from services.accounts.staff import staff_command

    if args.action == "sign-out":
        return asyncio.run(sign_out_command(_nats_url(args), args.name, sys.stdout))
    return asyncio.run(staff_command(_nats_url(args), args.name, args.action == "grant", sys.stdout))


def _staff_commands(sub: Any) -> None:
    """``maumau staff grant|revoke|sign-out NAME`` (docs/disputes.md, docs/accounts.md)."""
    st = sub.add_parser("staff", help="grant or revoke an account's staff role (the disputes' desk, /staff), "
                                      "or end every session of an account (sign-out)")
    st.add_argument("action", choices=["grant", "revoke", "sign-out"])
    st.add_argument("name", help="the account's name (any spelling of it)")
    st.add_argument("--nats-url", default=None, help=NATS_HELP)
    st.set_defaults(func=_staff)


def _streams(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from services.streams import backup

    if args.streams_command == "backup":
        return asyncio.run(backup.backup(_nats_url(args), Path(args.dir), sys.stdout))
    return asyncio.run(backup.restore_all(_nats_url(args), Path(args.dir), sys.stdout, args.replace, args.replicas))


def _streams_commands(sub: Any) -> None:
    """``maumau streams backup|restore DIR``: every stream of the platform, sequences kept (docs/operations.md)."""
    st = sub.add_parser("streams", help="back up or restore the platform's streams, every message at its sequence")
    st_sub = st.add_subparsers(dest="streams_command", required=True)
    bk = st_sub.add_parser("backup", help="snapshot every stream of the platform into DIR (new or empty)")
    rs = st_sub.add_parser("restore", help="make the streams of a backup again (the platform stopped)")
    rs.add_argument("--replace", action="store_true", help="delete a stream that exists already first")
    rs.add_argument("--replicas", type=int, default=None, help="copies of each stream (default: the backup's)")
    for p in (bk, rs):
        p.add_argument("dir", help="the backup's directory: one directory per stream")
        p.add_argument("--nats-url", default=None, help=NATS_HELP)
        p.set_defaults(func=_streams)


def _bench_matchmaking(args: argparse.Namespace) -> int:
    import asyncio

    from tools.bench.matchmaking import run as bench

    print(asyncio.run(bench(args.players, args.spread, args.seed, args.url)))
    return 0


def _bench_revocation(args: argparse.Namespace) -> int:
    import asyncio

    from tools.bench.revocation import run as bench

    print(asyncio.run(bench(args.sessions)))
    return 0


def _record_commands(sub: Any) -> None:
    """verify, export and replay: a table's record (docs/record.md)."""
    ver = sub.add_parser("verify", help="check a table's record: its chain, and every decision and deal by the engine")
    ver.add_argument("table_id", nargs="?", help="a table of the running platform")
    ver.add_argument("--file", help="an export (maumau export) instead")
    ver.add_argument("--all", action="store_true", help="every table of every partition (after a restore)")
    ver.add_argument("--public-key", help="the platform's public key (PEM, GET /api/signing-key): checks the "
                     "export's signature")
    ver.add_argument("--nats-url", default=None, help=NATS_HELP)
    ver.set_defaults(func=_verify)
    exp = sub.add_parser("export", help="a table's whole record as JSON lines, signed with the platform's key")
    exp.add_argument("table_id")
    exp.add_argument("-o", "--output", default="-", help="the file to write (default: standard output)")
    exp.add_argument("--nats-url", default=None, help=NATS_HELP)
    exp.set_defaults(func=_export)
    rep = sub.add_parser("replay", help="a table's history step by step")
    rep.add_argument("table_id")
    who = rep.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help="as this seat saw it (default: as a spectator)")
    who.add_argument("--full", action="store_true", help="everything the record says: every hand, every draw")
    rep.add_argument("--until", type=int, default=None, help="up to this stream sequence")
    rep.add_argument("--json", action="store_true", help="one JSON line per batch instead of words")
    rep.add_argument("--nats-url", default=None, help=NATS_HELP)
    rep.set_defaults(func=_replay)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="maumau", description="Mau-Mau Online: services and tools")
    sub = p.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="start the whole platform on embedded defaults")
    up.add_argument("--data", default=".data", help="where the embedded services keep their data")
    up.add_argument("--cluster", type=int, default=1, metavar="N",
                    help="run N nats-server processes as one JetStream cluster, streams of min(3, N) replicas "
                         "(without NATS_URL)")
    up.set_defaults(func=_up)

    rs = sub.add_parser("rules-script", help="play a conformance script through the rules engine")
    rs.add_argument("file", help='the script (JSON); "-" reads standard input')
    rs.set_defaults(func=_rules_script)

    rules = sub.add_parser("rules", help="the stateless rules service")
    rules_sub = rules.add_subparsers(dest="rules_command", required=True)
    serve = rules_sub.add_parser("serve", help="serve the Rules gRPC API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=50051)
    serve.set_defaults(func=_rules_serve)

    table = sub.add_parser("table", help="the table service (settings from NATS_URL, RULES_ADDR, …)")
    table_sub = table.add_subparsers(dest="table_command", required=True)
    table_sub.add_parser("serve", help="answer table commands").set_defaults(func=_table_serve)

    clock = sub.add_parser("clock", help="timers: turn timer, absence, expiry")
    clock.add_subparsers(dest="clock_command", required=True).add_parser(
        "serve", help="fire the tables' timers").set_defaults(func=_clock_serve)

    chat = sub.add_parser("chat", help="the chat service (NATS_URL, MAUMAU_CHAT_MAX_CHARS, MAUMAU_CHAT_RATE, …)")
    chat_sub = chat.add_subparsers(dest="chat_command", required=True)
    chat_sub.add_parser("serve", help="answer chat lines").set_defaults(func=_chat_serve)

    accounts = sub.add_parser("accounts", help="the accounts service: names, passwords, guests converted")
    accounts.add_subparsers(dest="accounts_command", required=True).add_parser(
        "serve", help="answer account requests").set_defaults(func=_accounts_serve)

    gw = sub.add_parser("gateway", help="the HTTP/WebSocket gateway and the web client")
    gw_serve = gw.add_subparsers(dest="gateway_command", required=True).add_parser("serve", help="serve players")
    gw_serve.add_argument("--host", default="127.0.0.1")
    gw_serve.add_argument("--port", type=int, default=8080)
    gw_serve.set_defaults(func=_gateway_serve)

    lt = sub.add_parser("loadtest", help="real WebSocket clients playing through the whole platform")
    lt.add_argument("--clients", type=int, default=400)
    lt.add_argument("--tables", type=int, default=100)
    lt.add_argument("--seconds", type=float, default=10.0, help="the measured time")
    lt.add_argument("--warmup", type=float, default=3.0, help="seconds played at the same rate before the measured "
                    "time, not counted: the platform settles after the set-up")
    lt.add_argument("--idle-sockets", type=int, default=None,
                    help="sockets opened after the run (default: 2000 on its own platform; with --url, what "
                         "the default limit of 512 sockets per address leaves beside the clients' tabs)")
    lt.add_argument("--idle-tables", type=int, default=0,
                    help="tables more that one gateway follows before and throughout the run")
    lt.add_argument("--seed", type=int, default=1)
    lt.add_argument("--rate", type=float, default=0.0,
                    help="moves per second the tables offer together (Poisson); 0: each table moves as soon as it can")
    lt.add_argument("--url", default=None, help="a running gateway (default: start the platform here)")
    lt.set_defaults(func=_loadtest)

    ch = sub.add_parser("chaos", help="the load test while processes are killed; then checks nothing was lost")
    ch.add_argument("--seconds", type=float, default=60.0, help="how long faults are injected")
    ch.add_argument("--tables", type=int, default=20)
    ch.add_argument("--rate", type=float, default=40.0, help="moves per second the tables offer together")
    ch.add_argument("--seed", type=int, default=1)
    ch.set_defaults(func=_chaos)

    bots = sub.add_parser("bots", help="the bots: they play their seats like people")
    bots.add_subparsers(dest="bots_command", required=True).add_parser(
        "serve", help="play the bots' seats").set_defaults(func=_bots_serve)

    proj = sub.add_parser("projector", help="keep the SQL projections of the tables (DATABASE_URL)")
    proj.add_argument("--rebuild", action="store_true", help="drop the projections and replay the stream")
    proj.set_defaults(func=_projector)

    bench = sub.add_parser("bench", help="benchmarks that print one JSON line")
    bench_sub = bench.add_subparsers(dest="bench_command", required=True)
    br = bench_sub.add_parser("rules", help="random legal playouts through the rules engine")
    br.add_argument("--ruleset", default="classic52")
    br.add_argument("--players", type=int, default=4)
    br.add_argument("--seconds", type=float, default=5.0)
    br.add_argument("--seed", type=int, default=1)
    br.set_defaults(func=_bench_rules)
    bb = bench_sub.add_parser("bots", help="the strong bot against three opponents of one kind on seeded deals, "
                              "beside an outside anchor and an oracle (docs/bots.md)")
    bb.add_argument("--ruleset", default="classic52")
    bb.add_argument("--players", type=int, default=4)
    bb.add_argument("--games", type=int, default=1000, help="deals, each played once by every side")
    bb.add_argument("--ms", "--ms-per-move", type=float, default=10.0, help="wall-clock budget of a searched move")
    bb.add_argument("--opponents", choices=["weak", "medium", "random"], default="medium")
    bb.add_argument("--anchor", choices=["ismcts"], default=None,
                    help="OpenSpiel's ISMCTS on the same deals (needs `make bench-bots`)")
    bb.add_argument("--oracle", action="store_true", help="the medium baseline and the all-seeing oracle too")
    bb.add_argument("--workers", type=int, default=2, help="processes playing games at once")
    bb.add_argument("--seed", type=int, default=1)
    bb.set_defaults(func=_bench_bots)
    bt = bench_sub.add_parser("table", help="random legal games through NATS, the table and rules services")
    bt.add_argument("--tables", type=int, default=100)
    bt.add_argument("--seconds", type=float, default=10.0)
    bt.add_argument("--seed", type=int, default=1)
    bt.add_argument("--rate", type=float, default=1100.0, help="commands/s the tables offer together (0: no pauses)")
    bt.add_argument("--nats-url", default=None, help="drive a running platform instead of starting one")
    bt.set_defaults(func=_bench_table)
    bc = bench_sub.add_parser("capacity", help="the table path as fast as it goes, then the whole platform as fast "
                              "as it goes and at half of that (docs/performance.md)")
    bc.add_argument("--tables", type=int, default=None,
                    help="tables (default: as many as JetStream's measure has publishes in flight, 256)")
    bc.add_argument("--seconds", type=float, default=10.0)
    bc.add_argument("--seed", type=int, default=1)
    bc.add_argument("--runs", type=int, default=3, help="passes of the three steps, for ranges")
    bc.set_defaults(func=_bench_capacity)
    brp = bench_sub.add_parser("replay", help="bot tables played through the table service, then read back from "
                               "JetStream and verified")
    brp.add_argument("--tables", type=int, default=100)
    brp.add_argument("--events", type=int, default=100_000, help="play until the tables hold this many events")
    brp.add_argument("--seed", type=int, default=1)
    brp.set_defaults(func=_bench_replay)
    brs = bench_sub.add_parser("replays", help="a replay's CPU in the gateway (made and kept), and the live moves' "
                               "p99 under a flood of replays from one address beside it without (docs/performance.md)")
    brs.add_argument("--long-tables", type=int, default=3, help="bot tables played long, whose replays are asked")
    brs.add_argument("--batches", type=int, default=700, help="about this many batches each")
    brs.add_argument("--cached-asks", type=int, default=300)
    brs.add_argument("--tables", type=int, default=20, help="the load test's tables (two seats each)")
    brs.add_argument("--rate", type=float, default=20.0, help="moves per second the load test's tables offer")
    brs.add_argument("--seconds", type=float, default=15.0, help="each load test run's measured time")
    brs.add_argument("--warmup", type=float, default=3.0)
    brs.add_argument("--flood-rate", type=float, default=10.0, help="replays asked per second from one address")
    brs.add_argument("--rounds", type=int, default=2, help="pairs of load test runs, without and with the flood")
    brs.add_argument("--seed", type=int, default=1)
    brs.set_defaults(func=_bench_replays)
    brk = bench_sub.add_parser("rankings", help="the rankings' projection filled with finished matches, then queried")
    brk.add_argument("--matches", type=int, default=100_000)
    brk.add_argument("--queries", type=int, default=1_000)
    brk.add_argument("--database-url", default=None, help="an empty database (default: a new SQLite file)")
    brk.add_argument("--seed", type=int, default=1)
    brk.set_defaults(func=_bench_rankings)
    bmm = bench_sub.add_parser("matchmaking", help="simulated players press 'Jogar agora' at random moments")
    bmm.add_argument("--players", type=int, default=2_000)
    bmm.add_argument("--spread", type=float, default=20.0, help="seconds over which the players ask")
    bmm.add_argument("--seed", type=int, default=1)
    bmm.add_argument("--url", default=None, help="drive a running gateway instead of starting a platform")
    bmm.set_defaults(func=_bench_matchmaking)
    brv = bench_sub.add_parser("revocation", help="account sessions with open sockets on two gateways, ended one at "
                                                  "a time: how soon each socket closes")
    brv.add_argument("--sessions", type=int, default=100)
    brv.set_defaults(func=_bench_revocation)
    _record_commands(sub)
    _staff_commands(sub)
    _streams_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    from services.runtime.noplatform import NoPlatform  # not .platform: NATS and aiohttp, for every command
    from services.runtime.priority import lower_priority

    lower_priority()
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except NoPlatform:
        print(f"maumau: no NATS answers at {getattr(args, 'found_nats', 'its address')}. Start the platform "
              "(make run) or name its NATS with --nats-url or NATS_URL.", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
