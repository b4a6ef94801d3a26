# The listener's guard (binlog_feed.py): who may replicate from it and over what. TLS with a key and a
# certificate made for the run, a cap on what is read before authentication, the scramble compared in
# constant time. The packets themselves are binlog_wire's.
import hmac as _hmac
import os as _os
import struct as _struct

from . import binlog_wire as w
from . import confine

# Before authentication nobody is trusted: a packet larger than this (a handshake response with its
# connection attributes is a few hundred bytes) is refused and the connection closed, unread.
PRE_AUTH_MAX = 4096


def tls_context(where):
    # A server-side TLS context (TLS 1.2 or later) with a key and a self-signed certificate made for this
    # run by the openssl program (Python's ssl cannot make one): (context, None), else (None, why). The
    # files live under where (the plugin's state directory) in a folder of this run's, mode 0600, only
    # until the context holds them: a killed mysqlsh leaves no key behind but for those milliseconds.
    import shutil as _shutil
    import ssl as _ssl
    import subprocess as _subprocess
    import tempfile as _tempfile
    program = _shutil.which("openssl")
    if program is None:
        return None, "the openssl program is not on PATH to make the listener's certificate"
    try:
        _os.makedirs(where, mode=0o700, exist_ok=True)
        run_dir = _tempfile.mkdtemp(prefix="feed-", dir=where)  # 0700
    except OSError as err:
        return None, "the listener's certificate cannot be written under %s (%s)" % (where, err.strerror or err)
    key, cert = _os.path.join(run_dir, "key.pem"), _os.path.join(run_dir, "cert.pem")
    try:
        for f in (key, cert):  # made 0600 before openssl writes them (it truncates, keeping the mode)
            _os.close(_os.open(f, _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL, 0o600))
        p = _subprocess.run([program, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=mysqlsh-restore replay"],
                            stdin=_subprocess.DEVNULL, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE, timeout=60)
        if p.returncode != 0:
            return None, "openssl could not make the listener's certificate (%s)" % p.stderr.decode("utf-8", "replace").strip()[-300:]
        ctx = _ssl.SSLContext(_ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = _ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(cert, key)
        return ctx, None
    except (OSError, _ssl.SSLError, _subprocess.TimeoutExpired) as err:
        return None, "the listener's certificate could not be made (%s)" % err
    finally:
        _shutil.rmtree(run_dir, ignore_errors=True)


def secure(feed, spec):
    # spec tls: "required" (no listener without it: ValueError), "if-possible" (the preflight's probe: the
    # reason said in feed.tls_why), else plain. Sets feed.tls (a context or None), tls_why, tls_version, refused.
    feed.tls, feed.tls_why, feed.tls_version, feed.refused = None, None, None, 0
    if spec.get("tls"):
        feed.tls, feed.tls_why = tls_context(_os.path.join(confine.state_dir(), "tls"))
        if feed.tls is None and spec["tls"] == "required":
            raise ValueError(feed.tls_why)


def admit(conn, feed):
    # One connection's handshake for feed (its version, user, password, tls): True once authenticated;
    # else its refusal counted and noted, and False.
    why = "user or password"
    try:
        good = handshake(conn, feed.version, feed.user, feed.password, feed.tls)
    except w.Refused as err:
        good, why = False, str(err)
    if not good:
        with feed.lock:
            feed.refused += 1
        feed.note("refused a connection (%s)" % why)
        return False
    conn.s.settimeout(None)
    with feed.lock:
        feed.tls_version = conn.tls
    return True


def handshake(conn, version, user_wanted, password, tls=None):
    # The server's side of connecting: True once the client proved it knows the password (fast
    # authentication: the server knows the password itself, so no cache or RSA is needed). tls: an
    # ssl.SSLContext (server side): then only a client that asks for TLS is taken, its socket wrapped
    # before it sends its credentials (conn.tls: the version negotiated). Raises Refused.
    nonce = bytes((b % 94) + 33 for b in _os.urandom(20))  # printable, no NUL: as servers send it
    caps = w.CAPS | (w.CLIENT_SSL if tls else 0)
    hello = (b"\x0a" + version.encode("ascii") + b"\x00" + _struct.pack("<I", 1) + nonce[:8] + b"\x00" +
             _struct.pack("<H", caps & 0xFFFF) + b"\xff" + _struct.pack("<H", 2) + _struct.pack("<H", caps >> 16) +
             bytes([21]) + b"\x00" * 10 + nonce[8:] + b"\x00" + w.PLUGIN + b"\x00")
    conn.seq = 0
    conn.write(hello)
    p = conn.read(PRE_AUTH_MAX)
    if len(p) < 32:
        raise w.Refused("a handshake response of %d bytes" % len(p))
    (caps,) = _struct.unpack_from("<I", p, 0)
    if tls:
        if not caps & w.CLIENT_SSL:
            conn.error(3159, "Connections using insecure transport are prohibited: this source serves over TLS only")
            raise w.Refused("a client that did not ask for TLS")
        if len(p) != 32 or conn.buf:  # the SSL request is the handshake response's first 32 bytes, alone
            raise w.Refused("bytes after the SSL request")
        conn.s = tls.wrap_socket(conn.s, server_side=True)
        conn.tls = conn.s.version()
        p = conn.read(PRE_AUTH_MAX)
        if len(p) < 32:
            raise w.Refused("a handshake response of %d bytes" % len(p))
        (caps,) = _struct.unpack_from("<I", p, 0)
    at = 32
    end = p.find(b"\x00", at)
    if end < 0:
        raise w.Refused("a handshake response without a user")
    user = p[at:end].decode("utf-8", "replace")
    at = end + 1
    if at >= len(p):
        raise w.Refused("a handshake response without a scramble")
    if caps & 0x200000:
        n, at = w.read_lenenc(p, at)
    else:
        n, at = p[at], at + 1
    answer = p[at:at + n]
    at += n
    if caps & 0x8 and at < len(p):
        z = p.find(b"\x00", at)
        at = len(p) if z < 0 else z + 1
    plugin = w.PLUGIN
    if caps & 0x80000 and at < len(p):
        plugin = p[at:p.index(b"\x00", at)] if b"\x00" in p[at:] else p[at:]
    if plugin != w.PLUGIN:  # another plugin: switch it to caching_sha2_password with a new nonce
        conn.write(b"\xfe" + w.PLUGIN + b"\x00" + nonce + b"\x00")
        answer = conn.read(PRE_AUTH_MAX)
    # Both compared in constant time (what a guess got right is not told by how long the answer took).
    good_user = _hmac.compare_digest(user.encode("utf-8"), user_wanted.encode("utf-8"))
    good_answer = _hmac.compare_digest(answer, w.scramble(password.encode("ascii"), nonce))
    if not (good_user and good_answer):
        conn.error(1045, "Access denied for user '%s'" % user)
        return False
    conn.write(b"\x01\x03")  # AuthMoreData: fast authentication succeeded
    conn.ok()
    return True
