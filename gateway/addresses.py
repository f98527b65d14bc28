"""Where a request comes from, as the gateway counts it: behind trusted proxies, an IPv6 host's /64."""

from __future__ import annotations

import ipaddress

from aiohttp import web


def group(address: str) -> str:
    """An address as it is counted: an IPv6 host has its whole /64, so it counts as one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def client_address(request: web.Request, trusted_proxies: int) -> str:
    """The caller's address: the one the outermost trusted proxy saw, else the peer's."""
    if trusted_proxies:
        hops = [h.strip() for v in request.headers.getall("X-Forwarded-For", []) for h in v.split(",")]
        if len(hops) >= trusted_proxies:
            return hops[-trusted_proxies]
    return request.remote or ""
