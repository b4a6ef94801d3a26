# A dump in an S3-compatible bucket: listing, whole objects into a cache the plugin made (a thread
# pool of GETs), the first bytes of objects (ranged GETs). Keys, region and endpoint: bucket_keys.py;
# the signed requests: bucket_client.py. Every refusal is code "bucket" (bucket_keys.refused).
import json as _json
import os as _os
import threading as _threading
import xml.etree.ElementTree as _xml
from concurrent.futures import ThreadPoolExecutor as _Pool

from . import confine
from .bucket_client import Client, fail
from .bucket_keys import refused, resolve

_CACHE_MARK = ".restore-cache.json"


def _text(node, name):
    for child in node:
        if child.tag == name or child.tag.endswith("}" + name):
            return child.text or ""
    return None


def _children(node, name):
    return [c for c in node if c.tag == name or c.tag.endswith("}" + name)]


def list_prefix(options_json, prefix, delimiter):
    # Every object under prefix (one level with delimiter "/"): JSON {names, sizes, prefixes, requests},
    # names relative to prefix. ListObjectsV2 pages of 1,000 followed to the end.
    cfg = resolve(_json.loads(options_json))
    client = Client(cfg)
    names, sizes, prefixes, token = [], [], [], None
    while True:
        query = [("list-type", "2"), ("prefix", prefix)]
        if delimiter:
            query.append(("delimiter", delimiter))
        if token:
            query.append(("continuation-token", token))
        status, body = client.request("GET", "", query)
        if status != 200:
            fail(cfg, status, body, "listing")
        try:
            root = _xml.fromstring(body)
        except _xml.ParseError:
            raise refused("%s answered the listing of s3://%s/%s with something that is not an S3 listing: check "
                          "s3EndpointOverride (it must be the S3 API's address)." % (cfg["endpoint"], cfg["bucket"], prefix))
        for c in _children(root, "Contents"):
            names.append(_text(c, "Key")[len(prefix):])
            sizes.append(int(_text(c, "Size") or 0))
        for p in _children(root, "CommonPrefixes"):
            prefixes.append(_text(p, "Prefix")[len(prefix):])
        truncated = (_text(root, "IsTruncated") or "").lower() == "true"
        token = _text(root, "NextContinuationToken")
        if not truncated:
            break
        if not token:
            raise refused("The listing of s3://%s/%s was cut off (more objects, but no way to ask for them: a "
                          "policy that limits listing?): the dump cannot be read completely. Ask for "
                          "s3:ListBucket on the prefix." % (cfg["bucket"], prefix))
    return _json.dumps({"names": names, "sizes": sizes, "prefixes": prefixes, "requests": client.requests})


def _may_write(dest_dir):
    # The plugin's state directory, or a cache it made (one holding its marker).
    return confine.in_state_dir(dest_dir) or _os.path.isfile(_os.path.join(_os.path.realpath(dest_dir), _CACHE_MARK))


def fetch(options_json, spec_json):
    # spec {items: [[key, name, size]], dir, threads, refresh}: each object into dir/name (a plain
    # name), in parallel. A file already there with the listed size is kept (a resumed or repeated
    # run) unless refresh; a new one is written
    # beside it and renamed into place once it has all its bytes, so no half file is ever taken for
    # a whole one. Only into the plugin's state directory or a cache it made.
    # -> JSON {fetched, kept, bytes, requests}
    cfg = resolve(_json.loads(options_json))
    spec = _json.loads(spec_json)
    dest_dir, threads, refresh, items = spec["dir"], spec["threads"], bool(spec.get("refresh")), spec["items"]
    if not _may_write(dest_dir):
        raise refused("not a cache made by the restore plugin: nothing is fetched into it", dest_dir)
    client = Client(cfg)

    def one(item):
        key, name, size = item
        if not confine.plain_name(name):
            raise refused("not a plain file name", name)
        path = _os.path.join(dest_dir, name)
        try:
            if not refresh and _os.lstat(path).st_size == size and not _os.path.islink(path):
                return 0, 0
        except FileNotFoundError:
            pass
        temp = _os.path.join(dest_dir, ".%s.part.%d" % (name, _threading.get_ident()))
        with _os.fdopen(_os.open(temp, _os.O_WRONLY | _os.O_CREAT | _os.O_TRUNC | confine.NOFOLLOW, confine.FILE_MODE), "wb") as out:
            status, body = client.request("GET", key, sink=out.write)
        try:
            got = _os.path.getsize(temp)
            if status != 200:
                fail(cfg, status, body, "reading " + key)
            if got != size:
                raise refused("s3://%s/%s: %d bytes came, the listing says %d: the object changed while it was read, "
                              "or the transfer was cut off. Run the command again." % (cfg["bucket"], key, got, size))
            _os.replace(temp, path)
        finally:
            if _os.path.exists(temp):
                _os.remove(temp)
        return 1, got

    with _Pool(max_workers=max(1, min(int(threads), 16))) as pool:
        results = list(pool.map(one, items))
    return _json.dumps({"fetched": sum(r[0] for r in results), "kept": sum(1 for r in results if r[0] == 0),
                        "bytes": sum(r[1] for r in results), "requests": client.requests})


def heads(options_json, spec_json):
    # spec {keys: [key or null], n}: the first n bytes of each object, by ranged GETs (since's
    # chunk heads: a few KiB of each probed chunk, not the chunk). -> [bytes or None]; None: no key.
    cfg = resolve(_json.loads(options_json))
    spec = _json.loads(spec_json)
    client = Client(cfg)
    n = int(spec["n"])

    def one(key):
        if key is None:
            return None
        status, body = client.request("GET", key, first=n)
        if status == 404:
            return None
        if status == 416:  # an empty object: no byte 0
            return b""
        if status not in (200, 206):
            fail(cfg, status, body, "reading " + key)
        return body

    with _Pool(max_workers=4) as pool:
        return list(pool.map(one, spec["keys"]))
