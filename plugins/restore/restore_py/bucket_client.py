# Signed GET requests to an S3-compatible bucket with the Python standard library of mysqlsh's own
# Python (no package to install): AWS Signature Version 4 (hmac, hashlib), http.client. Only GET
# requests are ever sent: nothing is written to a bucket. What a bucket refuses is said by fail().
import datetime as _datetime
import hashlib as _hashlib
import hmac as _hmac
import http.client as _http
import socket as _socket
import ssl as _ssl
import threading as _threading
import urllib.parse as _urlparse
import xml.etree.ElementTree as _xml

from .bucket_keys import reason_of, refused

_EMPTY_SHA256 = _hashlib.sha256(b"").hexdigest()
_TIMEOUT = 30
_BLOCK = 1 << 20


def _quote(text, safe):
    return _urlparse.quote(text, safe=safe)


class Client:
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
            raise refused("the restore plugin never sends a %s request to a bucket" % method)
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
                raise refused("The endpoint %s does not answer (%s): check s3EndpointOverride and that the "
                              "object storage server runs there." % (self.cfg["endpoint"], reason_of(err)))
            except (_http.HTTPException, ConnectionError, OSError) as err:
                # A kept-alive connection the server closed: once more on a new one.
                conn.close()
                self.local.conn = None
                if attempt == 2 or sink is not None:
                    raise refused("The endpoint %s broke off a request for %s (%s): run the command again."
                                  % (self.cfg["endpoint"], key or "the listing", reason_of(err)))


def reason_of(err):
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def _error_code(body):
    try:
        root = _xml.fromstring(body)
    except _xml.ParseError:
        return None, None
    code = root.findtext("Code") or root.findtext("{*}Code")
    message = root.findtext("Message") or root.findtext("{*}Message")
    return code, message


def _scrubbed(text, cfg):
    # The bucket's own words may quote what it was sent: never the secret key or the session token.
    for secret in (cfg.get("secretKey"), cfg.get("token")):
        if text and secret:
            text = text.replace(secret, "(not shown)")
    return text


def fail(cfg, status, body, what):
    code, message = _error_code(body) if body else (None, None)
    message = _scrubbed(message, cfg)
    where = "bucket %s at %s" % (cfg["bucket"], cfg["endpoint"])
    if code in ("InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "AuthorizationHeaderMalformed"):
        raise refused("The %s refused the credentials (%s, keys from %s): check the access key, the secret key%s."
                      % (where, code, cfg["keysFrom"], " and s3Region" if code == "AuthorizationHeaderMalformed" else ""))
    if code == "NoSuchBucket" or (status == 404 and not code and what == "listing"):
        raise refused("There is no bucket %s at %s: check s3BucketName (and s3EndpointOverride, s3Region)."
                      % (cfg["bucket"], cfg["endpoint"]))
    if code in ("PermanentRedirect", "IllegalLocationConstraintException") or status == 301:
        raise refused("Bucket %s is not in region %s (%s): give its region with s3Region."
                      % (cfg["bucket"], cfg["region"], code or "HTTP 301"))
    if code == "AccessDenied" or status == 403:
        raise refused("The %s denied %s to the keys from %s (%s): the dump cannot be read with them; ask for "
                      "s3:ListBucket and s3:GetObject on it." % (where, what, cfg["keysFrom"], code or "HTTP 403"))
    raise refused("The %s answered HTTP %d to %s%s." % (where, status, what,
                                                       (" (%s: %s)" % (code, message)) if code else ""))
