# Reading a dump from an S3-compatible bucket with the Python standard library of mysqlsh's own
# Python (no package to install): AWS Signature Version 4 (hmac, hashlib), http.client, a thread
# pool for parallel GETs. Only GET requests are ever sent: nothing is written to a bucket.
#
# Credentials, region and endpoint are found as MySQL Shell finds them for util.loadDump
# (mysqlshdk/libs/aws/s3_bucket_config.cc):
#   profile     s3Profile, else $AWS_PROFILE, $AWS_DEFAULT_PROFILE, else "default"
#   files       s3CredentialsFile / s3ConfigFile, else $AWS_SHARED_CREDENTIALS_FILE / $AWS_CONFIG_FILE,
#               else ~/.aws/credentials / ~/.aws/config (config sections "[profile NAME]" or "[default]")
#   keys        $AWS_ACCESS_KEY_ID / $AWS_SECRET_ACCESS_KEY / $AWS_SESSION_TOKEN (not when s3Profile is
#               given), else the credentials file's profile, else the config file's profile
#   region      s3Region, else $AWS_REGION, $AWS_DEFAULT_REGION, else the config file's profile, else us-east-1
#   endpoint    s3EndpointOverride (path-style requests), else https://<bucket>.s3.<region>.amazonaws.com
import datetime as _datetime
import hashlib as _hashlib
import hmac as _hmac
import http.client as _http
import json as _json
import os as _os
import socket as _socket
import ssl as _ssl
import threading as _threading
import urllib.parse as _urlparse
import xml.etree.ElementTree as _xml
from concurrent.futures import ThreadPoolExecutor as _Pool

_EMPTY_SHA256 = _hashlib.sha256(b"").hexdigest()
_TIMEOUT = 30
_BLOCK = 1 << 20
_CACHE_MARK = ".restore-cache.json"


# A sentence for the user: the JS side shows the text after "ValueError: ".
BucketError = ValueError


def _env(name):
    value = _os.environ.get(name)
    return value if value else None


def _read_profiles(path, config_file):
    # {profile: {key: value}} of an AWS config or credentials file; None when it cannot be read.
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    profiles, current = {}, None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            end = line.find("]")
            if end < 0:
                raise BucketError("%s, line %d: a section name without its closing ]" % (path, number))
            section = line[1:end].strip()
            if config_file and section != "default":
                if not section.startswith("profile "):
                    current = {}  # another kind of section (sso-session, services): ignored
                    continue
                section = section[len("profile "):].strip()
            current = profiles.setdefault(section, {})
        elif current is not None and "=" in line:
            key, value = line.split("=", 1)
            current[key.strip()] = value.strip()
        elif current is None:
            raise BucketError("%s, line %d: a setting outside any [profile] section" % (path, number))
    return profiles


def _process_keys(command, profile):
    # credential_process: a program that prints {"Version": 1, "AccessKeyId", "SecretAccessKey",
    # "SessionToken"} (the AWS CLI's convention, which MySQL Shell follows).
    import shlex
    import subprocess
    try:
        out = subprocess.run(shlex.split(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise BucketError("The credential_process of profile %s could not run (%s)." % (profile, _reason(err)))
    try:
        doc = _json.loads(out.stdout.decode("utf-8", "replace"))
        if out.returncode != 0 or not doc.get("AccessKeyId") or not doc.get("SecretAccessKey"):
            raise ValueError()
    except ValueError:
        raise BucketError("The credential_process of profile %s failed (exit %d) or printed no AccessKeyId and "
                          "SecretAccessKey." % (profile, out.returncode))
    return doc["AccessKeyId"], doc["SecretAccessKey"], doc.get("SessionToken"), "credential_process of profile %s" % profile


def resolve(options):
    # options: util.loadDump's s3* options ({s3BucketName, s3Region, ...}); returns the settings used.
    bucket = options.get("s3BucketName") or ""
    explicit_profile = bool(options.get("s3Profile"))
    profile = options.get("s3Profile") or _env("AWS_PROFILE") or _env("AWS_DEFAULT_PROFILE") or "default"
    home = _os.path.expanduser("~")
    cred_file = options.get("s3CredentialsFile") or _env("AWS_SHARED_CREDENTIALS_FILE") or _os.path.join(home, ".aws", "credentials")
    conf_file = options.get("s3ConfigFile") or _env("AWS_CONFIG_FILE") or _os.path.join(home, ".aws", "config")
    from_cred = (_read_profiles(cred_file, False) or {}).get(profile)
    from_conf = (_read_profiles(conf_file, True) or {}).get(profile)
    region = (options.get("s3Region") or _env("AWS_REGION") or _env("AWS_DEFAULT_REGION")
              or (from_conf or {}).get("region") or "us-east-1")
    keys, looked = None, []
    if not explicit_profile:
        looked.append("the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
        if _env("AWS_ACCESS_KEY_ID") and _env("AWS_SECRET_ACCESS_KEY"):
            keys = (_env("AWS_ACCESS_KEY_ID"), _env("AWS_SECRET_ACCESS_KEY"), _env("AWS_SESSION_TOKEN"), "environment")
    for where, found in (("credentials file %s" % cred_file, from_cred), ("credential_process", from_conf),
                         ("config file %s" % conf_file, from_conf)):
        if keys:
            break
        if where == "credential_process":
            if found and found.get("credential_process"):
                looked.append("the config file's credential_process (profile %s)" % profile)
                keys = _process_keys(found["credential_process"], profile)
            continue
        looked.append("%s (profile %s)" % (where, profile))
        if found and found.get("aws_access_key_id") and found.get("aws_secret_access_key"):
            keys = (found["aws_access_key_id"], found["aws_secret_access_key"], found.get("aws_session_token"),
                    "%s, profile %s" % (where, profile))
    if keys is None:
        raise BucketError("No AWS access and secret keys were found for bucket %s: looked in %s. Set "
                          "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give s3Profile / s3CredentialsFile."
                          % (bucket, ", ".join(looked)))
    endpoint = (options.get("s3EndpointOverride") or "").rstrip("/")
    if endpoint:
        if "://" not in endpoint:
            endpoint = "https://" + endpoint
        path_style = True
    else:
        virtual = 0 < len(bucket) <= 63 and all(c.islower() or c.isdigit() or c == "-" for c in bucket) \
            and bucket[0] != "-" and bucket[-1] != "-"
        endpoint = "https://%ss3.%s.amazonaws.com" % (bucket + "." if virtual else "", region)
        path_style = not virtual
    return {"bucket": bucket, "region": region, "endpoint": endpoint, "pathStyle": path_style,
            "accessKey": keys[0], "secretKey": keys[1], "token": keys[2], "keysFrom": keys[3], "profile": profile}


def _quote(text, safe):
    return _urlparse.quote(text, safe=safe)


class _Client:
    # One bucket; a connection per thread, reused between requests.
    def __init__(self, cfg):
        self.cfg = cfg
        url = _urlparse.urlsplit(cfg["endpoint"])
        self.scheme, self.netloc = url.scheme, url.netloc
        self.base_path = url.path.rstrip("/")
        self.local = _threading.local()
        self.requests = 0

    def _connection(self):
        c = getattr(self.local, "conn", None)
        if c is None:
            if self.scheme == "https":
                c = _http.HTTPSConnection(self.netloc, timeout=_TIMEOUT, context=_ssl.create_default_context())
            else:
                c = _http.HTTPConnection(self.netloc, timeout=_TIMEOUT)
            self.local.conn = c
        return c

    def _path(self, key):
        p = self.base_path
        if self.cfg["pathStyle"]:
            p += "/" + _quote(self.cfg["bucket"], "-_.~")
        return p + "/" + _quote(key, "-_.~/")

    def _sign(self, method, path, query):
        cfg = self.cfg
        now = _datetime.datetime.now(_datetime.timezone.utc)
        amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
        headers = {"host": self.netloc, "x-amz-content-sha256": _EMPTY_SHA256, "x-amz-date": amz_date}
        if cfg["token"]:
            headers["x-amz-security-token"] = cfg["token"]
        names = sorted(headers)
        canonical_query = "&".join("%s=%s" % (_quote(k, "-_.~"), _quote(v, "-_.~")) for k, v in sorted(query))
        canonical = "\n".join([method, path, canonical_query, "".join("%s:%s\n" % (n, headers[n].strip()) for n in names),
                               ";".join(names), _EMPTY_SHA256])
        scope = "%s/%s/s3/aws4_request" % (day, cfg["region"])
        to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, _hashlib.sha256(canonical.encode()).hexdigest()])
        key = ("AWS4" + cfg["secretKey"]).encode()
        for part in (day, cfg["region"], "s3", "aws4_request"):
            key = _hmac.new(key, part.encode(), _hashlib.sha256).digest()
        signature = _hmac.new(key, to_sign.encode(), _hashlib.sha256).hexdigest()
        headers["authorization"] = "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s" % (
            cfg["accessKey"], scope, ";".join(names), signature)
        return headers, canonical_query

    def request(self, method, key, query=(), sink=None, first=None):
        # -> (status, body bytes); with sink, a 200 body goes to sink(block) instead. GET only: a
        # listing is a GET too, so no request that could change a bucket can leave here.
        # first: only the first that many bytes (a Range header, unsigned as S3 allows; a server
        # that ignores it is read no further than that, on a connection then closed).
        if method != "GET":
            raise BucketError("the restore plugin never sends a %s request to a bucket" % method)
        path = self._path(key)
        for attempt in (1, 2):
            headers, q = self._sign(method, path, list(query))
            if first is not None:
                headers["range"] = "bytes=0-%d" % (first - 1)
            conn = self._connection()
            try:
                self.requests += 1
                conn.request(method, path + ("?" + q if q else ""), headers=headers)
                resp = conn.getresponse()
                if sink is not None and resp.status == 200:
                    while True:
                        block = resp.read(_BLOCK)
                        if not block:
                            break
                        sink(block)
                    return resp.status, b""
                if first is not None and resp.status in (200, 206):
                    body = resp.read(first)
                    if resp.status == 200 and len(body) == first:
                        conn.close()
                        self.local.conn = None
                    return resp.status, body
                return resp.status, resp.read()
            except (ConnectionRefusedError, _socket.gaierror, _socket.timeout, TimeoutError, _ssl.SSLError) as err:
                conn.close()
                self.local.conn = None
                raise BucketError("The endpoint %s does not answer (%s): check s3EndpointOverride and that the "
                                  "object storage server runs there." % (self.cfg["endpoint"], _reason(err)))
            except (_http.HTTPException, ConnectionError, OSError) as err:
                # A kept-alive connection the server closed: once more on a new one.
                conn.close()
                self.local.conn = None
                if attempt == 2 or sink is not None:
                    raise BucketError("The endpoint %s broke off a request for %s (%s): run the command again."
                                      % (self.cfg["endpoint"], key or "the listing", _reason(err)))


def _reason(err):
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def _error_code(body):
    try:
        root = _xml.fromstring(body)
    except _xml.ParseError:
        return None, None
    code = root.findtext("Code") or root.findtext("{*}Code")
    message = root.findtext("Message") or root.findtext("{*}Message")
    return code, message


def _fail(cfg, status, body, what):
    code, message = _error_code(body) if body else (None, None)
    where = "bucket %s at %s" % (cfg["bucket"], cfg["endpoint"])
    if code in ("InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "AuthorizationHeaderMalformed"):
        raise BucketError("The %s refused the credentials (%s, keys from %s): check the access key, the secret key%s."
                          % (where, code, cfg["keysFrom"], " and s3Region" if code == "AuthorizationHeaderMalformed" else ""))
    if code == "NoSuchBucket" or (status == 404 and not code and what == "listing"):
        raise BucketError("There is no bucket %s at %s: check s3BucketName (and s3EndpointOverride, s3Region)."
                          % (cfg["bucket"], cfg["endpoint"]))
    if code in ("PermanentRedirect", "IllegalLocationConstraintException") or status == 301:
        raise BucketError("Bucket %s is not in region %s (%s): give its region with s3Region."
                          % (cfg["bucket"], cfg["region"], code or "HTTP 301"))
    if code == "AccessDenied" or status == 403:
        raise BucketError("The %s denied %s to the keys from %s (%s): the dump cannot be read with them; ask for "
                          "s3:ListBucket and s3:GetObject on it." % (where, what, cfg["keysFrom"], code or "HTTP 403"))
    raise BucketError("The %s answered HTTP %d to %s%s." % (where, status, what,
                                                           (" (%s: %s)" % (code, message)) if code else ""))


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
    client = _Client(cfg)
    names, sizes, prefixes, token = [], [], [], None
    while True:
        query = [("list-type", "2"), ("prefix", prefix)]
        if delimiter:
            query.append(("delimiter", delimiter))
        if token:
            query.append(("continuation-token", token))
        status, body = client.request("GET", "", query)
        if status != 200:
            _fail(cfg, status, body, "listing")
        try:
            root = _xml.fromstring(body)
        except _xml.ParseError:
            raise BucketError("%s answered the listing of s3://%s/%s with something that is not an S3 listing: check "
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
            raise BucketError("The listing of s3://%s/%s was cut off (more objects, but no way to ask for them: a "
                              "policy that limits listing?): the dump cannot be read completely. Ask for "
                              "s3:ListBucket on the prefix." % (cfg["bucket"], prefix))
    return _json.dumps({"names": names, "sizes": sizes, "prefixes": prefixes, "requests": client.requests})


def _may_write(dest_dir, state_dir):
    real = _os.path.realpath(dest_dir)
    return real == state_dir or real.startswith(state_dir + _os.sep) or _os.path.isfile(_os.path.join(real, _CACHE_MARK))


def fetch(options_json, spec_json, state_dir):
    # spec {items: [[key, name, size]], dir, threads, refresh}: each object into dir/name (a plain
    # name), in parallel. A file already there with the listed size is kept (a resumed or repeated
    # run) unless refresh; a new one is written
    # beside it and renamed into place once it has all its bytes, so no half file is ever taken for
    # a whole one. Only into the plugin's state directory or a cache it made.
    # -> JSON {fetched, kept, bytes, requests}
    cfg = resolve(_json.loads(options_json))
    spec = _json.loads(spec_json)
    dest_dir, threads, refresh, items = spec["dir"], spec["threads"], bool(spec.get("refresh")), spec["items"]
    if not _may_write(dest_dir, state_dir):
        raise BucketError("%s: not a cache made by the restore plugin: nothing is fetched into it" % dest_dir)
    client = _Client(cfg)

    def one(item):
        key, name, size = item
        if "/" in name or name in ("", ".", ".."):
            raise BucketError("%s: not a plain file name" % name)
        path = _os.path.join(dest_dir, name)
        try:
            if not refresh and _os.lstat(path).st_size == size and not _os.path.islink(path):
                return 0, 0
        except FileNotFoundError:
            pass
        temp = _os.path.join(dest_dir, ".%s.part.%d" % (name, _threading.get_ident()))
        with open(temp, "wb") as out:
            status, body = client.request("GET", key, sink=out.write)
        try:
            got = _os.path.getsize(temp)
            if status != 200:
                _fail(cfg, status, body, "reading " + key)
            if got != size:
                raise BucketError("s3://%s/%s: %d bytes came, the listing says %d: the object changed while it was read, "
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
    client = _Client(cfg)
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
            _fail(cfg, status, body, "reading " + key)
        return body

    with _Pool(max_workers=4) as pool:
        return list(pool.map(one, spec["keys"]))
