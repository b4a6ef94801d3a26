# Decompression with the real decoders: the zstd program (every frame, checksums where the frame
# has one) and zlib. Sizes and errors of each file are answers, not failures of the call; a
# missing zstd program is (program-missing).
import json as _json
import shutil as _shutil
import subprocess as _subprocess
import zlib as _zlib
from concurrent.futures import ThreadPoolExecutor as _Pool

from .errors import Refusal, why

_READ = 1 << 20
_INSTALL_ZSTD = "Install it (apt-get install zstd, dnf install zstd or brew install zstd) and run again"
_NO_ZSTD = ("verify needs the zstd program to decompress zstd data files, and it is not on PATH. " + _INSTALL_ZSTD +
            "; without verify only the structure of the files is checked.")
_NO_ZSTD_HEADS = "since reads the first rows of zstd chunks with the zstd program, and it is not on PATH. " + _INSTALL_ZSTD + "."


class _Damaged(Exception):
    pass


def _gunzip_size(path):
    # Every member of the file (gzip allows several); zlib checks each member's CRC and length.
    # Output is taken _READ bytes at a time: memory stays bounded whatever the ratio.
    total, d, fed = 0, _zlib.decompressobj(31), False
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_READ), b""):
            while True:
                out = d.decompress(block, _READ)
                total += len(out)
                fed = fed or bool(block)
                if d.eof:
                    block, d, fed = d.unused_data, _zlib.decompressobj(31), False
                    if block:
                        continue
                    break
                block = d.unconsumed_tail
                if not block and len(out) < _READ:
                    break
    if fed:
        raise _Damaged("truncated: the file ends inside a gzip member")
    return total


def _last_line(stderr, otherwise):
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else otherwise


def _unzstd_size(program, path):
    p = _subprocess.Popen([program, "-dcq", "--no-progress", "--", path], stdin=_subprocess.DEVNULL,
                          stdout=_subprocess.PIPE, stderr=_subprocess.PIPE)
    total = 0
    for block in iter(lambda: p.stdout.read(_READ), b""):
        total += len(block)
    err = p.stderr.read()
    if p.wait() != 0:
        message = _last_line(err, "zstd exited with status %d" % p.returncode)
        for prefix in ("zstd: ", path + " : ", path + ": "):  # the program's own prefixes
            message = message[len(prefix):] if message.startswith(prefix) else message
        raise _Damaged("zstd: " + message)
    return total


def _zstd_program(needed, message):
    program = _shutil.which("zstd")
    if program is None and needed:
        raise Refusal("program-missing", None, message)
    return program


def decompressed_sizes(requests_json, threads):
    # [[path, compression], ...] -> JSON {"sizes": [[bytes, error], ...]}: each file decompressed in
    # full (nothing kept), on up to `threads` files at once.
    requests = _json.loads(requests_json)
    program = _zstd_program(any(c == "zstd" for _, c in requests), _NO_ZSTD)

    def one(request):
        path, compression = request
        try:
            return [_unzstd_size(program, path) if compression == "zstd" else _gunzip_size(path), None]
        except FileNotFoundError:
            return [None, "the file is missing"]
        except _zlib.error as err:
            return [None, "gzip: " + str(err).split(": ", 1)[-1]]
        except OSError as err:
            return [None, why(err)]
        except _Damaged as err:
            return [None, str(err)]

    with _Pool(max_workers=max(1, int(threads))) as pool:
        return _json.dumps({"sizes": list(pool.map(one, requests))})


def decode_heads(compressions_json, contents):
    # Pieces of data files decoded for their first rows: a whole zstd frame (made of a chunk's first
    # blocks by the plugin) through the zstd program, the start of a gzip stream through zlib (as far
    # as it goes), plain data as it is. -> [[bytes or None, ...], JSON text [error or None, ...]].
    compressions = _json.loads(compressions_json)
    program = _shutil.which("zstd")
    out, errors = [], []
    for compression, data in zip(compressions, contents):
        data = bytes(data)
        try:
            if compression == "zstd":
                if program is None:
                    raise _Damaged(_NO_ZSTD_HEADS)
                p = _subprocess.run([program, "-dcq", "--no-progress"], input=data, stdout=_subprocess.PIPE,
                                    stderr=_subprocess.PIPE, timeout=120)
                if p.returncode != 0:
                    raise _Damaged("zstd: " + _last_line(p.stderr, "failed"))
                out.append(p.stdout)
            elif compression == "gzip":
                out.append(_zlib.decompressobj(31).decompress(data, 16 << 20))
            else:
                out.append(data)
            errors.append(None)
        except (_Damaged, OSError, _zlib.error, _subprocess.TimeoutExpired) as err:
            out.append(None)
            errors.append(str(err))
    return [out, _json.dumps(errors)]
